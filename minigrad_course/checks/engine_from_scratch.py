"""Checks for lesson 13's engine from scratch and exercises/ex13_engine_from_scratch.ipynb.

Lesson 13: the learner's `Tensor` on numpy, one step at a time, each held against minigrad:
`unbroadcast` (a broadcast input's gradient summed back to its shape), `record` (a result keeps
its inputs and `grad_fn` only when one of them requires grad), the operations `mul`, `matmul`,
`relu` and `total`, `backward` (each `grad_fn` run once, after all its gradients are in, without
recursion; leaves add into `.grad`; every other tensor keeps None, as in PyTorch) and `SGD`.
The learner's tensors are the lesson's: `data` a numpy array, `requires_grad`, `grad` (a numpy
array or None), `grad_fn` (the gradient of the result -> a tuple, one gradient per input) and
`inputs` (the tensors it was computed from)."""
from __future__ import annotations

import ast
import graphlib
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import minigrad
from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, as_array, same_numbers, shown, times
from ._snippets import check_predictions

SHAPES = [(3, 4), (4,), (1, 4), (3, 1), ()]  # any two broadcast together, to (3, 4) at most
CHAIN_LENGTH = 3000  # deeper than Python's recursion limit


def _is_array(value: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def _data(t: Any) -> Any:
    """A learner's tensor's data as an array, or None when it has none."""
    data = getattr(t, "data", None)
    return data if _is_array(data) else None


def _same(mine: Any, expected: Any) -> bool:
    """The numbers of `expected`, in its shape exactly (same_numbers lets (1,) pass for ())."""
    return np.shape(mine) == np.shape(expected) and same_numbers(mine, expected)


def _leaf(data: np.ndarray, requires_grad: bool = True) -> minigrad.Tensor:
    return minigrad.tensor(np.array(data, dtype=np.float32), requires_grad=requires_grad)


# Step 1: unbroadcast ---------------------------------------------------------------------

UNBROADCAST_CASES = [((4, 3), (3,)), ((4, 3), (1, 3)), ((4, 3), (4, 1)), ((4, 3), ()),
                     ((2, 3, 4), (3, 1)), ((2, 1, 4), (1,)), ((2, 3), (2, 3)), ((5,), (1,))]


def broadcast_gradient(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """What minigrad's backward gives an input of `shape` broadcast to grad's shape by `+`."""
    t = _leaf(np.zeros(shape))
    (t + minigrad.zeros(grad.shape)).backward(minigrad.tensor(grad))
    return t.grad.numpy()


UNBROADCAST_HINTS = {"cannot reshape": "a broadcast gradient holds more numbers than its input: "
                                       "they are added up, not rearranged."}


def unbroadcasting(unbroadcast: Callable) -> None:
    checks = Checks("unbroadcast(grad, shape)")
    rng = np.random.default_rng(14)
    for grad_shape, shape in UNBROADCAST_CASES:
        grad = rng.normal(size=grad_shape).astype(np.float32)
        given = grad.copy()
        mine = checks.call(unbroadcast, given, shape, hints=UNBROADCAST_HINTS,
                           doing=f"unbroadcast(a gradient of shape {grad_shape}, {shape})")
        which = f"for a gradient of shape {grad_shape} and shape {shape}"
        if not checks.expect(_is_array(mine) and np.shape(mine) == shape,
                             f"{which}: it returned {_kind(mine)}; it should return a numpy "
                             f"array of shape {shape}. Hint: {_unbroadcast_hint(mine, shape)}"):
            continue
        checks.expect(_same(mine, broadcast_gradient(grad, shape)),
                      f"{which}: the numbers are not the sums backward() gives. Hint: each "
                      "element of the input was used once for every element it was broadcast "
                      "to: add up their gradients.")
        checks.expect(np.array_equal(given, grad), f"{which}: it changed the gradient it was "
                      "given. Hint: numpy's sum makes a new array; leave grad itself alone.")
    checks.verdict(f"unbroadcast sums a gradient back to its input's shape, as backward() "
                   f"does, for {len(UNBROADCAST_CASES)} pairs of shapes.")


def _unbroadcast_hint(mine: Any, shape: tuple) -> str:
    """Which of broadcasting's two moves the answer did not undo, judged by its shape."""
    got = np.shape(mine) if _is_array(mine) else None
    if got is not None and len(got) > len(shape):
        return ("broadcasting also adds axes in front of a shape; their gradients are summed "
                "away too.")
    if got is not None and len(got) < len(shape):
        return "an axis of size 1 that was stretched is summed, but it stays, of size 1."
    if got is not None:
        return "broadcasting also stretches axes of size 1; their gradients are summed too."
    return "broadcasting adds axes in front and stretches axes of size 1: undo both."


def _kind(value: Any) -> str:
    """What a value is, in words; for the data a learner's value became (`_data`) too."""
    if _is_array(value):
        return f"an array of shape {np.shape(value)}"
    if isinstance(value, dict) and len(value) >= 1:
        kind = next(iter(value))
        if kind in ("tensor", "tuple", "dict"):
            return f"a {kind}"
        if kind == "object":
            return f"a {value['object']}"
    return "None" if value is None else f"a {type(value).__name__}"


# Step 2: record -------------------------------------------------------------------------

def recording(Tensor: type, record: Callable) -> None:
    checks = Checks("record(out, inputs, grad_fn)")

    def grad_fn(grad: Any) -> tuple:
        return grad, grad

    for a_grad, c_grad, which in [(True, False, "when only the first input requires grad"),
                                  (False, True, "when only the second input requires grad"),
                                  (True, True, "when both inputs require grad"),
                                  (False, False, "when no input requires grad")]:
        a = checks.call(Tensor, [1.0, 2.0], requires_grad=a_grad, doing="Tensor(...)")
        c = checks.call(Tensor, 3.0, requires_grad=c_grad, doing="Tensor(...)")
        out = checks.call(Tensor, [4.0, 5.0], doing="Tensor(...)")
        returned = checks.call(record, out, (a, c), grad_fn, doing="record(out, (a, c), "
                               "grad_fn)")
        checks.expect(returned is out, f"{which}: record should return out itself.")
        if a_grad or c_grad:
            checks.expect(out.requires_grad is True, f"{which}: out.requires_grad should be "
                          "True. Hint: a result requires grad when any of its inputs does.")
            checks.expect(out.grad_fn is grad_fn, f"{which}: out.grad_fn should be the grad_fn "
                          "record was given.")
            inputs = getattr(out, "inputs", None)
            checks.expect(isinstance(inputs, (tuple, list)) and len(inputs) == 2 and
                          inputs[0] is a and inputs[1] is c,
                          f"{which}: out.inputs should hold both inputs, in order, even one "
                          "that does not require grad: grad_fn returns a gradient for each, "
                          "in that order.")
        else:
            checks.expect(out.requires_grad is False and out.grad_fn is None and
                          not getattr(out, "inputs", ()),
                          f"{which}: out should stay a leaf that does not require grad (no "
                          "grad_fn, no inputs), as PyTorch records nothing for constants.")
    checks.verdict("record keeps the inputs and grad_fn exactly when an input requires grad; "
                   "a result of constants stays a leaf.")


# Step 3: the operations -----------------------------------------------------------------

def _operation_cases(rng: np.random.Generator) -> list[tuple[str, list[np.ndarray]]]:
    def draw(*shape: int) -> np.ndarray:
        return rng.normal(size=shape).astype(np.float32)

    with_zeros = draw(3, 4)
    with_zeros[0, :2] = 0.0  # relu's gradient at 0 is PyTorch's choice: 0
    return [("mul", [draw(3, 4), draw(3, 4)]), ("mul", [draw(3, 4), draw(4)]),
            ("mul", [draw(3, 1), draw(1, 4)]), ("mul", [draw(), draw(2, 3)]),
            ("matmul", [draw(3, 4), draw(4, 2)]), ("matmul", [draw(1, 5), draw(5, 1)]),
            ("relu", [with_zeros]), ("relu", [draw(5)]),
            ("total", [draw(3, 4)]), ("total", [draw()])]


_MINIGRAD_OPS: dict[str, Callable] = {
    "mul": lambda a, b: a * b, "matmul": lambda a, b: a @ b,
    "relu": lambda a: a.relu(), "total": lambda a: a.sum()}

_OP_HINTS = {  # the rule each breaks, without the line that follows it
    "mul": "a factor's gradient is the result's gradient times the OTHER factor, and an input "
           "that was broadcast gets it summed back to its shape.",
    "matmul": "each gradient must have its own input's shape: which side of grad does the "
              "other input's transpose go on?",
    "relu": "what does PyTorch take for relu's gradient at exactly 0?",
    "total": "every element of the input gets the sum's gradient: an array of the input's "
             "shape.",
}


def _op_slip(name: str, grads: Any, arrays: list, grad: np.ndarray) -> str | None:
    """The hint for a slip recognised by its numbers (mul's two gradients swapped or not
    summed back to a broadcast input's shape, relu's gradient passed at 0), or None."""
    if name == "mul" and all(_is_array(g) and np.shape(g) == a.shape for g, a in
                             zip(grads, arrays)) and all(
            _same(g, broadcast_gradient(grad * a, a.shape)) for g, a in zip(grads, arrays)):
        return (" Hint: the two gradients are swapped: what came back for a belongs to b. How "
                "much does a * b move when a alone moves by 1?")
    full = np.broadcast_shapes(*(a.shape for a in arrays))
    others = arrays[::-1]
    if name == "mul" and any(np.shape(g) != a.shape for g, a in zip(grads, arrays)) and all(
            _is_array(g) and np.shape(g) in (a.shape, full) and
            _same(broadcast_gradient(np.asarray(g), a.shape),
                  broadcast_gradient(grad * other, a.shape))
            for g, a, other in zip(grads, arrays, others)):
        return (" Hint: right numbers, but not yet summed: an input that was broadcast gets "
                "its gradient summed back to its shape.")
    if name == "relu" and _is_array(grads[0]) and _same(grads[0], grad * (arrays[0] >= 0)):
        return (" Hint: it passes the gradient where the input is exactly 0; PyTorch's relu "
                "sends 0 there (it takes the slope at 0 to be 0).")
    return None


def operations(Tensor: type, mul: Callable, matmul: Callable, relu: Callable,
               total: Callable) -> None:
    checks = Checks("mul, matmul, relu and total")
    functions = {"mul": mul, "matmul": matmul, "relu": relu, "total": total}
    rng = np.random.default_rng(140)
    for name, arrays in _operation_cases(rng):
        shapes = ", ".join(str(a.shape) for a in arrays)
        which = f"{name} of shape{'s' if len(arrays) > 1 else ''} {shapes}"
        hint = f" Hint: {_OP_HINTS[name]}"
        inputs = [checks.call(Tensor, a, requires_grad=True, doing="Tensor(...)")
                  for a in arrays]
        out = checks.call(functions[name], *inputs, doing=f"{name}(...)")
        theirs = [_leaf(a) for a in arrays]
        expected = _MINIGRAD_OPS[name](*theirs)
        if not checks.expect(_same(_data(out), expected.detach().numpy()),
                             f"{which}: its data is not what PyTorch computes.{hint}"):
            continue
        if not checks.expect(callable(getattr(out, "grad_fn", None)) and
                             out.requires_grad is True,
                             f"{which}: the result has no grad_fn. Hint: return record(...), "
                             "as add does."):
            continue
        grad = rng.normal(size=expected.shape).astype(np.float32)
        grads = checks.call(out.grad_fn, grad.copy(), doing=f"the grad_fn of {name}(...)",
                            hints={"mismatch": _OP_HINTS[name],  # numpy's errors for shapes
                                   "could not be broadcast": _OP_HINTS[name]})
        if not checks.expect(isinstance(grads, (tuple, list)) and len(grads) == len(arrays),
                             f"{which}: grad_fn should return a tuple with one gradient per "
                             f"input ({len(arrays)}), even for one input: (g,)."):
            continue
        wanted = minigrad.autograd.grad(expected, theirs, minigrad.tensor(grad))
        for index, (mine, want) in enumerate(zip(grads, wanted)):
            right = _is_array(mine) and _same(mine, want.numpy())
            checks.expect(right, "" if right else
                          f"{which}: the gradient grad_fn returns for input {index + 1} "
                          f"({_kind(mine)}) is not PyTorch's (shape {tuple(want.shape)})."
                          + (_op_slip(name, grads, arrays, grad) or hint))
    for name, count in (("mul", 2), ("relu", 1)):
        constants = [checks.call(Tensor, np.ones(3)) for _ in range(count)]
        out = checks.call(functions[name], *constants, doing=f"{name} of constants")
        checks.expect(getattr(out, "grad_fn", None) is None,
                      f"{name} of tensors that do not require grad has a grad_fn. Hint: let "
                      "record decide.")
    scaled = checks.call(mul, checks.call(Tensor, [1.0, -2.0], requires_grad=True), 3.0,
                         doing="mul(a, 3.0)")
    checks.expect(_same(_data(scaled), np.array([3.0, -6.0], np.float32)),
                  "mul(a, 3.0) is not a times 3. Hint: as_tensor(b) turns a number into a "
                  "Tensor, as add does.")
    checks.verdict("mul, matmul, relu and total compute PyTorch's values and send back "
                   "PyTorch's gradients, broadcast inputs included.")


# Step 4: the backward pass ----------------------------------------------------------------

class Program:
    """The same operations run on two engines, the learner's and minigrad: `mine` and
    `theirs` hold the tensors made, in the same order, so each can be compared with its twin."""

    def __init__(self, tensor_class: type) -> None:
        self.tensor_class = tensor_class
        self.mine: list[Any] = []
        self.theirs: list[minigrad.Tensor] = []

    def leaf(self, data: Any, requires_grad: bool = True) -> int:
        data = np.array(data, dtype=np.float32)
        self.mine.append(self.tensor_class(data, requires_grad=requires_grad))
        self.theirs.append(_leaf(data, requires_grad))
        return len(self.mine) - 1

    def apply(self, operation: Callable, *indices: int) -> int:
        self.mine.append(operation(*(self.mine[i] for i in indices)))
        self.theirs.append(operation(*(self.theirs[i] for i in indices)))
        return len(self.mine) - 1

    def shape(self, index: int) -> tuple:
        return tuple(self.theirs[index].shape)


_BINARY = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b]


def random_program(tensor_class: type, seed: int) -> tuple[Program, int]:
    """Leaves of shapes that broadcast together, a weight for `@`, a constant and a leaf left
    unused; eight random steps that may reuse any value (twice in one step too); the output
    adds up the sum of every value made, so each is used."""
    rng = np.random.default_rng(seed)
    program = Program(tensor_class)
    values = [program.leaf(rng.normal(size=(3, 4)))]
    values += [program.leaf(rng.normal(size=SHAPES[i])) for i in rng.choice(5, 2)]
    values.append(program.leaf(rng.normal(size=(3, 4)), requires_grad=False))
    weight = program.leaf(rng.normal(size=(4, 4 if seed % 2 else 1)))
    program.leaf(rng.normal(size=3))  # requires grad, never used: its .grad stays None
    made = []
    for _ in range(8):
        kind = rng.integers(5)
        first, second = (values[int(i)] for i in rng.integers(len(values), size=2))
        if kind == 3:
            matrices = [v for v in values if program.shape(v) == (3, 4)]
            index = program.apply(lambda a, w: a @ w, int(rng.choice(matrices)), weight)
        elif kind == 4:
            index = program.apply(lambda a: a.relu(), first)
        else:
            index = program.apply(_BINARY[kind], first, second)
        values.append(index)
        made.append(index)
    total_index = program.apply(lambda a: a.sum(), made[0])
    for index in made[1:]:
        total_index = program.apply(lambda a, b: a + b.sum(), total_index, index)
    return program, total_index


def _diamond(tensor_class: type) -> tuple[Program, int]:
    program = Program(tensor_class)
    a = program.leaf(3.0)
    b = program.apply(lambda x: x + x, a)
    return program, program.apply(lambda x: x * x, b)


def _reused(tensor_class: type) -> tuple[Program, int]:  # micrograd's bug report #64
    program = Program(tensor_class)
    a = program.leaf(3.0)
    b = program.apply(lambda x: x + x, a)
    return program, program.apply(lambda x: x + x, b)


def _layer(tensor_class: type) -> tuple[Program, int]:
    """A layer with a broadcast bias, relu at exact zeros, a constant input."""
    program = Program(tensor_class)
    x = program.leaf([[1.0, -2.0], [3.0, 4.0], [0.0, 0.0]], requires_grad=False)
    w = program.leaf([[0.5], [-1.0]])
    b = program.leaf(0.0)
    h = program.apply(lambda x, w, b: (x @ w + b).relu(), x, w, b)
    return program, program.apply(lambda h: h.sum(), h)


def _constant_branch(tensor_class: type) -> tuple[Program, int]:
    """A value made of constants only (a leaf, no graph) feeding a result that needs grad."""
    program = Program(tensor_class)
    c = program.leaf([1.0, 2.0, 3.0], requires_grad=False)
    doubled = program.apply(lambda c: c * 2.0 + 1.0, c)
    a = program.leaf([0.5, -0.5, 2.0])
    return program, program.apply(lambda a, d: (a * d * a).sum(), a, doubled)


def _one_gradient_for_two(tensor_class: type) -> tuple[Program, int]:
    """add sends both leaves the very array it received."""
    program = Program(tensor_class)
    a = program.leaf([1.0, 2.0])
    c = program.leaf([3.0, -1.0])
    return program, program.apply(lambda a, c: (a + c).sum(), a, c)


def _lesson_programs() -> list[tuple[str, Callable, bool]]:
    """(description, make, whether the leaves' .grad hold ones before the pass)."""
    programs = [("the diamond b = a + a; c = b * b", _diamond, False),
                ("b = a + a; c = b + b", _reused, False),
                ("(x @ w + b).relu().sum(), with a broadcast bias", _layer, False),
                ("a program with a branch of constants", _constant_branch, False),
                ("(a + c).sum(), where both leaves receive one and the same gradient",
                 _one_gradient_for_two, False),
                ("(x @ w + b).relu().sum(), with .grad already holding ones", _layer, True)]
    programs += [(f"random program {seed}" + (", with .grad already holding ones"
                                              if seed % 3 == 0 else ""),
                  lambda tensor_class, seed=seed: random_program(tensor_class, seed),
                  seed % 3 == 0) for seed in range(1, 7)]
    return programs


def _graph_of(root: Any) -> list[Any]:
    """Every tensor reachable from the learner's root through `inputs`, with a stack."""
    found, stack, seen = [], [root], {id(root)}
    while stack:
        t = stack.pop()
        found.append(t)
        for parent in getattr(t, "inputs", ()) or ():
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return found


def _count_runs(root: Any, runs: Counter) -> Callable:
    """Wrap the grad_fn of every result in the learner's graph so that each call is counted;
    returns one of the wrappers, which the learner's code may call (a Watch's `given`)."""
    def counting(grad_fn: Callable, key: int) -> Callable:
        def counted_grad_fn(grad: Any) -> Any:
            runs[key] += 1
            return grad_fn(grad)
        return counted_grad_fn

    wrapper = counting(lambda grad: grad, -1)
    for t in _graph_of(root):
        if getattr(t, "grad_fn", None) is not None:
            t.grad_fn = counting(t.grad_fn, id(t))
    return wrapper


def _expected_grad(t: minigrad.Tensor) -> Any:
    """What PyTorch leaves in t.grad: a leaf's gradient, None for every other tensor (read
    without the warning a non-leaf's .grad gives)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grad = t.grad
    return None if grad is None else grad.numpy()


def _own_grads(tensors: list[Any]) -> bool:
    """Every .grad is its own writable array, as backward() leaves it."""
    grads = [t.grad for t in tensors if isinstance(t.grad, np.ndarray)]
    shared = any(np.shares_memory(g, h) for i, g in enumerate(grads) for h in grads[i + 1:])
    return all(g.flags.writeable for g in grads) and not shared


def _grad_hint(wrong_shape: bool, had_ones: bool) -> str:
    if wrong_shape:
        return "an input that was broadcast gets its gradient summed back to its shape."
    if had_ones:
        return "a leaf's .grad may already hold a gradient: add yours to it."
    return ("a tensor's grad_fn runs once, with the sum of every gradient sent to it, once all "
            "have arrived.")


def _wrong_grad(checks: Checks, which: str, program: Program, had_ones: bool) -> None:
    """Compare every tensor's .grad with minigrad's: None where PyTorch leaves None first (a
    .grad kept where none belongs is the mistake to name, even when it also spoils a leaf's),
    then the leaves' values."""
    pairs = list(enumerate(zip(program.mine, program.theirs)))
    pairs.sort(key=lambda pair: _expected_grad(pair[1][1]) is not None)
    for index, (mine, theirs) in pairs:
        expected = _expected_grad(theirs)
        got = getattr(mine, "grad", None)
        what = ("a leaf that requires grad" if theirs.is_leaf and theirs.requires_grad else
                "a tensor that does not require grad" if not theirs.requires_grad else
                "an intermediate result")
        if expected is None:
            if not checks.expect(got is None, f"for {which}, {what} (tensor {index + 1}) has "
                                 f"{_kind(got)} in .grad; PyTorch leaves None there. Hint: "
                                 "only leaves that require grad keep a gradient."):
                return
        elif not checks.expect(_same(got, expected),
                               f"for {which}, a leaf's .grad is {shown(got)} ({_kind(got)}); "
                               "PyTorch gives " + ("other numbers" if np.shape(got) ==
                                                   expected.shape else _kind(expected))
                               + ". Hint: " + _grad_hint(np.shape(got) != expected.shape,
                                                         had_ones)):
            return


def backward_pass(Tensor: type, backward: Callable) -> None:
    checks = Checks("backward(root)")
    hints = {"recursion": "walk the graph with a list used as a stack, not recursion."}
    recursive: set[str] = set()
    for description, make, had_ones in _lesson_programs():
        program, root_index = make(Tensor)
        for index, (mine, theirs) in enumerate(zip(program.mine, program.theirs)):
            if not _same(_data(mine), theirs.detach().numpy()):
                checks.fail_now(f"for {description}, the value of tensor {index + 1} is not "
                                "PyTorch's: check the operations above first.")
        if had_ones:
            for mine, theirs in zip(program.mine, program.theirs):
                if theirs.is_leaf and theirs.requires_grad:
                    mine.grad = np.ones(mine.data.shape, np.float32)
                    theirs.grad = minigrad.ones(theirs.shape)
        root = program.mine[root_index]
        runs: Counter = Counter()
        wrapper = _count_runs(root, runs)
        with Watch(given=(wrapper,)) as watch:
            checks.call(backward, root, hints=hints, doing=f"backward on {description}")
        recursive.update(watch.recursive)
        program.theirs[root_index].backward()
        _wrong_grad(checks, description, program, had_ones)
        most = max(runs.values(), default=0)
        checks.expect(most <= 1, f"for {description}, a grad_fn ran {times(most)}. Hint: run "
                      "each once, when all the gradients it will receive are in, with their "
                      "sum (count them first).")
        checks.expect(lambda: _own_grads(program.mine),
                      f"for {description}, two leaves share one .grad array, or a .grad is "
                      "read-only. Hint: the first gradient a leaf receives may be an array other "
                      "tensors hold too: its .grad needs an array of its own.")

    leaf = root = checks.call(Tensor, 1.0, requires_grad=True)
    for _ in range(CHAIN_LENGTH):
        root = root * 1.0
    with Watch() as watch:
        checks.call(backward, root, hints=hints,
                    doing=f"backward on a chain of {CHAIN_LENGTH:,} multiplications")
    recursive.update(watch.recursive)
    checks.expect(not recursive, f"your function {min(recursive, default='')}() calls itself. "
                  "Hint: walk the graph with a list used as a stack, not recursion.")
    checks.expect(_same(leaf.grad, np.float32(1.0)),
                  f"on a chain of {CHAIN_LENGTH:,} multiplications by 1, the leaf's .grad is "
                  f"{shown(leaf.grad)}; PyTorch gives 1.")
    checks.verdict(f"backward fills .grad as PyTorch does on {len(_lesson_programs())} programs "
                   "(24 on the diamond, None where PyTorch leaves None), runs each grad_fn "
                   f"once, and handles a chain of {CHAIN_LENGTH:,} operations.")


# Step 5: the optimizer --------------------------------------------------------------------

def _step_hint(mine: Any, before: Any, grad: np.ndarray) -> str:
    """The end of the message for a parameter moved wrongly: lr left out, or a hint."""
    if mine is not None and before is not None and _same(mine, before - grad):
        return (": it moved by the whole of .grad, as if the learning rate were 1. Hint: by how "
                "much does SGD scale the gradient it subtracts?")
    return ". Hint: by how much does SGD scale the gradient it subtracts?"


def optimizer(Tensor: type, SGD: type) -> None:
    checks = Checks("SGD")
    rng = np.random.default_rng(1414)
    starts = [rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=2)]
    mine = [checks.call(Tensor, s, requires_grad=True) for s in starts]
    theirs = [_leaf(s) for s in starts]
    optimizer = checks.call(SGD, mine, lr=0.5, doing="SGD(params, lr=0.5)")
    reference = minigrad.optim.SGD(theirs, lr=0.5)
    for step in range(2):
        grads = [rng.normal(size=s.shape).astype(np.float32) for s in starts[:2]]
        for t, m, g in zip(theirs, mine, grads):
            t.grad, m.grad = minigrad.tensor(g), g.copy()
        before = [None if _data(m) is None else _data(m).copy() for m in mine]
        checks.call(optimizer.step, doing="optimizer.step()")
        reference.step()
        which = f"after step() number {step + 1}"
        for index, (m, t) in enumerate(zip(mine, theirs)):
            if not checks.expect(_same(_data(m), t.detach().numpy()),
                                 f"{which}, parameter {index + 1}'s data is "
                                 f"{'not a numpy array' if _data(m) is None else 'not right'}"
                                 + (" (its .grad was None: leave it as it is)" if index == 2
                                    else _step_hint(_data(m), before[index], grads[index]))):
                break
        checks.expect(all(_same(m.grad, g) for m, g in zip(mine, grads)),
                      f"{which}: a .grad changed. Hint: step() reads the gradients; only "
                      "zero_grad() clears them.")
        checks.call(optimizer.zero_grad, doing="optimizer.zero_grad()")
        checks.expect(all(m.grad is None for m in mine),
                      "after zero_grad(), a .grad is not None. Hint: PyTorch's "
                      "zero_grad() sets .grad to None (set_to_none=True), not to zeros.")
        reference.zero_grad()
    checks.verdict("SGD's step() moves each parameter by -lr times its gradient, as "
                   "torch.optim.SGD does, and zero_grad() sets every .grad to None.")


# Exercise 13 ------------------------------------------------------------------------------
# Each answer is a function of plain data (dicts, lists, numpy arrays) that returns plain data,
# judged in three halves (`_exercise.Exercise`): `_*_cases` draws the inputs, `_*_run` calls the
# learner's function on a copy of them in the learner's process and returns what it gave as
# data, with what a Watch saw; `_*_judge` computes the expected result in the judge's process.

GRAD_PRINTS_SNIPPET = """\
x = torch.tensor([[1.0, 1.0], [-2.0, 0.0], [0.5, 0.5]])
w = torch.tensor([[1.0], [2.0]], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
u = torch.tensor([1.0, 1.0], requires_grad=True)
loss = (x @ w + b).relu().sum()
loss.backward()
print(w.grad)
print(b.grad)
print(x.grad)
print(u.grad)"""


@prediction
def grad_prints(answers: Any) -> None:
    check_predictions("your 4 predictions", answers, GRAD_PRINTS_SNIPPET,
                      ["w.grad", "b.grad", "x.grad", "u.grad"],
                      "All 4 right: a broadcast input's gradient is summed over the rows it "
                      "was added to, relu passes it only where its input is positive, and "
                      "only leaves that require grad and were used get a .grad.")


def _as_dict(data: Any) -> dict | None:
    """A dict the learner returned, from its data form; None for anything else."""
    if isinstance(data, dict) and set(data) == {"dict"} and isinstance(data["dict"], list):
        return {key: value for key, value in data["dict"]}
    return None


def _no_recursion(hint: str) -> Callable:
    def finish(checks: Checks, cases: list, results: list) -> None:
        recursive = sorted({name for got in results if got for name in got["recursive"]})
        checks.expect(not recursive, f"{', '.join(recursive)} calls itself: recursion fails "
                      "on graphs deeper than Python's recursion limit, whatever the limit is "
                      f"set to. Hint: {hint}")
    return finish


# Exercise 13: paths ----------------------------------------------------------------------

def _paths_expected(inputs_of: dict, root: str) -> dict:
    """How many paths lead from root to each node it reaches, counted by minigrad's backward
    (the installed course carries no worked answer): each node is made the sum of its inputs,
    once per use, so the gradient of root reaching a node is its number of paths. graphlib
    gives an order to make the nodes in; float64 holds every count here exactly (at most 2**70,
    a power of two, on the stacked diamonds)."""
    made: dict = {}
    with minigrad.enable_grad():  # whatever the learner's kernel left grad mode at
        for name in graphlib.TopologicalSorter(inputs_of).static_order():
            inputs = [made[child] for child in inputs_of.get(name, ())]
            if not inputs:
                made[name] = minigrad.tensor(1.0, dtype=minigrad.float64, requires_grad=True)
                continue
            total = inputs[0] * 1.0  # a node of its own, even for a single input
            for other in inputs[1:]:
                total = total + other
            made[name] = total
        others = [name for name in made if name != root]
        grads = minigrad.autograd.grad(made[root], [made[name] for name in others],
                                       allow_unused=True) if others else []
    return {root: 1} | {name: int(grad.item()) for name, grad in zip(others, grads)
                        if grad is not None}


def _random_dag(rng: np.random.Generator, size: int) -> dict:
    """Nodes n0 (the root) .. n{size-1}; each takes one to three inputs among the four nodes
    after it, the same one twice at times (as in a + a); only nodes the root reaches are
    kept."""
    names = [f"n{i}" for i in range(size)]
    inputs_of = {name: [] for name in names}
    for i in range(size - 1):
        count = int(rng.integers(1, 4))
        inputs_of[names[i]] = [names[int(j)] for j in rng.integers(i + 1, min(i + 5, size),
                                                                    count)]
    reached = _paths_expected(inputs_of, "n0")
    return {name: inputs for name, inputs in inputs_of.items() if name in reached}


def _stacked_diamonds(count: int) -> dict:
    """d0 = d1 + d1, d1 = d2 + d2, ...: 2 ** count paths to the last."""
    return {f"d{i}": [f"d{i + 1}", f"d{i + 1}"] if i < count else [] for i in range(count + 1)}


# The examples the notebook shows (a test keeps the text equal), each the check's first case.
PATHS_EXAMPLE_SNIPPET = """\
{"loss": ["c", "b"], "c": ["b", "b"], "b": ["a", "w"], "a": [], "w": []}"""
PATHS_EXAMPLE = ast.literal_eval(PATHS_EXAMPLE_SNIPPET)
# Two paths of different lengths meet at z (out-g-z and out-h-k-z) before x: a walk that passes
# a node's count on as soon as it meets the node (breadth first, say) gives x 1 path, not 2.
UNEVEN_PATHS = {"out": ["g", "h"], "g": ["z"], "h": ["k"], "k": ["z"], "z": ["x"], "x": []}


def _paths_cases(rng: np.random.Generator, hidden: bool = False) -> list[dict]:
    if hidden:
        depth = int(rng.integers(50, 70))
        chain = int(rng.integers(3000, 4000))
        return [{"inputs_of": _stacked_diamonds(depth), "root": "d0"},
                {"inputs_of": {f"v{i}": [f"v{i + 1}"] if i < chain else []
                               for i in range(chain + 1)}, "root": "v0"},
                {"inputs_of": _random_dag(rng, 40), "root": "n0"}]
    return [{"inputs_of": PATHS_EXAMPLE, "root": "loss"},
            {"inputs_of": _stacked_diamonds(3), "root": "d0"},
            {"inputs_of": UNEVEN_PATHS, "root": "out"},
            {"inputs_of": _random_dag(rng, int(rng.integers(10, 16))), "root": "n0"},
            {"inputs_of": _random_dag(rng, int(rng.integers(18, 26))), "root": "n0"}]


def _paths_run(paths_from: Callable, case: dict) -> dict:
    given = {name: list(inputs) for name, inputs in case["inputs_of"].items()}
    with Watch() as watch:
        result = call(paths_from, given, case["root"], doing="paths_from(...)")
    return {"result": value_data(result), "recursive": watch.recursive,
            "backward_runs": watch.backward_runs}


def _paths_judge(checks: Checks, case: dict, got: dict) -> None:
    inputs_of, root = case["inputs_of"], case["root"]
    which = f"for a graph of {len(inputs_of)} nodes from {root!r}"
    if got["backward_runs"]:
        checks.fail_now(f"{which}, it ran minigrad's backward pass: write the walk yourself, "
                        "on the dict.")
    result = _as_dict(got["result"])
    if result is None:
        checks.fail_now(f"{which}: it should return a dict, node -> number of paths.")
    expected = _paths_expected(inputs_of, root)
    strangers = sorted(str(name) for name in set(result) - set(inputs_of))
    checks.expect(set(result) == set(expected),
                  f"{which}: its keys should be every node root reaches, root included, each "
                  "once" + (f"; {strangers[0]!r} is not a node of this graph, as if the answer "
                            "were fitted to the example: work from inputs_of, for any graph."
                            if strangers else "."))
    wrong = [name for name in expected if name in result and not (
        type(result[name]) in (int, float) and result[name] == expected[name])]
    if wrong:
        name = min(wrong, key=lambda n: (expected[n], n))
        checks.expect(False, f"{which}: {name!r} has {result[name]!r} paths, not the number "
                      f"from root to it{_paths_slip(inputs_of, root, result)} Hint: a node's "
                      "paths are the sum of the paths of the nodes that use it, once per use; "
                      "add them up only once all those nodes are done (count each node's uses "
                      "first), and give root 1.")


def _paths_slip(inputs_of: dict, root: str, result: dict) -> str:
    """What the learner's numbers are when they are a known wrong count (one per node, the
    nodes' uses, an input used twice by one node counted once, counts too high), else "."."""
    def matches(counts: dict) -> bool:
        return all(result.get(name) == count for name, count in counts.items())

    reached = _paths_expected(inputs_of, root)
    counted = Counter(child for node, inputs in inputs_of.items() if node in reached
                      for child in inputs)
    twice_as_once = matches(_paths_expected({node: list(dict.fromkeys(inputs)) for node, inputs
                                             in inputs_of.items()}, root))
    if matches(dict.fromkeys(reached, 1)):
        # On stacked diamonds (d0 uses d1 twice) both slips give all 1s: name both.
        return (": every node got 1, as if each were reached once, however many paths lead to "
                "it" + (", or as if an input a node uses twice (as in b + b) were counted once."
                        if twice_as_once else "."))
    if matches({name: counted[name] for name in reached} | {root: 1}):
        return (": these are the number of times each node is used, not paths: a use by a node "
                "that several paths reach is on each of them.")
    if twice_as_once:
        return (": an input a node uses twice (as in b + b) was counted once; each use is a "
                "path of its own.")
    if any(result.get(name, 0) > count for name, count in reached.items()):
        return (": some counts are too high, as if a node passed its count on before all the "
                "nodes that use it were done, or more than once.")
    return "."


PATHS_HINTS = {"recursion": "keep the walk's state in lists, not in nested calls."}
paths = Exercise(
    "paths_from(inputs_of, root)", ("paths_from",), cases=_paths_cases, run=_paths_run,
    judge=_paths_judge, finish=_no_recursion("keep the walk's state in lists."), seed=14,
    hints=PATHS_HINTS,
    success="paths_from counts the paths to every node of 5 graphs: the runs a "
            "once-per-path pass would make.")
paths_deep = Exercise(
    paths.subject, paths.names, cases=lambda rng: _paths_cases(rng, hidden=True),
    run=_paths_run, judge=_paths_judge, finish=paths.finish, seed=1414, hints=PATHS_HINTS,
    success="paths_from counts the 2 ** 50 and more paths through 50 or more stacked "
            "diamonds, and walks a chain of 3,000 nodes or more without recursion.")


# Exercise 13: backward over a tape --------------------------------------------------------

_TAPE_FORWARD: dict[str, Callable] = {  # numpy, in the learner's process: values, no gradient
    "add": np.add, "mul": np.multiply, "matmul": np.matmul,
    "relu": lambda a: np.maximum(a, 0.0), "sum": lambda a: np.asarray(a.sum())}
_TAPE_OPS: dict[str, Callable] = {  # minigrad, in the judge: the expected gradients
    "add": lambda a, b: a + b, "mul": lambda a, b: a * b, "matmul": lambda a, b: a @ b,
    "relu": lambda a: a.relu(), "sum": lambda a: a.sum()}


def _steps(tape: list) -> list[tuple]:
    """The tape as the notebook describes it, whether it came as data (lists) or not."""
    return [(out, op, tuple(ins)) for out, op, ins in tape]


def _values(tape: list, inputs: dict) -> dict:
    values = {name: np.array(value, dtype=np.float64) for name, value in inputs.items()}
    for out, op, ins in _steps(tape):
        values[out] = _TAPE_FORWARD[op](*(values[name] for name in ins))
    return values


def _expected_grads(tape: list, inputs: dict, wrt: list,
                    ops: dict[str, Callable] = _TAPE_OPS) -> list:
    """The gradients of the tape's last value with respect to `wrt`, from minigrad (float64):
    None where it does not depend on an input. Other `ops` give what a slip in one operation's
    rule would give, to recognise it."""
    tensors = {name: minigrad.tensor(np.array(value, dtype=np.float64),
                                     requires_grad=name in wrt)
               for name, value in inputs.items()}
    for out, op, ins in _steps(tape):
        tensors[out] = ops[op](*(tensors[name] for name in ins))
    grads = minigrad.autograd.grad(tensors[tape[-1][0]], [tensors[name] for name in wrt],
                                   allow_unused=True)
    return [None if g is None else g.numpy() for g in grads]


def _random_tape(rng: np.random.Generator, steps: int) -> dict:
    """Inputs x (3, 4), two that broadcast with it, a weight w for matmul, a constant c (not
    in wrt), an input u never used and an input v used only by a step the loss does not use;
    `steps` random steps that may reuse any value, then the loss adds up their sums."""
    inputs = {"x": rng.normal(size=(3, 4)), "w": rng.normal(size=(4, int(rng.choice([1, 4]))))}
    for name in ("p", "q"):
        inputs[name] = rng.normal(size=SHAPES[int(rng.integers(1, 5))])
    inputs.update(c=rng.normal(size=(3, 4)), u=rng.normal(size=(3, 4)),
                  v=rng.normal(size=(3, 4)))
    shapes = {name: value.shape for name, value in inputs.items()}
    usable = ["x", "p", "q", "c"]
    tape, made = [], []
    for index in range(steps):
        out = f"h{index}"
        kind = int(rng.integers(5))
        first, second = (usable[int(i)] for i in rng.integers(len(usable), size=2))
        if kind == 3:
            first = str(rng.choice([n for n in usable if shapes[n] == (3, 4)]))
            step = (out, "matmul", (first, "w"))
            shapes[out] = (3, shapes["w"][1])
        elif kind == 4:
            step = (out, "relu", (first,))
            shapes[out] = shapes[first]
        else:
            step = (out, ("add", "mul", "mul")[kind], (first, second))
            shapes[out] = np.broadcast_shapes(shapes[first], shapes[second])
        tape.append(step)
        usable.append(out)
        made.append(out)
    tape.append(("dead", "mul", ("v", "x")))  # its result is never used
    tape.append(("s0", "sum", (made[0],)))
    for index, name in enumerate(made[1:], start=1):
        tape += [(f"t{index}", "sum", (name,)), (f"s{index}", "add", (f"s{index - 1}",
                                                                      f"t{index}"))]
    return {"tape": tape, "inputs": inputs, "wrt": ["x", "w", "p", "q", "u", "v"]}


def _long_tape(rng: np.random.Generator) -> dict:
    """A chain: h = h * c + x, a thousand times or more, then its sum."""
    tape, last = [], "x"
    for index in range(int(rng.integers(1000, 1500))):
        tape += [(f"m{index}", "mul", (last, "c")), (f"a{index}", "add", (f"m{index}", "x"))]
        last = f"a{index}"
    tape.append(("loss", "sum", (last,)))
    return {"tape": tape, "inputs": {"x": rng.uniform(-1, 1, 2), "c": np.array(0.999)},
            "wrt": ["x", "c"]}


TAPE_EXAMPLE_SNIPPET = """\
tape = [("h", "matmul", ("x", "w")), ("z", "add", ("h", "b")),
        ("r", "relu", ("z",)), ("loss", "sum", ("r",))]"""
TAPE_EXAMPLE = {"tape": ast.literal_eval(TAPE_EXAMPLE_SNIPPET.removeprefix("tape = ")),
                "inputs": {"x": np.array([[1.0, 1.0], [-1.0, 0.0], [0.5, 0.5]]),
                           "w": np.array([[1.0], [2.0]]), "b": np.array(1.0)},  # a 0 at relu
                "wrt": ["w", "b"]}


def _tape_cases(rng: np.random.Generator, hidden: bool = False) -> list[dict]:
    if hidden:
        return [_long_tape(rng), _random_tape(rng, 12), _random_tape(rng, 12)]
    return [TAPE_EXAMPLE, *(_random_tape(rng, steps) for steps in (4, 6, 8))]


def _tape_run(tape_backward: Callable, case: dict) -> dict:
    values = _values(case["tape"], case["inputs"])
    given = {name: value.copy() for name, value in values.items()}
    steps, wanted = _steps(case["tape"]), list(case["wrt"])
    with Watch() as watch:  # the arguments are made before: a Watch refuses the check's code
        result = call(tape_backward, steps, given, wanted, doing="tape_backward(...)")
    changed = sorted(name for name in values if not np.array_equal(given[name], values[name]))
    return {"result": value_data(result), "changed": changed, "recursive": watch.recursive,
            "backward_runs": watch.backward_runs}


def _tape_judge(checks: Checks, case: dict, got: dict) -> None:
    tape, wrt = case["tape"], case["wrt"]
    which = f"for a tape of {len(tape)} steps"
    if got["backward_runs"]:
        checks.fail_now(f"{which}, it ran minigrad's backward pass: write the pass over the "
                        "tape yourself, with numpy.")
    result = _as_dict(got["result"])
    if result is None:
        checks.fail_now(f"{which}: it should return a dict, input name -> gradient or None.")
    if got["changed"]:
        checks.expect(False, f"{which}: it changed values[{got['changed'][0]!r}] in place. "
                      "Hint: write into arrays you made (a + b, grad * mask make new ones), "
                      "never into the arrays of values.")
    strangers = sorted(str(name) for name in set(result) - set(wrt))
    if strangers and not set(wrt) <= set(result):
        checks.fail_now(f"{which}: it has an entry for {strangers[0]!r}, which is not a name of "
                        "wrt, and none for some that are, as if the answer were fitted to the "
                        "example: the dict should have one entry for each name of wrt, for any "
                        "tape.")
    for name, want in zip(wrt, _expected_grads(tape, case["inputs"], wrt)):
        if not checks.expect(name in result, f"{which}: it has no entry for {name!r}; the "
                             "dict should have one for each name of wrt."):
            continue
        mine = result[name]
        if want is None:
            checks.expect(mine is None, f"{which}: the loss does not depend on {name!r}, "
                          f"whose gradient should then be None (PyTorch's allow_unused), not "
                          f"{_kind(mine)}.")
        elif mine is None:
            checks.expect(False, f"{which}: the loss depends on {name!r}, but its gradient is "
                          "None. Hint: a step can send its inputs gradients only once its own "
                          "gradient is complete: walk the tape from its end.")
        elif as_array(mine) is None or np.shape(as_array(mine)) != want.shape:
            checks.expect(False, f"{which}: the gradient of {name!r} is {_kind(mine)}, not an "
                          f"array of its input's shape {want.shape}. Hint: an input that was "
                          "broadcast gets its gradient summed back to its shape.")
        else:
            right = same_numbers(mine, want)
            checks.expect(right, "" if right else f"{which}: the gradient of {name!r} is not "
                          f"the loss's{_tape_slip(case, result)}")


def _relu_passing_at_zero(a: minigrad.Tensor) -> minigrad.Tensor:
    """relu's values, with the gradient passed where the input is 0 too."""
    data = a.detach().numpy()
    return a * minigrad.tensor((data >= 0).astype(data.dtype))


def _tape_slip(case: dict, result: dict) -> str:
    """The end of the message for wrong gradients: relu's passed at 0 when every gradient
    given is what that slip gives, else a hint."""
    slipped = _expected_grads(case["tape"], case["inputs"], case["wrt"],
                              {**_TAPE_OPS, "relu": _relu_passing_at_zero})
    if all(want is None or result.get(name) is None or same_numbers(result[name], want)
           for name, want in zip(case["wrt"], slipped)):
        return (": relu passed the gradient where its input is exactly 0; PyTorch's relu sends "
                "0 there.")
    return (". Hint: walk the tape from its end; a value used by several steps gets the sum of "
            "what each sends it, and it is complete once the walk passes the step that made it. "
            "Check each operation's rule too, relu's at exactly 0 included.")


TAPE_HINTS = {"recursion": "one loop over the tape, from its end, is the whole walk."}
tape = Exercise(
    "tape_backward(tape, values, wrt)", ("tape_backward",), cases=_tape_cases, run=_tape_run,
    judge=_tape_judge, finish=_no_recursion("one loop over the tape, from its end, is the "
                                            "whole walk."),
    seed=15, hints=TAPE_HINTS,
    success="tape_backward gives PyTorch's gradients on 4 tapes, broadcast inputs summed "
            "back, None for inputs the loss does not use.")
tape_long = Exercise(
    tape.subject, tape.names, cases=lambda rng: _tape_cases(rng, hidden=True), run=_tape_run,
    judge=_tape_judge, finish=tape.finish, seed=1515, hints=TAPE_HINTS,
    success="tape_backward walks a tape of 2,000 steps or more, and two more random tapes.")
