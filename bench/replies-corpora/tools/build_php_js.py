import sys, os, re, json
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
from lits import *
REVIEW = []

# ---------- willdurand/EmailReplyParser (PHP) ----------
R = SRC + '/willdurand+EmailReplyParser'
FX = R + '/tests/Fixtures/'
cases = []
def php_lit(s):
    """decode the PHP literal at the start of s: heredoc, '...' or "..." """
    s = s.lstrip()
    if s.startswith('<<<'): return php_heredoc(s)[0]
    if s.startswith("'"): return php_sq(re.match(SQ, s).group(0))
    if s.startswith('"'): return dq(re.match(DQ, s).group(0))
    raise ValueError(s[:40])
LIT = r"(<<<(\w+)\n.*?\n\2|" + SQ + "|" + DQ + ")"
src = open(R + '/tests/EmailReplyParser/Tests/EmailReplyParserTest.php', encoding='utf-8').read()
for name, blk in blocks(src, r'^    public function (test\w+)\(').items():
    m = re.search(r"assertEquals\(\s*" + LIT + r"\s*,\s*EmailReplyParser::parseReply\(\$body\)\s*\)", blk, re.S)
    if not m: continue
    stem = re.search(r"getFixtures\('([\w.]+)\.txt'\)", blk).group(1)
    text, enc = read_text(FX + stem + '.txt')
    cases.append(case('willdurand-emailreplyparser', stem, php_lit(m.group(1)), text=text, note=enc,
        expected_from='tests/EmailReplyParser/Tests/EmailReplyParserTest.php::%s: assertEquals(<expected>, EmailReplyParser::parseReply($body))' % name))
src = open(R + '/tests/EmailReplyParser/Tests/Parser/EmailParserTest.php', encoding='utf-8').read()
COMMON = php_sq(re.search(r"const COMMON_FIRST_FRAGMENT = (" + SQ + ")", src, re.S).group(1))
LANG = {'testEmailItalian': 'it', 'testEmailDutch': 'nl', 'testEmailUkrainian': 'uk', 'testEmailDaIntoItalian': 'it',
        'testEmailHeaderPolish': 'pl', 'testEmailHeaderSimplifiedChinese': 'zh', 'testEmailHeaderPolishWithDniaAndNapisala': 'pl',
        'testEmailHeaderPolishWithDateInIso8601': 'pl', 'testEmailGmailNo': 'no', 'testCustomQuoteHeader': 'es',
        'testCustomQuoteHeader3': 'fr'}
