import os
import sys
sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_talon')
from rec import Res
Res.__getitem__ = lambda self, k: self.derive(k)
def quote(t, **k): return Res('quote', t)
def quote_html(t, **k): return Res('quote_html', t)
def unwrap(t, **k): return Res('unwrap', t)
def unwrap_html(t, **k): return Res('unwrap_html', t)
