"""The answers learners write, right and wrong, for the checks of exercise 04 and of
lesson 04's builds (minigrad_course/checks/resetting_gradients.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 04 predictions
    ("resetting_gradients.zero_grad", "zero_grad_prints = [[0.0, 0.0], [3.0, 3.0], [0.0, 0.0]]",
     FAIL("zero_grad() sets .grad to None", never=("[3.0, 3.0]",))),
    ("resetting_gradients.zero_grad", "zero_grad_prints = [[0, 0], [3, 3], None]", PASS),
    ("resetting_gradients.kept_reference", "saved_prints = [5.0, 5.0]",
     FAIL("zero_() reuses the tensor in place", never=("2.0",))),
    ("resetting_gradients.kept_reference", "saved_prints = (2, 5)", PASS),
    # 04 fit: the line solved in closed form with made-up losses, steps written in
    ("resetting_gradients.fit", """\
def fit(steps=100, lr=0.1):
    return torch.tensor(3.0), torch.tensor(1.0), [0.0] * steps""",
     FAIL("backward() ran 0 times, once per step is asked", never=("w.grad = None",))),
    ("resetting_gradients.fit", """\
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(100):
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
        w.grad = b.grad = None
        losses.append(loss.item())
    return w, b, losses[:steps]""",
     FAIL("fit(steps=40, lr=0.3): backward() ran 100 times, once per step",
          never=("w.grad = None",))),
    ("resetting_gradients.fit", """\
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    optimizer = torch.optim.SGD([w, b], lr=lr)
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return w, b, losses""", PASS),
    ("resetting_gradients.fit", """\
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(steps):
        if w.grad is not None:
            w.grad.zero_()
            b.grad.zero_()
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        losses.append(loss.item())
    return w, b, losses""", PASS),
    # 04 sgd step: lr written in, the update left in the graph, .grad zeroed not dropped
    ("resetting_gradients.sgd_step+sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= 0.1 * p.grad
            p.grad = None""",
     FAIL("with lr=0.25: some parameter did not move by -lr × its gradient",
          never=("p -= lr * p.grad",))),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    for i, p in enumerate(params):
        if p.grad is not None:
            params[i] = (p - lr * p.grad).detach().requires_grad_()
        p.grad = None""",
     FAIL("the very same tensor objects", "in place", never=("p -= lr * p.grad",))),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()""",
     FAIL("every .grad should be None, as zero_grad() leaves it", never=("p.grad = None",))),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.copy_(p - lr * p.grad)
    for p in params:
        p.grad = None""", PASS),
    # 04 sgd-step: writing through .data hides the update from autograd (lesson 08).
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.data -= lr * p.grad
        p.grad = None""",
     FAIL("changed behind autograd's back", "writing through p.data", never=("torch.no_grad()",))),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.sub_(lr * p.grad)
            p.grad = None""", PASS),
    # 04 sgd_step: torch's own SGD does the update the exercise asks for
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    optimizer = torch.optim.SGD(params, lr=lr)
    optimizer.step()
    optimizer.zero_grad()""",
     FAIL("it calls an optimizer's step()", "move each parameter yourself",
          never=("no_grad", "-="))),
    # 04 lesson build, an optimizer's zero_grad() without one: None by default, zeros in the
    # same tensor with set_to_none=False, a gradient-less parameter left alone. The stub, one
    # way for both, zeros in a new tensor, a crash on a None .grad, a gradient given to a
    # parameter that had none, and an optimizer or minigrad doing it all fail.
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()""", PASS),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        if p.grad is not None and not set_to_none:
            p.grad.mul_(0)
        elif p.grad is not None:
            p.grad = None""", PASS),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    # YOUR CODE HERE
    raise NotImplementedError()""",
     FAIL("still raises NotImplementedError", never=("zero_()", "= None"))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        p.grad = None  # the flag never read""",
     FAIL("set_to_none=False", "this way keeps the gradient tensor", never=("zero_()",))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=False):  # the default the other way round
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()""",
     FAIL("called as zero_grad(params) on", "some .grad is still a tensor", "its default",
          never=("= None",))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        if p.grad is not None:
            p.grad = None if set_to_none else torch.zeros_like(p)""",
     FAIL(".grad is a new tensor", "in place", never=("zero_()",))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()""",
     FAIL("raised AttributeError", "received no gradient has .grad None", never=("continue",))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    for p in params:
        if set_to_none:
            p.grad = None
        elif p.grad is None:
            p.grad = torch.zeros_like(p)
        else:
            p.grad.zero_()""",
     FAIL("whose .grad was None got a tensor", "step() skips it", never=("continue",))),
    ("resetting_gradients.reset_all", """\
def zero_grad(params, set_to_none=True):
    torch.optim.SGD(params, lr=0.1).zero_grad(set_to_none)""",
     FAIL("an optimizer's zero_grad()", "asks you to write", never=("zero_()", "= None"))),
]
