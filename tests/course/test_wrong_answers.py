"""Every exercise against the wrong answers a learner trying a shortcut would write (issue 21):
a result hard-coded for the one input tested, gradients written out by hand where a backward is
asked for, a backward where it is forbidden, answers borrowed from the check or the engine,
recursion with a raised limit, side effects left undone. Each must fail, and other right
answers than the worked one must pass.

The answers are code as a learner types it in the answer cell, run in the exercise's namespace
(`torch` is minigrad, `check` the notebook's check module); the checks named in a row (the
visible one, then the hidden ones) are called in this process, as the check cell calls them.
A row passes when every check passes."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import re
import sys

import pytest

import minigrad
from feedback_words import FAIL, PASS, Fails, assert_names_the_misconception, fails
from minigrad_course.checks._feedback import CheckFailed

RECURSIVE_WALK = """\
import sys
sys.setrecursionlimit(100_000)
def reachable_nodes(t):
    order, seen = [], set()
    def visit(level):
        if not level:
            return
        following = []
        for node in level:
            if node not in seen:
                seen.add(node)
                order.append(node)
                following.extend(c for c, _ in node.next_functions if c is not None)
        visit(following)
    visit([t.grad_fn] if t.grad_fn is not None else [])
    return order"""

def _seeded_weights(n: int) -> list[float]:
    minigrad.manual_seed(0)
    return (minigrad.randn(n) * 0.01).tolist()


TABLE = [
    # ---- 01 leaves, chain: predictions (wrong ones, and right ones written differently)
    ("tensors_and_graphs.leaves",
     "leaf_predictions = [True, True, True, False, False, True, False, True, True, True]",
     FAIL("leaves are the tensors no recorded operation produced", never=("True, True",))),
    ("tensors_and_graphs.leaves",
     "leaf_predictions = (True, True, True, False, False, True, False, True, True, False)", PASS),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'MulBackward0', 'AddBackward0', 'AccumulateGrad']",
     FAIL("replays the operations backwards", never=("AddBackward0",))),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'AddBackward0', 'MulBackward0', 'AccumulateGrad']", PASS),
    # ---- 01 build: the check's own formula, other operations, right answers written otherwise
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return check._target(a, b)",
     FAIL("the check's own _target()", "write the answer yourself", never=("a * b + b",))),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return (a * b + b) * (a * b + b)",
     FAIL("other operations (or more of them) than the picture", "count the oval nodes",
          never=("** 2",))),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return ((a + 1) * b) ** 2",
     FAIL("wired differently from the picture", "equal values are not enough",
          never=("a * b + b",))),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return torch.pow(a * b + b, 2)", PASS),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return (b + b * a).pow(2)", PASS),
    # ---- 01 walk: recursion with a raised limit, depth-first, the engine's order
    ("tensors_and_graphs.walk+walk_deep", RECURSIVE_WALK,
     FAIL("calls itself", "recursion limit", never=("deque",))),
    # issue 30: a recursion compiled under minigrad's own file name is the learner's code too
    ("tensors_and_graphs.walk+walk_deep",
     f"exec(compile({RECURSIVE_WALK!r}, torch.__file__, 'exec'))\n_walk = reachable_nodes\n"
     "def reachable_nodes(t):\n    return _walk(t)",
     FAIL("calls itself", "recursion limit", never=("deque",))),
    # issue 30: the check's own walk, re-wrapped in a new code object
    ("tensors_and_graphs.walk+walk_deep", """\
import types
_walk = types.FunctionType(
    check._breadth_first.__code__.replace(co_filename='<mine>'), vars(check))
def reachable_nodes(t):
    return _walk(t)""",
     FAIL("the check's own _breadth_first", "write the answer yourself", never=("seen = set()",))),
    # issue 30: deduplicated within a level only: a node reached by paths of different lengths
    # is listed twice (every graph the check had joined paths of equal length)
    ("tensors_and_graphs.walk+walk_deep", """\
def reachable_nodes(t):
    order, level = [], [t.grad_fn] if t.grad_fn is not None else []
    while level:
        level = list(dict.fromkeys(level))
        order += level
        level = [c for node in level for c, _ in node.next_functions if c is not None]
    return order""", FAIL("each listed once", "already visited", never=("seen = set()",))),
    ("tensors_and_graphs.walk+walk_deep",
     "def reachable_nodes(t):\n    return check._breadth_first(t)",
     FAIL("the check's own _breadth_first()", "write the answer yourself",
          never=("seen = set()",))),
    ("tensors_and_graphs.walk+walk_deep", """\
