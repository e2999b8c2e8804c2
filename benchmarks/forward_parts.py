"""What each part of a recorded operation's forward path costs in the forward of workload (a′)
(the lesson-style 2-16-16-1 step, `mlp.lesson_step` without its backward): each part is taken
out of the running minigrad in turn (replaced by a stand-in that does none of its work), and the
forward is timed with and without it in interleaved rounds, in one process. The graphs built
without a part are broken (nothing reads them: no backward runs); the figure is the share of the
forward's time that part costs. The figures of benchmarks/op_path.md, "the forward, profiled
part by part". The parts are those of the general path (`Function.apply`, `_connect`): since
2026-11-28 minigrad's own operations take `_apply_builtin`, which has the same parts inline,
so this script sends every operation through the general path while it measures.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/forward_parts.py [--rounds N]`
(CPU time; the median over the pairs of rounds, and its quartiles)."""
from __future__ import annotations

import argparse
import inspect
import statistics
import time

import mlp
import numpy as np

import minigrad as torch
from minigrad.autograd import function

ROUND_FORWARDS = 200


def lesson_forward(params: list, x: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """`mlp.lesson_step`'s forward: 12 recorded operations."""
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    scores = h @ params[-2] + params[-1]
    return (1 - labels * scores).relu().mean()


def _connect_without(replacements: list[tuple[str, str]]):
    """`function._connect` with lines of its source replaced: one part of it taken out."""
    source = inspect.getsource(function._connect)
    for old, new in replacements:
        assert old in source, f"_connect no longer has {old!r}: update forward_parts.py"
        source = source.replace(old, new)
    namespace = dict(vars(function))
    exec(source, namespace)  # noqa: S102 - the module's own source, edited
    return namespace["_connect"]


class _BareCtx:
    """A ctx that only answers what the forwards of (a′) ask of it."""
    needs_input_grad: tuple = ()

    def save_for_backward(self, *tensors: object) -> None:
        pass


def _bare_apply(cls: type, *args: object) -> object:
    ctx = _BareCtx()
    ctx.needs_input_grad = (True,) * len(args)
    return cls.forward(ctx, *args)


def parts() -> dict[str, list[tuple[object, str, object]]]:
    """Each part: the (owner, attribute, stand-in) to put in place while it is out."""
    return {
        "all of Function.apply but forward(ctx, *args)":
            [(function.Function, "apply", classmethod(_bare_apply))],
        "_connect (recording)": [(function, "_connect", lambda *args: None)],
        "_link_outputs": [(function, "_connect", _connect_without([(
            "node._outputs = _link_outputs(node, outs)",
            "node._outputs = None\n    for o in outs: o.grad_fn = node")]))],
        "_one_copy (flags, input metadata, kept inputs)": [(function, "_one_copy", lambda v: v)],
        "_save (a SavedTensor per tensor saved)": [(function, "_save", lambda t, ctx, hooks: t)],
        "the input metadata": [(function, "_connect", _connect_without([(
            "meta.append((a._data.shape, a._data.dtype))", "pass")]))],
        "the leaf's AccumulateGrad, made again each step": [(function, "_connect",
            _connect_without([("edges.append((grad_accumulator(a), 0))",
                               "edges.append((None, 0))")]))],
    }


def _general_path_only() -> None:
    """Every operation through `Function.apply`'s general path, whose parts `parts` swaps."""
    stack = [function.Function]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__dict__.get("_is_builtin"):
            cls._is_builtin = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    rng = np.random.default_rng(1)  # the points and weights of workload (a′): mlp.lesson_mlp
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    labels = np.where(np.sin(3 * x[:, :1]) * x[:, 1:] > 0, 1, -1).astype(np.float32)
    params = [torch.tensor(w, requires_grad=True) for w in mlp._weights([2, 16, 16, 1], seed=0)]
    xs, ys = torch.tensor(x), torch.tensor(labels)
    _general_path_only()

    def forward_us() -> float:
        start = time.process_time()
        for _ in range(ROUND_FORWARDS):
            lesson_forward(params, xs, ys)
        return (time.process_time() - start) / ROUND_FORWARDS * 1e6

    print("| taken out of the forward of (a′) | forward with it | without | its share: median "
          "(quartiles) |\n| --- | --- | --- | --- |")
    for name, swaps in parts().items():
        originals = [(owner, attr, vars(owner)[attr]) for owner, attr, _ in swaps]
        gains, withs, withouts = [], [], []
        for _ in range(rounds):
            for owner, attr, original in originals:
                setattr(owner, attr, original)
            withs.append(forward_us())
            for owner, attr, stand_in in swaps:
                setattr(owner, attr, stand_in)
            withouts.append(forward_us())
            gains.append((withs[-1] - withouts[-1]) / withs[-1] * 100)
        for owner, attr, original in originals:
            setattr(owner, attr, original)
        q1, _, q3 = statistics.quantiles(gains, n=4)
        print(f"| {name} | {statistics.median(withs):.0f} µs | {statistics.median(withouts):.0f} µs "
              f"| {statistics.median(gains):.1f}% ({q1:.1f}% to {q3:.1f}%) |")


if __name__ == "__main__":
    main()
