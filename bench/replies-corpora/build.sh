#!/bin/sh
# Builds the reply corpora `npm run bench:replies` reads (default ~/.cache/helpdesk-bench/replies):
# clones each public repository of repos.txt at its pinned commit, then runs tools/ over the
# fixtures and tests their authors published. Nothing fetched enters this repository.
#   REPLIES_OUT     where the corpora go (default ~/.cache/helpdesk-bench/replies)
#   REPLIES_WORK    scratch folder (default: a new temporary one)
#   REPLIES_MIRROR  clone from <dir>/<owner>+<name>/repo instead of GitHub (an offline mirror)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
export REPLIES_OUT="${REPLIES_OUT:-$HOME/.cache/helpdesk-bench/replies}"
export REPLIES_WORK="${REPLIES_WORK:-$(mktemp -d)}"
cp -r "$HERE/tools/." "$REPLIES_WORK/"
mkdir -p "$REPLIES_WORK/src" "$REPLIES_OUT"
while read -r repo commit; do
  dir="$REPLIES_WORK/src/$(echo "$repo" | tr / +)"
  if [ ! -d "$dir" ]; then
    if [ -n "$REPLIES_MIRROR" ]; then src="$REPLIES_MIRROR/$(echo "$repo" | tr / +)/repo"; else src="https://github.com/$repo"; fi
    git clone -q "$src" "$dir"
  fi
  git -C "$dir" -c advice.detachedHead=false checkout -q "$commit"
done < "$HERE/repos.txt"
sh "$REPLIES_WORK/build_all.sh"
cp "$HERE/SOURCES.md" "$REPLIES_OUT/"
echo "Reply corpora written to $REPLIES_OUT"
