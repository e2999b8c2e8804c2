"""Each check against the answers learners really write (issue 11): plausible wrong answers
must fail, and right answers other than the one in solutions/ must pass.

One table: the check (module.function of minigrad_course.checks), the answer as the learner
would type it in the answer cell (`torch` is minigrad), and whether the check should pass. The
answer passed to the check is the one name the source defines."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import re
from pathlib import Path

import jupytext
import pytest

import minigrad
from feedback_words import FAIL, PASS, Fails, assert_names_the_misconception, fails
from minigrad_course.checks._feedback import CheckFailed

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


SCRATCH_LESSON = Path(__file__).resolve().parents[2] / "course" / "13_engine_from_scratch.py"


def scratch_engine(*wrong: str) -> str:
    """Lesson 13's engine as its worked answers write it (the imports, the Tensor class and
    every build cell), then each of `wrong`: a function written again, as a learner got it
    wrong, which the check is given instead (the operators keep the worked ones)."""
    cells = [cell.source for cell in jupytext.read(SCRATCH_LESSON).cells
             if cell.cell_type == "code" and "minigrad-only" not in cell.metadata.get("tags", [])
             and (cell.source.startswith(("import numpy", "class Tensor"))
                  or "build" in cell.metadata.get("tags", []))]
    return "\n\n".join([*cells, *wrong])


def scratch_backward(walk: str, leaf: str = "t.grad = grad.copy() if t.grad is None else "
                     "t.grad + grad") -> str:
    """Lesson 13's backward pass with another `walk` (the lines after the two errors), in
    which `LEAF` stands for what a leaf does with its gradient."""
    return ("def backward(root):\n" + "\n".join(
        "    " + line for line in walk.replace("LEAF", leaf).splitlines()))


COUNTED_WALK = """\
waiting = {root: 0}
stack = [root]
while stack:
    for t in stack.pop().inputs:
        if t.requires_grad:
            if t not in waiting:
                waiting[t] = 0
                stack.append(t)
            waiting[t] += 1
buffers = {root: np.ones_like(root.data)}
ready = [root]
while ready:
    t = ready.pop()
    grad = buffers.pop(t)
    if t.is_leaf:
        LEAF
        continue
    for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
        if not parent.requires_grad:
            continue
        buffers[parent] = buffers[parent] + parent_grad if parent in buffers else parent_grad
        waiting[parent] -= 1
        if waiting[parent] == 0:
            ready.append(parent)"""



EXERCISE_TAPE = """\
import numpy as np
def tape_backward(tape, values, wrt):
    def unbroadcast(grad, shape):
        while grad.ndim > len(shape):
            grad = grad.sum(axis=0)
        for axis, size in enumerate(shape):
            if size == 1:
                grad = grad.sum(axis=axis, keepdims=True)
        return grad

    grads = {tape[-1][0]: np.ones_like(values[tape[-1][0]])}
    for out, op, ins in reversed(tape):
        if out not in grads:
            continue
        grad = grads[out]
        data = [values[name] for name in ins]
        if op == "add":
            sent = [grad, grad]
        elif op == "mul":
            sent = [grad * data[1], grad * data[0]]
        elif op == "matmul":
            sent = [grad @ data[1].T, data[0].T @ grad]
        elif op == "relu":
            sent = [grad * (data[0] > 0)]
        else:
            sent = [grad * np.ones_like(data[0])]
        for name, value, g in zip(ins, data, sent):
            g = unbroadcast(g, value.shape)
            grads[name] = grads[name] + g if name in grads else g
    return {name: grads.get(name) for name in wrt}"""


def exercise_tape(old: str, new: str) -> str:
    """Exercise 13-3's worked answer with `old` replaced by `new`."""
    assert old in EXERCISE_TAPE
    return EXERCISE_TAPE.replace(old, new)


