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
from minigrad_course.checks._feedback import CheckFailed

PASS, FAIL = True, False

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
     "leaf_predictions = [True, True, True, False, False, True, False, True, True, True]", FAIL),
    ("tensors_and_graphs.leaves",
     "leaf_predictions = (True, True, True, False, False, True, False, True, True, False)", PASS),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'MulBackward0', 'AddBackward0', 'AccumulateGrad']", FAIL),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'AddBackward0', 'MulBackward0', 'AccumulateGrad']", PASS),
    # ---- 01 build: the check's own formula, other operations, right answers written otherwise
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return check._target(a, b)", FAIL),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return (a * b + b) * (a * b + b)", FAIL),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return ((a + 1) * b) ** 2", FAIL),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return torch.pow(a * b + b, 2)", PASS),
    ("tensors_and_graphs.build_the_graph",
     "def build(a, b):\n    return (b + b * a).pow(2)", PASS),
    # ---- 01 walk: recursion with a raised limit, depth-first, the engine's order
    ("tensors_and_graphs.walk+walk_deep", RECURSIVE_WALK, FAIL),
    # issue 30: a recursion compiled under minigrad's own file name is the learner's code too
    ("tensors_and_graphs.walk+walk_deep",
     f"exec(compile({RECURSIVE_WALK!r}, torch.__file__, 'exec'))\n_walk = reachable_nodes\n"
     "def reachable_nodes(t):\n    return _walk(t)", FAIL),
    # issue 30: the check's own walk, re-wrapped in a new code object
    ("tensors_and_graphs.walk+walk_deep", """\
import types
_walk = types.FunctionType(
    check._breadth_first.__code__.replace(co_filename='<mine>'), vars(check))
def reachable_nodes(t):
    return _walk(t)""", FAIL),
    # issue 30: deduplicated within a level only: a node reached by paths of different lengths
    # is listed twice (every graph the check had joined paths of equal length)
    ("tensors_and_graphs.walk+walk_deep", """\
def reachable_nodes(t):
    order, level = [], [t.grad_fn] if t.grad_fn is not None else []
    while level:
        level = list(dict.fromkeys(level))
        order += level
        level = [c for node in level for c, _ in node.next_functions if c is not None]
    return order""", FAIL),
    ("tensors_and_graphs.walk+walk_deep",
     "def reachable_nodes(t):\n    return check._breadth_first(t)", FAIL),
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
    return order""", FAIL),
    ("tensors_and_graphs.walk+walk_deep", """\
from minigrad.autograd.engine import topological_order
def reachable_nodes(t):
    return topological_order([t.grad_fn]) if t.grad_fn is not None else []""", FAIL),
    # ---- 02 predictions
    ("grad_is_none.before_and_after", "before_after = [None, 5.0, None, 2.0]", FAIL),
    ("grad_is_none.before_and_after", "before_after = [None, 5, None, 1]", PASS),
    ("grad_is_none.outcomes", "outcomes = [6.0, 'error', None, 'error']", FAIL),
    ("grad_is_none.outcomes", "outcomes = [6, 'Error', [0, 0], 'error']", PASS),
    # ---- 02 init: the values for n = 3 written out, a result that is not a leaf
    ("grad_is_none.init_weights",
     f"def init_weights(n):\n    return torch.tensor({_seeded_weights(3)}, requires_grad=True)",
     FAIL),
    ("grad_is_none.init_weights", """\
