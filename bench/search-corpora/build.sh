#!/bin/sh
# Builds the search collections `npm run bench:search` reads besides StackFAQ and CovidFAQ (which it
# downloads itself): forum threads, product manual sections, near-duplicate FAQs, from the public
# repositories of repos.txt at the commits SOURCES.md names. Nothing fetched enters this repository.
#   SEARCH_OUT     where the collections go (default ~/.cache/helpdesk-bench/search)
#   SEARCH_SRC     where the bare clones go (default: a new temporary folder)
#   SEARCH_MIRROR  clone from <dir>/<owner>+<name>/repo instead of GitHub (an offline mirror)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
export SEARCH_OUT="${SEARCH_OUT:-$HOME/.cache/helpdesk-bench/search}"
export SEARCH_SRC="${SEARCH_SRC:-$(mktemp -d)}"
mkdir -p "$SEARCH_OUT"
while read -r repo; do
  dir="$SEARCH_SRC/$(echo "$repo" | tr / +)"
  [ -d "$dir" ] && continue
  if [ -n "$SEARCH_MIRROR" ]; then src="$SEARCH_MIRROR/$(echo "$repo" | tr / +)/repo"; else src="https://github.com/$repo"; fi
  git clone -q --bare "$src" "$dir"
done < "$HERE/repos.txt"
for s in stackfaq semeval emanual covidq; do python3 "$HERE/tools/$s.py"; done
cp "$HERE/SOURCES.md" "$SEARCH_OUT/"
echo "Search collections written to $SEARCH_OUT"
