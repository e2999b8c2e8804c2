"""The answers learners write, right and wrong, for the checks of exercise 10 and of
lesson 10's builds (minigrad_course/checks/detach_and_no_grad.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 10 td: the wrong side detached, a no_grad target (right), .item() (right)
    ("detach_and_no_grad.td_loss", """\
def td_loss(w, x, reward):
    prediction = (w * x).sum().detach()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2""",
     FAIL("not the gradient through the prediction alone", "treat as a constant",
          never=("detach()",))),
    ("detach_and_no_grad.td_loss", """\
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    with torch.no_grad():
        target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2""", PASS),
    ("detach_and_no_grad.td_loss", """\
def td_loss(w, x, reward):
    prediction = (w * x).sum()
    return (prediction - (reward + 0.9 * (w * x * 2).sum().item())) ** 2""", PASS),
    # 10 frozen copy: detach() alone, clone() alone, a copy in another dtype
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.detach()",
     FAIL("changing the copy in place changed t", "what does detach() share with t",
          never=("clone()",))),
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.clone()",
     FAIL("the copy should have no history", "what cuts a tensor out of the graph",
          never=("detach()",))),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return torch.tensor(t.tolist(), dtype=torch.float32)",
     FAIL("the copy's dtype is torch.float32, t's torch.float64",
          "a copy made from t keeps t's", never=("clone()",))),
    # each failure names what differs, for the case as drawn (the last case's shape is drawn)
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.detach().clone() * 2",
     FAIL("for a result of shape (3,): the copy should hold t's values, got [4, 8, 12]",
          "for a leaf of shape (5,)", never=("clone()",))),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return t.detach().clone().reshape(-1)",
     FAIL("for a leaf of shape (2, 3): the copy should have t's shape (2, 3), got numbers of "
          "shape (6,)", never=("clone()",))),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return t.clone().detach()", PASS),
    ("detach_and_no_grad.frozen_copy", """\
def frozen_copy(t):
    with torch.no_grad():
        return t * 1""", PASS),
    # 10 prediction
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [4.0, 6.0], None]",
     FAIL("no_grad() makes constants", never=("[2.0, 4.0]",))),
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [2, 4], None]", PASS),
    # 10 lesson build, a no_grad of one's own: off for the block, the mode found put back. The
    # stub, a block that never turns it off, grad mode turned on at the end whatever it was,
    # never put back, one remembered mode for every block, no put-back when the block raises,
    # the error swallowed, and minigrad's own no_grad or set_grad_enabled doing it all fail.
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        self.before = torch.is_grad_enabled()
        torch.set_grad_enabled(False)

    def __exit__(self, *error):
        torch.set_grad_enabled(self.before)""", PASS),
    ("detach_and_no_grad.records_nothing", """\
import contextlib

@contextlib.contextmanager
def NoGrad():
    before = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        yield
    finally:
        torch.set_grad_enabled(before)""", PASS),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        # YOUR CODE HERE
        raise NotImplementedError()

    def __exit__(self, *error):
        # YOUR CODE HERE
        raise NotImplementedError()""",
     FAIL("still raises NotImplementedError", never=("is_grad_enabled()",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        self.before = torch.is_grad_enabled()

    def __exit__(self, *error):
        torch.set_grad_enabled(self.before)""",
     FAIL("inside the block grad mode was still on", "turn grad mode off there",
          never=("set_grad_enabled(False)",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        torch.set_grad_enabled(False)

    def __exit__(self, *error):
        torch.set_grad_enabled(True)  # on again, whatever it was""",
     FAIL("with grad mode off: after the block grad mode was on", "put it back in __exit__",
          never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        torch.set_grad_enabled(False)

    def __exit__(self, *error):
        pass""",
     FAIL("after the block grad mode was off", never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    before = True  # one for every block

    def __enter__(self):
        NoGrad.before = torch.is_grad_enabled()
        torch.set_grad_enabled(False)

    def __exit__(self, *error):
        torch.set_grad_enabled(NoGrad.before)""",
     FAIL("for one block inside another", "kept by that block's own object",
          never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
import contextlib

@contextlib.contextmanager
def NoGrad():
    before = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    yield  # an error in the block ends it here
    torch.set_grad_enabled(before)""",
     FAIL("when the block raises ValueError: after the block grad mode was off",
          "runs when the block raises too", never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        self.before = torch.is_grad_enabled()
        torch.set_grad_enabled(False)

    def __exit__(self, *error):
        torch.set_grad_enabled(self.before)
        return True""",
     FAIL("which tells `with` to swallow the block's error", never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        self.inner = torch.no_grad()
        self.inner.__enter__()

    def __exit__(self, *error):
        return self.inner.__exit__(*error)""",
     FAIL("minigrad's own no_grad.__enter__", "what the lesson asks you to write",
          never=("self.before",))),
    ("detach_and_no_grad.records_nothing", """\
class NoGrad:
    def __enter__(self):
        self.switch = torch.set_grad_enabled(False)

    def __exit__(self, *error):
        self.switch.__exit__(*error)""",
     FAIL("minigrad's own set_grad_enabled.__exit__", never=("self.before",))),
]
