"""Each check against the answers learners really write (issue 11): plausible wrong answers
must fail, and right answers other than the one in solutions/ must pass.

One table: the check (module.function of minigrad_course.checks), the answer as the learner
would type it in the answer cell (`torch` is minigrad), and whether the check should pass. The
answer passed to the check is the one name the source defines."""
from __future__ import annotations

import contextlib
import importlib
import io
import re

import pytest

import minigrad
from minigrad_course.checks._feedback import CheckFailed

PASS, FAIL = True, False

def mul_and_pow(mul_grads: str = "grad_output * b, grad_output * a",
                pow_grads: str = "grad_output * ctx.n * x ** (ctx.n - 1), None") -> str:
    """Exercise 12-2's answer, with what each backward returns."""
    return f"""\
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return {mul_grads}


class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {pow_grads}"""


TABLE = [
    # 01 build-the-graph: equal values and gradients, other arrows.
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (a * b + b) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b + b * a) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b * (a + 1)) ** 2",
     FAIL),
    # 02 will-get-grad: 1/0 are not bools; a rule that ignores requires_grad is wrong.
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return int(t.is_leaf and t.requires_grad)", FAIL),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.is_leaf", FAIL),
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return t.requires_grad and t.grad_fn is None", PASS),
    # 02 lesson build, slope by nudging: one- or two-sided differences pass; no division, a
    # nudge too large, the two-sided difference divided by eps, or autograd do not.
    ("grad_is_none.slope", """\
def slope(f, x):
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / (2 * eps)""", PASS),
    ("grad_is_none.slope", """\
def slope(f, x):
    return (f(x + 1e-4) - f(x)) / 1e-4""", PASS),
    ("grad_is_none.slope", """\
def slope(f, x):
    return f(x + 1e-6) - f(x)""", FAIL),
    ("grad_is_none.slope", """\
def slope(f, x):
    return (f(x + 0.5) - f(x)) / 0.5""", FAIL),
    ("grad_is_none.slope", """\
def slope(f, x):
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / eps""", FAIL),
    ("grad_is_none.slope", """\
def slope(f, x):
    t = torch.tensor(x, requires_grad=True)
    f(t).backward()
    return t.grad.item()""", FAIL),
    # 03 loop: the printed tensor has shape (2,).
    ("accumulation.loop", "after_loop = 12", FAIL),
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
    return grad_a, w.grad""", FAIL),
    # 03 micro-batches: dividing each micro-batch's mean by the number of micro-batches is
    # right only when the split is even; the visible check must catch it.
    ("accumulation.micro_batches", """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    num_batches = -(-n // micro_batch_size)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        loss = ((inputs[rows] @ w - targets[rows]) ** 2).mean() / num_batches
        loss.backward()""", FAIL),
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
    # 04 sgd-step: writing through .data hides the update from autograd (lesson 08).
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.data -= lr * p.grad
        p.grad = None""", FAIL),
    ("resetting_gradients.sgd_step", """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.sub_(lr * p.grad)
            p.grad = None""", PASS),
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
    return torch.stack(rows)""", FAIL),
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
    return torch.stack(rows)""", FAIL),
    ("non_scalar_outputs.jacobian_rows", """\
def jacobian(y, x):
    rows = []
    for i in range(y.numel()):
        one_hot = torch.zeros(y.numel())
        one_hot[i] = 1.0
        x.grad = None
        y.backward(gradient=one_hot, retain_graph=True)
        rows.append(x.grad)
    return torch.stack(rows).T  # columns instead of rows""", FAIL),
    # 06 lesson build, gradients along a chain: retain_grad() or hooks, one backward; calling
    # retain_grad() after backward(), or one autograd.grad per layer, is not.
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers]""", PASS),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, caught = x, []
    for k, w in enumerate(weights):
        h = torch.tanh(w * h)
        caught.append(None)
        h.register_hook(lambda grad, k=k: caught.__setitem__(k, grad))
    h.backward()
    return caught""", PASS),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        layers.append(h)
    h.backward()
    for layer in layers:
        layer.retain_grad()  # too late
    return [layer.grad for layer in layers]""", FAIL),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        layers.append(h)
    return [torch.autograd.grad(h, layer, retain_graph=True)[0] for layer in layers]""", FAIL),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers[:-1]]  # the output's own gradient left out""", FAIL),
    # 06 too late: numbers may be ints, and "error" is not what h.grad prints; retain_grad()
    # after backward() marks h but leaves h.grad None, and a leaf is never marked.
    ("retain_grad.too_late", "late_prints = [False, 12, True, None]", PASS),
    ("retain_grad.too_late", "late_prints = (False, 12.0, True, None)", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 2.0]", FAIL),
    ("retain_grad.too_late", "late_prints = [False, 12.0, False, None]", FAIL),
    ("retain_grad.too_late", "late_prints = [True, 12.0, True, None]", FAIL),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 'error']", FAIL),
    ("retain_grad.too_late", "late_prints = [0, 12.0, 1, None]", FAIL),
    # 06 hidden gradient: any way of getting d(out)/d(hidden) is right.
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    return torch.autograd.grad(out, hidden)[0]""", PASS),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    caught = []
    hidden.register_hook(caught.append)
    (hidden @ w2).sum().backward()
    return caught[0]""", PASS),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    hidden.retain_grad()
    (hidden @ w2).sum().backward()
    return w1.grad""", FAIL),
    # 07 clip: any correct Euclidean norm; the L1 norm or clamping each entry is wrong.
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        return grad * (max_norm / norm) if norm > max_norm else grad
    t.register_hook(clip)""", PASS),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = grad.norm()
        return grad * (max_norm / norm) if norm > max_norm else None
    t.register_hook(clip)""", PASS),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = grad.abs().sum()
        return grad * (max_norm / norm) if norm > max_norm else None
    t.register_hook(clip)""", FAIL),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad.clamp(-max_norm, max_norm))""", FAIL),
    # 11 topological order: Kahn's algorithm is as right as a reversed depth-first post-order.
    ("inside_the_engine.topological", """\
