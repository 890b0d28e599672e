import os
import sys, re, hashlib, collections
import xml.etree.ElementTree as ET
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from common import clean as _clean, make_title_body, write_collection
def clean(s):
    s = _clean(s)
    s = re.sub(r'"{2,}', '"', s)
    if s.count('"') % 2 == 1:
        if s.startswith('"'): s = s[1:].lstrip()
        elif s.endswith('"'): s = s[:-1].rstrip()
    return s
import csv, io, subprocess
IYAS = (os.path.join(os.environ['SEARCH_SRC'], 'diyessi+Iyas'), '83ac4ef9347e40d31cbb8a5689e56d1cc643c6a8')
WR = (os.path.join(os.environ['SEARCH_SRC'], 'whiskeyromeo+CommunityQuestionAnswering'), '6408cbaacd24212a6998ccd85c1e23199b005c56')
CV = (os.path.join(os.environ['SEARCH_SRC'], 'chaobotic-vasu+Community-Question-Answering'), '9febaf7498b0d4d262e9ad4aa424557e336b3133')
def show(src, path):
    gd, commit = src
    return subprocess.run(['git', f'--git-dir={gd}', 'show', f'{commit}:{path}'], capture_output=True, check=True).stdout
FILES = [('train-part1-v2.0', (IYAS, 'semeval2016-3/data/Semeval2016-Task3-English-data/datasets/semeval2016-task3-cqa-ql-train/v2.0/SemEval2016-Task3-CQA-QL-train-part1.xml')),
         ('train-part2-v3.2', (WR, 'Data/train/SemEval2016-Task3-CQA-QL-train-part2.xml')),
         ('dev-v3.2', (WR, 'Data/dev/SemEval2016-Task3-CQA-QL-dev.xml')),
         ('test2016', (WR, 'SemEval2016_task3_test_input/English/SemEval2016-Task3-CQA-QL-test-input.xml'))]
def nkey(s): return re.sub(r'[^a-z0-9]+', '', (s or '').lower())
TESTLAB = {}
for r in csv.DictReader(io.StringIO(show(CV, 'dataset/Subtask B/TEST-BASE.csv').decode('utf-8'))):
    TESTLAB[(nkey(r['question']), nkey(r['rel_question']))] = r['labels']
def unq(s):
    s = s.strip()
    if s.startswith('"'):
        s = s.strip('"').strip()
    return s
nskip = 0
POS = {'PerfectMatch', 'Relevant'}
docs = {}          # canonical id -> doc
key2id = {}        # content hash -> canonical id
alias = {}         # RELQ_ID -> canonical id
queries = []
qorder = []; qinfo = {}; qrel = collections.defaultdict(list)
nq_total = 0; nq_norel = 0; ndup = 0
def norm(s):
    return re.sub(r'\W+', ' ', (s or '').lower()).strip()
for split, path in FILES:
    root = ET.fromstring(show(*path))
    for oq in root.iter('OrgQuestion'):
        qid = oq.get('ORGQ_ID')
        subj = unq(clean(oq.findtext('OrgQSubject')))
        body = unq(clean(oq.findtext('OrgQBody')))
        if qid not in qinfo:
            qorder.append(qid); qinfo[qid] = (subj, body)
        rel = qrel[qid]
        for th in oq.iter('Thread'):
            rq = th.find('RelQuestion')
            rid = rq.get('RELQ_ID')
            label = rq.get('RELQ_RELEVANCE2ORGQ')
            if split == 'test2016':
                label = TESTLAB.get((nkey(oq.findtext('OrgQBody')), nkey(rq.findtext('RelQBody'))))
                if label is None:
                    nskip += 1
                    continue
            rs = clean(rq.findtext('RelQSubject'))
            rb = clean(rq.findtext('RelQBody'))
            comments = [clean(c.findtext('RelCText')) for c in th.iter('RelComment')]
            comments = [c for c in comments if c]
            key = hashlib.sha1((norm(rs) + '|' + norm(rb) + '|' + norm(comments[0] if comments else '')).encode()).hexdigest()
            skip = th.get('SubtaskA_Skip_Because_Same_As_RelQuestion_ID')
            if key in key2id:
                cid = key2id[key]; ndup += 1
            elif skip and skip in alias:
                cid = alias[skip]; ndup += 1
            else:
                cid = rid
                key2id[key] = cid
                title_src = rs or (rb[:120] if rb else rid)
                parts = [rb] if rb else []
                if comments:
                    parts.append('## Replies')
                    parts.extend(f'**Reply {i}:** {c}' for i, c in enumerate(comments, 1))
                t, b = make_title_body(title_src, '\n\n'.join(parts))
                docs[cid] = {'id': cid, 'title': t, 'body': b,
                             'category': rq.get('RELQ_CATEGORY')}
            alias[rid] = cid
            if label in POS and cid not in rel:
                rel.append(cid)
for qid in qorder:
    subj, body = qinfo[qid]
    rel = qrel[qid]
    nq_total += 1
    if not rel:
        nq_norel += 1
        continue
    text = subj
    if body and norm(body) != norm(subj):
        text = f'{subj}\n\n{body}' if subj else body
    queries.append({'id': qid, 'text': text, 'relevant': rel})
print('test2016 threads without label (skipped)', nskip); print('orig questions', nq_total, 'without any relevant', nq_norel, 'merged duplicate threads', ndup)
# a query text must not be identical to a doc (an OrgQuestion can reappear as a RelQuestion: keep, that's a PerfectMatch)
write_collection('semeval-qatarliving-threads', list(docs.values()), queries)
