"""Ops that move values (views, indexing, item assignment, stack/cat) and in-place ops on
non-leaves, against finite differences (float64), on hypothesis-drawn shapes and keys."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from _gradcheck_support import check, dims_of, leaf, moderate, seeds, shapes
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg


def _expanded(shape: tuple) -> tuple:
    return (2, *(3 if s == 1 else s for s in shape))


no_param = st.just(None)
# name: (what to draw for a given shape, the op given that draw)
SHAPE_OPS: dict[str, tuple[Callable, Callable]] = {
    "reshape(-1)": (lambda s: no_param, lambda x, p: x.reshape(-1)),
    "reshape reversed": (lambda s: no_param, lambda x, p: x.reshape(*reversed(x.shape))),
    "view": (lambda s: no_param, lambda x, p: x.view(x.numel(), 1)),
    "flatten": (lambda s: no_param, lambda x, p: x.flatten()),
    "flatten(1)": (lambda s: st.just(min(1, max(len(s) - 1, 0))), lambda x, p: x.flatten(p)),
    "squeeze": (lambda s: no_param, lambda x, p: x.squeeze()),
    "squeeze(dim)": (dims_of, lambda x, p: x.squeeze(p)),
    "unsqueeze": (lambda s: st.integers(-len(s) - 1, len(s)), lambda x, p: x.unsqueeze(p)),
    "transpose": (lambda s: st.tuples(dims_of(s), dims_of(s)), lambda x, p: x.transpose(*p)),
    "t()": (lambda s: no_param, lambda x, p: x.t() if x.ndim <= 2 else x.mT),
    ".T": (lambda s: no_param, lambda x, p: x.T),
    "permute": (lambda s: st.permutations(range(len(s))), lambda x, p: x.permute(*p)),
    "expand": (lambda s: no_param, lambda x, p: x.expand(*_expanded(x.shape))),
    "expand(-1)": (lambda s: no_param, lambda x, p: x.expand(2, *[-1] * x.ndim)),
}


@pytest.mark.parametrize("name", SHAPE_OPS)
@moderate
@given(data=st.data(), shape=shapes, seed=seeds)
def test_shape_op(name: str, data: Any, shape: tuple, seed: int) -> None:
    params, op = SHAPE_OPS[name]
    param = data.draw(params(shape))
    check(lambda x: op(x, param), leaf(shape, seed))


nonscalar = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)
matrices = hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=3)


def positions(n: int, repeats: bool) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(-n, n - 1), min_size=1, max_size=4,
                    unique_by=None if repeats else (lambda i: i % n))


def mask(shape: tuple) -> st.SearchStrategy[mg.Tensor]:
    flat = st.lists(st.booleans(), min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))
    return flat.map(lambda bits: mg.tensor(np.array(bits).reshape(shape)))


def forward_slices(n: int) -> st.SearchStrategy[slice]:
    """Slices of a dimension of size n that PyTorch accepts: no negative step (it refuses those
    with "step must be greater than zero", where numpy would reverse)."""
    return st.slices(n).filter(lambda s: s.step is None or s.step > 0)


# name: (shapes it applies to, keys for a shape); repeated positions only where reading
KEYS: dict[str, tuple[Any, Callable]] = {
    "int": (nonscalar, lambda s: st.integers(-s[0], s[0] - 1)),
    "slice": (nonscalar, lambda s: forward_slices(s[0])),
    "int, slice": (matrices, lambda s: st.tuples(st.integers(0, s[0] - 1), forward_slices(s[1]))),
    "None": (shapes, lambda s: st.just((None, Ellipsis, None))),
    "Ellipsis": (nonscalar, lambda s: st.integers(-s[-1], s[-1] - 1).map(lambda i: (..., i))),
    "bool mask": (nonscalar, mask),
    "bool mask rows": (matrices, lambda s: mask(s[:1])),
    "0-d tensor": (nonscalar, lambda s: st.integers(0, s[0] - 1).map(mg.tensor)),
    "list": (nonscalar, lambda s: positions(s[0], repeats=False)),
    "repeated list": (nonscalar, lambda s: positions(s[0], repeats=True)),
    "repeated tensor": (nonscalar, lambda s: positions(s[0], repeats=True).map(mg.tensor)),
    "two tensors": (matrices, lambda s: positions(s[1], repeats=True).map(
        lambda cols: (mg.tensor([i % s[0] for i in cols]), mg.tensor(cols)))),
    "slice, list": (matrices, lambda s: st.tuples(st.just(slice(None)),
                                                  positions(s[1], repeats=False))),
    "repeated slice, list": (matrices, lambda s: st.tuples(st.just(slice(None)),
                                                           positions(s[1], repeats=True))),
    # PyTorch applies the integer first, so the list's dimension stays in place (numpy differs)
    "int, slice, list": (hnp.array_shapes(min_dims=3, max_dims=3, max_side=3), lambda s: st.tuples(
        st.integers(0, s[0] - 1), st.just(slice(None)), positions(s[2], repeats=False))),
}
WRITE_KEYS = [k for k in KEYS if not k.startswith("repeated") and k != "two tensors"]


@pytest.mark.parametrize("name", KEYS)
@moderate
@given(data=st.data(), seed=seeds)
def test_indexing(name: str, data: Any, seed: int) -> None:
    shape_strategy, keys = KEYS[name]
    shape = data.draw(shape_strategy)
    key = data.draw(keys(shape))
    check(lambda x: x[key], leaf(shape, seed))


@pytest.mark.parametrize("name", WRITE_KEYS)
@moderate
@given(data=st.data(), seed=seeds, onto_graph=st.booleans(), broadcast=st.booleans())
def test_item_assignment(name: str, data: Any, seed: int, onto_graph: bool,
                         broadcast: bool) -> None:
    """`y[key] = f(v)` records CopySlices: v gets the written positions' gradient and, when y
    is itself computed from x, x gets all the others'."""
    shape_strategy, keys = KEYS[name]
    shape = data.draw(shape_strategy)
    key = data.draw(keys(shape))
    target_shape = () if broadcast else tuple(mg.zeros(shape)[key].shape)
    x, v = leaf(shape, seed), leaf(target_shape, seed + 1)

    def assign(x: mg.Tensor, v: mg.Tensor) -> mg.Tensor:
        y = x * 2 if onto_graph else mg.zeros(shape, dtype=mg.float64)
        y[key] = v.sin()
        return y * x

    check(assign, x, v)