def topological_order(root):
    nodes, seen = [root], {root}
    for node in nodes:
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                nodes.append(child)
    waiting = dict.fromkeys(nodes, 0)  # how many parents have not been placed yet
    for node in nodes:
        for child, _ in node.next_functions:
            if child is not None:
                waiting[child] += 1
    ready, order = [root], []
    while ready:
        node = ready.pop()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)
    return order""", PASS),
    ("inside_the_engine.topological", """\
def topological_order(root):
    order, seen, queue = [], set(), [root]  # breadth-first: not a topological order
    for node in queue:
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return order""", FAIL),
    # 11 the lesson's backward pass: dependency counts with a queue (Kahn) and a reversed
    # depth-first post-order are both right; recursion (even with the limit raised), a node run
    # once per arriving gradient (called or applied), a .grad overwritten instead of added to, a
    # .grad that is the gradient tensor itself, and calling backward() or the engine are not.
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    from collections import deque
    waiting = {root.grad_fn: 0}  # node -> gradients still to come
    stack = [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting:
                    waiting[child] = 0
                    stack.append(child)
                waiting[child] += 1
    buffers = {root.grad_fn: torch.ones_like(root)}
    ready = deque([root.grad_fn])
    while ready:
        node = ready.popleft()
        grad = buffers.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        if not isinstance(grads, tuple):
            grads = (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is None:
                continue
            buffers[child] = buffers[child] + child_grad if child in buffers else child_grad
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)""", PASS),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    waiting = {root.grad_fn: 0}
    stack = [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting:
                    waiting[child] = 0
                    stack.append(child)
                waiting[child] += 1
    buffers, ready = {root.grad_fn: torch.ones_like(root)}, [root.grad_fn]
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad if leaf.grad is None else leaf.grad + grad  # the buffer itself
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None:
                buffers[child] = buffers[child] + child_grad if child in buffers else child_grad
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    order, visited = [], {root.grad_fn}
    stack = [(root.grad_fn, iter(root.grad_fn.next_functions))]
    while stack:  # depth-first with an explicit stack; a node goes after all its children
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in visited:
                visited.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:
            stack.pop()
            order.append(node)
    received = {root.grad_fn: torch.ones_like(root)}
    for node in reversed(order):
        grad = received.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            if node.variable.grad is None:
                node.variable.grad = grad.clone()
            else:
                node.variable.grad += grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None and g is not None:
                received[child] = received[child] + g if child in received else g""", PASS),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    waiting, stack = {root.grad_fn: 0}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting:
                    waiting[child] = 0
                    stack.append(child)
                waiting[child] += 1
    buffers, ready = {root.grad_fn: torch.ones_like(root)}, [root.grad_fn]
    while ready:
        node = ready.pop()
        with torch.no_grad():  # an AccumulateGrad called adds into .grad, as in PyTorch
            grads = node(buffers.pop(node))
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None:
                buffers[child] = buffers[child] + child_grad if child in buffers else child_grad
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)""", PASS),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    def visit(node, grad, received):  # lesson 11's naive recursion
        received[node] = received.get(node, 0) + grad
        if type(node).__name__ == "AccumulateGrad":
            node.variable.grad = received[node]
            return
        with torch.no_grad():
            grads = node(received[node])
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None and child_grad is not None:
                visit(child, child_grad, received)
    visit(root.grad_fn, torch.ones_like(root), {})""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    import sys
    order, seen = [], set()

    def visit(node):  # depth-first post-order, recursive
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        order.append(node)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # deep enough for the chain: the recursion must still be seen
    try:
        visit(root.grad_fn)
    finally:
        sys.setrecursionlimit(limit)
    received = {root.grad_fn: torch.ones_like(root)}
    for node in reversed(order):
        grad = received.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None:
                received[child] = received[child] + g if child in received else g""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    from minigrad.autograd.engine import run_backward
    run_backward([root], [torch.ones_like(root)], False, False)""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    pending = [(root.grad_fn, torch.ones_like(root))]  # each gradient travels on its own
    while pending:
        node, grad = pending.pop()
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node.apply(grad)  # apply, not node(grad): the node still runs each time
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None and child_grad is not None:
                pending.append((child, child_grad))""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    pending = [(root.grad_fn, torch.ones_like(root))]  # each gradient travels on its own
    while pending:
        node, grad = pending.pop()
        if type(node).__name__ == "AccumulateGrad":
            leaf = node.variable
            leaf.grad = grad if leaf.grad is None else leaf.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None and child_grad is not None:
                pending.append((child, child_grad))""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    waiting, stack = {root.grad_fn: 0}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting:
                    waiting[child] = 0
                    stack.append(child)
                waiting[child] += 1
    buffers, ready = {root.grad_fn: torch.ones_like(root)}, [root.grad_fn]
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            node.variable.grad = grad  # overwrites what .grad held
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None:
                buffers[child] = buffers[child] + child_grad if child in buffers else child_grad
                waiting[child] -= 1
                if waiting[child] == 0:
                    ready.append(child)""", FAIL),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    root.backward()""", FAIL),
    # 11 one step: a 0-d tensor may be predicted as a number or a one-element list; a node
    # called with 3 gives 3 times the other factor; backward() starts from 1 and adds both paths.
    ("inside_the_engine.one_step", "step_prints = [1, 15, 6, 6]", PASS),
    ("inside_the_engine.one_step", "step_prints = [[1.0], [15.0], [6.0], [6.0]]", PASS),
    ("inside_the_engine.one_step", "step_prints = [1.0, 5.0, 2.0, 6.0]", FAIL),
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 5.0]", FAIL),
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 18.0]", FAIL),
    ("inside_the_engine.one_step", "step_prints = [1.0, 6.0, 15.0, 6.0]", FAIL),
    # 12 Mul and Pow: the worked answer, and ** written as torch.pow.
    ("custom_functions.mul_and_pow", mul_and_pow(), PASS),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * torch.pow(x, ctx.n - 1), None"), PASS),
    # grad_output forgotten (sum() would hide it), the factors swapped, the exponent not
    # lowered, no None for the number n.
    ("custom_functions.mul_and_pow", mul_and_pow(mul_grads="b, a"), FAIL),
    ("custom_functions.mul_and_pow",
     mul_and_pow(mul_grads="grad_output * a, grad_output * b"), FAIL),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** ctx.n, None"), FAIL),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** (ctx.n - 1)"), FAIL),
    # 13 train: zero_grad() after step() resets before the next backward(): right.
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses""", PASS),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses""", FAIL),
    # 13 lesson build, the training step: zero_grad() first; a reset after step() leaves
    # .grad None, none at all accumulates, a reset between backward() and step() never moves.
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss.item()""", PASS),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss.item()""", FAIL),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()""", FAIL),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()""", FAIL),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss""", FAIL),
    # 13 lesson build, the freeze: an optimizer over the trained parameters only; the old
    # optimizer's parameters, or every parameter, are not.
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    trained = [param for param in model.parameters() if param.requires_grad]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)""", PASS),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    for param in model[index].parameters():
        param.requires_grad = False
        param.grad = None
    trained = [p for i, layer in enumerate(model) if i != index for p in layer.parameters()]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)""", PASS),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""", FAIL),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""", FAIL),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    for param in model[index].parameters():
        param.grad = None
    trained = [p for i, layer in enumerate(model) if i != index for p in layer.parameters()]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)  # still requires grad""", FAIL),
    # 13 gradient norms: any correct Euclidean norm, as a float.
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: None if p.grad is None else p.grad.norm().item()
            for name, p in model.named_parameters()}""", PASS),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: None if p.grad is None else float((p.grad ** 2).sum() ** 0.5)
            for name, p in model.named_parameters()}""", PASS),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: None if p.grad is None else p.grad.abs().sum().item()
            for name, p in model.named_parameters()}""", FAIL),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: None if p.grad is None else (p.grad ** 2).sum().sqrt()
            for name, p in model.named_parameters()}""", FAIL),
]