TABLE = [
    # 01 build-the-graph: equal values and gradients, other arrows.
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (a * b + b) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b + b * a) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b * (a + 1)) ** 2",
     FAIL("wired differently from the picture", "equal values are not enough",
          never=("a * b + b",))),
    # 02 will-get-grad: 1/0 are not bools; a rule that ignores requires_grad is wrong.
    ("grad_is_none.will_get_grad",
     "def will_get_grad(t):\n    return int(t.is_leaf and t.requires_grad)",
     FAIL("it should return a bool", "not 1 or 0", never=("is_leaf and",))),
    ("grad_is_none.will_get_grad", "def will_get_grad(t):\n    return t.is_leaf",
     FAIL("for a leaf created without requires_grad, your prediction is not what backward() does",
          "does it require grad", never=("is_leaf and",))),
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
    return f(x + 1e-6) - f(x)""",
     FAIL("is not the slope there", "divide how far f moves by how far x moved", never=("/ eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    return (f(x + 0.5) - f(x)) / 0.5""",
     FAIL("is not the slope there", "a nudge of about 1e-6 is small enough to be accurate",
          never=("/ eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    eps = 1e-6
    return (f(x + eps) - f(x - eps)) / eps""",
     FAIL("is not the slope there", "divide how far f moves by how far x moved",
          never=("2 * eps",))),
    ("grad_is_none.slope", """\
def slope(f, x):
    t = torch.tensor(x, requires_grad=True)
    f(t).backward()
    return t.grad.item()""",
     FAIL("it ran a backward pass", "by nudging x and calling f", never=("/ eps",))),
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
     FAIL("grad_a is not the gradient of loss_a alone", "is grad_a a copy", never=("clone()",))),
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
     FAIL("did not bring one micro-batch's share", "the whole batch's size", never=("/ n",))),
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
        p.grad = None""",
     FAIL("changed behind autograd's back", "writing through p.data", never=("torch.no_grad()",))),
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
    return [layer.grad for layer in layers]""",
     FAIL("some gradients are None", "before or after backward()",
          never=("retain_grad() before",))),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        layers.append(h)
    return [torch.autograd.grad(h, layer, retain_graph=True)[0] for layer in layers]""",
     FAIL("it ran 5 backward passes", "one backward() on the output computes every gradient",
          never=("retain_grad() before",))),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers[:-1]]  # the output's own gradient left out""",
     FAIL("a list of 5 gradients, one per layer", never=("retain_grad() before",))),
    # 06 too late: numbers may be ints, and "error" is not what h.grad prints; retain_grad()
    # after backward() marks h but leaves h.grad None, and a leaf is never marked.
    ("retain_grad.too_late", "late_prints = [False, 12, True, None]", PASS),
    ("retain_grad.too_late", "late_prints = (False, 12.0, True, None)", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 2.0]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [False, 12.0, False, None]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [True, 12.0, True, None]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 'error']",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [0, 12.0, 1, None]",
     FAIL("a request for the next backward()", never=("None]",))),
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
    return w1.grad""",
     FAIL("the result is not d(out)/d(hidden) (got numbers of shape (3, 5))",
          "it has hidden's shape", never=("retain_grad()",))),
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
    t.register_hook(clip)""",
     FAIL("is not 2 × the clipped gradient", "when the norm is larger", never=("vector_norm",))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad.clamp(-max_norm, max_norm))""",
     FAIL("is not 2 × the clipped gradient", "same direction", never=("vector_norm",))),
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
    return order""",
     FAIL("comes after a node it sends gradients to", "once all its parents are",
          never=("visited",))),
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
                    ready.append(child)""",
     FAIL("the gradient tensor the pass sent it", "store a copy", never=("pending",))),
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
    visit(root.grad_fn, torch.ones_like(root), {})""",
     FAIL("a node ran 2 times", "with the sum of every gradient sent to it", never=("pending",))),
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
                received[child] = received[child] + g if child in received else g""",
     FAIL("visit() calls itself", "not recursion", never=("pending",))),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    from minigrad.autograd.engine import run_backward
    run_backward([root], [torch.ones_like(root)], False, False)""",
     FAIL("it ran the engine's backward pass", "call each node yourself", never=("pending",))),
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
                pending.append((child, child_grad))""",
     FAIL("a node ran 2 times", "after all its gradients are in", never=("pending",))),
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
                pending.append((child, child_grad))""",
     FAIL("a node ran 2 times", "after all its gradients are in", never=("pending",))),
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
                    ready.append(child)""",
     FAIL("with .grad already holding ones", "add yours to it", never=("pending",))),
    ("inside_the_engine.backward_pass", """\
