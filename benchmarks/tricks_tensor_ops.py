"""Each speed trick of minigrad's tensor operations against the plain code it replaces, side by
side in one process: the two versions run in the same interleaved rounds (timing.py), the
plain one swapped in for its turn. The results are in benchmarks/tricks_tensor_ops.md.

Usage: `python benchmarks/tricks_tensor_ops.py [--repeats N] [--only keep_where,update,...]`."""
from __future__ import annotations

import argparse
import gc
import math
import time
import weakref
from collections.abc import Callable

import mlp
import numpy as np
from libraries import optional

mg = optional("minigrad")
from minigrad import _inplace  # (after libraries has put this checkout first)
from minigrad.ops import indexing, selection, shape
from minigrad.tensor import _wrap


def plain_keep_where(keep: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.where(keep, values, 0)


def plain_update(t, op, other, alpha=1):
    if alpha == 1:
        return _inplace.inplace(t, lambda x: op(x, other), other)
    return _inplace.inplace(t, lambda x: op(x, other, alpha=alpha), other)


def pruned_list_view_of(data: np.ndarray, base):
    """The trick that was removed: a list of weak references that drops its dead ones each
    time its length reaches a power of two (16, 32, 64, ...), kept here to be measured."""
    out = _wrap(data)
    if np.shares_memory(data, base._data):
        out._version_counter = base._version_counter
        out._base = root = base._base if base._base is not None else base
        if root.requires_grad:
            views = root.__dict__.setdefault("_view_list", [])
            if len(views) >= 16 and len(views) & (len(views) - 1) == 0:
                views[:] = [ref for ref in views if ref() is not None]
            views.append(weakref.ref(out))
    return out


# trick name -> (what it is, the swaps that turn it off (module, attribute, replacement),
#                whether the code in the tree is the trick (True) or the plain version (False))
TRICKS = {
    "keep_where": ("relu's backward as a bitwise and (selection._keep_where), plain: np.where",
                   [(selection, "_keep_where", plain_keep_where)], True),
    "update": (("add_/sub_/mul_/div_ in one numpy pass under no_grad (_inplace.update), "
                "plain: inplace() as for every other in-place op"),
               [(_inplace, "update", plain_update)], True),
    "views": (("a root's views in a list pruned at powers of two (the trick), against the "
               "plain WeakValueDictionary now in shape._view_of"),
              [(shape, "_view_of", pruned_list_view_of),
               (indexing, "_view_of", pruned_list_view_of)], False),
}


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


def live_views() -> Callable[[], None]:
    """A thousand views of one leaf that requires grad, all alive at once (`[x[i] for i ...]`)."""
    x = mg.ones(1000, requires_grad=True)

    def run() -> None:
        rows = [x[i] for i in range(1000)]
        del rows
    return run


WORKLOADS: dict[str, Callable[[], Callable[[], None]]] = {
    "(a) 2-16-16-1 MLP step": lambda: mlp.small_mlp()["minigrad"],
    "(b) 784-256-10 MLP step": lambda: mlp.mnist_mlp()["minigrad"],
    "relu backward, 128x256": relu_backward,
    "SGD update, 6 parameters": sgd_update,
    "1,000 live views of a leaf": live_views,
}


def fastest_rounds(contenders: dict[str, Callable[[], None]], repeats: int,
                   sample: float = 0.02) -> dict[str, float]:
    """Seconds per call of each contender: the fastest of `repeats` alternating rounds."""
    loops = {}
    for name, work in contenders.items():
        start = time.process_time()
        work()  # (a warm-up that also sizes the rounds)
        loops[name] = max(1, math.ceil(sample / max(time.process_time() - start, 1e-9)))
    best = dict.fromkeys(contenders, math.inf)
    for _ in range(repeats):
        for name, work in contenders.items():
            gc.collect()
            start = time.process_time()
            for _ in range(loops[name]):
                work()
            best[name] = min(best[name], (time.process_time() - start) / loops[name])
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--only", default=",".join(TRICKS))
    args = parser.parse_args()
    print("| trick | workload | trick | plain | gain of the trick |")
    print("| --- | --- | --- | --- | --- |")
    for name in args.only.split(","):
        _, swaps, tree_has_trick = TRICKS[name]
        originals = [(module, attr, getattr(module, attr)) for module, attr, _ in swaps]
        for title, make in WORKLOADS.items():
            work = make()

            def in_tree(work: Callable[[], None] = work, originals: list = originals) -> None:
                for module, attr, value in originals:
                    setattr(module, attr, value)
                work()

            def swapped(work: Callable[[], None] = work, swaps: list = swaps) -> None:
                for module, attr, value in swaps:
                    setattr(module, attr, value)
                work()

            medians = fastest_rounds({"in tree": in_tree, "swapped": swapped}, args.repeats)
            for module, attr, value in originals:
                setattr(module, attr, value)
            trick, plain = ((medians["in tree"], medians["swapped"]) if tree_has_trick
                            else (medians["swapped"], medians["in tree"]))
            gain = (plain - trick) / plain * 100
            print(f"| {name} | {title} | {trick * 1e6:,.0f} µs | {plain * 1e6:,.0f} µs | "
                  f"{gain:+.0f}% |", flush=True)


if __name__ == "__main__":
    main()
