import sys, os, json, importlib, inspect, types
sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_talon')
import rec
ROOT = os.environ['REPLIES_WORK'] + '/src/mailgun+talon'
os.chdir(ROOT); sys.path.insert(1, ROOT)
out = {}
for modname in ['tests.text_quotations_test', 'tests.html_quotations_test', 'tests.quotations_test']:
    m = importlib.import_module(modname)
    if hasattr(m, 'RE_WHITESPACE'):
        m.RE_WHITESPACE = rec.FakeWS()
    skipped = []
    for name, fn in list(vars(m).items()):
        if not name.startswith('test_') or not callable(fn): continue
        if getattr(fn, 'patchings', None):
            skipped.append((name, 'uses mock.patch (non-default config / mocked internals)')); continue
        if inspect.isgeneratorfunction(fn):
            skipped.append((name, 'generator test (standard_replies handled from files)')); continue
        rec.CURRENT['test'] = name
        try:
            fn()
        except Exception as e:
            skipped.append((name, 'raised %r' % e))
    out[modname] = skipped
json.dump({'records': [dict(r, chain=list(r['chain'])) for r in rec.RECORDS], 'skipped': out},
          open(os.environ['REPLIES_WORK'] + '/talon_records.json', 'w'), ensure_ascii=False, indent=1)
print(len(rec.RECORDS))
for k, v in out.items():
    for s in v: print(k, s)
