import re
RECORDS = []
CURRENT = {'test': None}
_real_ws = re.compile(r"\s")

class Res(object):
    """Stand-in for a library result: remembers the input and the operations applied."""
    def __init__(self, fn, inp, chain=()):
        self.fn, self.inp, self.chain = fn, inp, tuple(chain)
    def derive(self, op):
        return Res(self.fn, self.inp, self.chain + (op,))
    def __eq__(self, other):
        record(self, other); return True
    __hash__ = None
    def __ne__(self, other): return True
    def strip(self): return self.derive('strip')
    def __contains__(self, x): return True
    def startswith(self, *a): return True
    def endswith(self, *a): return True
    def __len__(self): return 1
    def __bool__(self): return True

class WsStr(str):
    """Expected string after whitespace removal; remembers the original literal."""
    pass

def record(res, other):
    if isinstance(other, Res):
        if other.chain: return
        exp, orig = other.inp, None   # expected is the (unprocessed) input itself
    else:
        exp = other
    orig = getattr(exp, 'orig', None)
    RECORDS.append(dict(test=CURRENT['test'], fn=res.fn, inp=res.inp, chain=res.chain,
                        expected=str(exp), expected_literal=orig))

class FakeWS(object):
    def sub(self, repl, s, *a):
        if isinstance(s, Res):
            return s.derive('remove_whitespace')
        w = WsStr(_real_ws.sub(repl, s, *a)); w.orig = s
        return w