def reachable_nodes(t):
    order, seen = [], set()
    stack = [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            order.append(node)
            stack.extend(c for c, _ in node.next_functions if c is not None)
    return order""",
     FAIL("not in breadth-first order", "in the order you first meet them", never=("popleft",))),
    ("tensors_and_graphs.walk+walk_deep", """\
from minigrad.autograd.engine import topological_order
def reachable_nodes(t):
    return topological_order([t.grad_fn]) if t.grad_fn is not None else []""",
     FAIL("not in breadth-first order", "in the order you first meet them", never=("popleft",))),
    # ---- 02 predictions
    ("grad_is_none.before_and_after", "before_after = [None, 5.0, None, 2.0]",
     FAIL("fills .grad only for leaves that require grad", never=("1.0",))),
    ("grad_is_none.before_and_after", "before_after = [None, 5, None, 1]", PASS),
    ("grad_is_none.outcomes", "outcomes = [6.0, 'error', None, 'error']",
     FAIL("a zero gradient is not None", never=("[0.0, 0.0]",))),
    ("grad_is_none.outcomes", "outcomes = [6, 'Error', [0, 0], 'error']", PASS),
    # ---- 02 init: the values for n = 3 written out, a result that is not a leaf
    ("grad_is_none.init_weights",
     f"def init_weights(n):\n    return torch.tensor({_seeded_weights(3)}, requires_grad=True)",
     FAIL("init_weights(5) should have shape (5,)", "keep the same seed", never=("0.0154",))),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    w = torch.randn(n, requires_grad=True) * 0.01
    w.retain_grad()
    return w""",
     FAIL("not a leaf", "backward() will not fill its .grad", never=("requires_grad_()",))),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    w = torch.randn(n) * 0.01
    w.requires_grad = True
    return w""", PASS),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    with torch.no_grad():
        w = torch.randn(n, requires_grad=True) * 0.01
    return w.requires_grad_()""", PASS),
    # ---- 02 who: answers in the order of the calls, a backward to find out, half the rule
    ("grad_is_none.will_get_grad", """\
answers = iter([True, False, False, False] * 10)
def will_get_grad(t):
    return next(answers)""",
     FAIL("your prediction is not what backward() does", "is it a leaf, and does it require grad",
          never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", """\
def will_get_grad(t):
    try:
        t.sum().backward()
    except RuntimeError:
        return False
    got = t.grad is not None
    t.grad = None
    return got""",
     FAIL("it ran a backward pass", "decide from t's attributes alone", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.requires_grad",
     FAIL("for an intermediate result that requires grad", "is it a leaf", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return bool(t.requires_grad and t.grad_fn is None)", PASS),
    # ---- 03 predictions
    ("accumulation.both_orders", "both_orders = [4.0, 12.0, 12.0, 16.0]",
     FAIL("the sum of every backward so far", never=("16",))),
    ("accumulation.both_orders", "both_orders = [4, 16, 12, 16.0]", PASS),
    ("accumulation.loop", "after_loop = [3.0, 3.0]", FAIL("adds", "nothing resets", never=("12",))),
    # ---- 03 two losses: gradients written out by hand, the values for the shown w
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
    # ---- 03 micro-batches: one whole-batch pass padded with empty ones, a numpy gradient
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
    # ---- 04 predictions
    ("resetting_gradients.zero_grad", "zero_grad_prints = [[0.0, 0.0], [3.0, 3.0], [0.0, 0.0]]",
     FAIL("zero_grad() sets .grad to None", never=("[3.0, 3.0]",))),
    ("resetting_gradients.zero_grad", "zero_grad_prints = [[0, 0], [3, 3], None]", PASS),
    ("resetting_gradients.kept_reference", "saved_prints = [5.0, 5.0]",
     FAIL("zero_() reuses the tensor in place", never=("2.0",))),
    ("resetting_gradients.kept_reference", "saved_prints = (2, 5)", PASS),
    # ---- 04 fit: the line solved in closed form with made-up losses, steps written in
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
    # ---- 04 sgd step: lr written in, the update left in the graph, .grad zeroed not dropped
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
    optimizer = torch.optim.SGD(params, lr=lr)
    optimizer.step()
    optimizer.zero_grad()""", PASS),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.copy_(p - lr * p.grad)
    for p in params:
        p.grad = None""", PASS),
    # ---- 05 predictions
    ("non_scalar_outputs.weighted", "weighted_prints = [[3.0, 3.0, 12.0], [1.0, 1.0, 4.0]]",
     FAIL("weights each output", never=("6.0, 6.0",))),
    ("non_scalar_outputs.weighted", "weighted_prints = [[3, 6, 6], [1, 1, 4]]", PASS),
    # ---- 05 mse: a gradient of ones (the sum), n = 3 written in, the gradient by hand
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
    # ---- 05 jacobian: the engine's, finite differences, rows that accumulate
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    return torch.autograd.functional.jacobian(f, x)""",
     FAIL("it calls torch.autograd.functional.jacobian", "what the exercise asks you to write",
          never=("one_hot",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    h, columns = 1e-6, []
    with torch.no_grad():
        for j in range(x.numel()):
            step = torch.zeros(x.numel())
            step[j] = h
            columns.append((f(x + step) - f(x - step)) / (2 * h))
    m = f(x).numel()
    for i in range(m):  # as many backward passes as rows, through nothing that matters
        (x * 0).sum().backward()
    return torch.stack(columns).T""",
     FAIL("one per row", "not all from f's output", never=("x.grad = None",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        y.backward(one_hot, retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows)""",
     FAIL("x.grad accumulates", "start each row from an empty .grad", never=("x.grad = None",))),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        (row,) = torch.autograd.grad(y[i], x, retain_graph=True)
        rows.append(row)
    return torch.stack(rows)""", PASS),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    J = torch.zeros(y.numel(), x.numel())
    for i in range(y.numel()):
        if x.grad is not None:
            x.grad.zero_()
        y[i].backward(retain_graph=True)
        J[i] = x.grad
    return J""", PASS),
    # ---- 05 vjp: a backward pass where the chain rule by hand is asked
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
    # ---- 06 predictions
    ("retain_grad.retained", "retained_prints = [15.0, 6.0, None, True]",
     FAIL("keeps a non-leaf's gradient, and only that", never=("False",))),
    ("retain_grad.retained", "retained_prints = [15, 6, None, False]", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 6.0]",
     FAIL("a request for the next backward()", never=("None",))),
    # retain_grad() called after backward(): too late (issue 30)
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    out.backward()
    hidden.retain_grad()
    return hidden.grad""", FAIL("retain_grad()", "after backward()", never=("before backward",))),
    # ---- 06 hidden: the network cut by detach(), the gradient by hand, the ReLU's mask
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1).detach().requires_grad_()
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad""",
     FAIL("the fix cut the network", "keep the graph from x to out whole",
          never=("retain_grad() before",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return check._expected_gradients(x, w1, w2)[0]""",
     FAIL("the check's own _expected_gradients()", "write the answer yourself",
          never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return torch.ones(len(x), 1, dtype=w2.dtype) @ w2.detach().T""",
     FAIL("no backward pass ran", "not one worked out by hand", never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    pre = x @ w1
    pre.retain_grad()
    (torch.relu(pre) @ w2).sum().backward()
    return pre.grad  # the gradient before the ReLU, not of hidden""",
     FAIL("the result is not d(out)/d(hidden)", "it has hidden's shape", never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    seen = {}
    hidden.register_hook(lambda grad: seen.update(grad=grad))
    (hidden @ w2).sum().backward()
    return seen["grad"]""", PASS),
    # ---- 07 prediction
    ("hooks.hook_changes_gradient", "hooked_grad = 21.0",
     FAIL("the hook's return value replaces h's gradient", never=("24",))),
    ("hooks.hook_changes_gradient", "hooked_grad = 24", PASS),
    # ---- 07 watch: retain_grad, a late-bound name, gradients read at registration
    ("hooks.watch", """\
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(lambda grad: seen.__setitem__(name, grad))
    return seen""",
     FAIL("the gradient stored under 'w' is not the one that reached it", "remember its own name",
          never=("functools.partial", "name=name"))),
    ("hooks.watch", """\
class Seen(dict):
    def __init__(self, tensors):
        super().__init__()
        self.tensors = tensors
        for t in tensors.values():
            t.retain_grad()
    def get(self, name, default=None):
        return self.tensors[name].grad
    def keys(self):
        return self.tensors.keys()
def watch(tensors):
    return Seen(tensors)""",
     FAIL("it should return a dict (to be filled later)", never=("register_hook",))),
    ("hooks.watch", """\
import functools
def _store(seen, name, grad):
    seen[name] = grad
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(functools.partial(_store, seen, name))
    return seen""", PASS),
    # ---- 07 clip: max_norm = 1 written in, a hook on the wrong tensor, scaling small ones up
    # issue 30: scaled in place and None returned: the tensor is shared with another input of
    # an Add, whose gradient changes too
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        if norm > max_norm:
            grad.mul_(max_norm / norm)
    t.register_hook(clip)""", FAIL("in place", "new tensor", never=("clone()",))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        return grad / norm if norm > 1 else grad
    t.register_hook(clip)""",
     FAIL("is not 2 × the clipped gradient", "when the norm is larger",
          never=("vector_norm", "clamp"))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad * (max_norm / (grad ** 2).sum().sqrt()))""",
     FAIL("with a gradient of norm 0.5", "is not 2 × the clipped gradient",
          "the gradient as it is otherwise", never=("vector_norm", "clamp"))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        scale = torch.clamp(max_norm / torch.linalg.vector_norm(grad), max=1.0)
        return grad * scale
    t.register_hook(clip)""", PASS),
    # ---- 08 predictions
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
    # ---- 08 normalized: the change hidden behind .data, a clone divided in place (right)
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
    # ---- 08 count: answers in call order, values compared, fn run on a copy
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
    # ---- 09 predictions
    ("graphs_used_again.twice", "twice_prints = [24.0, 'error', 12.0, 12.0]",
     FAIL("retain_graph keeps the graph", "autograd.grad leaves .grad alone", never=("None",))),
    ("graphs_used_again.twice", "twice_prints = [24, 'ERROR', 12, None]", PASS),
    ("graphs_used_again.second_order", "second_order_prints = [4.0, 12.0, 12.0]",
     FAIL("create_graph makes the gradient differentiable", never=("None",))),
    # ---- 09 second derivative: finite differences, backward(), the first grad without a graph
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-4
    with torch.no_grad():
        return (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2""",
     FAIL("it is not f''(x)", "did not differentiate twice with autograd.grad",
          never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-3
    def first(v):
        v = v.detach().requires_grad_()
        return torch.autograd.grad(f(v), v)[0]
    return (first(x + h) - first(x - h)) / (2 * h)""",
     FAIL("did not differentiate twice with autograd.grad",
          "the second pass should start from the first one's result", never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x, create_graph=True)
    first.backward()
    result = x.grad
    x.grad = None
    return result""",
     FAIL("backward() ran (or x.grad was filled)", "torch.autograd.grad for both derivatives",
          never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    first = torch.autograd.grad(f(x), [x], create_graph=True)[0]
    return torch.autograd.grad(first.sum(), [x])[0].item()""", PASS),
    # the first gradient taken without a graph of its own (issue 30: a raw error before)
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x)
    (second,) = torch.autograd.grad(first, x)
    return second""", FAIL("no graph of its own", "which argument of autograd.grad",
                          never=("create_graph=True",))),
    # ---- 10 td: the wrong side detached, a no_grad target (right), .item() (right)
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
    # ---- 10 frozen copy: detach() alone, clone() alone, a copy in another dtype
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.detach()",
     FAIL("changing the copy in place changed t", "what does detach() share with t",
          never=("clone()",))),
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.clone()",
     FAIL("the copy should have no history", "what cuts a tensor out of the graph",
          never=("detach()",))),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return torch.tensor(t.tolist(), dtype=torch.float32)",
     FAIL("the same values, with the same shape and dtype", never=("clone()",))),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return t.clone().detach()", PASS),
    ("detach_and_no_grad.frozen_copy", """\
def frozen_copy(t):
    with torch.no_grad():
        return t * 1""", PASS),
    # ---- 10 prediction
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [4.0, 6.0], None]",
     FAIL("no_grad() makes constants", never=("[2.0, 4.0]",))),
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [2, 4], None]", PASS),
    # ---- 11 topological order: the engine's, recursion with a raised limit, breadth-first
    # issue 30: the engine's order re-wrapped in a new code object, under another file name
    ("inside_the_engine.topological+topological_deep", """\
import types
from minigrad.autograd import engine
_order = types.FunctionType(engine.topological_order.__code__.replace(
    co_filename='<mine>', co_name='mine'), vars(engine))
def topological_order(root):
    return _order([root])""",
     FAIL("it calls the engine's topological_order", "what the exercise asks you to write",
          never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
def topological_order(root):
    from minigrad.autograd.engine import topological_order as engines
    return engines([root])""",
     FAIL("it calls the engine's topological_order", "what the exercise asks you to write",
          never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
import sys
sys.setrecursionlimit(100_000)
def topological_order(root):
    order, seen = [], set()
    def visit(node):
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        order.append(node)
    visit(root)
    return order[::-1]""",
     FAIL("calls itself", "recursion limit", never=("iter(root.next_functions)",))),
    ("inside_the_engine.topological+topological_deep", """\
import sys
def topological_order(root):
    sys.setprofile(None)  # the watcher off: then nothing can be judged
    order, seen, stack = [], {root}, [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, False))
    return order[::-1]""", FAIL("switched off the check's watcher", never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
def topological_order(root):
    order, seen, stack = [], {root}, [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, False))
    return order[::-1]""", PASS),
    # ---- 11 backward by hand: the engine's pass, recursion, replacing .grad
    # issue 30: each gradient pushed on as it arrives: right values, a node run once per path
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    stack = [(y.grad_fn, torch.ones_like(y))]
    while stack:
        node, grad = stack.pop()
        if type(node).__name__ == 'AccumulateGrad':
            leaf = node.variable
            leaf.grad = grad if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None and g is not None:
                stack.append((child, g))""",
     FAIL("ran more than", "once", "paths", never=("pending",))),
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    y.backward()""",
     FAIL("it ran the engine's backward pass", "what you are asked to write", never=("pending",))),
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    leaves = [n.variable for n in order(y.grad_fn) if type(n).__name__ == "AccumulateGrad"]
    grads = torch.autograd.grad(y, leaves)
    for leaf, grad in zip(leaves, grads):
        leaf.grad = grad if leaf.grad is None else leaf.grad + grad""",
     FAIL("it ran the engine's backward pass", "what you are asked to write", never=("pending",))),
    ("inside_the_engine.by_hand", """\
import sys
sys.setrecursionlimit(100_000)
def backward_by_hand(y, order):
    def send(node, grad):
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad if leaf.grad is None else leaf.grad + grad
            return
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None and g is not None:
                send(child, g)
    send(y.grad_fn, torch.ones_like(y))""",
     FAIL("ran more than", "once", "paths", never=("pending",))),
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    pending = {y.grad_fn: torch.ones_like(y)}
    for node in order(y.grad_fn):
        grad = pending.pop(node, None)
        if grad is None:
            continue
        if type(node).__name__ == "AccumulateGrad":
            node.variable.grad = grad  # replaces what .grad held
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None and g is not None:
                pending[child] = pending[child] + g if child in pending else g""",
     FAIL("differs from what y.backward() gives", "add into .grad (it may already hold values)",
          never=("pending",))),
    ("inside_the_engine.by_hand", """\
