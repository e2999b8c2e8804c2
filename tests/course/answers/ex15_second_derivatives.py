"""The answers learners write, right and wrong, for the checks of exercise 15 and of
lesson 15's build (minigrad_course/checks/second_derivatives.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 15 predictions
    ("second_derivatives.second_order", "second_order_prints = [4.0, 12.0, 12.0]",
     FAIL("create_graph makes the gradient differentiable", never=("None",))),
    ("second_derivatives.second_order", "second_order_prints = [4, 12, None]", PASS),
    # 15 the n-th derivative: loops that record all but the last pass pass;
    # finite differences, backward(), every pass recorded, two passes whatever n, no pass
    # recorded, and ready-made derivatives fail.
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    result = f(x)
    for i in range(1, n + 1):
        result = torch.autograd.grad(result, [x], create_graph=i < n)[0]
    return result""", PASS),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    result, left = f(x), n
    while left:
        left -= 1
        (result,) = torch.autograd.grad(result, x, create_graph=left > 0)
    return result""", PASS),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    h = 1e-2
    with torch.no_grad():
        return sum((-1) ** i * math.comb(n, i) * f(x + (n / 2 - i) * h)
                   for i in range(n + 1)) / h ** n
import math""",
     FAIL("it is not the n-th derivative", "did not differentiate",
          never=("create_graph",))),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    result = f(x)
    for i in range(n):
        result = torch.autograd.grad(result, x, create_graph=True)[0]
    return result""",
     FAIL("the passes were not recorded as they should be", "does the last one need to",
          never=("i < n - 1",))),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    (first,) = torch.autograd.grad(f(x), x, create_graph=True)
    (second,) = torch.autograd.grad(first, x)
    return second""",
     FAIL("it is not the n-th derivative", "how many passes does n ask for",
          never=("create_graph",))),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    result = f(x)
    for i in range(n):
        result = torch.autograd.grad(result, x)[0]
    return result""", FAIL("no graph of its own", "which argument of autograd.grad",
                           never=("create_graph=True",))),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    result = f(x)
    for i in range(n):
        result.backward(create_graph=i < n - 1)
        result = x.grad
        x.grad = None
    return result""",
     FAIL("backward() ran (or .grad was filled)", "leaves .grad alone",
          never=("create_graph",))),
    ("second_derivatives.nth_derivative", """\
def nth_derivative(f, x, n):
    if n == 1:
        return torch.autograd.grad(f(x), x)[0]
    return torch.autograd.functional.hessian(f, x)""",
     FAIL("it calls torch.autograd.functional.hessian", "write the torch.autograd.grad passes",
          never=("create_graph",))),
    # 15 gradient penalty: the worked order written otherwise passes; the gradient taken
    # without a graph (the penalty then a constant), the penalty dropped, backward() fail.
    ("second_derivatives.penalized_gradient", """\
def penalized_gradient(loss_fn, w):
    value = loss_fn(w)
    g = torch.autograd.grad([value], [w], create_graph=True)[0]
    return torch.autograd.grad([value + g.pow(2).sum()], [w])[0]""", PASS),
    ("second_derivatives.penalized_gradient", """\
def penalized_gradient(loss_fn, w):
    loss = loss_fn(w)
    (g,) = torch.autograd.grad(loss, w, retain_graph=True)
    (total,) = torch.autograd.grad(loss + (g * g).sum(), w)
    return total""",
     FAIL("it is not the gradient of loss_fn(w) + (g * g).sum()", "was g recorded",
          never=("create_graph",))),
    ("second_derivatives.penalized_gradient", """\
def penalized_gradient(loss_fn, w):
    (g,) = torch.autograd.grad(loss_fn(w), w)
    return g""",
     FAIL("it is not the gradient of loss_fn(w) + (g * g).sum()", never=("create_graph",))),
    ("second_derivatives.penalized_gradient", """\
def penalized_gradient(loss_fn, w):
    loss = loss_fn(w)
    (g,) = torch.autograd.grad(loss, w, create_graph=True)
    (loss + (g * g).sum()).backward()
    total = w.grad
    w.grad = None
    return total""",
     FAIL("backward() ran (or .grad was filled)", never=("create_graph",))),
    # 15 lesson build, a Newton step: two passes, the first recorded. The stub, the first
    # pass unrecorded, backward(), finite differences, the slope alone (gradient descent) and
    # a step that is no leaf fail.
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    slope = torch.autograd.grad(f(x), [x], create_graph=True)[0]
    curvature = torch.autograd.grad(slope.sum(), [x])[0]
    with torch.no_grad():
        return (x - slope / curvature).requires_grad_()""", PASS),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    # YOUR CODE HERE
    raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                        never=("create_graph",))),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    (slope,) = torch.autograd.grad(f(x), x)
    (curvature,) = torch.autograd.grad(slope, x)
    with torch.no_grad():
        return (x - slope / curvature).requires_grad_()""",
     FAIL("no graph of its own", never=("create_graph=True",))),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    (slope,) = torch.autograd.grad(f(x), x, create_graph=True)
    slope.backward()
    curvature = x.grad
    x.grad = None
    with torch.no_grad():
        return (x - slope / curvature).requires_grad_()""",
     FAIL("backward() ran (or .grad was filled)", never=("create_graph",))),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    h = 1e-2
    with torch.no_grad():
        slope = (f(x + h) - f(x - h)) / (2 * h)
        curvature = (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2
        return (x - slope / curvature).requires_grad_()""",
     FAIL("did not differentiate 2 times", never=("create_graph",))),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    (slope,) = torch.autograd.grad(f(x), x)
    with torch.no_grad():
        return (x - 0.1 * slope).requires_grad_()""",
     FAIL("does not land on", never=("create_graph",))),
    ("second_derivatives.newton_step", """\
def newton_step(f, x):
    (slope,) = torch.autograd.grad(f(x), x, create_graph=True)
    (curvature,) = torch.autograd.grad(slope, x)
    return x.detach() - slope.detach() / curvature""",
     FAIL("not a leaf that requires grad", never=("create_graph",))),
]