def my_backward(root):
    root.backward()""", FAIL("it should run the nodes itself", never=("pending",))),
    # 11 one step: a 0-d tensor may be predicted as a number or a one-element list; a node
    # called with 3 gives 3 times the other factor; backward() starts from 1 and adds both paths.
    ("inside_the_engine.one_step", "step_prints = [1, 15, 6, 6]", PASS),
    ("inside_the_engine.one_step", "step_prints = [[1.0], [15.0], [6.0], [6.0]]", PASS),
    ("inside_the_engine.one_step", "step_prints = [1.0, 5.0, 2.0, 6.0]",
     FAIL("a leaf gets the sum over its paths", never=("15.0",))),
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 5.0]",
     FAIL("a leaf gets the sum over its paths", never=("6.0, 6.0",))),
    ("inside_the_engine.one_step", "step_prints = [1.0, 15.0, 6.0, 18.0]",
     FAIL("a leaf gets the sum over its paths", never=("6.0, 6.0",))),
    ("inside_the_engine.one_step", "step_prints = [1.0, 6.0, 15.0, 6.0]",
     FAIL("a leaf gets the sum over its paths", never=("15.0, 6.0",))),
    # 12 Mul and Pow: the worked answer, and ** written as torch.pow.
    ("custom_functions.mul_and_pow", mul_and_pow(), PASS),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * torch.pow(x, ctx.n - 1), None"), PASS),
    # grad_output forgotten (sum() would hide it), the factors swapped, the exponent not
    # lowered, no None for the number n.
    ("custom_functions.mul_and_pow", mul_and_pow(mul_grads="b, a"),
     FAIL("leave out grad_output", "the chain rule multiplies",
          never=("grad_output * b", "times b"))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(mul_grads="grad_output * a, grad_output * b"),
     FAIL("swapped", "how much does a * b move when a alone moves",
          never=("grad_output * b", "times b"))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** ctx.n, None"),
     FAIL("Pow's gradient is wrong", "which power of x", never=("n - 1",))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** (ctx.n - 1)"),
     FAIL("one entry per input of forward", "None for the number n", never=("n - 1",))),
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
    return losses""",
     FAIL("the losses differ from those of the usual loop",
          "what should .grad hold when step() runs", never=("zero_grad()",))),
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
    return loss.item()""",
     FAIL("does not hold this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()""",
     FAIL("does not hold this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()""",
     FAIL("does not hold this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss""", FAIL("as a Python float (loss.item())", never=("zero_grad()",))),
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
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""",
     FAIL("still hold their old .grad", "filter model.parameters() by requires_grad",
          never=("p.grad = None",))),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""",
     FAIL("should hold exactly the 2 parameters still trained",
          "filter model.parameters() by requires_grad", never=("p.grad = None",))),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    for param in model[index].parameters():
        param.grad = None
    trained = [p for i, layer in enumerate(model) if i != index for p in layer.parameters()]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)  # still requires grad""",
     FAIL("only model[0]'s parameters should stop requiring grad",
          never=("requires_grad_(False)",))),
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
            for name, p in model.named_parameters()}""",
     FAIL("the entry for '0.weight' is wrong",
          "the square root of the sum of the squared gradient entries", never=("sqrt()",))),
    ("capstone.gradient_norms", """\
def gradient_norms(model):
    return {name: None if p.grad is None else (p.grad ** 2).sum().sqrt()
            for name, p in model.named_parameters()}""",
     FAIL("the entry for '0.weight' is wrong",
          "the square root of the sum of the squared gradient entries", never=("sqrt()",))),
    # 13 (lesson) unbroadcast: other right ways; the axes of size 1 or the leading axes
    # forgotten, keepdims dropped, a reshape for a sum.
    ("engine_from_scratch.unbroadcasting", """\
import numpy as np
def unbroadcast(grad, shape):
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(extra + i for i, n in enumerate(shape) if n == 1)
    return np.sum(grad, axis=axes).reshape(shape)""", PASS),
    ("engine_from_scratch.unbroadcasting", """\
