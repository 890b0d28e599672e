import json, os, re, html, unicodedata

OUT = os.environ['SEARCH_OUT']

def clean(s):
    if s is None:
        return ''
    s = html.unescape(s)
    s = unicodedata.normalize('NFC', s)
    s = s.replace('\r\n', '\n').replace('\r', '\n').replace('\u00a0', ' ')
    s = re.sub(r'[ \t]+', ' ', s)
    s = re.sub(r' *\n *', '\n', s)
    s = re.sub(r'\n{3,}', '\n\n', s)
    return s.strip()

def make_title_body(title, body):
    """Title non-empty, <=200 chars; if longer, cut at a word boundary and
    put the full title text at the start of the body."""
    title = re.sub(r'\s+', ' ', clean(title)).strip()
    body = clean(body)
    if len(title) > 200:
        cut = title[:200]
        sp = cut.rfind(' ')
        short = (cut[:sp] if sp > 80 else cut[:199]).rstrip(' ,;:-') + '…'
        if len(short) > 200:
            short = short[:199] + '…'
        body = title + ('\n\n' + body if body else '')
        title = short
    assert title and len(title) <= 200, title
    return title, body

def write_collection(name, docs, queries):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    ids = set()
    for x in docs:
        assert x['id'] not in ids, x['id']
        ids.add(x['id'])
        assert x['title'] and len(x['title']) <= 200
    qids = set()
    for q in queries:
        assert q['id'] not in qids
        qids.add(q['id'])
        assert q['text'].strip()
        assert q['relevant'], q['id']
        for r in q['relevant']:
            assert r in ids, (q['id'], r)
    with open(os.path.join(d, 'docs.jsonl'), 'w', encoding='utf-8') as f:
        for x in docs:
            f.write(json.dumps({'id': x['id'], 'title': x['title'], 'body': x['body']}, ensure_ascii=False) + '\n')
    with open(os.path.join(d, 'queries.jsonl'), 'w', encoding='utf-8') as f:
        for q in queries:
            f.write(json.dumps({'id': q['id'], 'text': q['text'], 'relevant': q['relevant']}, ensure_ascii=False) + '\n')
    nrel = sum(len(q['relevant']) for q in queries)
    print(f'{name}: {len(docs)} docs, {len(queries)} queries, {nrel} judgments, '
          f'{nrel/len(queries):.2f} rel/query, empty bodies: {sum(1 for x in docs if not x["body"])}, '
          f'long titles cut: {sum(1 for x in docs if x["title"].endswith("…"))}')
