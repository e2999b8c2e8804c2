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
]