@moderate
@given(data=st.data(), shape=shapes, count=st.integers(1, 3), seed=seeds)
def test_stack_and_cat(data: Any, shape: tuple, count: int, seed: int) -> None:
    xs = [leaf(shape, seed + i) for i in range(count)]
    dim = data.draw(st.integers(-len(shape) - 1, len(shape)))
    check(lambda *xs: mg.stack(xs, dim) * 1.5, *xs)
    if shape:
        grown = [leaf((i + 1, *shape[1:]), seed + i) for i in range(count)]
        check(lambda *xs: mg.cat(list(xs), 0).exp(), *grown)
        dim = data.draw(dims_of(shape))
        check(lambda *xs: mg.cat(xs, dim), *xs)


# Each in-place op runs on a non-leaf copy of x; other may broadcast to x's shape.
IN_PLACE: dict[str, tuple[Callable, str]] = {
    "add_": (lambda y, o: y.add_(o), "any"),
    "add_ alpha": (lambda y, o: y.add_(o, alpha=-2), "any"),
    "+=": (lambda y, o: y.__iadd__(o), "any"),
    "sub_": (lambda y, o: y.sub_(o), "any"),
    "-=": (lambda y, o: y.__isub__(o), "any"),
    "mul_": (lambda y, o: y.mul_(o), "any"),
    "*=": (lambda y, o: y.__imul__(o), "any"),
    "div_": (lambda y, o: y.div_(o), "nonzero"),
    "/=": (lambda y, o: y.__itruediv__(o), "nonzero"),
    "pow_ number": (lambda y, o: y.pow_(3), "any"),
    "pow_ tensor": (lambda y, o: y.abs().pow_(o), "any"),
    "fill_ number": (lambda y, o: y.fill_(2.5), "any"),
    "fill_ tensor": (lambda y, o: y.fill_(o.sum()), "any"),
    "zero_": (lambda y, o: y.zero_(), "any"),
    "copy_": (lambda y, o: y.copy_(o * 3), "any"),
}


@pytest.mark.parametrize("name", IN_PLACE)
@moderate
@given(data=st.data(), shape=shapes, seed=seeds)
def test_in_place_on_non_leaf(name: str, data: Any, shape: tuple, seed: int) -> None:
    op, domain = IN_PLACE[name]
    kept = data.draw(st.integers(0, len(shape)))  # other: trailing dims of x, some of them 1
    ones = data.draw(st.lists(st.booleans(), min_size=kept, max_size=kept))
    other_shape = tuple(1 if one else s for one, s in zip(ones, shape[len(shape) - kept:]))

    def run(x: mg.Tensor, other: mg.Tensor) -> mg.Tensor:
        y = x * 1.5
        out = op(y, other)
        assert out is y or name == "pow_ tensor"  # in-place ops return their own tensor
        return out * x

    check(run, leaf(shape, seed, "nonzero"), leaf(other_shape, seed + 1, domain))


# A view of a non-leaf changed in place rewrites its base (CopySlices); the view, and any view
# of the same base made earlier, are then read back out of the new base.
VIEWS: dict[str, Callable] = {
    "select": lambda y: y[0],
    "step slice": lambda y: y[::2],
    "last column": lambda y: y[..., -1],
    "transpose": lambda y: y.transpose(0, -1),
    "view": lambda y: y.view(-1),
    "unsqueeze": lambda y: y.unsqueeze(0),
    "view of a view": lambda y: y[-1:].squeeze(0),
}


@pytest.mark.parametrize("view_name", VIEWS)
@moderate
@given(op_name=st.sampled_from(["add_", "mul_", "div_", "pow_ number", "zero_", "copy_",
                                "setitem"]),
       shape=nonscalar, seed=seeds, scalar_other=st.booleans())
def test_in_place_on_view(view_name: str, op_name: str, shape: tuple, seed: int,
                          scalar_other: bool) -> None:
    view_shape = tuple(VIEWS[view_name](mg.zeros(shape)).shape)
    x = leaf(shape, seed, "nonzero")
    other = leaf(() if scalar_other else view_shape, seed + 1, "nonzero")

    def run(x: mg.Tensor, other: mg.Tensor) -> tuple:
        y = x * 1.5
        earlier = y.reshape(-1)
        view = VIEWS[view_name](y)
        if op_name == "setitem":
            view[...] = other.exp()
        else:
            IN_PLACE[op_name][0](view, other)
        return y * x, view * 2, earlier.sin()

    check(run, x, other)
