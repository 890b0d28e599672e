import os
import sys, csv, io, subprocess, collections, re
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from common import clean, make_title_body, write_collection
GD = os.path.join(os.environ['SEARCH_SRC'], 'JerryWeiAI+COVID-Q')
def show(p):
    return subprocess.run(['git', f'--git-dir={GD}', 'show', f'73dfa475e8a03c5c74223c2c37d85b87fae7dca7:{p}'], capture_output=True, check=True).stdout.decode('utf-8')
rows = list(csv.DictReader(io.StringIO(show('final_master_dataset.csv'))))
testA = [tuple(r) for r in csv.reader(io.StringIO(show('dataset_classes/testA.csv'))) if r]
testB = [tuple(r) for r in csv.reader(io.StringIO(show('dataset_classes/testB.csv'))) if r]
testq = set(q for q, c in testA + testB)
ans = {}
for r in rows:
    if r['Answers'].strip():
        ans.setdefault(r['Question ID'], r['Answers'])
def nq(s): return re.sub(r'\s+', ' ', s.strip().lower())
def cap(s):
    s = clean(s)
    return s[:1].upper() + s[1:] if s else s
docs = []; by_class = collections.defaultdict(list); seen = set()
n_in_class = collections.Counter()
for r in rows:
    c = r['Question ID']
    if r['Question'] in testq or c not in ans or not r['Question'].strip():
        continue
    k = (c, nq(r['Question']))
    if k in seen:      # exact duplicate question text within a class
        continue
    seen.add(k)
    n_in_class[c] += 1
    did = f'c{int(c):03d}-{n_in_class[c]:02d}'
    title, body = make_title_body(cap(r['Question']), cap(r['Answers']))
    docs.append({'id': did, 'title': title, 'body': body})
    by_class[c].append(did)
queries = []
for tag, lst in (('A', testA), ('B', testB)):
    for i, (q, c) in enumerate(lst, 1):
        if by_class.get(c):
            queries.append({'id': f'{tag}{i:03d}', 'text': cap(q), 'relevant': list(by_class[c])})
print('classes with docs', len(by_class), 'classes with >=2 docs', sum(1 for v in by_class.values() if len(v) > 1))
write_collection('covid-q-nearduplicates', docs, queries)
