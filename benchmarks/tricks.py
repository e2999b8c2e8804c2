"""Every speed or memory trick in minigrad/, each measured against the plain code it replaces,
in ONE process: for each trick and workload, rounds with the trick and rounds with its plain
version swapped in alternate (A, B, A, B, ...), so that a noisy neighbour slows both alike.
A trick's gain is the median, over pairs of neighbouring rounds, of (plain - trick) / plain: a
paired figure that holds on a loaded machine where whole-workload medians swing by 20%.

Memory is measured the same way, but needs no repeats: bytes (tracemalloc) and objects tracked
by the garbage collector that each op of a long scalar chain keeps alive, which is what
workload (d)'s peak is made of.

Issue 12's rule: a trick stays only if it earns 5% or more on some workload. The last column
applies it. Results and decisions: benchmarks/tricks.md.

Usage: `OPENBLAS_NUM_THREADS=1 python benchmarks/tricks.py [--rounds N] [--only NAME,...]`
(one BLAS thread, so that CPU time is one thread's: the rounds are timed in CPU time)."""
from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mlp
import numpy as np
import op_memory
from libraries import optional  # noqa: F401 - puts this checkout first on sys.path

import minigrad as mg
from minigrad import _inplace
from minigrad.autograd import accumulate, function, graph
from minigrad.autograd.accumulate import grad_accumulator
from minigrad.autograd.graph import _NO_EDGE, SavedTensor
from minigrad.ops import operands, pointwise, selection
from minigrad.ops.fill import Zero
from minigrad.tensor import Tensor

THRESHOLD = 5.0  # percent: issue 12's bar for keeping a trick
SCALAR_CHAIN = 300  # ops per round of the timed chain: short rounds, many pairs


# ---- the plain code each trick replaces -----------------------------------------------------

