"""The answers learners write, right and wrong, for the checks of exercise 01 and of
lesson 01's builds (minigrad_course/checks/tensors_and_graphs.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS


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


ROWS = [
    # 01 leaves, chain: predictions (wrong ones, and right ones written differently)
    ("tensors_and_graphs.leaves",
     "leaf_predictions = [True, True, True, False, False, True, False, True, True, True]",
     FAIL("leaves are the tensors no recorded operation produced", never=("True, True",))),
    ("tensors_and_graphs.leaves",
     "leaf_predictions = (True, True, True, False, False, True, False, True, True, False)", PASS),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'MulBackward0', 'AddBackward0', "
     "'torch::autograd::AccumulateGrad']",
     FAIL("replays the operations backwards", never=("AddBackward0",))),
    ("tensors_and_graphs.grad_fn_chain",  # the class name, not what name() prints
     "chain_names = ['PowBackward0', 'AddBackward0', 'MulBackward0', 'AccumulateGrad']",
     FAIL("replays the operations backwards", never=("torch::",))),
    ("tensors_and_graphs.grad_fn_chain",
     "chain_names = ['PowBackward0', 'AddBackward0', 'MulBackward0', "
     "'torch::autograd::AccumulateGrad']", PASS),
    # 01 build: the check's own formula, other operations, right answers written otherwise
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
    # 01 walk: recursion with a raised limit, depth-first, the engine's order
    ("tensors_and_graphs.walk+walk_deep", RECURSIVE_WALK,
     FAIL("calls itself", "recursion limit", never=("deque",))),
    # issue 30: a recursion compiled under minigrad's own file name is the learner's code too
    ("tensors_and_graphs.walk+walk_deep",
     f"exec(compile({RECURSIVE_WALK!r}, torch.__file__, 'exec'))\n_walk = reachable_nodes\n"
     "def reachable_nodes(t):\n    return _walk(t)",
     FAIL("calls itself", "recursion limit", never=("deque",))),
    # issue 30: the check's own function, re-wrapped in a new code object
    ("tensors_and_graphs.build_the_graph", """\
import types
_target = types.FunctionType(check._target.__code__.replace(co_filename='<mine>'), vars(check))
def build(a, b):
    return _target(a, b)""",
     FAIL("the check's own _target", "write the answer yourself", never=("a * b + b",))),
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
    ("tensors_and_graphs.walk+walk_deep",  # the engine's walk: every node, depth-first
     "def reachable_nodes(t):\n    return check.engine.topological_order([t.grad_fn])",
     FAIL("not in breadth-first order", "a queue, not a stack", never=("seen = set()",))),
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
    # 01 build-the-graph: equal values and gradients, other arrows.
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (a * b + b) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b + b * a) ** 2", PASS),
    ("tensors_and_graphs.build_the_graph", "def build(a, b):\n    return (b * (a + 1)) ** 2",
     FAIL("wired differently from the picture", "equal values are not enough",
          never=("a * b + b",))),
    # 01 lesson build, the leaves a node feeds: the leaf of each AccumulateGrad link. The stub,
    # the first link's leaf alone (as for the lesson's y = w * x), a whole walk's leaves,
    # .variable asked of every node, the nodes instead of their leaves, and copies fail.
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    leaves = []
    for node, _ in t.grad_fn.next_functions:
        if node is not None and node.name() == "torch::autograd::AccumulateGrad":
            leaves.append(node.variable)
    return leaves""", PASS),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    return [node.variable for node, _ in t.grad_fn.next_functions
            if hasattr(node, "variable")]""", PASS),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    # YOUR CODE HERE
    raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                        never=("node.variable",))),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    return [t.grad_fn.next_functions[0][0].variable]  # as for the lesson's y = w * x""",
     FAIL("not the leaf tensors the links of t.grad_fn reach directly",
          never=("node.variable",))),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    found, stack = [], [t.grad_fn]
    while stack:  # every leaf behind t, however far
        node = stack.pop()
        for following, _ in node.next_functions:
            if following is None:
                continue
            if hasattr(following, "variable"):
                found.append(following.variable)
            else:
                stack.append(following)
    return found""",
     FAIL("reach directly", "another operation's node", never=("node.variable",))),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    return [node.variable for node, _ in t.grad_fn.next_functions if node is not None]""",
     FAIL("has no attribute 'variable'", "only an AccumulateGrad node stands for a leaf",
          never=("node.name()",))),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    return [node for node, _ in t.grad_fn.next_functions if hasattr(node, "variable")]""",
     FAIL("knows its leaf", never=("node.variable",))),
    ("tensors_and_graphs.feeds_leaves", """\
def leaves_fed(t):
    return [node.variable.detach() for node, _ in t.grad_fn.next_functions
            if hasattr(node, "variable")]""",
     FAIL("a tensor that is not a, b", never=("node.variable",))),
]
