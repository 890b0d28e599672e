import os
import sys, re, json, csv, glob, io, subprocess, zipfile, collections
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from common import clean, make_title_body, write_collection
GD = os.path.join(os.environ['SEARCH_SRC'], 'abhi1nandy2+EMNLP-2021-Findings')
def show(p):
    return subprocess.run(['git', f'--git-dir={GD}', 'show', f'2ea1edfdaf0f4fa09ed89f46d0ea1d46b136ff92:{p}'], capture_output=True, check=True).stdout
def toks(s):
    return re.findall(r'[a-z0-9]+', s.lower())
def tnorm(s):
    s = s.replace('\u2019', "'").replace('\u2018', "'").replace('\u201c', '"').replace('\u201d', '"')
    return re.sub(r'\s+', ' ', s).strip().lower()
STOP = set('the a an and or to of in on for is are be you your can it this that with by from as at if not may'.split())

docs = []; sec_by_manual = collections.defaultdict(list)
VERBOSE = '-v' in sys.argv
for man, path in [('tv', 'data/smart_tv_remote_manual_corpus.json'), ('s10', 'data/s10_manual_corpus.json')]:
    corp = json.loads(show(path))
    seen = {}
    for k, v in corp.items():
        title = clean(v.get('title') or '')
        text = ' '.join(t.strip() for t in v.get('text') or [] if t and t.strip())
        text = clean(re.sub(r'\s+([,.;:!?])', r'\1', text))
        # S10 sections repeat the heading as the first line of text
        if text.lower().startswith(title.lower() + ' '):
            text = text[len(title) + 1:].lstrip()
        if not title or not text:
            continue
        key = (tnorm(title), tnorm(text))
        did = f'{man}-{k.replace("section_", "s")}'
        if key in seen:          # exact duplicate section (manual repeats quick-guide pages)
            continue
        seen[key] = did
        t, b = make_title_body(title, text)
        d = {'id': did, 'title': t, 'body': b, 'tset': set(toks(text)) - STOP}
        docs.append(d); sec_by_manual[man].append(d)

def load_tv_questions():
    zf = zipfile.ZipFile(io.BytesIO(show('data/smart_remote_QA.zip')))
    out = []
    for name in sorted(zf.namelist()):
        if not name.endswith('.json'):
            continue
        raw = zf.read(name).decode('utf-8')
        # files are not strictly valid JSON (unescaped quotes, trailing commas): extract records
        items = re.findall(r'"Section Hierarchy"\s*:\s*"(.*?)",\s*"Link"\s*:\s*"(.*?)",\s*"Question"\s*:\s*"(.*?)",\s*"Answer"\s*:\s*"(.*?)"\s*}', raw, re.S)
        cat = name.split('/')[0]
        for i, (h, link, q, a) in enumerate(items, 1):
            out.append({'set': cat, 'file': name, 'n': i, 'hier': h, 'q': q, 'a': a})
    return out

def load_s10_questions():
    rows = list(csv.DictReader(io.StringIO(show('data/s10_50_questions.csv').decode('utf-8'))))
    return [{'set': 's10', 'qid': r['question_id'], 'hier': r['section_path'], 'q': r['question'], 'a': r['answer']} for r in rows]

def title_eq(level, title):
    t = tnorm(title)
    # corpus headings are sometimes cut at a PDF line break: accept a long prefix
    return t == level or (len(t) >= 25 and level.startswith(t))

def match(man, hier, ans):
    levels = [tnorm(x) for x in hier.split('>') if x.strip()]
    at = set(toks(ans)) - STOP
    secs = sec_by_manual[man]
    cont = {d['id']: len(at & d['tset']) / max(1, len(at)) for d in secs}
    trel, tbest, tdepth = [], 0.0, -1
    for depth in range(len(levels) - 1, -1, -1):
        cands = [d for d in secs if title_eq(levels[depth], d['title'])]
        if cands:
            tbest = max(cont[d['id']] for d in cands)
            trel = [d['id'] for d in cands if cont[d['id']] >= tbest - 0.05]
            tdepth = depth
            break
    if tbest >= 0.5 or len(at) < 8:
        return trel, tbest, 'title-deepest' if tdepth == len(levels) - 1 else ('title-ancestor' if trel else 'none')
    abest = max(cont.values())
    if abest >= 0.8:
        arel = [i for i, c in cont.items() if c >= abest - 0.05]
        if len(arel) <= 3:
            return arel, abest, 'answer-overlap'
    return trel, tbest, ('title-deepest' if tdepth == len(levels) - 1 else 'title-ancestor') if trel else 'none'

queries = []; stats = collections.Counter(); low = []
prefix = {'Normal Q&A': 'normal', 'Paraphrased Q&A': 'para', 'Compound Q&A': 'compound', 'Yes_No Q&A': 'yesno'}
for x in load_tv_questions():
    rel, best, how = match('tv', x['hier'], x['a'])
    fid = re.sub(r'\D+', '-', x['file'].split('/')[-1]).strip('-')
    qid = f"tv-{prefix[x['set']]}-{fid}-{x['n']:03d}"
    stats['tv_total'] += 1
    if not rel:
        stats['tv_unmapped'] += 1; continue
    if best < 0.5 and len(set(toks(x['a'])) - STOP) >= 8: low.append((qid, x['hier'], round(best, 2), how, rel))
    stats['tv_' + how] += 1
    queries.append({'id': qid, 'text': clean(x['q']), 'relevant': rel})
for x in load_s10_questions():
    rel, best, how = match('s10', x['hier'], x['a'])
    stats['s10_total'] += 1
    if not rel:
        stats['s10_unmapped'] += 1; continue
    if best < 0.5 and len(set(toks(x['a'])) - STOP) >= 8: low.append((x['qid'], x['hier'], round(best, 2), how, rel))
    stats['s10_' + how] += 1
    queries.append({'id': f"s10-{int(x['qid']):04d}", 'text': clean(x['q']), 'relevant': rel})
print(dict(stats)); print('low-overlap mappings', len(low)); 
if VERBOSE:
    for l in low: print('  ', l)
# de-duplicate identical query texts (keep first, union judgments)
seen = {}; out = []
for q in queries:
    k = tnorm(q['text'])
    if k in seen:
        for r in q['relevant']:
            if r not in seen[k]['relevant']: seen[k]['relevant'].append(r)
        continue
    seen[k] = q; out.append(q)
print('rel-count distribution', collections.Counter(len(q['relevant']) for q in out)); print('duplicate query texts merged', len(queries) - len(out))
write_collection('samsung-emanual-sections', docs, out)
