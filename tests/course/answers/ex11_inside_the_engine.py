"""The answers learners write, right and wrong, for the checks of exercise 11 and of
lesson 11's builds (minigrad_course/checks/inside_the_engine.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 11 topological order: the engine's, recursion with a raised limit, breadth-first
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
    # 11 backward by hand: the engine's pass, recursion, replacing .grad
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
]
