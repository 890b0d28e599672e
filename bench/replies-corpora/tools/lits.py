import re, json, subprocess
ESC = {'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', "'": "'", '#': '#', '0': '\0', 'e': '\x1b', 's': ' '}
def dq(lit):
    """Decode a Ruby/Elixir/PHP double-quoted literal (including the quotes)."""
    assert lit[0] == '"' and lit[-1] == '"'
    body = lit[1:-1]; out = []; i = 0
    assert '#{' not in body, 'interpolation'
    while i < len(body):
        c = body[i]
        if c == '\\':
            n = body[i + 1]
            if n in ESC: out.append(ESC[n]); i += 2; continue
            raise ValueError('unknown escape \\' + n)
        out.append(c); i += 1
    return ''.join(out)
def php_sq(lit):
    assert lit[0] == "'" and lit[-1] == "'"
    return re.sub(r"\\([\\'])", r'\1', lit[1:-1])
def php_heredoc(src_from_marker):
    m = re.match(r"<<<(\w+)\n(.*?)\n\1\b", src_from_marker, re.S)
    return m.group(2), m.group(0)
def js_eval(lit):
    assert re.fullmatch(r"""(?s)\s*(['"`])(?:\\.|(?!\1).)*\1\s*""", lit), lit[:80]
    return json.loads(subprocess.check_output(['node', '-e', 'process.stdout.write(JSON.stringify(%s))' % lit]).decode())
def blocks(src, start_re):
    """Split source into {name: block_text} on a regex with one group naming the test."""
    ms = list(re.finditer(start_re, src, re.M))
    return {m.group(1): src[m.start(): (ms[i + 1].start() if i + 1 < len(ms) else len(src))] for i, m in enumerate(ms)}
DQ = r'"(?:[^"\\]|\\.)*"'
SQ = r"'(?:[^'\\]|\\.)*'"
