import sys, os, json, importlib.util, unittest, glob
sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_talon'); sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_erp')
import rec
name, root, cwd, out = sys.argv[1:5]
os.chdir(cwd)
spec = importlib.util.spec_from_file_location('t', os.path.join(root, 'test/test_email_reply_parser.py'))
import email_reply_parser as _stub
m = importlib.util.module_from_spec(spec)
sys.path.insert(5, root)  # after stubs
spec.loader.exec_module(m)
assert m.EmailReplyParser.__module__ == 'email_reply_parser' and 'stubs_erp' in sys.modules['email_reply_parser'].__file__
cls = m.EmailMessageTest
skipped = []
for t in sorted(n for n in dir(cls) if n.startswith('test')):
    rec.CURRENT['test'] = t
    inst = cls(t)
    try:
        getattr(inst, t)()
    except Exception as e:
        skipped.append((t, repr(e)[:120]))
# map inputs back to fixture files (text-mode read)
files = {}
for p in glob.glob(os.path.join(root, 'test/emails/*.txt')):
    files.setdefault(open(p).read(), []).append(os.path.relpath(p, root))
res = []
for r in rec.RECORDS:
    inp = r['inp'].replace('\r\n', '\n') if False else r['inp']
    cands = files.get(inp) or files.get(r['inp'])
    r = dict(r, chain=list(r['chain']), files=cands)
    res.append(r)
json.dump({'records': res, 'skipped': skipped}, open(out, 'w'), ensure_ascii=False, indent=1)
for r in res: print(r['test'], r['fn'], r['chain'], r['files'], repr(r['expected'][:60]))
print('SKIPPED'); [print(s) for s in skipped]