def run_check(check: str, source: str) -> tuple[bool, str]:
    """(passed, what the check printed or raised) for the answer `source` defines."""
    module_name, function_name = check.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    namespace: dict = {"torch": minigrad}
    exec(compile(source, "<the answer cell>", "exec"), namespace)  # noqa: S102 - our table
    defined = [name for name in namespace if name not in ("torch", "__builtins__")]
    assert defined, "the answer defines nothing"
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):  # the check takes what the answer defines, in order
            getattr(module, function_name)(*(namespace[name] for name in defined))
    except CheckFailed as failure:
        return False, str(failure)
    return True, out.getvalue()


def table_case(check: str, source: str, passes: bool) -> object:
    last_line = source.strip().splitlines()[-1].strip()
    return pytest.param(check, source, passes, id=f"{check} {last_line[:50]}")


@pytest.mark.parametrize(("check", "source", "passes"), [table_case(*row) for row in TABLE])
def test_check_judges_the_answer(check: str, source: str, passes: bool) -> None:
    passed, message = run_check(check, source)
    assert passed == passes, message


@pytest.mark.parametrize(("check", "source"), [
    (check, source) for check, source, passes in TABLE if passes is FAIL])
def test_a_failure_gives_each_hint_once(check: str, source: str) -> None:
    _, message = run_check(check, source)
    hints = re.findall(r"Hint: (.*)", message)
    assert len(hints) == len(set(hints)), message