from collections import defaultdict
def backward_by_hand(y, order):
    pending = defaultdict(list)
    pending[y.grad_fn].append(torch.ones_like(y))
    with torch.no_grad():
        for node in order(y.grad_fn):
            arrived = pending.pop(node, [])
            if not arrived:
                continue
            grad = sum(arrived[1:], arrived[0])
            if type(node).__name__ == "AccumulateGrad":
                leaf = node.variable
                if leaf.grad is None:
                    leaf.grad = grad
                else:
                    leaf.grad += grad
                continue
            grads = node(grad)
            for (child, _), g in zip(node.next_functions,
                                     grads if isinstance(grads, tuple) else (grads,)):
                if child is not None and g is not None:
                    pending[child].append(g)""", PASS),
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 5.0]",
     FAIL("a leaf gets the sum over its paths", never=("15.0, 6.0, 6.0",))),
    # ---- 12 Cube: not a Function, ctx.x instead of save_for_backward, apply replaced
    ("custom_functions.cube", """\
class Cube:
    @staticmethod
    def apply(x):
        return x ** 3""",
     FAIL("should be a class that subclasses torch.autograd.Function",
          never=("save_for_backward(x)",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 3 * ctx.x ** 2""",
     FAIL("forward keeps tensors as attributes of ctx", "ctx.save_for_backward", never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    apply = staticmethod(lambda x: x ** 3)""",
     FAIL("defines its own apply", "let torch.autograd.Function's apply connect them",
          never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            return torch.autograd.grad(x ** 3, x, grad_output)[0]""",
     FAIL("backward runs a backward pass of its own",
          "write the derivative with tensor operations", never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.pow(x, 3)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 3 * x * x * grad_output""", PASS),
    # ---- 12 Mul and Pow: a Mul that keeps a and b on ctx
    ("custom_functions.mul_and_pow", """\
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = a, b
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.b, grad_output * ctx.a


class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * ctx.n * x ** (ctx.n - 1), None""",
     FAIL("forward keeps tensors as attributes of ctx (a, b)", "ctx.save_for_backward",
          never=("grad_output * b",))),
    # ---- 12 Softplus: not a Function, grad_output still ignored, the ops' own backward
    ("custom_functions.softplus", """\
class Softplus:
    @staticmethod
    def apply(x):
        return (1 + x.exp()).log()""",
     FAIL("should be a class that subclasses torch.autograd.Function", never=("sigmoid",))),
    ("custom_functions.softplus", """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x) * grad_output.sum() / grad_output.numel()""",
     FAIL("with an upstream gradient v that is not all ones", "what does the chain rule do",
          never=("sigmoid",))),
    ("custom_functions.softplus", """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log(torch.exp(x) + 1)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (1 + torch.exp(-x))""", PASS),
    # ---- 13 train: the check's reference losses, a model of its own, no reset at all
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    return list(check._reference_losses(steps))""",
     FAIL("raised AttributeError", never=("zero_grad()",))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    model = check.make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses""",
     FAIL("the check's own make_model()", "write the answer yourself", never=("zero_grad()",))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        model.zero_grad(set_to_none=False)
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses""", PASS),
    # ---- 13 prediction
    ("capstone.frozen", "frozen_prints = [None, [1.0], False]",
     FAIL("a frozen layer gets no .grad", never=("4.0",))),
    ("capstone.frozen", "frozen_prints = [None, [4], False]", PASS),
    # ---- 13 gradient norms: numbers written in, gradients squared in place, zeros for None
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    norms = {}
    for name, p in model.named_parameters():
        norms[name] = None if p.grad is None else p.grad.pow_(2).sum().sqrt().item()
    return norms""",
     FAIL("the gradients changed", "reading their size should leave them as they are",
          never=("sqrt()",))),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: 0.0 if p.grad is None else p.grad.norm().item()
            for name, p in model.named_parameters()}""",
     FAIL("the entry for '2.bias' is wrong", "None when .grad is None", never=("sqrt()",))),
    ("capstone.gradient_norms", """\
import math
def gradient_norms(model):
    norms = {}
    for name, p in model.named_parameters():
        entries = [] if p.grad is None else p.grad.flatten().tolist()
        norms[name] = None if p.grad is None else math.sqrt(sum(g * g for g in entries))
    return norms""", PASS),
    # ---- 13 accuracy: recording left off, the graph built anyway, a number written in
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    torch.set_grad_enabled(False)
    predicted = model(xs).argmax(dim=1)
    return (predicted == ys).float().mean().item()""",
     FAIL("gradients are still off after accuracy() returned",
          "a `with` block turns recording back on", never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    predicted = model(xs).detach().argmax(dim=1)
    return (predicted == ys).float().mean().item()""",
     FAIL("the model ran while recording a graph", "which block turns recording off",
          never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    with torch.no_grad():
        model(xs)
    return 0.5""",
     FAIL("not the fraction of points whose highest score is their label", never=("no_grad()",))),
    ("capstone.accuracy", """\
@torch.no_grad()
def accuracy(model, xs, ys):
    right = (model(xs).argmax(dim=1) == ys).sum().item()
    return right / len(ys)""", PASS),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    with torch.set_grad_enabled(False):
        predicted = model(xs).argmax(dim=1)
    return float((predicted == ys).float().mean())""", PASS),
    ("tensors_and_graphs.walk+walk_deep", """\
from collections import deque
def reachable_nodes(t):
    if t.grad_fn is None:
        return []
    order, seen, queue = [], {t.grad_fn}, deque([t.grad_fn])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                queue.append(child)
    return order""", PASS),
    # What a watcher must see however it is hidden: the engine run in a thread, or as a
    # GraphTask of one's own; the watcher switched off and back on; the check's own frames
    # read for its answer; a count whose == says yes to anything.
    ("inside_the_engine.by_hand", """\
import threading
def backward_by_hand(y, order):
    thread = threading.Thread(target=y.backward)
    thread.start()
    thread.join()""",
     FAIL("it ran the engine's backward pass", "what you are asked to write", never=("pending",))),
    ("inside_the_engine.by_hand", """\
from minigrad.autograd import engine
def backward_by_hand(y, order):
    engine.GraphTask([y], [torch.ones_like(y)], False, False).run()""",
     FAIL("it ran the engine's backward pass", "what you are asked to write", never=("pending",))),
    ("inside_the_engine.topological+topological_deep", """\
import sys
from minigrad.autograd import engine
def topological_order(root):
    hook = sys.getprofile()
    sys.setprofile(None)  # off only while the engine walks, then on again
    try:
        return engine.topological_order([root])
    finally:
        sys.setprofile(hook)""", FAIL("switched off the check's watcher", never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
import threading
from minigrad.autograd import engine
def topological_order(root):
    found = []
    thread = threading.Thread(target=lambda: found.extend(engine.topological_order([root])))
    thread.start()
    thread.join()
    return found""", FAIL("it calls the engine's topological_order", never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
import threading
from minigrad.autograd import engine
def topological_order(root):
    threading.setprofile(None)  # threads started now are not watched
    found = []
    thread = threading.Thread(target=lambda: found.extend(engine.topological_order([root])))
    thread.start()
    thread.join()
    return found""", FAIL("switched off the check's watcher", never=("visited",))),
    ("inside_the_engine.topological+topological_deep", """\
from minigrad.autograd import engine
def topological_order(root):  # every node the engine's walk finds, latest made first
    def latest_first(node):
        return (type(node).__name__ == "AccumulateGrad", -node._sequence_nr)
    return sorted(engine.count_dependencies([root]), key=latest_first)""",
     FAIL("it calls the engine's count_dependencies", never=("visited",))),
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
    # ---- 13 grad prints: zeros for the unused leaf, the bias's gradient per row
    ("engine_from_scratch.grad_prints",
     "grad_prints = [[[1.5], [1.5]], 2.0, None, [0.0, 0.0]]",
     FAIL("not all 4 are what the code prints", "only leaves that require grad and were used",
          never=("None, None",))),
    ("engine_from_scratch.grad_prints",
     "grad_prints = [[[1.5], [1.5]], [[1.0], [0.0], [1.0]], None, None]",
     FAIL("b.grad: it prints a single number", "summed over the rows", never=("2.0",))),
    ("engine_from_scratch.grad_prints", "grad_prints = [[[1.5], [1.5]], 2, None, None]", PASS),
    # ---- 13 paths: the example's answer hard-coded, recursion with a raised limit,
    # minigrad's own pass doing the counting (a sum of inputs has gradient 1 on each path)
    ("engine_from_scratch.paths+paths_deep", """\
def paths_from(inputs_of, root):
    return {"loss": 1, "c": 1, "b": 3, "a": 3, "w": 3}""",
     FAIL("every node root reaches", "as if the answer were fitted to the example",
          never=("deque",))),
    ("engine_from_scratch.paths+paths_deep", """\
import sys
sys.setrecursionlimit(100_000)
def paths_from(inputs_of, root):
    order, seen = [], {root}
    def visit(node):
        for child in inputs_of[node]:
            if child not in seen:
                seen.add(child)
                visit(child)
        order.append(node)
    visit(root)
    paths = {root: 1}
    for node in reversed(order):
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
    return paths""", FAIL("calls itself", "recursion limit", never=("deque",))),
    ("engine_from_scratch.paths+paths_deep", """\
def paths_from(inputs_of, root):
    made, remaining = {}, [root]
    while remaining:  # each node the sum of its inputs, leaves first
        node = remaining[-1]
        missing = [child for child in inputs_of[node] if child not in made]
        if missing:
            remaining += missing
            continue
        remaining.pop()
        if node not in made:
            total = torch.tensor(1.0, requires_grad=True) if not inputs_of[node] else 0.0
            for child in inputs_of[node]:
                total = total + made[child]
            made[node] = total
    for node in made:
        if inputs_of[node] and node != root:
            made[node].retain_grad()
    made[root].backward()
    return {node: 1 if node == root else int(made[node].grad.item()) for node in made}""",
     FAIL("it ran minigrad's backward pass", "write the walk yourself", never=("deque",))),
    # ---- 13 paths: a right answer whose first import of a package runs importlib's frozen
    # code, which calls itself (not the learner's recursion); a recursion compiled under a
    # frozen module's name is still the learner's
    ("engine_from_scratch.paths+paths_deep", """\
def paths_from(inputs_of, root):
    import sys
    for name in [name for name in sys.modules if name.split(".")[0] == "xml"]:
        del sys.modules[name]  # so that the import below is a first one
    import xml.dom.minidom
    waiting, stack = {root: 0}, [root]
    while stack:
        for child in inputs_of[stack.pop()]:
            if child not in waiting:
                waiting[child] = 0
                stack.append(child)
            waiting[child] += 1
    paths, ready = {root: 1}, [root]
    while ready:
        node = ready.pop()
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    return paths""", PASS),
    ("engine_from_scratch.paths+paths_deep", """\
import sys
sys.setrecursionlimit(100_000)
exec(compile('''
def visit(inputs_of, root, paths, weight=1):
    paths[root] = paths.get(root, 0) + weight
    for child in inputs_of[root]:
        visit(inputs_of, child, paths, weight)
    return paths
''', "<frozen importlib._bootstrap>", "exec"))
def paths_from(inputs_of, root):
    return visit(inputs_of, root, {})""",
     FAIL("calls itself", "recursion limit", never=("deque",))),
    # ---- 13 tape: the example's answer hard-coded, minigrad's autograd doing the pass,
    # recursion with a raised limit, values changed in place
    ("engine_from_scratch.tape+tape_long", """\
import numpy as np
def tape_backward(tape, values, wrt):
    return {"w": np.array([[1.5], [1.5]]), "b": np.array(2.0)}""",
     FAIL("not a name of wrt", "as if the answer were fitted to the example",
          "one entry for each name of wrt", never=("reversed(tape)",))),
    ("engine_from_scratch.tape+tape_long", """\
def tape_backward(tape, values, wrt):
    made = {name: torch.tensor(value, requires_grad=name in wrt) for name, value in
            values.items()}
    ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "matmul": lambda a, b: a @ b,
           "relu": lambda a: a.relu(), "sum": lambda a: a.sum()}
    for out, op, ins in tape:
        made[out] = ops[op](*(made[name] for name in ins))
    grads = torch.autograd.grad(made[tape[-1][0]], [made[name] for name in wrt],
                                allow_unused=True)
    return {name: None if g is None else g.numpy() for name, g in zip(wrt, grads)}""",
     FAIL("it ran minigrad's backward pass", "write the pass over the tape yourself",
          never=("reversed(tape)",))),
    ("engine_from_scratch.tape+tape_long", """\
import sys
import numpy as np
sys.setrecursionlimit(100_000)
def tape_backward(tape, values, wrt):
    made_by = {out: (op, ins) for out, op, ins in tape}
    grads = {}
    def send(name, grad):
        if name not in made_by:
            while grad.ndim > values[name].ndim:
                grad = grad.sum(axis=0)
            for axis, size in enumerate(values[name].shape):
                if size == 1:
                    grad = grad.sum(axis=axis, keepdims=True)
            grads[name] = grads[name] + grad if name in grads else grad
            return
        op, ins = made_by[name]
        data = [values[i] for i in ins]
        sent = {"add": lambda: [grad, grad], "mul": lambda: [grad * data[1], grad * data[0]],
                "matmul": lambda: [grad @ data[1].T, data[0].T @ grad],
                "relu": lambda: [grad * (data[0] > 0)],
                "sum": lambda: [grad * np.ones_like(data[0])]}[op]()
        for i, g in zip(ins, sent):
            while g.ndim > values[i].ndim:
                g = g.sum(axis=0)
            for axis, size in enumerate(values[i].shape):
                if size == 1:
                    g = g.sum(axis=axis, keepdims=True)
            send(i, g)
    send(tape[-1][0], np.ones_like(values[tape[-1][0]]))
    return {name: grads.get(name) for name in wrt}""",
     FAIL("calls itself", "recursion limit", "one loop over the tape", never=("reversed(tape)",))),
    ("inplace.count_inplace", """\
class Count(int):
    def __eq__(self, other):
        return True
def count_inplace(fn, t):
    fn(t)
    return Count(0)""",
     FAIL("the count is wrong", "what does autograd keep count of", never=("_version",))),
]