CLIENT = {'testEmailHotmail': 'hotmail', 'testEmailOutlookEn': 'outlook', 'testEmailGmailNo': 'gmail'}
B = blocks(src, r'^    public function (\w+)\(')
for name, blk in B.items():
    stem = re.search(r"getFixtures\('([\w.-]+)\.txt'\)", blk)
    stem = stem and stem.group(1)
    kw = dict(language=LANG.get(name), client=CLIENT.get(name))
    if re.search(r"assertEquals\(static::COMMON_FIRST_FRAGMENT, trim\(\$fragments\[0\]\)\)", blk):
        for st in re.findall(r"getFixtures\('([\w.-]+)\.txt'\)", blk)[:1]:
            text, enc = read_text(FX + st + '.txt')
            REVIEW.append(('willdurand', st, text, COMMON))
            cases.append(case('willdurand-emailreplyparser', st, COMMON, text=text, compare='strip', note=enc, **kw,
                expected_from='tests/EmailReplyParser/Tests/Parser/EmailParserTest.php::%s: assertEquals(COMMON_FIRST_FRAGMENT, trim($fragments[0])) '
                              '(first fragment; visibility of later fragments not asserted - reviewed: the rest of the fixture is a quote header + quoted text)' % name))
    if name == 'testEmailUkrainian':
        m = re.search(r"assertEquals\(" + LIT + r"\s*, \(string\) \$fragments\[0\]\)", blk, re.S)
        text, enc = read_text(FX + 'email_23_1.txt')
        exp = php_lit(m.group(1)); REVIEW.append(('willdurand', 'email_23_1', text, exp))
        cases.append(case('willdurand-emailreplyparser', 'email_23_1', exp, text=text, compare='strip', language='uk',
            expected_from='EmailParserTest.php::testEmailUkrainian: assertEquals(<expected>, (string) $fragments[0]) (first fragment)'))
    if name == 'testReadsSimpleBody':
        m = re.search(r"assertEquals\(" + LIT + r"\s*, \(string\) \$fragments\[0\]\)", blk, re.S)
        assert '$this->assertTrue($fragments[1]->isHidden());' in blk and '$this->assertTrue($fragments[2]->isHidden());' in blk
        text, enc = read_text(FX + 'email_1.txt')
        cases.append(case('willdurand-emailreplyparser', 'email_1', php_lit(m.group(1)), text=text, compare='strip',
            expected_from='EmailParserTest.php::testReadsSimpleBody: assertEquals(<expected>, (string) $fragments[0]) with fragments 1..2 asserted hidden => visible text'))
    m = re.search(r"assertEquals\(" + LIT + r",\s*\$email->getVisibleText\(\)\)", blk, re.S)
    if m and stem and name != 'testDateQuoteHeader':
        text, enc = read_text(FX + stem + '.txt')
        rx = re.findall(r"\$regex\[\] = ('[^']*');", blk)
        cases.append(case('willdurand-emailreplyparser', stem, php_lit(m.group(1)), text=text, **kw,
            expected_from='EmailParserTest.php::%s: assertEquals(<expected>, $email->getVisibleText())' % name,
            note=('upstream added a custom quote-header regex %s before parsing' % rx[0]) if rx else None))
# data provider: email_with_date_headers.txt with [DATE] replaced
blk = B['testDateQuoteHeader']; exp = php_lit(re.search(r"assertEquals\(" + LIT, blk, re.S).group(1))
prov = B['getDateFormats']
tmpl, enc = read_text(FX + 'email_with_date_headers.txt')
DL = {'Gmail in spanish': 'es', 'Gmail in catalan': 'ca', 'Gmail in polish': 'pl', 'Thunderbird in polish': 'pl', 'Danish': 'da',
      'German 1': 'de', 'German 2': 'de', 'Chinese Apple Mail iPhone parsed html': 'zh', 'Korean Apple Mail iPhone': 'ko',
      'Japanese Apple Mail iPhone': 'ja', 'Norwegian Gmail': 'no', 'Thunderbird': 'fr'}
for i, m in enumerate(re.finditer(r"array\((" + SQ + "|" + DQ + r")\),(?: //\s*(.*))?", prov), 1):
    date = php_lit(m.group(1)); comment = (m.group(2) or '').strip()
    lang = DL.get(comment) or ('fr' if 'écrit' in date else 'en')
    cl = {'Gmail': 'gmail', 'Thunderbird': 'thunderbird'}.get(comment.split(' ')[0] if comment else '', None)
    if 'Apple Mail iPhone' in comment: cl = 'iphone'
    if comment.startswith('Gmail') or comment.startswith('Norwegian Gmail'): cl = 'gmail'
    if comment.startswith('Thunderbird'): cl = 'thunderbird'
    cases.append(case('willdurand-emailreplyparser', 'email_with_date_headers#%d' % i, exp, text=tmpl.replace('[DATE]', date),
        language=lang, client=cl,
        expected_from="EmailParserTest.php::testDateQuoteHeader (dataProvider getDateFormats #%d%s): fixture email_with_date_headers.txt with [DATE] replaced by %r; assertEquals(<expected>, getVisibleText())" % (i, ', ' + comment if comment else '', date)))
OV = {'email_9': {'language': 'fr'}, 'email_10': {'language': 'fr'}, 'email_11': {'language': 'fr'}, 'email_12': {'language': 'nl'}}  # header language evident from content
for c in cases:
    c.update(OV.get(c['id'].split('/', 1)[1], {}))
write('willdurand-emailreplyparser', cases)