@pytest.mark.parametrize(("check", "source"), [
    (check, source) for check, source, passes in TABLE
    if passes is FAIL and check in ("accumulation.micro_batches", "capstone.gradient_norms",
                                    "accumulation.two_losses", "hooks.clip")])
def test_a_wrong_value_is_shown(check: str, source: str) -> None:
    """What the answer gave is shown; an expected value, if at all, only roughly
    (tests/test_wrong_answers.py)."""
    _, message = run_check(check, source)
    assert re.search(r"got [^,]*\d", message), message
    assert not re.search(r"expected \[?-?\d", message), message


def test_the_hook_answer_is_not_told_it_used_retain_grad() -> None:
    hook_answer = next(source for check, source, _ in TABLE
                       if check == "retain_grad.hidden_gradient" and "register_hook" in source)
    passed, message = run_check("retain_grad.hidden_gradient", hook_answer)
    assert passed and "retain_grad" not in message, message


def test_will_get_grad_asks_for_a_bool_once() -> None:
    _, message = run_check("grad_is_none.will_get_grad",
                           "def will_get_grad(t):\n    return int(t.is_leaf and t.requires_grad)")
    assert message.count("\n") == 0 and "should return a bool" in message, message


def test_a_number_for_a_printed_tensor_is_told_the_shape() -> None:
    _, message = run_check("accumulation.loop", "after_loop = 12")
    assert "shape (2,)" in message, message


def test_the_backward_pass_check_puts_backward_back() -> None:
    """check.backward_pass disables backward() and counts how often nodes run while the
    learner's pass runs; after a failing answer all is as before, in the learner's kernel."""
    from minigrad.autograd.accumulate import AccumulateGrad
    from minigrad.autograd.function import BackwardFunction
    from minigrad.tensor import Tensor

    def patched() -> tuple:
        return (Tensor.backward, BackwardFunction.apply, AccumulateGrad.apply,
                minigrad.autograd.backward, minigrad.autograd.grad)

    originals = patched()
    passed, message = run_check("inside_the_engine.backward_pass",
                                "def my_backward(root):\n    root.backward()")
    assert not passed and "should run the nodes itself" in message, message
    assert patched() == originals
    x = minigrad.tensor(2.0, requires_grad=True)
    (x * x).backward()
    assert x.grad.item() == 4.0
