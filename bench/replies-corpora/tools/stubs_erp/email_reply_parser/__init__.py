import os
import sys
sys.path.insert(0, os.environ['REPLIES_WORK'] + '/stubs_talon')
from rec import Res

class Msg(object):
    def __init__(self, text):
        self._t = text
    @property
    def reply(self): return Res('read(text).reply', self._t)
    @property
    def text(self): return Res('read(text).text', self._t)
    @property
    def fragments(self): raise RuntimeError('fragments not stubbed')

class EmailReplyParser(object):
    @staticmethod
    def read(text): return Msg(text)
    @staticmethod
    def parse_reply(text):
        return Res('parse_reply(text)', text.inp if isinstance(text, Res) else text)
    @staticmethod
    def cut_off_at_signature(body, include=True, word_limit=1000):
        return Res('cut_off_at_signature(read(text).text, include=%r, word_limit=%r)' % (include, word_limit),
                   body.inp if isinstance(body, Res) else body)
