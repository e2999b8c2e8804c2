"""The answers learners write, right and wrong, for the checks of exercise 02 and of
lesson 02's builds (minigrad_course/checks/grad_is_none.py);
rows as answers/__init__.py says."""
from __future__ import annotations

import minigrad

from .feedback_words import FAIL, PASS


def _seeded_weights(n: int) -> list[float]:
    minigrad.manual_seed(0)
    return (minigrad.randn(n) * 0.01).tolist()


ROWS = [
    # 02 predictions
    ("grad_is_none.before_and_after", "before_after = [None, 5.0, None, 2.0]",
     FAIL("fills .grad only for leaves that require grad", never=("1.0",))),
    ("grad_is_none.before_and_after", "before_after = [None, 5, None, 1]", PASS),
    ("grad_is_none.outcomes", "outcomes = [6.0, 'error', None, 'error']",
     FAIL("a zero gradient is not None", never=("[0.0, 0.0]",))),
    ("grad_is_none.outcomes", "outcomes = [6, 'Error', [0, 0], 'error']", PASS),
    # 02 init: the values for n = 3 written out, a result that is not a leaf
    ("grad_is_none.init_weights",
     f"def init_weights(n):\n    return torch.tensor({_seeded_weights(3)}, requires_grad=True)",
     FAIL("init_weights(5) should have shape (5,)", "keep the same seed", never=("0.0154",))),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    w = torch.randn(n, requires_grad=True) * 0.01
    w.retain_grad()
    return w""",
     FAIL("not a leaf", "backward() will not fill its .grad", never=("requires_grad_()",))),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    w = torch.randn(n) * 0.01
    w.requires_grad = True
    return w""", PASS),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    with torch.no_grad():
        w = torch.randn(n, requires_grad=True) * 0.01
    return w.requires_grad_()""", PASS),
    # 02 who: answers in the order of the calls, a backward to find out, half the rule
    ("grad_is_none.will_get_grad", """\
answers = iter([True, False, False, False] * 10)
def will_get_grad(t):
    return next(answers)""",
     FAIL("your prediction is not what backward() does", "is it a leaf, and does it require grad",
          never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", """\
def will_get_grad(t):
    try:
        t.sum().backward()
    except RuntimeError:
        return False
    got = t.grad is not None
    t.grad = None
    return got""",
     FAIL("it ran a backward pass", "decide from t's attributes alone", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.requires_grad",
     FAIL("for an intermediate result that requires grad", "is it a leaf", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return bool(t.requires_grad and t.grad_fn is None)", PASS),
    # 02 will-get-grad: 1/0 are not bools; a rule that ignores requires_grad is wrong.
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return int(t.is_leaf and t.requires_grad)",
     FAIL("it should return a bool", "not 1 or 0", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.is_leaf",
     FAIL("for a leaf created without requires_grad, your prediction is not what backward() does",
          "does it require grad", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return t.requires_grad and t.grad_fn is None", PASS),
    # 02 lesson build, slope by nudging: one- or two-sided differences pass; no division, a
    # nudge too large, the two-sided difference divided by eps, or autograd do not.
    ("grad_is_none.slope", """\
def slope(f, x):
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / (2 * eps)""", PASS),
    ("grad_is_none.slope", """\
def slope(f, x):
    return (f(x + 1e-4) - f(x)) / 1e-4""", PASS),
    ("grad_is_none.slope", """\
def slope(f, x):
    return f(x + 1e-6) - f(x)""",
     FAIL("is not the slope there", "divide how far f moves by how far x moved", never=("/ eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    return (f(x + 0.5) - f(x)) / 0.5""",
     FAIL("is not the slope there", "a nudge of about 1e-6 is small enough to be accurate",
          never=("/ eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / eps""",
     FAIL("is not the slope there", "divide how far f moves by how far x moved",
          never=("2 * eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    t = torch.tensor(x, requires_grad=True)
    f(t).backward()
    return t.grad.item()""",
     FAIL("it ran a backward pass", "by nudging x and calling f", never=("/ eps",))),
]
