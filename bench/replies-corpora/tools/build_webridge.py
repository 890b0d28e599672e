import sys, os, re
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
R = SRC + '/web-ridge+email-reply-parser'
src = open(R + '/email_reply_parser_test.go', encoding='utf-8').read()
consts = dict(re.findall(r'const (\w+) = `(.*?)`', src, re.S))
cases = []
for test, const in [('TestKarenSignature', 'karenMail'), ('TestRichardSignature', 'richardMail'), ('TestAbhishekSignature', 'abishhekMail')]:
    blk = src[src.index('func %s(' % test):]
    assert 'Parse(%s)' % const in blk[:200]
    exp = re.search(r'expected := "((?:[^"\\]|\\.)*)"', blk).group(1)
    assert '\\' not in exp
    cases.append(case('webridge-email-reply-parser', 'inline_' + const, exp, text=consts[const],
        expected_from='email_reply_parser_test.go::%s: Parse(%s) must equal expected := "%s"' % (test, const, exp)))
def walk(d):  # filepath.Walk visits files in lexical order
    return sorted(os.listdir(os.path.join(R, 'dataset', d)))
LANG = {'dutch': 'nl', 'other': 'nl', 'other_break': 'nl', 'iphone_nl': 'nl', 'greetings_dutch': 'nl'}
for b in walk('basemail'):
    base, _ = read_text(os.path.join(R, 'dataset/basemail', b))
    exp = base.strip()  # removeWhiteSpaceBeforeAndAfter == repeated strings.TrimSpace
    for s in walk('signatures'):
        sig, _ = read_text(os.path.join(R, 'dataset/signatures', s))
        for q in walk('quoted_reply'):
            qr, _ = read_text(os.path.join(R, 'dataset/quoted_reply', q))
            lang = LANG.get(q[:-4]) or LANG.get(s[:-4]) or 'en'
            cases.append(case('webridge-email-reply-parser', 'combo/%s+%s+%s' % (b[:-4], s[:-4], q[:-4]), exp,
                text=base + '\n\n' + sig + '\n\n' + qr, compare='strip', language=lang,
                client=client_of(s[:-4]) if client_of(s[:-4]) != 'unknown' else client_of(q[:-4]),
                expected_from='email_reply_parser_test.go::TestAllKindOfCombinations: Parse(basemail + "\\n\\n" + signature + "\\n\\n" + quoted_reply) '
                              'must equal removeWhiteSpaceBeforeAndAfter(basemail); files dataset/basemail/%s, dataset/signatures/%s, dataset/quoted_reply/%s' % (b, s, q),
                note='synthetic combination generated exactly as the upstream test does'))
write('webridge-email-reply-parser', cases)
