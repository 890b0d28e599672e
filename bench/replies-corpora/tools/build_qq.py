import sys, os, importlib.util
sys.path.insert(0, os.environ['REPLIES_WORK'] + ''); sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_qq')
from common_rb import *
import quotequail, rec
R = SRC + '/closeio+quotequail'
os.chdir(R)
def load(f):
    spec = importlib.util.spec_from_file_location(f, 'tests/%s.py' % f)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
def params(fn):
    return [mk.args[1] for mk in fn.pytestmark if mk.name == 'parametrize'][0]
def read_file(name):
    return open(os.path.join(R, 'tests/files', name), 'rb').read().decode('utf8')
def true_part(segs):
    assert segs[0][0] is True and all(not s for s, _ in segs[1:]), segs
    return segs[0][1]
cases, skips = [], []
for i, (text, exp, exp_intro) in enumerate(params(load('test_quote').test_quote), 1):
    cases.append(case('quotequail', 'quote#%d' % i, true_part(exp_intro), text=text,
        expected_from='tests/test_quote.py::test_quote parametrize case %d: the (True, ...) segment of quote(text, quote_intro_line=True)' % i))
for i, (text, exp) in enumerate(params(load('test_unwrap').test_unwrap), 1):
    if exp is None or 'text_top' not in exp:
        skips.append('unwrap#%d: no text_top (nothing written above the forwarded/quoted block, or not unwrappable)' % i); continue
    if 'text_bottom' in exp:
        skips.append('unwrap#%d: has text_bottom as well as text_top (reply split around the quoted block)' % i); continue
    cases.append(case('quotequail', 'unwrap#%d' % i, exp['text_top'], text=text, lang_hint='' ,
        expected_from="tests/test_unwrap.py::test_unwrap parametrize case %d: expected['text_top'] of unwrap(text) (type=%s)" % (i, exp['type'])))
for i, (h, exp, exp_intro) in enumerate(params(load('test_quote_html').test_quote_html), 1):
    cases.append(case('quotequail', 'quote_html#%d' % i, true_part(exp_intro), html=h, expected_format='html',
        expected_from='tests/test_quote_html.py::test_quote_html parametrize case %d: the (True, ...) segment of quote_html(html, quote_intro_line=True)' % i))
uh = load('test_unwrap_html')
for f, exp in params(uh.test_unwrap_html_file):
    stem = f[:-5]
    if 'html_top' not in exp or 'html_bottom' in exp:
        skips.append('%s: unwrap_html result has %s' % (f, 'no html_top' if 'html_top' not in exp else 'html_bottom too')); continue
    cases.append(case('quotequail', stem, exp['html_top'], html=read_file(f), expected_format='html',
        expected_from="tests/test_unwrap_html.py::test_unwrap_html_file[%s]: expected['html_top'] of unwrap_html(html) (type=%s)" % (f, exp['type'])))
for tn, f in [('test_unwrap_html_ios_mail_reply_with_unescaped_address', 'ios_mail_reply_unescaped_address.html'),
              ('test_unwrap_html_yahoo_reply_with_unescaped_address', 'yahoo_reply_unescaped_address.html')]:
    rec.RECORDS.clear()
    getattr(uh, tn)(read_file)
    (r,) = rec.RECORDS
    exp = r['expected']
    import ast; exp = ast.literal_eval(exp) if isinstance(exp, str) else exp
    assert 'html_bottom' not in exp
    cases.append(case('quotequail', f[:-5], exp['html_top'], html=read_file(f), expected_format='html',
        client='ios-mail' if 'ios' in f else 'yahoo',
        expected_from="tests/test_unwrap_html.py::%s: expected['html_top'] of unwrap_html(html) (type=%s)" % (tn, exp['type'])))
cases.append(case('quotequail', 'outlook_forward', read_file('outlook_forward_unwrapped_top.html'), html=read_file('outlook_forward.html'),
    expected_format='html', expected_from="tests/test_unwrap_html.py::test_outlook_forward: result['html_top'] == file tests/files/outlook_forward_unwrapped_top.html (test also asserts no html_bottom)"))
skips += ['thunderbird_forward.html, mailru_forward.html: pure forwards, test asserts no html_top',
          'test_quote_html_*_unescaped_address / test_no_quote / test_limit / test_comment* / test_prefix_tag* / test_encoding / test_empty: duplicate inputs, non-default options or degenerate snippets']
OV = {'unwrap#18': {'language': 'fr'}, 'unwrap#19': {'language': 'fr'}, 'unwrap#20': {'language': 'sv'},
      'quote_html#5': {'language': 'de'}, 'quote_html#1': {'client': 'apple-mail'}, 'quote_html#2': {'client': 'gmail'},
      'quote_html#3': {'client': 'gmail'}, 'quote_html#4': {'client': 'outlook'}}  # from upstream comments / header wording
for c in cases:
    c.update(OV.get(c['id'].split('/', 1)[1], {}))
write('quotequail', cases)
import json; json.dump(skips, open(os.environ['REPLIES_WORK'] + '/qq_skips.json', 'w'), ensure_ascii=False, indent=1)
print('\n'.join(skips))
