#!/bin/sh
# Runs the corpus builders in $REPLIES_WORK (which holds these tools and src/<owner>+<name> clones),
# writing <corpus>/cases.jsonl under $REPLIES_OUT. Called by ../build.sh.
set -e
cd "$REPLIES_WORK"
python3 run_talon.py > /dev/null
python3 run_erp.py zapier "$REPLIES_WORK/src/zapier+email-reply-parser" "$REPLIES_WORK/src/zapier+email-reply-parser" "$REPLIES_WORK/zapier_records.json" > /dev/null
python3 run_erp.py edgetier "$REPLIES_WORK/src/EdgeTier+email-reply-parser" "$REPLIES_WORK/src/EdgeTier+email-reply-parser/test" "$REPLIES_WORK/edgetier_records.json" > /dev/null
for s in build_talon build_py_erp build_qq build_discourse build_ruby_ex build_php_js build_sanitizer build_webridge; do
  python3 "$s.py" | grep -v '^\[\|^unwrap\|^gmail_reply\|^thunderbird\|^test_quote' || true
done