def plain_run_quietly(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with np.errstate(all="ignore"):
        return fn(*args, **kwargs)


def not_shared(value: tuple) -> tuple:
    return value


def tuple_of_refs(refs: list) -> tuple:  # every node keeps a tuple, even of one weak reference
    return tuple(refs)


def saved_number_each_time(number: Tensor, ctx: Any) -> SavedTensor:
    return SavedTensor(number, ctx)


def plain_as_tensor_pair(a: Any, b: Any) -> tuple:
    """as_tensor_pair without its fast path for the common cases."""
    dt = operands.result_type(a, b).numpy
    a = a if isinstance(a, Tensor) and a._data.dtype == dt else operands._constant(a, dt)
    b = b if isinstance(b, Tensor) and b._data.dtype == dt else operands._constant(b, dt)
    if a._data.shape != b._data.shape:
        operands.check_broadcast(a.shape, b.shape)
    return a, b


def wrapped_number_each_time(x: Any, dt: np.dtype) -> Tensor:
    t = Tensor(np.asarray(x, dtype=dt))
    t._data.flags.writeable = False
    t._is_wrapped_number = True
    return t


def plain_keep_where(keep: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.where(keep, values, 0)


def plain_update(t: Tensor, op: Any, other: Any, alpha: Any = 1) -> Tensor:
    if alpha == 1:
        return _inplace.inplace(t, lambda x: op(x, other), other)
    return _inplace.inplace(t, lambda x: op(x, other, alpha=alpha), other)


def plain_mul_unrecorded(a: Tensor, number: float) -> Tensor:
    return pointwise.Mul.apply(*operands.as_tensor_pair(a, number))


def plain_zero(t: Tensor) -> Tensor:
    return _inplace.inplace(t, lambda x: Zero.apply(x, 0))


_accumulate_into = accumulate.accumulate_into


def plain_accumulate_into(tensor: Tensor, grad: Any, keep_graph: bool) -> None:
    """accumulate_into with a leaf's later gradient added by `.grad.add_` (the general
    no_grad update, a tensor made of the array first)."""
    if keep_graph or tensor.grad_fn is not None or tensor._grad is None:
        return _accumulate_into(tensor, grad, keep_graph)
    tensor._grad.add_(grad if type(grad) is Tensor else Tensor(np.asarray(grad)))
    return None


def _edge_to(a: Tensor) -> tuple:
    if a.grad_fn is not None:
        return (a.grad_fn, a._output_nr)
    if a._requires_grad:
        return (grad_accumulator(a), 0)
    return _NO_EDGE


def plain_connect(ctx: Any, args: tuple, outs: tuple) -> None:
    """_connect written as one comprehension per field instead of one pass over the inputs."""
    tensors = [a for a in args if isinstance(a, Tensor)]
    ctx.needs_input_grad = function._one_copy(ctx.needs_input_grad)
    ctx._num_args = len(args)
    ctx._tensor_positions = function._one_copy(
        tuple(i for i, a in enumerate(args) if isinstance(a, Tensor)))
    ctx._next_functions = tuple(_edge_to(a) for a in tensors)
    ctx._input_meta = function._one_copy(tuple((a._data.shape, a._data.dtype) for a in tensors))
    kept = tuple(None if a.requires_grad else function._input_ref(a) for a in tensors)
    only_numbers = all(a.requires_grad or a._is_wrapped_number for a in tensors)
    ctx._inputs = function._one_copy(kept) if only_numbers else kept
    ctx._outputs = function._link_outputs(ctx, outs, ctx._non_differentiable, ctx._dirty)
    to_save, ctx._to_save = ctx._to_save, None
    ctx._saved = None if to_save is None else function._save(to_save, ctx, None)


# ---- the tricks ---------------------------------------------------------------------------

@dataclass
class Trick:
    where: str
    what: str
    swaps: list  # (name, the object in the tree, the plain replacement)
    workloads: tuple = ("300-op scalar chain", "(a) MLP step", "(b) MLP step")


TRICKS = {
    "_run_quietly": Trick(
        "autograd/function.py", "forward runs with numpy's error-state context variable set "
        "quiet, and reset after; plain: `with np.errstate(all='ignore')` in every apply",
        [("_run_quietly", function._run_quietly, plain_run_quietly)]),
    "_connect one pass": Trick(
        "autograd/function.py", "_connect reads the inputs in one loop; plain: one "
        "comprehension per field",
        [("_connect", function._connect, plain_connect)]),
    "_one_copy": Trick(
        "autograd/function.py", "equal small tuples (flags, shapes, saved numbers) shared by "
        "all nodes; plain: each node its own",
        [("_one_copy", function._one_copy, not_shared)], ("memory", "300-op scalar chain")),
    "single weakref output": Trick(
        "autograd/graph.py", "a one-output node keeps its weak reference itself; plain: a "
        "tuple of one",
        [("pack_outputs", graph.pack_outputs, tuple_of_refs)],
        ("memory", "300-op scalar chain")),
    "_saved_number": Trick(
        "autograd/function.py", "a Python number saved by many nodes has one SavedTensor; "
        "plain: one per node",
        [("_saved_number", function._saved_number, saved_number_each_time)],
        ("memory", "300-op scalar chain")),
    "wrapped_number cache": Trick(
        "ops/operands.py", "`y * 0.5` reuses one read-only tensor per number; plain: a new "
        "one each time",
        [("wrapped_number", operands.wrapped_number, wrapped_number_each_time)],
        ("memory", "300-op scalar chain")),
    "as_tensor_pair's fast path": Trick(
        "ops/operands.py", "two float tensors of one dtype, or a float tensor and a Python "
        "number, skip type promotion",
        [("as_tensor_pair", operands.as_tensor_pair, plain_as_tensor_pair)]),
    "_keep_where": Trick(
        "ops/selection.py", "relu's backward keeps values by a bitwise and with an "
        "all-ones/all-zeros mask; plain: np.where",
        [("_keep_where", selection._keep_where, plain_keep_where)],
        ("relu backward 128x256", "(a) MLP step", "(b) MLP step")),
    "no_grad update in one pass": Trick(
        "_inplace.py", "add_/sub_/mul_/div_ under no_grad write into the tensor in one numpy "
        "call; plain: the general in-place path",
        [("update", _inplace.update, plain_update)],
        ("SGD update of 6 parameters", "(a) MLP step", "(b) MLP step")),
    "mul_unrecorded": Trick(
        "ops/pointwise.py", "a Python float times a float tensor under no_grad (`lr * "
        "p.grad`) is numpy's product made one tensor; plain: Mul.apply with a wrapped number "
        "(its ctx, forward and result_like through _compute)",
        [("mul_unrecorded", pointwise.mul_unrecorded, plain_mul_unrecorded)],
        ("SGD update of 6 parameters", "(a′) MLP step, lesson style")),
    "_inplace.zero": Trick(
        "_inplace.py", "zero_() with nothing to record writes zeros into the tensor; plain: "
        "the general in-place path (a ZeroBackward0 node's forward, its result copied over)",
        [("zero", _inplace.zero, plain_zero)],
        ("zero_() of 6 gradients", "(a′) MLP step, lesson style")),
    "accumulate in place": Trick(
        "autograd/accumulate.py", "a leaf's later gradient added by numpy into .grad's "
        "memory in a pass that builds no graph; plain: .grad.add_(Tensor(gradient))",
        [("accumulate_into", accumulate.accumulate_into, plain_accumulate_into)],
        ("additions into 6 gradients", "(a′) MLP step, lesson style")),
}


def _swap(name: str, old: Any, new: Any) -> None:
    """Put `new` wherever minigrad holds `old` under `name`: the module that defines it and
    every module that imported it by name."""
    for module in list(sys.modules.values()):
        if module is not None and module.__name__.startswith("minigrad"):
            if module.__dict__.get(name) is old:
                setattr(module, name, new)


def _set(trick: Trick, plain: bool) -> None:
    for name, original, replacement in trick.swaps:
        if plain:
            _swap(name, original, replacement)
        else:
            _swap(name, replacement, original)


# ---- the workloads ------------------------------------------------------------------------

def chain_op() -> None:
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(SCALAR_CHAIN):
        y = y * 1.0001
    y.backward()


def relu_backward() -> Callable[[], None]:
    x = mg.tensor(np.random.default_rng(0).standard_normal((128, 256)).astype(np.float32),
                  requires_grad=True)

    def run() -> None:
        x.relu().sum().backward()
        x.grad = None
    return run


def sgd_update() -> Callable[[], None]:
    """The update of the 2-16-16-1 MLP's six parameters, as mlp.training_step does it."""
    params = [mg.tensor(w, requires_grad=True) for w in mlp._weights([2, 16, 16, 1], seed=0)]
    grads = [mg.ones(p.shape) for p in params]

    def run() -> None:
        with mg.no_grad():
            for p, g in zip(params, grads):
                p -= mlp.LEARNING_RATE * g
    return run


def reset_gradients() -> Callable[[], None]:
    """The reset of the 2-16-16-1 MLP's six gradients, as mlp.lesson_step does it."""
    grads = [mg.ones(w.shape) for w in mlp._weights([2, 16, 16, 1], seed=0)]

    def run() -> None:
        for g in grads:
            g.zero_()
    return run


def accumulate_gradients() -> Callable[[], None]:
    """The 2-16-16-1 MLP's six gradients added into their .grad, as its backward adds them."""
    params = [mg.tensor(w, requires_grad=True) for w in mlp._weights([2, 16, 16, 1], seed=0)]
    for p in params:
        p.grad = mg.zeros(p.shape)
    grads = [np.ones(p.shape, np.float32) for p in params]

    def run() -> None:
        with mg.no_grad():
            for p, g in zip(params, grads):
                accumulate.accumulate_into(p, g, False)
    return run


WORKLOADS: dict[str, Callable[[], Callable[[], None]]] = {
    "300-op scalar chain": lambda: chain_op,
    "(a) MLP step": lambda: mlp.small_mlp()["minigrad"],
    "(b) MLP step": lambda: mlp.mnist_mlp()["minigrad"],
    "relu backward 128x256": relu_backward,
    "SGD update of 6 parameters": sgd_update,
    "zero_() of 6 gradients": reset_gradients,
    "additions into 6 gradients": accumulate_gradients,
    "(a′) MLP step, lesson style": lambda: mlp.lesson_mlp()["minigrad"],
}


def paired_gain(trick: Trick, work: Callable[[], None], rounds: int,
                sample: float = 0.02) -> tuple[float, float, float]:
    """(seconds per call with the trick, without it, median paired gain in percent)."""
    start = time.process_time()
    work()
    loops = max(1, math.ceil(sample / max(time.process_time() - start, 1e-9)))
    times: dict[bool, list[float]] = {False: [], True: []}
    for round_nr in range(rounds):
        for plain in ((False, True) if round_nr % 2 == 0 else (True, False)):
            _set(trick, plain)
            gc.collect()
            start = time.process_time()
            for _ in range(loops):
                work()
            times[plain].append((time.process_time() - start) / loops)
        _set(trick, False)
    gains = [(p - t) / p * 100 for t, p in zip(times[False], times[True])]
    return statistics.median(times[False]), statistics.median(times[True]), statistics.median(gains)


def kept_per_op_with(trick: Trick, plain: bool) -> tuple[float, float]:
    """Bytes and GC-tracked objects each op of a scalar chain keeps alive."""
    _set(trick, plain)
    try:
        return op_memory.kept_per_op(mg)
    finally:
        _set(trick, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--only", default=",".join(TRICKS))
    args = parser.parse_args()
    print(f"numpy {np.__version__}, {args.rounds} paired rounds per row, CPU time\n")
    print("| trick | where | workload | with | plain | gain | kept? (≥ 5% somewhere) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in args.only.split(","):
        trick, best = TRICKS[name], -math.inf
        rows = []
        for workload in trick.workloads:
            if workload == "memory":
                (b0, o0), (b1, o1) = kept_per_op_with(trick, False), kept_per_op_with(trick, True)
                gain = (b1 - b0) / b1 * 100
                rows.append((workload, f"{b0:.0f} B, {o0:.2f} objects per op",
                             f"{b1:.0f} B, {o1:.2f} objects", gain))
            else:
                with_it, plain, gain = paired_gain(trick, WORKLOADS[workload](), args.rounds)
                rows.append((workload, f"{with_it * 1e6:,.1f} µs", f"{plain * 1e6:,.1f} µs",
                             gain))
            best = max(best, gain)
        verdict = f"{'yes' if best >= THRESHOLD else 'no'} ({best:+.1f}%)"
        for i, (workload, with_it, plain, gain) in enumerate(rows):
            print(f"| {name if i == 0 else ''} | {trick.where if i == 0 else ''} | {workload} | "
                  f"{with_it} | {plain} | {gain:+.1f}% | {verdict if i == 0 else ''} |",
                  flush=True)
    print()
    for name in args.only.split(","):
        print(f"- {name}: {TRICKS[name].what}")


if __name__ == "__main__":
    main()