def init_weights(n):
    torch.manual_seed(0)
    w = torch.randn(n, requires_grad=True) * 0.01
    w.retain_grad()
    return w""", FAIL),
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
    return next(answers)""", FAIL),
    ("grad_is_none.will_get_grad", """\
def will_get_grad(t):
    try:
        t.sum().backward()
    except RuntimeError:
        return False
    got = t.grad is not None
    t.grad = None
    return got""", FAIL),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.requires_grad", FAIL),
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return bool(t.requires_grad and t.grad_fn is None)", PASS),
    # ---- 03 predictions
    ("accumulation.both_orders", "both_orders = [4.0, 12.0, 12.0, 16.0]", FAIL),
    ("accumulation.both_orders", "both_orders = [4, 16, 12, 16.0]", PASS),
    ("accumulation.loop", "after_loop = [3.0, 3.0]", FAIL),
    # ---- 03 two losses: gradients written out by hand, the values for the shown w
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    return torch.full_like(w, 2.0), 2 * w.detach()""", FAIL),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    return torch.tensor([2.0, 2.0, 2.0]), torch.tensor([2.0, -2.0, 6.0])""", FAIL),
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
    # ---- 03 micro-batches: one whole-batch pass padded with empty ones, a numpy gradient
    # pushed through dummy backwards, the mean of each micro-batch
    ("accumulation.micro_batches+micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    ((inputs @ w - targets) ** 2).mean().backward()
    for _ in range(1, -(-len(inputs) // micro_batch_size)):
        (w * 0).sum().backward()""", FAIL),
    ("accumulation.micro_batches+micro_batches_uneven", """\
import numpy as np
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    x, y, v = inputs.numpy(), targets.numpy(), w.detach().numpy()
    w.grad = torch.tensor(2 * x.T @ (x @ v - y) / len(x))
    for _ in range(-(-len(inputs) // micro_batch_size)):
        (w * 0).sum().backward()""", FAIL),
    ("accumulation.micro_batches+micro_batches_uneven", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    for start in range(0, len(inputs), micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        ((inputs[rows] @ w - targets[rows]) ** 2).mean().backward()""", FAIL),
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
     FAIL),
    ("resetting_gradients.zero_grad", "zero_grad_prints = [[0, 0], [3, 3], None]", PASS),
    ("resetting_gradients.kept_reference", "saved_prints = [5.0, 5.0]", FAIL),
    ("resetting_gradients.kept_reference", "saved_prints = (2, 5)", PASS),
    # ---- 04 fit: the line solved in closed form with made-up losses, steps written in
    ("resetting_gradients.fit", """\
def fit(steps=100, lr=0.1):
    return torch.tensor(3.0), torch.tensor(1.0), [0.0] * steps""", FAIL),
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
    return w, b, losses[:steps]""", FAIL),
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
            p.grad = None""", FAIL),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    for i, p in enumerate(params):
        if p.grad is not None:
            params[i] = (p - lr * p.grad).detach().requires_grad_()
        p.grad = None""", FAIL),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()""", FAIL),
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
     FAIL),
    ("non_scalar_outputs.weighted", "weighted_prints = [[3, 6, 6], [1, 1, 4]]", PASS),
    # ---- 05 mse: a gradient of ones (the sum), n = 3 written in, the gradient by hand
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward(torch.ones_like(errors))
    return w.grad""", FAIL),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    errors = (xs @ w - ys) ** 2
    errors.backward(torch.ones_like(errors) / 3)
    return w.grad""", FAIL),
    ("non_scalar_outputs.mse_gradient", """\
def mse_gradient(w, xs, ys):
    return 2 * xs.T @ (xs @ w.detach() - ys) / len(ys)""", FAIL),
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
    return torch.autograd.functional.jacobian(f, x)""", FAIL),
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
    return torch.stack(columns).T""", FAIL),
    ("non_scalar_outputs.jacobian", """\
def jacobian(f, x):
    y = f(x)
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        y.backward(one_hot, retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows)""", FAIL),
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
    return x.grad""", FAIL),
    ("non_scalar_outputs.vjp_by_hand+vjp_other_shapes", """\
