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
    # 08 lesson build, a saved tensor: kept with its version, checked when read. The stub, a
    # version hard-coded to 0, the values compared instead, an error that never comes or says
    # the lesson's numbers, one version for every Saved, a copy returned, and minigrad's own
    # SavedTensor doing it fail.
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor, self.version = tensor, tensor._version

    def unpack(self):
        now = self.tensor._version
        if now != self.version:
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: is at version {now}; expected version {self.version} "
                "instead")
        return self.tensor""", PASS),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        # YOUR CODE HERE
        raise NotImplementedError()

    def unpack(self):
        # YOUR CODE HERE
        raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                            never=("!= self.version",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor, self.version = tensor, 0  # a new tensor's version

    def unpack(self):
        now = self.tensor._version
        if now != self.version:
            raise RuntimeError("one of the variables needed for gradient computation has been "
                               f"modified by an inplace operation: is at version {now}; "
                               f"expected version {self.version} instead")
        return self.tensor""",
     FAIL("but t's version is still the one saved", never=("tensor._version",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor, self.values = tensor, tensor.clone()

    def unpack(self):
        if not torch.equal(self.tensor, self.values):
            raise RuntimeError("one of the variables needed for gradient computation has been "
                               "modified by an inplace operation")
        return self.tensor""",
     FAIL("returned, though t's version moved on", "not the values",
          never=("tensor._version",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor = tensor

    def unpack(self):
        return self.tensor""",
     FAIL("returned, though t's version moved on", "compare the version kept",
          never=("!= self.version",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor, self.version = tensor, tensor._version

    def unpack(self):
        if self.tensor._version != self.version:
            raise RuntimeError("one of the variables needed for gradient computation has been "
                               "modified by an inplace operation: [torch.FloatTensor [2]], "
                               "which is output 0 of ExpBackward0, is at version 1; expected "
                               "version 0 instead")
        return self.tensor""",
     FAIL("the error does not say PyTorch's words with the versions of this case",
          never=("{self.version}",))),
    ("inplace.saved_versions", """\
class Saved:
    version = None  # one for every Saved

    def __init__(self, tensor):
        self.tensor = tensor
        Saved.version = tensor._version

    def unpack(self):
        now = self.tensor._version
        if now != Saved.version:
            raise RuntimeError("one of the variables needed for gradient computation has been "
                               f"modified by an inplace operation: is at version {now}; "
                               f"expected version {Saved.version} instead")
        return self.tensor""",
     FAIL("returned, though t's version moved on", never=("self.version =",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor, self.version = tensor.detach(), tensor._version

    def unpack(self):
        now = self.tensor._version
        if now != self.version:
            raise RuntimeError("one of the variables needed for gradient computation has been "
                               f"modified by an inplace operation: is at version {now}; "
                               f"expected version {self.version} instead")
        return self.tensor""",
     FAIL("did not return t itself", "the very tensor", never=("self.tensor, self.version =",))),
    ("inplace.saved_versions", """\
class Saved:
    def __init__(self, tensor):
        self.tensor = tensor
        alias = tensor.detach().requires_grad_()  # shares the counter: let a real node save it
        self.node = (alias * alias).grad_fn

    def unpack(self):
        self.node._saved_self  # raises PyTorch's own error once t changed
        return self.tensor""",
     FAIL("minigrad's own SavedTensor", "does what the lesson asks you to write",
          never=("!= self.version",))),
]
