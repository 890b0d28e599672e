import sys, os, re
sys.path.insert(0, os.environ['REPLIES_WORK'] + '')
from common_rb import *
from lits import *

# ---------- github/email_reply_parser (Ruby) ----------
R = SRC + '/github+email_reply_parser'
src = open(R + '/test/email_reply_parser_test.rb', encoding='utf-8').read()
B = blocks(src, r'^  def (test_\w+)')
cases, used = [], []
for name, blk in B.items():
    m = re.search(r'assert_equal\s+(' + DQ + r')\s*,\s*(EmailReplyParser\.parse_reply\(body\)|reply\.fragments\[0\]\.to_s)', blk)
    if not m: continue
    exp = dq(m.group(1)); via = m.group(2)
    fx = re.search(r'join\("([\w.]+)\.txt"\)|email\(:(\w+)\)', blk)
    stem = fx.group(1) or fx.group(2)
    text, enc = read_text(R + '/test/emails/%s.txt' % stem)
    if via.startswith('reply.fragments') and name != 'test_reads_simple_body':
        continue  # e.g. test_reads_bottom_post: fragment 2 is visible too, so fragment 0 is not the whole reply
    if via.startswith('reply.fragments'):
        assert 'assert_equal [false, true, true],\n      reply.fragments.map { |f| f.hidden? }' in blk
        how = ('test/email_reply_parser_test.rb::%s: assert_equal <expected>, reply.fragments[0].to_s, and fragments 1..2 asserted hidden, '
               'so the visible reply is fragment 0 (parse_reply/visible_text would return it rstripped)' % name)
        cmp_ = 'strip'
    else:
        how = 'test/email_reply_parser_test.rb::%s: assert_equal <expected>, EmailReplyParser.parse_reply(File.read(test/emails/%s.txt))' % (name, stem)
        cmp_ = 'exact'
    cases.append(case('github-email-reply-parser', stem, exp, text=text, compare=cmp_, expected_from=how, note=enc))
    used.append(name)
m = re.search(r'non_ascii_body = (' + DQ + ')', B['test_handles_non_ascii_characters'])
s = dq(m.group(1))
cases.append(case('github-email-reply-parser', 'inline_handles_non_ascii_characters', s, text=s,
    expected_from='test/email_reply_parser_test.rb::test_handles_non_ascii_characters: assert_equal non_ascii_body, EmailReplyParser.parse_reply(non_ascii_body) (inline body, no fixture file)'))
write('github-email-reply-parser', cases)
print(sorted(set(B) - set(used)))

# ---------- hellogustav/elixir_email_reply_parser (Elixir) ----------
R = SRC + '/hellogustav+elixir_email_reply_parser'
src = open(R + '/test/elixir_email_reply_parser_test.exs', encoding='utf-8').read()
B = blocks(src, r'^  test "([^"]+)" do')
cases, seen = [], {}
for name, blk in B.items():
    fx = re.search(r"""get_email(?:_content)?\(["']([\w/]+)["']\)""", blk)
    m = re.search(r'assert ElixirEmailReplyParser\.parse_reply\((?:content|body)\) == (' + DQ + ')', blk)
    if m:
        exp, cmp_ = dq(m.group(1)), 'exact'
        how = 'test/elixir_email_reply_parser_test.exs test "%s": assert ElixirEmailReplyParser.parse_reply(content) == <expected>' % name
    elif (m := re.search(r'assert reply_text == (' + DQ + ')', blk)):
        exp, cmp_ = dq(m.group(1)), 'exact'
        how = 'test/elixir_email_reply_parser_test.exs test "%s": reply_text = parse_reply(content); assert reply_text == <expected>' % name
    elif (m := re.search(r'assert String\.trim\(reply_text\) == (' + DQ + ')', blk)):
        exp, cmp_ = dq(m.group(1)), 'strip'
        how = 'test/elixir_email_reply_parser_test.exs test "%s": assert String.trim(Parser.reply(read(content))) == <expected>' % name
    elif (m := re.search(r'assert Enum\.at\(fragments, 0\)\.content == (' + DQ + ')', blk)) and \
            'fragment.hidden) == [false, true, true]' in blk and name == 'ruby_test_reads_simple_body':
        exp, cmp_ = dq(m.group(1)), 'strip'
        how = ('test/elixir_email_reply_parser_test.exs test "%s": assert Enum.at(fragments, 0).content == <expected>, and fragments 1..2 '
               'asserted hidden, so the visible reply is fragment 0' % name)
    else:
        continue
    if not fx:
        if name == 'ruby_test_handles_non_ascii_characters': pass
        continue
    stem = fx.group(1)
    text, enc = read_text(R + '/test/emails/%s.txt' % stem)
    if stem in seen:
        assert seen[stem] == exp, (stem, name); continue
    seen[stem] = exp
    cases.append(case('elixir-email-reply-parser', stem.replace('/', '_'), exp, text=text, compare=cmp_, expected_from=how, note=enc,
                      lang_hint=stem))
m = re.search(r'non_ascii_body = (' + DQ + ')', B['ruby_test_handles_non_ascii_characters'])
s = dq(m.group(1))
cases.append(case('elixir-email-reply-parser', 'inline_handles_non_ascii_characters', s, text=s,
    expected_from='test "ruby_test_handles_non_ascii_characters": assert parse_reply(non_ascii_body) == non_ascii_body (inline body)'))
write('elixir-email-reply-parser', cases)

# ---------- sosedoff/mail_extract (Ruby) ----------
R = SRC + '/sosedoff+mail_extract'
cases = []
for stem in ['simple', 'simple_with_quotes']:
    text, _ = read_text(R + '/spec/fixtures/%s.txt' % stem); exp, _ = read_text(R + '/spec/fixtures/result_%s.txt' % stem)
    cases.append(case('sosedoff-mail-extract', stem, exp, text=text,
        expected_from="file spec/fixtures/result_%s.txt (spec/parser_spec.rb: MailExtract.new(fixture).body.should == result_fixture)" % stem))
src = open(R + '/spec/parser_spec.rb', encoding='utf-8').read()
for m in re.finditer(r"it '([^']+)' do\n(.*?)\n  end", src, re.S):
    blk = m.group(2)
    e = re.search(r"body\.should == ('[^']*')", blk)
    f = re.search(r"fixture\('([\w.]+)\.txt'\)", blk)
    if not e or not f or 'result_fixture' in blk: continue
    stem = f.group(1); text, _ = read_text(R + '/spec/fixtures/%s.txt' % stem)
    opt = ':only_head => true' in blk
    cases.append(case('sosedoff-mail-extract', stem, e.group(1)[1:-1], text=text, client='iphone' if 'iphone' in stem else None,
        expected_from="spec/parser_spec.rb it '%s': body.should == <expected>%s" % (m.group(1), ' (parsed with MailExtract.new(text, :only_head => true))' if opt else ''),
        note='upstream used option :only_head => true' if opt else None))
write('sosedoff-mail-extract', cases)
