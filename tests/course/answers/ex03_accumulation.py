"""The answers learners write, right and wrong, for the checks of exercise 03 and of
lesson 03's builds (minigrad_course/checks/accumulation.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 03 predictions
    ("accumulation.both_orders", "both_orders = [4.0, 12.0, 12.0, 16.0]",
     FAIL("the sum of every backward so far", never=("16",))),
    ("accumulation.both_orders", "both_orders = [4, 16, 12, 16.0]", PASS),
    ("accumulation.loop", "after_loop = [3.0, 3.0]", FAIL("adds", "nothing resets", never=("12",))),
    # the printed text copied as a prediction: it can never match, and saying "not what it
    # prints" would send the learner to rethink numbers that may be right
    ("accumulation.loop", "after_loop = 'tensor([12., 12.])'",
     FAIL("you wrote the text", "without quotes", never=("Hint", "each pass adds"))),
    # 03 two losses: gradients written out by hand, the values for the shown w
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    return torch.full_like(w, 2.0), 2 * w.detach()""",
     FAIL("no backward pass brought these gradients", "not written out by hand",
          never=("clone()",))),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    return torch.tensor([2.0, 2.0, 2.0]), torch.tensor([2.0, -2.0, 6.0])""",
     FAIL("no backward pass brought these gradients", "not written out by hand",
          never=("clone()",))),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.clone()
    (w ** 2).sum().backward()
    return grad_a, w.grad - grad_a  # what the second pass added""", PASS),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.clone()
    w.grad.zero_()
    (w ** 2).sum().backward()
    return grad_a, w.grad""", PASS),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.clone()
    (w ** 2).sum().backward()
    return grad_a, w.grad""", FAIL("what does .grad still hold", never=("zero_", "= None"))),
    # 03 micro-batches: one whole-batch pass padded with empty ones, a numpy gradient
    # pushed through dummy backwards, the mean of each micro-batch
    ("accumulation.micro_batches+micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    ((inputs @ w - targets) ** 2).mean().backward()
    for _ in range(1, -(-len(inputs) // micro_batch_size)):
        (w * 0).sum().backward()""",
     FAIL("did not bring one micro-batch's share", "from its rows only", never=("/ n",))),
    ("accumulation.micro_batches+micro_batches_uneven", """\
import numpy as np
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    x, y, v = inputs.numpy(), targets.numpy(), w.detach().numpy()
    w.grad = torch.tensor(2 * x.T @ (x @ v - y) / len(x))
    for _ in range(-(-len(inputs) // micro_batch_size)):
        (w * 0).sum().backward()""",
     FAIL("did not bring one micro-batch's share", "from its rows only", never=("/ n",))),
    ("accumulation.micro_batches+micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    for start in range(0, len(inputs), micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        ((inputs[rows] @ w - targets[rows]) ** 2).mean().backward()""",
     FAIL("did not bring one micro-batch's share", "divided by the whole batch's size",
          never=("/ n",))),
    ("accumulation.micro_batches+micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    starts = list(range(0, n, micro_batch_size))
    for start in reversed(starts):  # any order: addition does not care
        rows = slice(start, start + micro_batch_size)
        errors = inputs[rows] @ w - targets[rows]
        (errors.pow(2).sum() / n).backward()""", PASS),
    # 03 loop: the printed tensor has shape (2,).
    ("accumulation.loop", "after_loop = 12",
     FAIL("you wrote a number; it prints 2 numbers", "nothing resets .grad", never=("12.0",))),
    ("accumulation.loop", "after_loop = [12.0, 12.0]", PASS),
    ("accumulation.loop", "after_loop = torch.tensor([12.0, 12.0])", PASS),
    # 03 two losses: other ways to keep the two gradients apart.
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    grad_a = torch.autograd.grad((w * 2).sum(), w)[0]
    grad_b = torch.autograd.grad((w ** 2).sum(), w)[0]
    return grad_a, grad_b""", PASS),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad
    w.grad = None  # backward makes a new tensor: grad_a is left alone
    (w ** 2).sum().backward()
    return grad_a, w.grad""", PASS),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad
    w.grad.zero_()  # grad_a is this very tensor: zeroed, then filled by loss_b
    (w ** 2).sum().backward()
    return grad_a, w.grad""",
     FAIL("grad_a is not the gradient of loss_a alone", "is grad_a a copy", never=("clone()",),
          shows_got=True)),
    # 03 micro-batches: dividing each micro-batch's mean by the number of micro-batches is
    # right only when the split is even; the visible check must catch it.
    ("accumulation.micro_batches", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    num_batches = -(-n // micro_batch_size)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        loss = ((inputs[rows] @ w - targets[rows]) ** 2).mean() / num_batches
        loss.backward()""",
     FAIL("did not bring one micro-batch's share", "the whole batch's size", never=("/ n",),
          shows_got=True)),
    ("accumulation.micro_batches", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        errors = (inputs[rows] @ w - targets[rows]) ** 2
        (errors.mean() * len(errors) / n).backward()""", PASS),
    ("accumulation.micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        (((inputs[rows] @ w - targets[rows]) ** 2).sum() / n).backward()""", PASS),
    # 03 lesson build, what a leaf's AccumulateGrad does: a copy first, then adding in place;
    # the stub, a value hard-coded from the lesson, replacing, a new tensor each time, the
    # caller's tensor kept as .grad, and the engine doing it (backward on the leaf, or minigrad's
    # own accumulate_into) all fail.
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    if t.grad is None:
        t.grad = grad.clone()
    else:
        t.grad += grad""", PASS),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    if t.grad is None:
        t.grad = torch.zeros_like(t)
    t.grad.add_(grad)""", PASS),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    # YOUR CODE HERE
    raise NotImplementedError()""",
     FAIL("still raises NotImplementedError", never=("clone", "+="))),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    # the lesson's 2, then 2 + 3
    t.grad = torch.full_like(t, 2.0) if t.grad is None else torch.full_like(t, 5.0)""",
     FAIL("after the first call, t.grad is not the gradient handed in", "starts as None",
          never=("clone", "+="))),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    t.grad = grad.clone()  # replaces what was there""",
     FAIL("is not the sum", "never replaces .grad", never=("clone", "+="))),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    t.grad = grad.clone() if t.grad is None else t.grad + grad  # a new tensor each time""",
     FAIL("put a new tensor in t.grad", "in place", never=("clone", "+="))),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    if t.grad is None:
        t.grad = grad  # the caller's own tensor
    else:
        t.grad += grad""",
     FAIL("the first gradient handed in changed", "store a copy", never=("clone", "+="))),
    ("accumulation.accumulate", """\
def accumulate(t, grad):
    t.backward(grad)  # the engine adds it""",
     FAIL("ran a backward pass", "write the adding yourself", never=("clone", "+="))),
    ("accumulation.accumulate", """\
from minigrad.autograd.accumulate import accumulate_into

def accumulate(t, grad):
    accumulate_into(t, grad, keep_graph=False)""",
     FAIL("minigrad's own accumulate_into", "asks you to write", never=("clone", "+="))),
]
