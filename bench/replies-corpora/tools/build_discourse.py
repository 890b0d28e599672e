import sys, os
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
R = SRC + '/discourse+email_reply_trimmer'
cases = []
for fn in sorted(os.listdir(R + '/test/emails')):
    stem = fn[:-4]
    text, e1 = read_text(R + '/test/emails/' + fn)
    exp, e2 = read_text(R + '/test/trimmed/' + fn)
    notes = [x for x in [e1 and 'input ' + e1, e2 and 'expected ' + e2] if x]
    if '\r' in text: notes.append('input uses CRLF line endings')
    cases.append(case('discourse-email-reply-trimmer', stem, exp, text=text, compare='strip',
        expected_from='file test/trimmed/%s (test_email_reply_trimmer.rb: assert_equal(File.read(trimmed).strip, EmailReplyTrimmer.trim(File.read(email).strip)))' % fn,
        note='; '.join(notes) or None))
OV = {'email_headers_4': {'language': 'it'}, 'usenet': {'language': 'de'}, 'signatures': {'language': 'mul'},
      'forwarded_apple': {'client': 'apple-mail'}, 'embedded_email_10': {'client': 'outlook-mobile'},
      'email_headers_1': {'client': 'outlook'}, 'email_headers_2': {'client': 'outlook'}}  # evident from content
for c in cases:
    c.update(OV.get(c['id'].split('/', 1)[1], {}))
write('discourse-email-reply-trimmer', cases)
