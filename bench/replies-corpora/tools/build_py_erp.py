import sys, os, json
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
for corpus, repo, recf, testfile in [
        ('zapier-email-reply-parser', 'zapier+email-reply-parser', 'zapier_records.json', 'test/test_email_reply_parser.py'),
        ('edgetier-email-reply-parser', 'EdgeTier+email-reply-parser', 'edgetier_records.json', 'test/test_email_reply_parser.py')]:
    R = SRC + '/' + repo
    recs = json.load(open(os.environ['REPLIES_WORK'] + '/' + recf))['records']
    cases = []; seen = {}
    for r in recs:
        assert r['files'] and len(r['files']) == 1, r
        path = r['files'][0]
        stem = os.path.basename(path)[:-4]
        text, enc = read_text(R + '/' + path)
        call = r['fn'] + ''.join('.' + c + '()' for c in r['chain'])
        key = (stem, r['expected'])
        if key in seen:   # same fixture & same expectation asserted twice
            continue
        seen[key] = 1
        exp = r['expected']
        how = '%s::%s asserts %s == expected; fixture %s' % (testfile, r['test'], call, path)
        note = []
        if r['fn'] == 'read(text).text':
            how += ' (test_clean_email_content_no_change: expected is the message text itself, i.e. the fixture with CRLF->LF)'
            call = 'cut_off_at_signature(read(text).text, word_limit=1000)'
            how = '%s::%s asserts read(text).text == cut_off_at_signature(read(text).text, word_limit=1000); expected = fixture text with CRLF normalised to LF; fixture %s' % (testfile, r['test'], path)
        if '\r' in text: note.append('fixture contains CR characters; tests read it in Python text mode (CRLF->LF)')
        if enc: note.append(enc)
        cases.append(case(corpus, stem, exp, text=text, compare='strip' if 'strip' in r['chain'] else 'exact',
                          expected_from=how, note='; '.join(note) or None))
    write(corpus, cases)