def unbroadcast(grad, shape):
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    return grad""",
     FAIL("should return a numpy array of shape (1, 3)", "stretches axes of size 1",
          never=("grad.sum(axis=axis",))),
    ("engine_from_scratch.unbroadcasting", """\
def unbroadcast(grad, shape):
    for axis, size in enumerate(shape):
        if size == 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad""",
     FAIL("should return a numpy array of shape (3,)", "adds axes in front",
          never=("grad.sum(axis=0)",))),
    ("engine_from_scratch.unbroadcasting", """\
def unbroadcast(grad, shape):
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1:
            grad = grad.sum(axis=axis)
    return grad""",
     FAIL("it returned an array of shape (3,); it should return a numpy array of shape (1, 3)",
          "stays, of size 1", never=("grad.sum(axis=axis",))),
    ("engine_from_scratch.unbroadcasting",
     "def unbroadcast(grad, shape):\n    return grad.reshape(shape)",
     FAIL("cannot reshape", never=("grad.sum(",))),
    # 13 record: always recording, all inputs required, the inputs that need grad only.
    ("engine_from_scratch.recording", scratch_engine(), PASS),
    ("engine_from_scratch.recording", scratch_engine("""\
def record(out, inputs, grad_fn):
    out.requires_grad = any(t.requires_grad for t in inputs)
    out.grad_fn, out.inputs = grad_fn, inputs
    return out"""),
     FAIL("when no input requires grad", "records nothing for constants", never=("any(",))),
    ("engine_from_scratch.recording", scratch_engine("""\
def record(out, inputs, grad_fn):
    if all(t.requires_grad for t in inputs):
        out.requires_grad, out.grad_fn, out.inputs = True, grad_fn, inputs
    return out"""),
     FAIL("when only the first input requires grad", "when any of its inputs does",
          never=("any(",))),
    ("engine_from_scratch.recording", scratch_engine("""\
def record(out, inputs, grad_fn):
    needed = tuple(t for t in inputs if t.requires_grad)
    if needed:
        out.requires_grad, out.grad_fn, out.inputs = True, grad_fn, needed
    return out"""),
     FAIL("out.inputs should hold both inputs", "even one that does not require grad",
          never=("out.inputs = inputs",))),
    # 13 operations: mul's gradients swapped or not unbroadcast, matmul's factors on the wrong
    # side, relu passing the gradient at 0, total's gradient left a scalar, a bare array for
    # one input.
    ("engine_from_scratch.operations", scratch_engine(), PASS),
    ("engine_from_scratch.operations", scratch_engine("""\
def mul(a, b):
    a, b = as_tensor(a), as_tensor(b)
    def grad_fn(grad):
        return unbroadcast(grad * a.data, a.shape), unbroadcast(grad * b.data, b.shape)
    return record(Tensor(a.data * b.data), (a, b), grad_fn)"""),
     FAIL("mul of shapes (3, 4), (3, 4)", "not PyTorch's", "the two gradients are swapped",
          never=("grad * b.data",))),
    ("engine_from_scratch.operations", scratch_engine("""\
def mul(a, b):
    a, b = as_tensor(a), as_tensor(b)
    def grad_fn(grad):
        return grad * b.data, grad * a.data
    return record(Tensor(a.data * b.data), (a, b), grad_fn)"""),
     FAIL("is not PyTorch's (shape (4,))", "summed back to its shape",
          never=("unbroadcast(grad * a.data",))),
    ("engine_from_scratch.operations", scratch_engine("""\
def matmul(a, b):
    def grad_fn(grad):
        return b.data.T @ grad, grad @ a.data.T
    return record(Tensor(a.data @ b.data), (a, b), grad_fn)"""),
     FAIL("the grad_fn of matmul(...) raised", "its own input's shape", "transpose",
          never=("grad @ b.data.T", "a.data.T @ grad"))),
    ("engine_from_scratch.operations", scratch_engine("""\
def relu(a):
    def grad_fn(grad):
        return (grad * (a.data >= 0),)
    return record(Tensor(np.maximum(a.data, 0)), (a,), grad_fn)"""),
     FAIL("relu of shape (3, 4)", "where the input is exactly 0", never=("a.data > 0",))),
    ("engine_from_scratch.operations", scratch_engine("""\
