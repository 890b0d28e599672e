import sys, os
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
R = SRC + '/MasatoMiyoshi+mail-sanitizer/spec/fixtures'
cases = []
for grp, n in [('quot', 13), ('sign', 7), ('quot_sign', 5)]:   # counts as declared in spec/mail/sanitizer/sanitizer_spec.rb
    for i in range(1, n + 1):
        ex = 'example%03d' % i
        body, e1 = read_text('%s/%s/%s/body.txt' % (R, grp, ex))
        exp, e2 = read_text('%s/%s/%s/sanitized.txt' % (R, grp, ex))
        cases.append(case('mail-sanitizer', '%s_%s' % (grp, ex), exp, text=body, lang_hint='',
            expected_from='file spec/fixtures/%s/%s/sanitized.txt (spec/mail/sanitizer/sanitizer_spec.rb: expect(Sanitizer.new(body).sanitize).to eq(sanitized))' % (grp, ex),
            note='; '.join(x for x in [e1, e2] if x) or None))
write('mail-sanitizer', cases)
