import json, os, re, subprocess

OUT = os.environ['REPLIES_OUT']
SRC = os.environ['REPLIES_WORK'] + '/src'

def git_head(d):
    return subprocess.check_output(['git', '-C', os.path.join(SRC, d), 'rev-parse', 'HEAD']).decode().strip()

def read_text(path):
    b = open(path, 'rb').read()
    try:
        return b.decode('utf-8'), None
    except UnicodeDecodeError:
        return b.decode('latin-1'), 'not valid UTF-8; decoded as latin-1'

CLIENTS = [  # order matters: most specific first
    ('ios_outlook', 'outlook-ios'), ('ios_mail', 'ios-mail'), ('iphone', 'iphone'),
    ('blackberry', 'blackberry'), ('android', 'android'), ('aol', 'aol'),
    ('apple_mail', 'apple-mail'), ('apple', 'apple-mail'), ('ios_mail', 'ios-mail'), ('comcast', 'comcast'),
    ('gmail', 'gmail'), ('hotmail', 'hotmail'), ('msn', 'msn'),
    ('ms_outlook_2003', 'outlook-2003'), ('ms_outlook_2007', 'outlook-2007'), ('ms_outlook_2010', 'outlook-2010'),
    ('get_outlook', 'outlook-mobile'), ('outlook', 'outlook'), ('sparrow', 'sparrow'),
    ('thunderbird', 'thunderbird'), ('yahoo', 'yahoo'), ('mail_ru', 'mail.ru'), ('mailru', 'mail.ru'),
    ('yandex', 'yandex'), ('windows_mail', 'windows-mail'), ('w10_mail', 'windows-10-mail'),
    ('zimbra', 'zimbra'), ('zoho', 'zoho'), ('polymail', 'polymail'), ('samsung', 'samsung-mobile'),
]

def client_of(name):
    n = '_' + re.sub(r'[^a-z0-9]+', '_', name.lower()) + '_'
    for k, v in CLIENTS:
        if '_' + k.strip('_') + '_' in n:
            return v
    return 'unknown'

LANGS = [
    ('swiss_german', 'de'), ('german', 'de'), ('french', 'fr'), ('spanish', 'es'), ('italian', 'it'),
    ('dutch', 'nl'), ('polish', 'pl'), ('portuguese', 'pt'), ('russian', 'ru'), ('ukrainian', 'uk'),
    ('swedish', 'sv'), ('norwegian', 'no'), ('danish', 'da'), ('finnish', 'fi'), ('chinese', 'zh'),
    ('arabic', 'ar'), ('greek', 'el'), ('czech', 'cs'), ('romanian', 'ro'), ('hungarian', 'hu'),
    ('vietnamese', 'vi'), ('catalan', 'ca'), ('korean', 'ko'), ('japanese', 'ja'),
]
TOKENS = {'de', 'fr', 'ru', 'en', 'es', 'it', 'nl', 'pl', 'pt', 'fi', 'sv', 'da'}

def lang_of(name, body=''):
    n = name.lower()
    for k, v in LANGS:
        if k in n:
            return v
    for tok in re.split(r'[^a-z0-9]+', n):
        if tok in TOKENS:
            return tok
    b = body or ''
    if re.search(r'[\u0400-\u04FF]', b): return 'uk' if re.search('[ієїґ]', b) else 'ru'
    if re.search(r'[\u3040-\u30ff]', b): return 'ja'
    if re.search(r'[\uac00-\ud7af]', b): return 'ko'
    if re.search(r'[\u4e00-\u9fff]', b): return 'zh'
    if re.search(r'[\u0600-\u06FF]', b): return 'ar'
    if re.search(r'[\u0370-\u03FF]', b): return 'el'
    return 'en'

def case(corpus, stem, expected, text=None, raw=None, html=None, client=None, language=None,
         compare='exact', expected_format='text', expected_from='', note=None, lang_hint=None):
    body = text if text is not None else (raw if raw is not None else html)
    d = {'id': '%s/%s' % (corpus, stem),
         'client': client or client_of(stem),
         'language': language or lang_of(lang_hint or stem, body)}
    if raw is not None: d['raw'] = raw
    if text is not None: d['text'] = text
    if html is not None: d['html'] = html
    d['expected'] = expected
    d['expected_format'] = expected_format
    d['compare'] = compare
    d['expected_from'] = expected_from
    if note: d['note'] = note
    return d

def write(corpus, cases):
    ids = [c['id'] for c in cases]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    d = os.path.join(OUT, corpus)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'cases.jsonl'), 'w', encoding='utf-8') as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + '\n')
    print(corpus, len(cases))
