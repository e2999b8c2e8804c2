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
]