def vjp_tanh(W, x, v):
    return v @ W  # tanh forgotten""", FAIL),
    ("non_scalar_outputs.vjp_by_hand+vjp_other_shapes", """\
def vjp_tanh(W, x, v):
    return W.T @ (v * (1 - torch.tanh(W @ x) ** 2))""", PASS),
    # ---- 06 predictions
    ("retain_grad.retained", "retained_prints = [15.0, 6.0, None, True]", FAIL),
    ("retain_grad.retained", "retained_prints = [15, 6, None, False]", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 6.0]", FAIL),
    # ---- 06 hidden: the network cut by detach(), the gradient by hand, the ReLU's mask
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1).detach().requires_grad_()
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad""", FAIL),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return check._expected_gradients(x, w1, w2)[0]""", FAIL),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return torch.ones(len(x), 1, dtype=w2.dtype) @ w2.detach().T""", FAIL),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    pre = x @ w1
    pre.retain_grad()
    (torch.relu(pre) @ w2).sum().backward()
    return pre.grad  # the gradient before the ReLU, not of hidden""", FAIL),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    seen = {}
    hidden.register_hook(lambda grad: seen.update(grad=grad))
    (hidden @ w2).sum().backward()
    return seen["grad"]""", PASS),
    # ---- 07 prediction
    ("hooks.hook_changes_gradient", "hooked_grad = 21.0", FAIL),
    ("hooks.hook_changes_gradient", "hooked_grad = 24", PASS),
    # ---- 07 watch: retain_grad, a late-bound name, gradients read at registration
    ("hooks.watch", """\
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(lambda grad: seen.__setitem__(name, grad))
    return seen""", FAIL),
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
    return Seen(tensors)""", FAIL),
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
    t.register_hook(clip)""", FAIL),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        return grad / norm if norm > 1 else grad
    t.register_hook(clip)""", FAIL),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad * (max_norm / (grad ** 2).sum().sqrt()))""", FAIL),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        scale = torch.clamp(max_norm / torch.linalg.vector_norm(grad), max=1.0)
        return grad * scale
    t.register_hook(clip)""", PASS),
    # ---- 08 predictions
    ("inplace.item_assignment", "item_grad = [2.0, 4.0, 3.0]", FAIL),
    ("inplace.which_raise", "inplace_outcomes = ['error', 'error', [0.5, 0.5], 'error']", FAIL),
    ("inplace.which_raise", "inplace_outcomes = ['Error', 'error', [0.5, 0.5], [0.5, 0.25]]",
     PASS),
    ("inplace.versions", "version_prints = [0, 1]", FAIL),
    ("inplace.data_versus_detach", "data_detach_prints = ['error', 'error']", FAIL),
    # ---- 08 normalized: the change hidden behind .data, a clone divided in place (right)
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y.data /= y.sum().item()
    return (y ** 2).sum()""", FAIL),
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x).clone()
    y /= y.sum()
    return (y ** 2).sum()""", PASS),
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    return (torch.div(y, y.sum()) ** 2).sum()""", PASS),
    # ---- 08 count: answers in call order, values compared, fn run on a copy
    ("inplace.count_inplace", """\
answers = iter([1, 0, 1, 2, 0] * 4)
def count_inplace(fn, t):
    fn(t)
    return next(answers)""", FAIL),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    before = t.clone()
    fn(t)
    return int((t != before).any().item())""", FAIL),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    copy = t.detach().clone()
    before = copy._version
    fn(copy)
    return copy._version - before""", FAIL),
    ("inplace.count_inplace", """\
def count_inplace(fn, t):
    versions = [t._version]
    fn(t)
    versions.append(t._version)
    return versions[1] - versions[0]""", PASS),
    # ---- 09 predictions
    ("graphs_used_again.twice", "twice_prints = [24.0, 'error', 12.0, 12.0]", FAIL),
    ("graphs_used_again.twice", "twice_prints = [24, 'ERROR', 12, None]", PASS),
    ("graphs_used_again.second_order", "second_order_prints = [4.0, 12.0, 12.0]", FAIL),
    # ---- 09 second derivative: finite differences, backward(), the first grad without a graph
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-4
    with torch.no_grad():
        return (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2""", FAIL),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-3
    def first(v):
        v = v.detach().requires_grad_()
        return torch.autograd.grad(f(v), v)[0]
    return (first(x + h) - first(x - h)) / (2 * h)""", FAIL),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x, create_graph=True)
    first.backward()
    result = x.grad
    x.grad = None
    return result""", FAIL),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    first = torch.autograd.grad(f(x), [x], create_graph=True)[0]
    return torch.autograd.grad(first.sum(), [x])[0].item()""", PASS),
    # ---- 10 td: the wrong side detached, a no_grad target (right), .item() (right)
    ("detach_and_no_grad.td_loss", """\
def td_loss(w, x, reward):
    prediction = (w * x).sum().detach()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2""", FAIL),
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
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.detach()", FAIL),
    ("detach_and_no_grad.frozen_copy", "def frozen_copy(t):\n    return t.clone()", FAIL),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return torch.tensor(t.tolist(), dtype=torch.float32)", FAIL),
    ("detach_and_no_grad.frozen_copy",
     "def frozen_copy(t):\n    return t.clone().detach()", PASS),
    ("detach_and_no_grad.frozen_copy", """\
