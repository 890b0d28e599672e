import sys, os, json
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
R = SRC + '/mailgun+talon'
recs = json.load(open(os.environ['REPLIES_WORK'] + '/talon_records.json'))['records']
SKIP = []

# 1. standard replies (.eml); expectation from tests/text_quotations_test.py::test_standard_replies
std = []
d = R + '/tests/fixtures/standard_replies'
for fn in sorted(os.listdir(d)):
    if not fn.endswith('.eml'): continue
    stem = fn[:-4]
    raw, enc = read_text(os.path.join(d, fn))
    rt = os.path.join(d, stem + '_reply_text')
    if os.path.exists(rt):
        exp, enc2 = read_text(rt); src = 'file tests/fixtures/standard_replies/%s_reply_text (test compares .strip() of it)' % stem
    else:
        exp = 'Hello'; src = "default 'Hello' in test_standard_replies (no %s_reply_text file)" % stem
    std.append(case('talon-standard-replies', stem, exp, raw=raw, compare='strip', expected_from=src,
                    note='expected applies to the decoded text/plain part (talon.quotations.extract_from_plain)' + ('; ' + enc if enc else '')))
write('talon-standard-replies', std)

# 2. file-based HTML fixtures and 3./4. inline unit-test cases
FILE_TESTS = {'test_OLK_SRC_BODY_SECTION_stripped': 'tests/fixtures/OLK_SRC_BODY_SECTION.html',
              'test_reply_separated_by_hr': 'tests/fixtures/reply-separated-by-hr.html'}
for c in ['gmail', 'mail_ru', 'hotmail', 'ms_outlook_2003', 'ms_outlook_2007', 'ms_outlook_2010', 'thunderbird', 'windows_mail', 'yandex_ru']:
    FILE_TESTS['test_%s_reply' % c] = 'tests/fixtures/html_replies/%s.html' % c
files, plain, html = [], [], []
seen = {}
for r in recs:
    t = r['test']
    if r['inp'] == '' or (t == 'test_CRLF' and r['inp'] == '<html>\r\n</html>'):
        SKIP.append('%s: degenerate empty input' % t); continue
    ws = 'remove_whitespace' in r['chain']
    exp = r['expected_literal'] if (ws and r['expected_literal'] is not None) else r['expected']
    fmt = 'text' if (r['fn'] == 'extract_from_plain' or 'html_to_text' in r['chain']) else 'html'
    cmp_ = 'ignore_whitespace' if ws else 'exact'
    tf = 'html_quotations_test.py' if r['fn'] == 'extract_from_html' else 'text_quotations_test.py'
    how = 'eq_ in tests/%s::%s; compared against %s applied to input' % (tf, t, ' -> '.join([r['fn']] + list(r['chain'])))
    if ws: how += ' [RE_WHITESPACE.sub(\'\', ...) applied to both sides: whitespace-insensitive]'
    if t in FILE_TESTS:
        p = FILE_TESTS[t]; stem = os.path.basename(p)[:-5]
        body, enc = read_text(R + '/' + p)
        files.append(case('talon-html-replies', stem, exp, html=body, compare=cmp_, expected_format=fmt,
                          expected_from=how + '; input file ' + p, note=enc,
                          client={'OLK_SRC_BODY_SECTION': 'outlook-mac', 'reply-separated-by-hr': 'unknown'}.get(stem)))
        continue
    n = seen.get(t, 0) + 1; seen[t] = n
    stem = t[5:] + ('' if n == 1 else '#%d' % n)
    if r['fn'] == 'extract_from_plain':
        plain.append(case('talon-unit-plain', stem, exp, text=r['inp'], compare=cmp_, expected_format=fmt, expected_from=how))
    else:
        html.append(case('talon-unit-html', stem, exp, html=r['inp'], compare=cmp_, expected_format=fmt, expected_from=how))
# fix ids with '#1' where a test produced several cases
for lst in (plain, html):
    multi = {c['id'].split('#')[0] for c in lst if '#' in c['id']}
    for c in lst:
        if c['id'] in multi: c['id'] += '#1'
write('talon-html-replies', files)
write('talon-unit-plain', plain)
write('talon-unit-html', html)
json.dump(SKIP, open(os.environ['REPLIES_WORK'] + '/talon_skips.json', 'w'))
print(SKIP)