CELL = "<the answer cell>"


def _defined_by_the_cell(value: object) -> bool:
    """A function or class the answer defines, or a plain value it sets (not an import)."""
    if isinstance(value, type(sys)):
        return False
    if isinstance(value, type):
        return value.__module__ == "__main__"
    code = getattr(inspect.unwrap(value), "__code__", None)
    if code is not None:
        return code.co_filename == CELL
    return not callable(value)


def run_checks(checks: str, source: str) -> tuple[bool, str]:
    """(passed, what the checks printed or the first failure) for the answer `source`: each
    check gets the last names the answer defines, as many as it takes, in order."""
    module_name, names = checks.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    namespace: dict = {"torch": minigrad, "check": module, "__name__": "__main__"}
    given = set(namespace) | {"__builtins__"}
    limit, profile = sys.getrecursionlimit(), sys.getprofile()
    out = io.StringIO()
    try:
        exec(compile(source, CELL, "exec"), namespace)  # noqa: S102 - our table
        defined = [value for name, value in namespace.items()
                   if name not in given and _defined_by_the_cell(value)]
        assert defined, "the answer defines nothing"
        with contextlib.redirect_stdout(out):
            for name in names.split("+"):
                check = getattr(module, name)
                wanted = [p for p in inspect.signature(check).parameters.values()
                          if p.default is p.empty]  # the answer's last names, as many
                getattr(module, name)(*defined[-len(wanted):])
    except CheckFailed as failure:
        return False, str(failure)
    finally:  # what an answer may have changed for the whole process
        sys.setrecursionlimit(limit)
        sys.setprofile(profile)
        minigrad.set_grad_enabled(True)
    return True, out.getvalue()