# ---------- crisp-oss/email-reply-parser (JS) ----------
R = SRC + '/crisp-oss+email-reply-parser'
FX = R + '/test/fixtures/'
src = open(R + '/test/test.js', encoding='utf-8').read()
COMMON = js_eval(re.search(r"const COMMON_FIRST_FRAGMENT = ('(?:[^'\\]|\\.)*');", src, re.S).group(1))
JLIT = r'("(?:[^"\\]|\\.)*"|' + r"'(?:[^'\\]|\\.)*')"
cases = []
for name, blk in blocks(src, r'^export function (\w+)\(').items():
    fx = re.search(r'get_email\("([\w-]+)"\)|fixtures/([\w-]+)\.txt', blk)
    if not fx: continue
    stem = fx.group(1) or fx.group(2)
    text, enc = read_text(FX + stem + '.txt')
    nfr = re.search(r'test\.equal\((\d+), fragments\.length\)', blk)
    nfr = (' (test also asserts %s fragments)' % nfr.group(1)) if nfr else ''
    if re.search(r'test\.equal\(COMMON_FIRST_FRAGMENT, fragments\[0\]\.toString\(\)\.trim\(\)\)', blk):
        REVIEW.append(('crisp', stem, text, COMMON))
        cases.append(case('crisp-email-reply-parser', stem, COMMON, text=text, compare='strip', note=enc,
            expected_from='test/test.js::%s: test.equal(COMMON_FIRST_FRAGMENT, fragments[0].toString().trim())%s (first fragment; reviewed: rest of fixture is quote header/quoted text)' % (name, nfr)))
    elif re.search(r'test\.equal\(COMMON_FIRST_FRAGMENT, text\)', blk) and 'getVisibleText().trim()' in blk:
        cases.append(case('crisp-email-reply-parser', stem, COMMON, text=text, compare='strip',
            expected_from='test/test.js::%s: test.equal(COMMON_FIRST_FRAGMENT, email.getVisibleText().trim())' % name))
    elif (m := re.search(r'test\.equal\(' + JLIT + r', (?:email\.getVisibleText\(\)|reply)\);', blk)):
        cases[:] = [c for c in cases if not c['id'].endswith('/' + stem)]  # prefer the parseReply/getVisibleText assertion
        cases.append(case('crisp-email-reply-parser', stem, js_eval(m.group(1)), text=text,
            expected_from='test/test.js::%s: test.equal(<expected>, %s)' % (name, 'parser.parseReply(data)' if 'parseReply' in blk else 'email.getVisibleText()')))
    elif (m := re.search(r'test\.equal\(' + JLIT + r', (?:reply\.)?fragments\[0\]\.toString\(\)\);', blk)):
        REVIEW.append(('crisp', stem, text, js_eval(m.group(1))))
        cases.append(case('crisp-email-reply-parser', stem, js_eval(m.group(1)), text=text, compare='strip',
            expected_from='test/test.js::%s: test.equal(<expected>, fragments[0].toString()) (first fragment; reviewed: rest of fixture is quote header/quoted text)' % name))
# email_1 appears in test_reads_simple_body (fragments[0]) and test_parseReply_extracts_visible_text (same literal): keep one, prefer parseReply
OV = {'email_7': {'language': 'it'}, 'email_8': {'language': 'nl'}, 'email_9': {'language': 'fr'}, 'email_10': {'language': 'fr'},
      'email_11': {'language': 'fr'}, 'email_12': {'language': 'nl'}, 'email_13': {'language': 'it'}, 'email_14': {'language': 'pl'},
      'email_16': {'language': 'pl'}, 'email_17': {'language': 'pl'}, 'email_german_3': {'client': 'outlook-android'},
      'email_tricky_5_mixed_languages': {'language': 'fr'}}  # header language / client evident from content
for c in cases:
    c.update(OV.get(c['id'].split('/', 1)[1], {}))
write('crisp-email-reply-parser', cases)
json.dump(REVIEW, open(os.environ['REPLIES_WORK'] + '/review.json', 'w'), ensure_ascii=False)
