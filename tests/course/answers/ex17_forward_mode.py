"""The answers learners write, right and wrong, for the checks of exercise 17 and of
lesson 17's build (minigrad_course/checks/forward_mode.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

_DUAL = """\
class Dual:
    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        return Dual(self.value * other.value,
                    self.tangent * other.value + self.value * other.tangent)

    def sin(self):
        return Dual(self.value.sin(), self.tangent * self.value.cos())

    def mixed(self, W):
        return Dual(W @ self.value, W @ self.tangent)


"""

ROWS = [
    # 17 predictions: one pass per input instead of per output
    ("forward_mode.passes", "passes_prints = [2, 6]",
     FAIL("one backward pass per element of the output", never=("4",))),
    ("forward_mode.passes", "passes_prints = [4.0, 1.0]", PASS),
    # 17 two rules: the quotient written as a product passes; the tangent of exp without the
    # chain rule, the quotient rule's sign or square forgotten fail.
    ("forward_mode.rules", _DUAL + """\
def dual_exp(a):
    e = a.value.exp()
    return Dual(e, e * a.tangent)


def dual_div(a, b):
    inverse = Dual(1 / b.value, -b.tangent / (b.value * b.value))
    return a * inverse""", PASS),
    ("forward_mode.rules", _DUAL + """\
def dual_exp(a):
    return Dual(a.value.exp(), a.value.exp())


def dual_div(a, b):
    return Dual(a.value / b.value, (a.tangent * b.value - a.value * b.tangent) / b.value ** 2)""",
     FAIL("dual_exp(a): its tangent is not the derivative carried along",
          never=("a.tangent *",))),
    ("forward_mode.rules", _DUAL + """\
def dual_exp(a):
    return Dual(a.value.exp(), a.tangent * a.value.exp())


def dual_div(a, b):
    return Dual(a.value / b.value, (a.tangent * b.value + a.value * b.tangent) / b.value ** 2)""",
     FAIL("dual_div(a, b): its tangent is not the derivative", never=("b.value ** 2",))),
    ("forward_mode.rules", _DUAL + """\
def dual_exp(a):
    return Dual(a.value.exp(), a.tangent * a.value.exp())


def dual_div(a, b):
    return Dual(a.value / b.value, a.tangent / b.tangent)""",
     FAIL("dual_div(a, b): its tangent", never=("b.value ** 2",))),
    # 17 the Jacobian by columns: columns from eye passes; rows instead of columns, one pass
    # with all ones, the value instead of the tangent, reverse mode fail.
    ("forward_mode.jacobian_by_columns", _DUAL + """\
def jacobian_by_columns(f, x):
    eye = torch.eye(x.numel())
    return torch.stack([f(Dual(x, eye[j])).tangent for j in range(x.numel())]).T""", PASS),
    ("forward_mode.jacobian_by_columns", _DUAL + """\
def jacobian_by_columns(f, x):
    eye = torch.eye(x.numel())
    return torch.stack([f(Dual(x, eye[j])).tangent for j in range(x.numel())])""",
     FAIL("it is not the Jacobian, one row per output", "how do columns become a matrix",
          never=("dim=1",))),
    ("forward_mode.jacobian_by_columns", _DUAL + """\
def jacobian_by_columns(f, x):
    return f(Dual(x, torch.ones(x.numel()))).tangent""",
     FAIL("it is not the Jacobian", "f ran 1 times", never=("dim=1",))),
    ("forward_mode.jacobian_by_columns", _DUAL + """\
def jacobian_by_columns(f, x):
    eye = torch.eye(x.numel())
    return torch.stack([f(Dual(x, eye[j])).value for j in range(x.numel())], dim=1)""",
     FAIL("it is not the Jacobian", never=("tangent",))),
    ("forward_mode.jacobian_by_columns", _DUAL + """\
def jacobian_by_columns(f, x):
    def on_tensors(t):
        return f(Dual(t, torch.zeros_like(t))).value
    return torch.autograd.functional.jacobian(on_tensors, x)""",
     FAIL("it ran a backward pass", "one forward pass of Dual numbers", never=("dim=1",))),
    # 17 lesson build: Dual's product and sin
    ("forward_mode.dual_rules", """\
class Dual:
    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        return Dual(self.value * other.value, self.tangent * other.tangent)

    def sin(self):
        return Dual(self.value.sin(), self.tangent * self.value.cos())""",
     FAIL("its tangent is not the rule's", never=("other.value +",))),
    ("forward_mode.dual_rules", """\
class Dual:
    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        return Dual(self.value * other.value,
                    other.tangent * self.value + other.value * self.tangent)

    def sin(self):
        return Dual(self.value.sin(), self.value.cos())""",
     FAIL("Dual(a, da).sin(): its tangent is not the rule's", never=("tangent *",))),
    ("forward_mode.dual_rules", """\
class Dual:
    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):
        return Dual(self.value * other.value,
                    other.tangent * self.value + other.value * self.tangent)

    def sin(self):
        return Dual(self.value.sin(), self.value.cos() * self.tangent)""", PASS),
    ("forward_mode.dual_rules", """\
class Dual:
    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __mul__(self, other):
        # YOUR CODE HERE
        raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                            never=("other.value",))),
]