def total(a):
    def grad_fn(grad):
        return (grad,)
    return record(Tensor(a.data.sum()), (a,), grad_fn)"""),
     FAIL("total of shape (3, 4)", "(an array of shape ())", "an array of the input's shape",
          never=("np.ones_like",))),
    ("engine_from_scratch.operations", scratch_engine("""\
def relu(a):
    def grad_fn(grad):
        return grad * (a.data > 0)
    return record(Tensor(np.maximum(a.data, 0)), (a,), grad_fn)"""),
     FAIL("should return a tuple with one gradient per input", never=("(grad * (a.data > 0),)",))),
    # 13 backward: the worked pass, and one that sorts first; recursion (with a raised limit),
    # a grad_fn run once per path (right values), overwriting .grad or a buffer instead of
    # adding, .grad stored on every tensor, the gradient stored without a copy, broadcast
    # gradients not summed back.
    ("engine_from_scratch.backward_pass", scratch_engine(), PASS),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward("""\
order, seen, stack = [], {root}, [(root, iter(root.inputs))]
while stack:
    t, parents = stack[-1]
    for parent in parents:
        if parent.requires_grad and parent not in seen:
            seen.add(parent)
            stack.append((parent, iter(parent.inputs)))
            break
    else:
        stack.pop()
        order.append(t)
grads = {root: np.ones_like(root.data)}
for t in reversed(order):
    grad = grads.pop(t)
    if t.is_leaf:
        LEAF
        continue
    for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
        if parent.requires_grad:
            grads[parent] = grads[parent] + parent_grad if parent in grads else parent_grad""")),
     PASS),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward("""\
import sys
sys.setrecursionlimit(100_000)
def visit(t, grad):
    if t.is_leaf:
        LEAF
        return
    for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
        if parent.requires_grad:
            visit(parent, parent_grad)
visit(root, np.ones_like(root.data))""")),
     FAIL("a grad_fn ran 2 times", "calls itself", never=("waiting[",))),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward("""\
import sys
sys.setrecursionlimit(100_000)
order, seen = [], {root}
def visit(t):
    for parent in t.inputs:
        if parent.requires_grad and parent not in seen:
            seen.add(parent)
            visit(parent)
    order.append(t)
visit(root)
grads = {root: np.ones_like(root.data)}
for t in reversed(order):
    grad = grads.pop(t)
    if t.is_leaf:
        LEAF
        continue
    for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
        if parent.requires_grad:
            grads[parent] = grads[parent] + parent_grad if parent in grads else parent_grad""")),
     FAIL("visit() calls itself", "not recursion", never=("waiting[",))),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward("""\
stack = [(root, np.ones_like(root.data))]
while stack:
    t, grad = stack.pop()
    if t.is_leaf:
        LEAF
        continue
    for parent, parent_grad in zip(t.inputs, t.grad_fn(grad)):
        if parent.requires_grad:
            stack.append((parent, parent_grad))""")),
     FAIL("a grad_fn ran 2 times", "run each once", "count them first", never=("waiting[",))),
    ("engine_from_scratch.backward_pass",
     scratch_engine(scratch_backward(COUNTED_WALK, leaf="t.grad = grad.copy()")),
     FAIL("with .grad already holding ones", "add yours to it", never=("t.grad + grad",))),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward(
        COUNTED_WALK.replace("buffers[parent] + parent_grad if parent in buffers else ", ""))),
     FAIL("PyTorch gives other numbers", "the sum of every gradient sent to it",
          never=("buffers[parent] + parent_grad",))),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward(
        COUNTED_WALK.replace("    if t.is_leaf:\n", "    t.grad = grad\n    if t.is_leaf:\n"))),
     FAIL("an intermediate result", "PyTorch leaves None there",
          "only leaves that require grad keep a gradient", never=("if t.is_leaf",))),
    ("engine_from_scratch.backward_pass", scratch_engine(scratch_backward(
        COUNTED_WALK, leaf="t.grad = grad if t.grad is None else t.grad + grad")),
     FAIL("two leaves share one .grad array", "an array of its own", never=("grad.copy()",))),
    ("engine_from_scratch.backward_pass", scratch_engine("""\
