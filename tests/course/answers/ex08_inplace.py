"""The answers learners write, right and wrong, for the checks of exercise 08 and of
lesson 08's builds (minigrad_course/checks/inplace.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 08 predictions
    ("inplace.item_assignment", "item_grad = [2.0, 4.0, 3.0]",
     FAIL("its two contributions add up", never=("5.0",))),
    ("inplace.which_raise", "inplace_outcomes = ['error', 'error', [0.5, 0.5], 'error']",
     FAIL("exactly when backward would need the old value", never=("0.25",))),
    ("inplace.which_raise", "inplace_outcomes = ['Error', 'error', [0.5, 0.5], [0.5, 0.25]]",
     PASS),
    ("inplace.versions", "version_prints = [0, 1]",
     FAIL("_version counts in-place changes", never=("[0, 2]",))),
    ("inplace.data_versus_detach", "data_detach_prints = ['error', 'error']",
     FAIL(".data changes go unnoticed", never=("0.25",))),
    # 08 normalized: the change hidden behind .data, a clone divided in place (right)
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y.data /= y.sum().item()
    return (y ** 2).sum()""",
     FAIL("is not the gradient of the loss", "a change made through .data",
          never=("y / y.sum()", "clone()"))),
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x).clone()
    y /= y.sum()
    return (y ** 2).sum()""", PASS),
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    return (torch.div(y, y.sum()) ** 2).sum()""", PASS),
    # .item() makes a constant of the sum (issue 30: the hint blamed .data)
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y = y / y.sum().item()
    return (y ** 2).sum()""", FAIL(".item()", "constant", never=("y / y.sum()",))),
    # 08 count: answers in call order, values compared, fn run on a copy
    ("inplace.count_inplace", """\
answers = iter([1, 0, 1, 2, 0] * 4)
def count_inplace(fn, t):
    fn(t)
    return next(answers)""",
     FAIL("the count is wrong", "what does autograd keep count of", never=("_version",))),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    before = t.clone()
    fn(t)
    return int((t != before).any().item())""",
     FAIL("for fn(t) = t.mul_(1), which leaves the values as they were, the count is wrong",
          never=("_version",))),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    copy = t.detach().clone()
    before = copy._version
    fn(copy)
    return copy._version - before""",
     FAIL("fn should be called once, on t itself", never=("_version",))),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    versions = [t._version]
    fn(t)
    versions.append(t._version)
    return versions[1] - versions[0]""", PASS),
    ("inplace.count_inplace", """\
import sys
def count_inplace(fn, t):
    fn(t)
    frame = sys._getframe(1)
    while frame is not None and "expected" not in frame.f_locals:
        frame = frame.f_back
    return frame.f_locals["expected"] if frame else 0""",
     FAIL("reads the stack of calls", "compute the answer yourself", never=("_version",))),
    ("inplace.count_inplace", """\
import inspect
def count_inplace(fn, t):
    fn(t)
    return inspect.currentframe().f_back.f_back.f_locals.get("expected", 0)""",
     FAIL("reads the stack of calls", "compute the answer yourself", never=("_version",))),
    ("inplace.count_inplace", """\
class Count(int):
    def __eq__(self, other):
        return True
def count_inplace(fn, t):
    fn(t)
    return Count(0)""",
     FAIL("the count is wrong", "what does autograd keep count of", never=("_version",))),
]