def row_id(checks: str, source: str) -> str:
    return f"{checks.split('+')[0]} {source.strip().splitlines()[-1].strip()[:50]}"


@pytest.mark.parametrize(("checks", "source", "passes"),
                         [pytest.param(*row, id=row_id(*row[:2])) for row in TABLE])
def test_the_check_judges_the_answer(checks: str, source: str, passes: bool | Fails) -> None:
    """A wrong answer fails, with feedback that names its misconception and gives nothing
    away (feedback_words.py); a right one passes."""
    passed, message = run_checks(checks, source)
    assert passed == (passes is PASS), message
    if fails(passes):
        assert_names_the_misconception(message, passes)


PREDICTIONS = [  # (check, the right answer, two answers each wrong in one other place)
    ("tensors_and_graphs.leaves",
     [True, True, True, False, False, True, False, True, True, False], 0, 9),
    ("grad_is_none.outcomes", [6.0, "error", [0.0, 0.0], "error"], 0, 2),
    ("accumulation.both_orders", [4.0, 16.0, 12.0, 16.0], 1, 3),
    ("resetting_gradients.zero_grad", [[0.0, 0.0], [3.0, 3.0], None], 0, 2),
    ("non_scalar_outputs.weighted", [[3.0, 6.0, 6.0], [1.0, 1.0, 4.0]], 0, 1),
    ("retain_grad.retained", [15.0, 6.0, None, False], 1, 3),
    ("inplace.which_raise", ["error", "error", [0.5, 0.5], [0.5, 0.25]], 0, 3),
    ("graphs_used_again.twice", [24.0, "error", 12.0, None], 0, 3),
    ("inside_the_engine.one_step", [1.0, 15.0, 6.0, 6.0], 1, 2),
    ("capstone.frozen", [None, [4.0], False], 0, 2),
    ("engine_from_scratch.grad_prints", [[[1.5], [1.5]], 2.0, None, None], 1, 3),
]