def unbroadcast(grad, shape):
    return grad"""),
     FAIL("PyTorch gives an array of shape ()", "summed back to its shape", never=("grad.sum(",))),
    # 13 SGD: zero_grad() zeroing instead of None, a step without lr, a step that also clears.
    ("engine_from_scratch.optimizer", scratch_engine(), PASS),
    ("engine_from_scratch.optimizer", scratch_engine("""\
class SGD(SGD):
    def zero_grad(self):
        for p in self.params:
            p.grad = np.zeros_like(p.data)"""),
     FAIL("after zero_grad(), a .grad is not None", "not to zeros", never=("p.grad = None",))),
    ("engine_from_scratch.optimizer", scratch_engine("""\
class SGD(SGD):
    def step(self):
        for p in self.params:
            if p.grad is not None:
                p.data -= p.grad"""),
     FAIL("parameter 1's data is not right", "as if the learning rate were 1", "scale",
          never=("self.lr * p.grad",))),
    ("engine_from_scratch.optimizer", scratch_engine("""\
class SGD(SGD):
    def step(self):
        for p in self.params:
            if p.grad is not None:
                p.data = p.data - self.lr * p.grad
                p.grad = None"""),
     FAIL("a .grad changed", "only zero_grad() clears them", never=("p.grad = None",))),
    # 13 (exercise) paths: uses counted instead of paths, each node reached once, an input
    # used twice counted once, a node's number passed on before it is complete; a topological
    # order first is right too.
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    uses, stack, seen = {root: 1}, [root], {root}
    while stack:
        for child in inputs_of[stack.pop()]:
            uses[child] = uses.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return uses""", FAIL("not the number from root to it", "the number of times each node is used",
                         "once per use", never=("+= paths[",))),
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    paths, stack = {root: 1}, [root]
    while stack:
        for child in inputs_of[stack.pop()]:
            if child not in paths:
                paths[child] = 1
                stack.append(child)
    return paths""", FAIL("not the number from root to it", "every node got 1",
                          "however many paths lead to it", never=("+= paths[",))),
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    waiting, stack = {root: 0}, [root]
    while stack:
        for child in set(inputs_of[stack.pop()]):
            if child not in waiting:
                waiting[child] = 0
                stack.append(child)
            waiting[child] += 1
    paths, ready = {root: 1}, [root]
    while ready:
        node = ready.pop()
        for child in set(inputs_of[node]):
            paths[child] = paths.get(child, 0) + paths[node]
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.append(child)
    return paths""", FAIL("not the number from root to it", "an input a node uses twice",
                          "once per use", never=("+= paths[",))),
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    paths, stack = {root: 1}, [(root, 1)]
    while stack:
        node, arrived = stack.pop()
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
            stack.append((child, paths[node]))
    return paths""", FAIL("not the number from root to it", "some counts are too high",
                          "only once all those nodes are done", never=("+= paths[",))),
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    order, seen, stack = [], {root}, [(root, iter(inputs_of[root]))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append((child, iter(inputs_of[child])))
                break
        else:
            stack.pop()
            order.append(node)
    paths = {node: 0 for node in order}
    paths[root] = 1
    for node in reversed(order):
        for child in inputs_of[node]:
            paths[child] += paths[node]
    return paths""", PASS),
    # a count passed on as soon as a node is met, breadth first: right until two paths of
    # different lengths meet (the drawn graphs caught it only sometimes; UNEVEN_PATHS always)
    ("engine_from_scratch.paths", """\
def paths_from(inputs_of, root):
    paths, queue = {root: 1}, [root]
    for node in queue:  # breadth first: a count passed on before all of it has arrived
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
            if child not in queue:
                queue.append(child)
    return paths""",
     FAIL("for a graph of 6 nodes from 'out': 'x' has 1 paths", "once all those nodes are done",
          never=("waiting",))),
    # 13 tape: no unbroadcast, a gradient overwritten instead of added, zeros for an unused
    # input, the tape walked forward, relu's gradient passed at 0, relu's mask made in the
    # values themselves.
    ("engine_from_scratch.tape", EXERCISE_TAPE, PASS),
    ("engine_from_scratch.tape",
     exercise_tape("g = unbroadcast(g, value.shape)", "g = g"),
     FAIL("not an array of its input's shape", "summed back to its shape",
          never=("grad.sum(axis=0)",))),
    ("engine_from_scratch.tape", exercise_tape(
        "grads[name] = grads[name] + g if name in grads else g", "grads[name] = g"),
     FAIL("is not the loss's", "the sum of what each sends it", never=("grads[name] + g",))),
    ("engine_from_scratch.tape", exercise_tape(
        "return {name: grads.get(name) for name in wrt}",
        "return {name: grads.get(name, np.zeros_like(values[name])) for name in wrt}"),
     FAIL("the loss does not depend on", "should then be None", never=("grads.get(name)",))),
    ("engine_from_scratch.tape", exercise_tape("in reversed(tape)", "in tape"),
     FAIL("the loss depends on", "but its gradient is None", "walk the tape from its end",
          never=("reversed(tape)",))),
    ("engine_from_scratch.tape", exercise_tape("(data[0] > 0)", "(data[0] >= 0)"),
     FAIL("is not the loss's", "relu passed the gradient where its input is exactly 0",
          never=("data[0] > 0",))),
    ("engine_from_scratch.tape", exercise_tape(
        "sent = [grad * (data[0] > 0)]",
        "mask = data[0]\n            mask[mask > 0] = 1\n            mask[mask < 0] = 0\n"
        "            sent = [grad * mask]"),
     FAIL("changed values", "in place", never=("grad * (data[0] > 0)",))),
]


