"""The answers learners write, right and wrong, for the checks of exercise 13 and of
lesson 13's builds (minigrad_course/checks/engine_from_scratch.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from pathlib import Path

import jupytext

from .feedback_words import FAIL, PASS


SCRATCH_LESSON = Path(__file__).resolve().parents[3] / "course" / "13_engine_from_scratch.py"


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


ROWS = [
    # 13 grad prints: zeros for the unused leaf, the bias's gradient per row
    ("engine_from_scratch.grad_prints",
     "grad_prints = [[[1.5], [1.5]], 2.0, None, [0.0, 0.0]]",
     FAIL("not all 4 are what the code prints", "only leaves that require grad and were used",
          never=("None, None",))),
    ("engine_from_scratch.grad_prints",
     "grad_prints = [[[1.5], [1.5]], [[1.0], [0.0], [1.0]], None, None]",
     FAIL("b.grad: it prints a single number", "summed over the rows", never=("2.0",))),
    ("engine_from_scratch.grad_prints", "grad_prints = [[[1.5], [1.5]], 2, None, None]", PASS),
    # 13 paths: the example's answer hard-coded, recursion with a raised limit,
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
    # 13 paths: a right answer whose first import of a package runs importlib's frozen
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
    # 13 tape: the example's answer hard-coded, minigrad's autograd doing the pass,
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
