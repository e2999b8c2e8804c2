"""Random programs run in both minigrad and PyTorch on the same float64 data: every value, every
leaf's and retained intermediate's `.grad` (None included), and second derivatives must agree.

A program is a list of steps; each step applies one op to tensors picked from a pool (leaves
and earlier results), so intermediates are reused and graphs branch and rejoin. Every pool
tensor has a shape from SHAPES, all broadcastable to (3, 4), so any op can take any of them."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad as mg

SHAPES = [(), (4,), (3, 1), (1, 4), (3, 4)]
OFFSETS = np.arange(12.0).reshape(3, 4) * 0.01  # separates values, so max/min have no ties


def full(t: Any) -> Any:
    return t.expand(3, 4)


def distinct(lib: Any, t: Any) -> Any:
    return full(t) + lib.tensor(OFFSETS, dtype=lib.float64)


def assign_row(lib: Any, a: Any, b: Any) -> Any:
    out = full(a).clone()
    out[1] = full(b)[0] * 2
    out[:, 0] = b.sum().sin()
    return out


def in_place(lib: Any, a: Any, b: Any, c: Any) -> Any:
    out = full(a).clone()
    out.add_(b)
    out.mul_(c.sigmoid())
    out.sub_(b, alpha=0.5)
    out.div_(c.abs() + 1)
    out.pow_(2)
    out += 1
    return out


def in_place_on_views(lib: Any, a: Any, b: Any, c: Any) -> Any:
    out = full(a).contiguous() * 1  # view(-1) needs a contiguous layout, in both libraries
    earlier = out.view(-1)  # a view made before the changes: its history must follow them
    out[0] += b.sum()
    out[:, 1].mul_(full(c)[:, 2])
    out.t()[2].add_(full(b)[:, 0])
    return out + earlier.view(3, 4)


def mixed_index(lib: Any, a: Any, b: Any) -> Any:
    """An integer and a list apart: PyTorch selects first, where numpy would reorder dims."""
    cube = a.expand(2, 3, 4).clone()
    cube[0, :, [1, 2]] = full(b)[:, :2] * 3
    return cube[1, :, [3, 0, 0, 2]] * cube[0]


# name: (number of operands, the op written once for both libraries)
OPS: dict[str, tuple[int, Callable[..., Any]]] = {
    "add": (2, lambda lib, a, b: a + b),
    "sub": (2, lambda lib, a, b: a - b),
    "mul": (2, lambda lib, a, b: a * b),
    "div": (2, lambda lib, a, b: a / (b.abs() + 0.5)),
    "pow": (2, lambda lib, a, b: (a.abs() + 0.5) ** b.tanh()),
    "where": (2, lambda lib, a, b: lib.where(a > b, a, b * 2)),
    "numbers": (1, lambda lib, a: 1 - 2 / (a.abs() + 1) + 2 ** a.tanh() * 0.5),
    "exp": (1, lambda lib, a: a.tanh().exp()),
    "log": (1, lambda lib, a: (a.abs() + 0.5).log()),
    "sqrt": (1, lambda lib, a: (a * a + 0.1).sqrt()),
    "trig": (1, lambda lib, a: a.sin() * a.cos()),
    "sigmoid": (1, lambda lib, a: a.sigmoid()),
    "relu": (1, lambda lib, a: (a - 0.3).relu()),
    "abs neg": (1, lambda lib, a: -a.abs()),
    "clamp": (1, lambda lib, a: a.clamp(-0.5, 0.7)),
    "square": (1, lambda lib, a: a**2 - a**3 * 0.1),
    "sum dim": (1, lambda lib, a: full(a).sum(-1, keepdim=True)),
    "mean dim": (1, lambda lib, a: full(a).mean(0, keepdim=True)),
    "sum all": (1, lambda lib, a: a.sum() * 0.1),
    "max dim": (1, lambda lib, a: distinct(lib, a).max(1, keepdim=True).values),
    "min dim": (1, lambda lib, a: distinct(lib, a).min(0)[0]),
    "max all": (1, lambda lib, a: a.max()),
    "mm": (3, lambda lib, a, b, c: (full(a) @ full(b).t()) @ full(c) * 0.1),
    "batched": (3, lambda lib, a, b, c: (lib.stack([full(a), full(b)]) @ full(c).T).sum(0)
                @ full(c) * 0.1),
    "mv dot": (2, lambda lib, a, b: full(a).mv(full(b)[0]).unsqueeze(1)
               + full(a)[1].dot(full(b)[2])),
    "reshape": (1, lambda lib, a: full(a).reshape(4, 3).t()),
    "permute": (1, lambda lib, a: full(a).unsqueeze(0).permute(1, 0, 2).squeeze(1)),
    "transpose": (1, lambda lib, a: a.expand(2, 3, 4).transpose(0, 2).sum(-1).t()),
    "flatten view": (1, lambda lib, a: full(a).flatten().view(3, 4)),
    "index": (1, lambda lib, a: full(a)[:, [0, 0, 3, 1]] + full(a)[[2, 0, 0]]),
    "select slice": (1, lambda lib, a: full(a)[1] + full(a)[..., 2:3] + full(a)[None, ::2][0, 1]),
    "mask": (1, lambda lib, a: full(a)[full(a) > 0].sum()),
    "cat": (2, lambda lib, a, b: lib.cat([full(a)[:1], full(b)[1:]])),
    "assign": (2, assign_row),
    "mixed index": (2, mixed_index),
    "in place": (3, in_place),
    "in place on views": (3, in_place_on_views),
    "dtype": (1, lambda lib, a: a.to(lib.float32).to(lib.float64) * a),
}

step = st.tuples(st.sampled_from(sorted(OPS)), st.lists(st.integers(0, 99), min_size=3,
                                                       max_size=3))
program = st.tuples(st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3),
                    st.lists(step, min_size=1, max_size=8), st.integers(0, 2**32 - 1))


def run(lib: Any, leaf_shapes: list, steps: list, seed: int) -> tuple[list, Any]:
    rng = np.random.default_rng(seed)
    pool = [lib.tensor(rng.uniform(-2, 2, s), dtype=lib.float64, requires_grad=True)
            for s in leaf_shapes]
    for name, picks in steps:
        arity, op = OPS[name]
        out = op(lib, *(pool[i % len(pool)] for i in picks[:arity]))
        out.retain_grad()
        pool.append(out)
    loss = sum((t * (1 + 0.1 * i)).sum() for i, t in enumerate(pool[-3:]))
    return pool, loss


def assert_same(ours: Any, theirs: Any, what: str, zero_signs: bool = True,
                atol: float = 1e-12) -> None:
    assert (ours is None) == (theirs is None), what
    if ours is not None:
        assert tuple(ours.shape) == tuple(theirs.shape), what
        # force: PyTorch's known-zero gradients (ZeroTensor) have no storage of their own
        mine, reference = ours.detach().numpy(), theirs.detach().numpy(force=True)
        np.testing.assert_allclose(mine, reference, rtol=1e-9, atol=atol, err_msg=what)
        if zero_signs:  # printed gradients show the sign of a zero: "-0." is not "0."
            negative_zeros = [np.signbit(v) & (v == 0) for v in (mine, reference)]
            np.testing.assert_array_equal(*negative_zeros, err_msg=f"{what}: sign of zero")


moderate = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@moderate
@given(program)
def test_values_and_grads_match_torch(torch: Any, case: tuple) -> None:
    (ours, our_loss), (theirs, their_loss) = run(mg, *case), run(torch, *case)
    our_loss.backward()
    their_loss.backward()
    assert_same(our_loss, their_loss, "loss")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert_same(a, b, f"value of pool[{i}]")
        assert_same(a.grad, b.grad, f"grad of pool[{i}]")
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__, f"grad_fn of pool[{i}]"


@moderate
@given(program)
def test_second_derivatives_match_torch(torch: Any, case: tuple) -> None:
    grads, largest = [], 1.0
    for lib in (mg, torch):
        pool, loss = run(lib, *case)
        leaves = pool[:len(case[0])]
        firsts = lib.autograd.grad(loss, leaves, create_graph=True, allow_unused=True)
        used = [g for g in firsts if g is not None and g.requires_grad]
        if used:
            sum((g * g).sum() for g in used).backward()
            largest = max([largest] + [float(g.detach().abs().max()) for g in used if g.numel()])
        grads.append([leaf.grad for leaf in leaves])
    # A second derivative here is a sum of products of first gradients and their derivatives,
    # added in another order than PyTorch's: terms of size largest**2 that cancel down to a
    # small result keep their rounding, so a zero-ish result is compared to that size (a case
    # with first gradients near 40 and a hessian entry of -0.00116 differed by 4.4e-12).
    for i, (a, b) in enumerate(zip(*grads)):
        assert_same(a, b, f"second-order grad of leaf {i}", zero_signs=False,
                    atol=1e-12 * largest ** 2)