def run_check(check: str, source: str) -> tuple[bool, str]:
    """(passed, what the check printed or raised) for the answer `source` defines."""
    module_name, function_name = check.split(".")
    module = importlib.import_module(f"minigrad_course.checks.{module_name}")
    namespace: dict = {"torch": minigrad}
    exec(compile(source, "<the answer cell>", "exec"), namespace)  # noqa: S102 - our table
    defined = [name for name in namespace if name not in ("torch", "__builtins__")]
    assert defined, "the answer defines nothing"
    check = getattr(module, function_name)
    # The check takes the names its parameters name (`Tensor`, `backward`) when the answer
    # defines them all, else what the answer defines, in order.
    wanted = list(inspect.signature(check).parameters)
    if all(name in namespace for name in wanted):
        defined = wanted
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            check(*(namespace[name] for name in defined))
    except CheckFailed as failure:
        return False, str(failure)
    return True, out.getvalue()


def table_case(check: str, source: str, passes: bool | Fails) -> object:
    last_line = source.strip().splitlines()[-1].strip()
    return pytest.param(check, source, passes, id=f"{check} {last_line[:50]}")


@pytest.mark.parametrize(("check", "source", "passes"), [table_case(*row) for row in TABLE])
def test_check_judges_the_answer(check: str, source: str, passes: bool | Fails) -> None:
    """A wrong answer fails, with feedback that names its misconception and gives nothing
    away (feedback_words.py); a right one passes."""
    passed, message = run_check(check, source)
    assert passed == (passes is PASS), message
    if fails(passes):
        assert_names_the_misconception(message, passes)


@pytest.mark.parametrize(("check", "source"), [
    (check, source) for check, source, passes in TABLE if fails(passes)])
def test_a_failure_gives_each_hint_once(check: str, source: str) -> None:
    _, message = run_check(check, source)
    hints = re.findall(r"Hint: (.*)", message)
    assert len(hints) == len(set(hints)), message


@pytest.mark.parametrize(("check", "source"), [
    (check, source) for check, source, passes in TABLE
    if fails(passes) and check in ("accumulation.micro_batches", "capstone.gradient_norms",
                                    "accumulation.two_losses", "hooks.clip")])
def test_a_wrong_value_is_shown(check: str, source: str) -> None:
    """What the answer gave is shown; an expected value, if at all, only roughly
    (tests/course/test_wrong_answers.py)."""
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


def test_every_row_ends_in_pass_or_in_what_its_feedback_says() -> None:
    """A bare FAIL (the function, not called) would make a row fail with no feedback checked."""
    assert [row[:2] for row in TABLE if not (row[2] is PASS or fails(row[2]))] == []
