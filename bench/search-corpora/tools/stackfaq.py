import os
import json, subprocess, sys
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from common import clean, make_title_body, write_collection
GD = os.path.join(os.environ['SEARCH_SRC'], 'ML-Recipes+BERT-FAQ')
raw = subprocess.run(['git', f'--git-dir={GD}', 'show', '3c184030c1819b462e29f665465ab4968657440e:data/StackFAQ/stackExchange-FAQ.json'],
                     capture_output=True, check=True).stdout
pairs = json.loads(raw)['root']['qapair']
docs, queries = [], []
PER_THREAD = 8
for ti, qa in enumerate(pairs, 1):
    tid = f't{ti:03d}'
    answers = qa.get('answer') or []
    if isinstance(answers, str):
        answers = [answers]
    dids = []
    for ai, a in enumerate(answers, 1):
        if not a or not clean(a):
            continue
        title, body = make_title_body(qa['question'], a)
        did = f'{tid}-a{ai:02d}'
        docs.append({'id': did, 'title': title, 'body': body})
        dids.append(did)
    reph = qa.get('rephr') or []
    if isinstance(reph, str):
        reph = [reph]
    k = 0
    for ri, r in enumerate(reph, 1):
        r = clean(r)
        if not r or r == '*':
            continue
        k += 1
        if k > PER_THREAD:
            break
        queries.append({'id': f'{tid}-q{ri:02d}', 'text': r, 'relevant': list(dids)})
write_collection('stackfaq', docs, queries)
