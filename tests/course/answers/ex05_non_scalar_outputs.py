"""The answers learners write, right and wrong, for the checks of exercise 05 and of
lesson 05's builds (minigrad_course/checks/non_scalar_outputs.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 05 predictions
    ("non_scalar_outputs.weighted", "weighted_prints = [[3.0, 3.0, 12.0], [1.0, 1.0, 4.0]]",
     FAIL("weights each output", never=("6.0, 6.0",))),
    ("non_scalar_outputs.weighted", "weighted_prints = [[3, 6, 6], [1, 1, 4]]", PASS),
    # 05 mse: a gradient of ones (the sum), n = 3 written in, the gradient by hand
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward(torch.ones_like(errors))
    return w.grad""",
     FAIL("not that of the mean squared error", "which single number is the loss",
          never=(".mean()",))),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward(torch.ones_like(errors) / 3)
    return w.grad""",
     FAIL("not that of the mean squared error", "which single number is the loss",
          never=(".mean()",))),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    return 2 * xs.T @ (xs @ w.detach() - ys) / len(ys)""",
     FAIL("no backward pass brought that gradient to w", "not worked out by hand",
          never=(".mean()",))),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward(torch.ones_like(errors) / len(errors))
    return w.grad""", PASS),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    return torch.autograd.grad(((xs @ w - ys) ** 2).mean(), w)[0]""", PASS),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    ((xs @ w - ys) ** 2).mean().backward()  # the gradient is left in w.grad, not returned""",
     FAIL("with 1 sample: it should return w's gradient, not None", never=("1 samples",))),
    # 05 jacobian: the engine's, finite differences, rows that accumulate, the lesson's
    # vectors-only answer (a one-hot of y.numel() entries, rows left unshaped)
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    return torch.autograd.functional.jacobian(f, x)""",
     FAIL("it calls torch.autograd.functional.jacobian", "what the exercise asks you to write",
          never=("one_hot",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    h, columns = 1e-6, []
    y = f(x)
    with torch.no_grad():
        for j in range(x.numel()):
            step = torch.zeros(x.numel())
            step[j] = h
            step = step.reshape(x.shape)
            columns.append(((f(x + step) - f(x - step)) / (2 * h)).reshape(-1))
    for i in range(y.numel()):  # as many backward passes as rows, through nothing that matters
        (x * 0).sum().backward()
    return torch.stack(columns).T.reshape(y.shape + x.shape)""",
     FAIL("one per element of y", "not all from f's output", never=("x.grad = None",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        y.backward(one_hot.reshape(y.shape), retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows).reshape(y.shape + x.shape)""",
     FAIL("x.grad accumulates", "start each row from an empty .grad", never=("x.grad = None",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    m = f(x).numel()
    rows = []
    for i in range(m):
        x.grad = None
        one_hot = torch.zeros(m)
        one_hot[i] = 1.0
        f(x).backward(one_hot)
        rows.append(x.grad)
    return torch.stack(rows)""",
     FAIL("Mismatch in shape", "a one-hot of y's shape", never=("reshape",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None
        y.backward(one_hot.reshape(y.shape), retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)""",
     FAIL("expected J of shape y.shape + x.shape", "stack them, then reshape",
          never=("y.shape + x.shape)",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    flat = y.reshape(-1)
    rows = []
    for i in range(flat.numel()):
        (row,) = torch.autograd.grad(flat[i], x, retain_graph=True)
        rows.append(row)
    return torch.stack(rows).reshape(tuple(y.shape) + tuple(x.shape))""", PASS),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    J = torch.zeros(y.numel(), x.numel())
    for i in range(y.numel()):
        if x.grad is not None:
            x.grad.zero_()
        y.reshape(-1)[i].backward(retain_graph=True)
        J[i] = x.grad.reshape(-1)
    return J.reshape(*y.shape, *x.shape)""", PASS),
    # 05 vjp: a backward pass where the chain rule by hand is asked
    ("non_scalar_outputs.vjp_by_hand+vjp_other_shapes", """\
def vjp_tanh(W, x, v):
    x = x.clone().requires_grad_()
    torch.tanh(W @ x).backward(v)
    return x.grad""",
     FAIL("it ran a backward pass", "the chain rule applied by hand", never=("@ W",))),
    ("non_scalar_outputs.vjp_by_hand+vjp_other_shapes", """\
def vjp_tanh(W, x, v):
    return v @ W  # tanh forgotten""",
     FAIL("it differs from x.grad after tanh(W @ x).backward(v)", "first through tanh",
          never=("v * (1 -",))),
    ("non_scalar_outputs.vjp_by_hand+vjp_other_shapes", """\
def vjp_tanh(W, x, v):
    return W.T @ (v * (1 - torch.tanh(W @ x) ** 2))""", PASS),
    # 05 lesson build, the Jacobian of a graph: autograd.grad per row is as right as
    # backward(); rows that accumulate, rows that alias one zeroed .grad, and the packaged
    # jacobian are not.
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None
        y.backward(gradient=one_hot, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)""", PASS),
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = [torch.autograd.grad(y, x, torch.eye(y.numel())[i], retain_graph=True)[0]
            for i in range(y.numel())]
    return torch.stack(rows)""", PASS),
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        y.backward(gradient=one_hot, retain_graph=True)  # no reset: rows add up
        rows.append(x.grad.clone())
    return torch.stack(rows)""",
     FAIL("x.grad accumulates", "start each row from an empty .grad", never=("x.grad = None",))),
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        if x.grad is not None:
            x.grad.zero_()  # every row is this one tensor
        y.backward(gradient=one_hot, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows)""",
     FAIL("a name for x.grad is that very tensor", "start each row from an empty .grad",
          never=("clone()",))),
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None
        y.backward(gradient=one_hot, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows).T  # columns instead of rows""",
     FAIL("one row per element of y and one column per element of x",
          "got numbers of shape (3, 2)", never=(".T",))),
]