def frozen_copy(t):
    with torch.no_grad():
        return t * 1""", PASS),
    # ---- 10 prediction
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [4.0, 6.0], None]", FAIL),
    ("detach_and_no_grad.recorded", "recorded_prints = [False, [2, 4], None]", PASS),
    # ---- 11 topological order: the engine's, recursion with a raised limit, breadth-first
    # issue 30: the engine's order re-wrapped in a new code object, under another file name
    ("inside_the_engine.topological+topological_deep", """\
import types
from minigrad.autograd import engine
_order = types.FunctionType(engine.topological_order.__code__.replace(
    co_filename='<mine>', co_name='mine'), vars(engine))
def topological_order(root):
    return _order([root])""", FAIL),
    ("inside_the_engine.topological+topological_deep", """\
def topological_order(root):
    from minigrad.autograd.engine import topological_order as engines
    return engines([root])""", FAIL),
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
    return order[::-1]""", FAIL),
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
    return order[::-1]""", FAIL),
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
                stack.append((child, g))""", FAIL),
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    y.backward()""", FAIL),
    ("inside_the_engine.by_hand", """\
def backward_by_hand(y, order):
    leaves = [n.variable for n in order(y.grad_fn) if type(n).__name__ == "AccumulateGrad"]
    grads = torch.autograd.grad(y, leaves)
    for leaf, grad in zip(leaves, grads):
        leaf.grad = grad if leaf.grad is None else leaf.grad + grad""", FAIL),
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
    send(y.grad_fn, torch.ones_like(y))""", FAIL),
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
                pending[child] = pending[child] + g if child in pending else g""", FAIL),
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
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 5.0]", FAIL),
    # ---- 12 Cube: not a Function, ctx.x instead of save_for_backward, apply replaced
    ("custom_functions.cube", """\
class Cube:
    @staticmethod
    def apply(x):
        return x ** 3""", FAIL),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 3 * ctx.x ** 2""", FAIL),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    apply = staticmethod(lambda x: x ** 3)""", FAIL),
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
            return torch.autograd.grad(x ** 3, x, grad_output)[0]""", FAIL),
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
        return grad_output * ctx.n * x ** (ctx.n - 1), None""", FAIL),
    # ---- 12 Softplus: not a Function, grad_output still ignored, the ops' own backward
    ("custom_functions.softplus", """\
class Softplus:
    @staticmethod
    def apply(x):
        return (1 + x.exp()).log()""", FAIL),
    ("custom_functions.softplus", """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x) * grad_output.sum() / grad_output.numel()""", FAIL),
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
    return list(check._reference_losses(steps))""", FAIL),
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
    return losses""", FAIL),
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
    ("capstone.frozen", "frozen_prints = [None, [1.0], False]", FAIL),
    ("capstone.frozen", "frozen_prints = [None, [4], False]", PASS),
    # ---- 13 gradient norms: numbers written in, gradients squared in place, zeros for None
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    norms = {}
    for name, p in model.named_parameters():
        norms[name] = None if p.grad is None else p.grad.pow_(2).sum().sqrt().item()
    return norms""", FAIL),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: 0.0 if p.grad is None else p.grad.norm().item()
            for name, p in model.named_parameters()}""", FAIL),
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
    return (predicted == ys).float().mean().item()""", FAIL),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    predicted = model(xs).detach().argmax(dim=1)
    return (predicted == ys).float().mean().item()""", FAIL),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    with torch.no_grad():
        model(xs)
    return 0.5""", FAIL),
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
    thread.join()""", FAIL),
    ("inside_the_engine.by_hand", """\
from minigrad.autograd import engine
def backward_by_hand(y, order):
    engine.GraphTask([y], [torch.ones_like(y)], False, False).run()""", FAIL),
    ("inside_the_engine.topological+topological_deep", """\
import sys
from minigrad.autograd import engine
def topological_order(root):
    hook = sys.getprofile()
    sys.setprofile(None)  # off only while the engine walks, then on again
    try:
        return engine.topological_order([root])
    finally:
        sys.setprofile(hook)""", FAIL),
    ("inside_the_engine.topological+topological_deep", """\