@pytest.mark.parametrize(("check", "right", "first", "second"), PREDICTIONS)
def test_predictions_are_marked_as_a_whole(check: str, right: list, first: int,
                                           second: int) -> None:
    """Two answers wrong in different places get the same message: a retry that changes one
    prediction at a time learns nothing about which one was wrong."""
    module_name, name = check.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    messages = []
    for wrong in (first, second):
        answers = list(right)
        value = answers[wrong]
        answers[wrong] = not value if isinstance(value, bool) else \
            None if value == "error" else "error"
        with pytest.raises(CheckFailed) as failure:
            getattr(module, name)(answers)
        messages.append(str(failure.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize(("checks", "source"), [
    pytest.param(*row[:2], id=row_id(*row[:2])) for row in TABLE if fails(row[2])])
def test_an_expected_value_is_shown_only_roughly(checks: str, source: str) -> None:
    """Checks compare to 1e-4: an expected number shown more exactly could be pasted back.
    Expected values appear as "about" and 2 significant digits, or not at all."""
    _, message = run_checks(checks, source)
    assert not re.search(r"expected \[?-?\d", message), message
    for shown in re.findall(r"about (\[[^\]]*\]|-?[\d.e+-]+)", message):
        for number in re.findall(r"\d[\d.]*", shown.split("e")[0] if "[" not in shown
                                 else shown):
            assert len(number.replace(".", "").lstrip("0")) <= 2, message


def _exercise_checks() -> list[str]:
    """"module.function" for every check a check cell of solutions/ calls (hidden ones too)."""
    import json
    from pathlib import Path

    found = []
    for path in sorted((Path(__file__).parents[2] / "solutions").glob("ex*.ipynb")):
        cells = ["".join(cell["source"]) for cell in json.loads(path.read_text())["cells"]
                 if cell["cell_type"] == "code"]
        module = re.search(r"from minigrad_course\.checks import (\w+) as check", cells[0])[1]
        found += [f"{module}.{name}" for source in cells
                  for name in re.findall(r"^check\.(\w+)\(", source, re.MULTILINE)
                  if name not in ("show_target",)]
    return found


def test_every_exercise_has_a_wrong_answer_here() -> None:
    """Breadth first: each of the 44 exercises (and each hidden check) is tried with at least
    one wrong answer in TABLE."""
    failing = {f"{row[0].split('.')[0]}.{name}" for row in TABLE if fails(row[2])
               for name in row[0].split(".")[1].split("+")}
    checks = _exercise_checks()
    assert len(set(checks)) >= 44
    assert [check for check in checks if check not in failing] == []


def test_the_watcher_works_in_a_graded_kernel(tmp_path) -> None:
    """The same checks under the grader, in a Jupyter kernel: recursion and the engine's own
    backward pass are seen there too (one kernel, two wrong answers, one right)."""
    import json
    import subprocess
    from pathlib import Path

    from minigrad_course.checks import markers

    root = Path(__file__).parents[2]
    notebook = json.loads((root / "solutions" / "ex11_inside_the_engine.ipynb").read_text())
    answers = {"11-topological": next(source for checks, source, _ in TABLE
                                      if checks.startswith("inside_the_engine.topological")
                                      and "visit(child)" in source),
               "11-by-hand": "def backward_by_hand(y, order):\n    y.backward()"}
    for cell in notebook["cells"]:
        if markers.grade_id(cell) in answers:
            cell["source"] = answers[markers.grade_id(cell)]
    path = tmp_path / "ex11_inside_the_engine.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade", "--solutions",
                           str(root / "solutions"), str(path)], cwd=root, capture_output=True,
                          text=True, timeout=300)
    lines = {line.split()[1]: line for line in done.stdout.splitlines()
             if line.strip().startswith(("passed", "failed"))}
    assert lines["11-topological"].split()[0] == "failed", done.stdout
    assert "visit calls itself" in lines["11-topological"], done.stdout
    assert lines["11-by-hand"].split()[0] == "failed", done.stdout
    assert "engine's backward pass" in lines["11-by-hand"], done.stdout
    assert lines["11-one-step"].split()[0] == "passed", done.stdout


def test_each_caption_sits_with_its_own_graph() -> None:
    from minigrad_course.checks._feedback import graphs_html

    a, b = minigrad.tensor(2.0, requires_grad=True), minigrad.tensor(-1.0, requires_grad=True)
    wide = a
    for _ in range(6):
        wide = wide * b + a
    html = graphs_html([("your graph", wide), ("the expected graph", (a * b + b) ** 2)])
    figures = html.split("<figure")[1:]
    assert len(figures) == 2
    for figure, caption in zip(figures, ("your graph", "the expected graph")):
        assert figure.index(caption) < figure.index("<svg") and "</figure>" in figure
        assert figure.count("<figcaption>") == 1


def test_every_row_ends_in_pass_or_in_what_its_feedback_says() -> None:
    """A bare FAIL (the function, not called) would make a row fail with no feedback checked."""
    assert [row[:2] for row in TABLE if not (row[2] is PASS or fails(row[2]))] == []
