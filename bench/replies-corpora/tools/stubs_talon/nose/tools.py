from rec import Res, record
def eq_(a, b, msg=None):
    if isinstance(a, Res): record(a, b)
    elif isinstance(b, Res): record(b, a)
def ok_(*a, **k): pass
def assert_false(*a, **k): pass
def assert_true(*a, **k): pass
__all__ = ['eq_', 'ok_', 'assert_false', 'assert_true']