import threading
from minigrad.autograd import engine
def topological_order(root):
    found = []
    thread = threading.Thread(target=lambda: found.extend(engine.topological_order([root])))
    thread.start()
    thread.join()
    return found""", FAIL),
    ("inside_the_engine.topological+topological_deep", """\
import threading
from minigrad.autograd import engine
def topological_order(root):
    threading.setprofile(None)  # threads started now are not watched
    found = []
    thread = threading.Thread(target=lambda: found.extend(engine.topological_order([root])))
    thread.start()
    thread.join()
    return found""", FAIL),
    ("inside_the_engine.topological+topological_deep", """\
from minigrad.autograd import engine
def topological_order(root):  # every node the engine's walk finds, latest made first
    def latest_first(node):
        return (type(node).__name__ == "AccumulateGrad", -node._sequence_nr)
    return sorted(engine.count_dependencies([root]), key=latest_first)""", FAIL),
    ("inplace.count_inplace", """\
import sys
def count_inplace(fn, t):
    fn(t)
    frame = sys._getframe(1)
    while frame is not None and "expected" not in frame.f_locals:
        frame = frame.f_back
    return frame.f_locals["expected"] if frame else 0""", FAIL),
    ("inplace.count_inplace", """\
import inspect
def count_inplace(fn, t):
    fn(t)
    return inspect.currentframe().f_back.f_back.f_locals.get("expected", 0)""", FAIL),
    ("inplace.count_inplace", """\
class Count(int):
    def __eq__(self, other):
        return True
def count_inplace(fn, t):
    fn(t)
    return Count(0)""", FAIL),
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
def test_the_check_judges_the_answer(checks: str, source: str, passes: bool) -> None:
    passed, message = run_checks(checks, source)
    assert passed == passes, message


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
    pytest.param(*row[:2], id=row_id(*row[:2])) for row in TABLE if row[2] is FAIL])
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
    for path in sorted((Path(__file__).parent.parent / "solutions").glob("ex*.ipynb")):
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
    failing = {f"{row[0].split('.')[0]}.{name}" for row in TABLE if row[2] is FAIL
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

    root = Path(__file__).parent.parent
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


# Wrong answers whose feedback must name the misconception (the words it must contain) without
# giving the answer (what it must not contain).
FEEDBACK = [
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    out.backward()
    hidden.retain_grad()
    return hidden.grad""", ["retain_grad()", "after backward()"], ["before backward"]),
    ("inplace.normalized_loss", """\
def normalized_loss(x):
    y = torch.sigmoid(x)
    y = y / y.sum().item()
    return (y ** 2).sum()""", [".item()", "constant"], ["y / y.sum()"]),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x)
    (second,) = torch.autograd.grad(first, x)
    return second""", ["no graph of its own", "which argument of autograd.grad"],
     ["create_graph=True"]),
    ("accumulation.loop", "after_loop = [3.0, 3.0]", ["adds", "nothing resets"], ["12"]),
    ("accumulation.two_losses", """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.clone()
    (w ** 2).sum().backward()
    return grad_a, w.grad""", ["what does .grad still hold"], ["zero_", "= None"]),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        if norm > max_norm:
            grad.mul_(max_norm / norm)
    t.register_hook(clip)""", ["in place", "new tensor"], ["clone()"]),
    ("inside_the_engine.by_hand", next(source for checks, source, _ in TABLE
                                       if checks == "inside_the_engine.by_hand" and
                                       "stack.append((child, g))" in source),
     ["ran more than", "once", "paths"], ["pending"]),
    ("tensors_and_graphs.walk+walk_deep", next(source for checks, source, _ in TABLE
                                               if "dict.fromkeys(level)" in source),
     ["each listed once", "already visited"], ["seen = set()"]),
]


@pytest.mark.parametrize(("checks", "source", "words", "not_said"), FEEDBACK,
                         ids=[f"{row[0]} {index}" for index, row in enumerate(FEEDBACK)])
def test_feedback_names_the_misconception(checks: str, source: str, words: list[str],
                                          not_said: list[str]) -> None:
    passed, message = run_checks(checks, source)
    assert not passed
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    for value in not_said:
        assert value not in message, (value, message)


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
