"""Convolution, pooling and padding (nn.Conv1d/Conv2d, MaxPool2d, AvgPool2d,
AdaptiveAvgPool2d, their functional forms and F.pad) against PyTorch 2.13: the same values and
gradients (to float32 rounding), second derivatives, grad_fn names, shapes, the indices
max pooling picks, initial weights after manual_seed, printed modules, and errors (type and
message). Printed results, warnings and errors go through the parity harness
(tests/harness/parity.py)."""
from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np
import pytest

import minigrad

from harness.parity import assert_same_as_torch
from harness.programs import assert_same_on_both


def _leaf(lib: Any, shape: tuple, seed: int, dtype: str = "float32") -> Any:
    values = np.random.default_rng(seed).standard_normal(shape)
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)


def _run(lib: Any, op: Callable, shapes: list, dtype: str) -> dict:
    """op's output, the gradients of a weighted sum of it, and the second derivatives of
    that gradient's squared norm, with the grad_fn names met on the way."""
    inputs = [_leaf(lib, shape, seed, dtype) for seed, shape in enumerate(shapes)]
    out = op(lib, *inputs)
    weights = lib.tensor(np.random.default_rng(9).standard_normal(tuple(out.shape)),
                         dtype=out.dtype)
    grads = lib.autograd.grad((out * weights).sum(), inputs, create_graph=True)
    names = [None if t.grad_fn is None else t.grad_fn.name() for t in (out, *grads)]
    second = []  # none when the gradients do not depend on the inputs (F.pad's constant)
    if any(g.requires_grad for g in grads):
        second = lib.autograd.grad(sum((g * g).sum() for g in grads), inputs, allow_unused=True)
    return {"shape": tuple(out.shape), "names": names, "dtype": str(out.dtype),
            "values": [None if t is None else t.detach().numpy() for t in (out, *grads, *second)]}


def _same_run(torch: Any, op: Callable, shapes: list, dtype: str = "float32") -> None:
    ours, theirs = (_run(lib, op, shapes, dtype) for lib in (minigrad, torch))
    assert (ours["shape"], ours["names"], ours["dtype"]) == (theirs["shape"], theirs["names"],
                                                             theirs["dtype"])
    tolerance = {"float32": 2e-5, "float64": 1e-12}[dtype]
    for got, expected in zip(ours["values"], theirs["values"]):
        assert (got is None) == (expected is None)  # a bias's second derivative: not connected
        if got is not None:
            np.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance)


CONVOLUTIONS = {
    "conv2d": (lambda L, x, w, b: L.nn.functional.conv2d(x, w, b), [(2, 3, 7, 6), (4, 3, 3, 3),
                                                                    (4,)]),
    "conv2d no bias": (lambda L, x, w: L.nn.functional.conv2d(x, w), [(2, 3, 7, 6),
                                                                      (4, 3, 3, 2)]),
    "conv2d stride 2 padding 1": (lambda L, x, w, b: L.nn.functional.conv2d(
        x, w, b, stride=2, padding=1), [(2, 3, 8, 7), (4, 3, 3, 3), (4,)]),
    "conv2d stride (2, 3) padding (2, 0) dilation (1, 2)": (
        lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, stride=(2, 3), padding=(2, 0),
                                                  dilation=(1, 2)),
        [(1, 2, 9, 11), (3, 2, 3, 2), (3,)]),
    "conv2d groups 2": (lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, groups=2),
                        [(2, 4, 6, 6), (6, 2, 3, 3), (6,)]),
    "conv2d depthwise": (lambda L, x, w: L.nn.functional.conv2d(x, w, groups=3, padding=1),
                         [(1, 3, 5, 5), (6, 1, 3, 3)]),
    "conv2d padding same, odd kernel": (lambda L, x, w: L.nn.functional.conv2d(
        x, w, padding="same"), [(1, 2, 5, 6), (3, 2, 3, 5)]),
    "conv2d padding same, even kernel, dilation": (lambda L, x, w: L.nn.functional.conv2d(
        x, w, padding="same", dilation=(1, 3)), [(1, 2, 6, 9), (3, 2, 4, 2)]),
    "conv2d padding valid": (lambda L, x, w: L.nn.functional.conv2d(x, w, padding="valid"),
                             [(1, 2, 5, 6), (3, 2, 3, 3)]),
    "conv2d unbatched": (lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, padding=1),
                         [(2, 5, 5), (3, 2, 3, 3), (3,)]),
    "conv1d": (lambda L, x, w, b: L.nn.functional.conv1d(x, w, b), [(2, 3, 9), (4, 3, 3), (4,)]),
    "conv1d stride padding dilation groups": (lambda L, x, w: L.nn.functional.conv1d(
        x, w, stride=2, padding=2, dilation=2, groups=3), [(2, 3, 11), (6, 1, 3)]),
    "conv1d padding same": (lambda L, x, w: L.nn.functional.conv1d(x, w, padding="same"),
                            [(2, 3, 8), (2, 3, 4)]),
    "conv1d unbatched": (lambda L, x, w: L.nn.functional.conv1d(x, w), [(3, 8), (2, 3, 4)]),
}
POOLS = {
    "max_pool2d 2": (lambda L, x: L.nn.functional.max_pool2d(x, 2), [(2, 3, 7, 6)]),
    "max_pool2d (2, 3) stride 1": (lambda L, x: L.nn.functional.max_pool2d(x, (2, 3), 1),
                                   [(1, 2, 5, 6)]),
    "max_pool2d 3 stride 2 padding 1": (lambda L, x: L.nn.functional.max_pool2d(
        x, 3, stride=2, padding=1), [(2, 2, 7, 8)]),
    "max_pool2d dilation 2": (lambda L, x: L.nn.functional.max_pool2d(x, 2, 1, 0, 2),
                              [(1, 2, 6, 7)]),
    "max_pool2d ceil_mode": (lambda L, x: L.nn.functional.max_pool2d(
        x, 3, stride=2, padding=1, ceil_mode=True), [(1, 2, 8, 6)]),
    "max_pool2d unbatched": (lambda L, x: L.nn.functional.max_pool2d(x, 2), [(3, 5, 4)]),
    "avg_pool2d 2": (lambda L, x: L.nn.functional.avg_pool2d(x, 2), [(2, 3, 7, 6)]),
    "avg_pool2d 3 stride 2 padding 1": (lambda L, x: L.nn.functional.avg_pool2d(
        x, 3, stride=2, padding=1), [(1, 2, 7, 8)]),
    "avg_pool2d padding, count_include_pad False": (lambda L, x: L.nn.functional.avg_pool2d(
        x, (3, 2), stride=(2, 1), padding=1, count_include_pad=False), [(1, 2, 7, 5)]),
    "avg_pool2d ceil_mode": (lambda L, x: L.nn.functional.avg_pool2d(
        x, 3, stride=2, padding=1, ceil_mode=True), [(1, 2, 8, 6)]),
    "avg_pool2d ceil_mode, count_include_pad False": (lambda L, x: L.nn.functional.avg_pool2d(
        x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), [(1, 2, 8, 6)]),
    "avg_pool2d divisor_override": (lambda L, x: L.nn.functional.avg_pool2d(
        x, 2, padding=1, divisor_override=3), [(1, 2, 5, 5)]),
    "avg_pool2d unbatched": (lambda L, x: L.nn.functional.avg_pool2d(x, 2), [(3, 5, 4)]),
    "adaptive_avg_pool2d (3, 4)": (lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, (3, 4)),
                                   [(2, 2, 7, 9)]),
    "adaptive_avg_pool2d 5 on 3x4 (windows overlap)": (
        lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, 5), [(1, 2, 3, 4)]),
    "adaptive_avg_pool2d (None, 2)": (
        lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, (None, 2)), [(2, 6, 4)]),
    "adaptive_avg_pool2d 1 (a mean)": (lambda L, x: L.nn.functional.adaptive_avg_pool2d(x, 1),
                                       [(2, 3, 4, 5)]),
}
PADS = {f"pad {mode} {len(pad) // 2}d": (
    lambda L, x, pad=pad, mode=mode: L.nn.functional.pad(x, pad, mode=mode), [shape])
    for mode in ("reflect", "replicate", "circular")
    for pad, shape in (((2, 1), (2, 3, 5)), ((1, 2, 2, 0), (1, 2, 4, 5)))}
PADS.update({
    "pad constant": (lambda L, x: L.nn.functional.pad(x, (1, 2, 0, 3), value=0.5),
                     [(2, 3, 4)]),
    "pad constant, negative crops": (lambda L, x: L.nn.functional.pad(x, (-1, 2, 1, -2)),
                                     [(2, 4, 5)]),
})
OPS = {**CONVOLUTIONS, **POOLS, **PADS}


@pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel")
@pytest.mark.parametrize("name", OPS)
def test_values_gradients_second_derivatives_and_names(name: str, torch) -> None:
    op, shapes = OPS[name]
    _same_run(torch, op, shapes)


@pytest.mark.parametrize("name", ["conv2d stride 2 padding 1", "conv1d", "max_pool2d ceil_mode",
                                  "avg_pool2d padding, count_include_pad False",
                                  "adaptive_avg_pool2d (3, 4)", "pad reflect 2d"])
def test_in_float64(name: str, torch) -> None:
    op, shapes = OPS[name]
    _same_run(torch, op, shapes, "float64")


def _pool_indices(lib: Any, values: np.ndarray, **kwargs: Any) -> tuple:
    x = lib.tensor(values, requires_grad=True)
    out, indices = lib.nn.functional.max_pool2d(x, return_indices=True, **kwargs)
    out.sum().backward()
    return out.detach().numpy(), indices.numpy(), x.grad.numpy(), str(indices.dtype)


@pytest.mark.parametrize("case", ["ties", "nan", "-inf in padding", "overlapping windows"])
def test_max_pool_picks_what_pytorch_picks(case: str, torch) -> None:
    """Ties go to the first element, a NaN wins (the last one, if several), and a window of
    -inf alone names its first element inside the input, never padding."""
    values = np.array([[1.0, 3.0, 3.0, 0.0], [3.0, 2.0, 1.0, 3.0], [0.0, 0.0, 5.0, 5.0],
                       [0.0, 0.0, 5.0, 5.0]], dtype=np.float32)[None, None]
    kwargs: dict = {"kernel_size": 2}
    if case == "nan":
        values[0, 0, 0, 1] = values[0, 0, 1, 0] = values[0, 0, 3, 3] = np.nan
    elif case == "-inf in padding":
        values[:] = -np.inf
        kwargs.update(stride=2, padding=1)
    elif case == "overlapping windows":
        kwargs.update(kernel_size=3, stride=1, padding=1, dilation=1)
    ours, theirs = (_pool_indices(lib, values, **kwargs) for lib in (minigrad, torch))
    for got, expected in zip(ours, theirs):
        np.testing.assert_array_equal(got, expected)


CASES: dict[str, Callable[[Any], Any]] = {
    # printed modules
    "Conv2d repr": lambda L: [L.nn.Conv2d(1, 6, 5), L.nn.Conv2d(
        3, 6, (3, 5), stride=2, padding=1, dilation=2, groups=3, bias=False,
        padding_mode="reflect"), L.nn.Conv2d(3, 6, 3, padding="same"),
        L.nn.Conv2d(3, 6, 3, padding="valid")],
    "Conv1d repr": lambda L: [L.nn.Conv1d(3, 6, 3, padding=(1,)), L.nn.Conv1d(3, 6, 3, stride=1,
                                                                              padding=0)],
    "pool reprs": lambda L: [L.nn.MaxPool2d(2), L.nn.MaxPool2d(
        (2, 3), stride=1, padding=1, dilation=2, return_indices=True, ceil_mode=True),
        L.nn.AvgPool2d(2), L.nn.AvgPool2d((2, 3), stride=1, padding=1, ceil_mode=True,
                                          count_include_pad=False, divisor_override=3),
        L.nn.AdaptiveAvgPool2d((5, 7)), L.nn.AdaptiveAvgPool2d(3),
        L.nn.AdaptiveAvgPool2d((None, 2))],
    "Conv2d attributes": lambda L: [
        (c.kernel_size, c.stride, c.padding, c.dilation, c.groups, c.padding_mode,
         c.in_channels, c.out_channels, c.transposed, c.output_padding,
         c._reversed_padding_repeated_twice, [(n, p.shape) for n, p in c.named_parameters()])
        for c in (L.nn.Conv2d(3, 6, 3), L.nn.Conv2d(4, 6, (4, 3), padding="same", groups=2,
                                                   bias=False), L.nn.Conv1d(3, 6, 4, padding=2))],
    "the blitz LeNet's first layer after manual_seed": lambda L: (
        L.manual_seed(0), L.nn.Conv2d(1, 6, 5).weight[0, 0], L.nn.Conv2d(6, 16, 5).bias)[1:],
    "a grouped Conv1d after manual_seed": lambda L: (
        L.manual_seed(3), L.nn.Conv1d(4, 6, 3, groups=2).weight[:, :, 0])[1],
    "modules run": lambda L: (
        L.manual_seed(1), L.nn.Conv2d(2, 3, 3, padding=1, padding_mode="circular")(
            L.ones(1, 2, 4, 4)).shape, L.nn.MaxPool2d(2, return_indices=True)(
            L.arange(16.0).view(1, 1, 4, 4)), L.nn.AvgPool2d(3, 1, 1)(L.ones(1, 1, 3, 3)),
        L.nn.AdaptiveAvgPool2d((1, 2))(L.arange(8.0).view(1, 2, 4)))[1:],
    "modules with every padding mode, forward and backward": lambda L: _modules_run(L),
    "padding modes": lambda L: [L.nn.functional.pad(L.arange(5.0).view(1, 5), (2, 3), mode=m)
                                for m in ("reflect", "replicate", "circular", "constant")],
    # what the nodes keep, read by PyTorch's names
    "ConvolutionBackward0 saved": lambda L: _saved_by(
        L, lambda x, w, b: L.nn.functional.conv2d(x, w, b, stride=2, padding=1),
        [(1, 2, 5, 5), (3, 2, 3, 3), (3,)], ["stride", "padding", "dilation", "groups",
                                             "transposed", "output_padding",
                                             "bias_sym_sizes_opt", "input", "weight"]),
    "MaxPool2DWithIndicesBackward0 saved": lambda L: _saved_by(
        L, lambda x: L.nn.functional.max_pool2d(x, 2), [(1, 1, 4, 4)],
        ["kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1", "self"]),
    "AvgPool2DBackward0 saved": lambda L: _saved_by(
        L, lambda x: L.nn.functional.avg_pool2d(x, 2, 1), [(1, 1, 4, 4)],
        ["kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
         "divisor_override", "self"]),
    "adaptive_avg_pool2d of no channels": lambda L: L.nn.functional.adaptive_avg_pool2d(
        L.ones(1, 0, 7, 7), 2),
    "integer max_pool2d": lambda L: L.nn.functional.max_pool2d(L.arange(16).view(1, 1, 4, 4), 2),
    "integer conv2d": lambda L: L.nn.functional.conv2d(L.arange(16).view(1, 1, 4, 4),
                                                       L.ones(1, 1, 2, 2, dtype=L.int64)),
}
def _modules_run(lib: Any) -> list:
    """Seeded Conv1d/Conv2d modules of every padding mode (even kernels with 'same' too): their
    outputs and the input's gradient."""
    lib.manual_seed(0)
    seen = []
    warnings.filterwarnings("ignore", "Using padding='same'")  # once per process: its own test
    for mode in ("zeros", "reflect", "replicate", "circular"):
        for dims, kernel, padding in ((2, (2, 3), "same"), (2, 3, (1, 2)), (1, 4, "same"),
                                      (1, 3, 2)):
            conv = (lib.nn.Conv2d if dims == 2 else lib.nn.Conv1d)(
                2, 4, kernel, padding=padding, padding_mode=mode, groups=2)
            x = lib.randn(1, 2, *(5,) * dims, requires_grad=True)
            out = conv(x)
            out.sum().backward()
            seen.append((out.shape, out.grad_fn.name(), x.grad))
    return seen


def _saved_by(lib: Any, op: Callable, shapes: list, names: list) -> list:
    """What op's node keeps, by PyTorch's names (an input as the position it was given at),
    and how many edges the node has."""
    inputs = [lib.arange(float(np.prod(s))).reshape(s).requires_grad_() for s in shapes]
    node = op(*inputs).grad_fn
    values = [getattr(node, f"_saved_{name}") for name in names]
    return [next((f"input {i}" for i, t in enumerate(inputs) if v is t), v) for v in values] + [
        len(node.next_functions)]


_x4 = (lambda L: L.ones(1, 3, 8, 8))
_w4 = (lambda L: L.ones(6, 3, 3, 3))
ERRORS: dict[str, Callable[[Any], Any]] = {
    "conv2d on 2-d input": lambda L: L.nn.Conv2d(1, 6, 5)(L.ones(32, 32)),
    "conv2d on 6-d input": lambda L: L.nn.Conv2d(1, 6, 5)(L.ones(2, 1, 1, 1, 4, 4)),
    "conv1d on 1-d input": lambda L: L.nn.functional.conv1d(L.ones(8), L.ones(6, 3, 3)),
    "conv2d wrong channels": lambda L: L.nn.Conv2d(1, 6, 5)(L.ones(1, 3, 32, 32)),
    "conv2d kernel larger than input": lambda L: L.nn.Conv2d(1, 6, 5)(L.ones(1, 1, 4, 4)),
    "conv2d dilated kernel larger": lambda L: L.nn.functional.conv2d(
        L.ones(1, 1, 6, 9), L.ones(1, 1, 3, 3), dilation=(3, 2)),
    "conv1d kernel larger": lambda L: L.nn.functional.conv1d(L.ones(1, 1, 4), L.ones(1, 1, 5)),
    "Conv2d groups do not divide in_channels": lambda L: L.nn.Conv2d(3, 6, 3, groups=2),
    "Conv2d groups do not divide out_channels": lambda L: L.nn.Conv2d(4, 6, 3, groups=4),
    "Conv2d groups 0": lambda L: L.nn.Conv2d(4, 6, 3, groups=0),
    "Conv2d same and strided": lambda L: L.nn.Conv2d(3, 6, 3, padding="same", stride=2),
    "conv2d same and strided": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L), padding="same",
                                                                stride=2),
    "conv2d bad padding string": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L),
                                                                  padding="foo"),
    "conv2d 3-d weight": lambda L: L.nn.functional.conv2d(_x4(L), L.ones(6, 3, 3), padding=1),
    "conv2d bias of the wrong size": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L),
                                                                      L.ones(5)),
    "conv2d stride 0": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L), stride=0),
    "conv2d padding -1": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L), padding=-1),
    "conv2d dilation 0": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L), dilation=0),
    "conv2d groups 2, wrong channels": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L),
                                                                        groups=2),
    "conv2d groups 4, weight not divisible": lambda L: L.nn.functional.conv2d(
        L.ones(1, 4, 8, 8), L.ones(6, 2, 3, 3), groups=4),
    "conv2d stride of 3 values": lambda L: L.nn.functional.conv2d(_x4(L), _w4(L),
                                                                  stride=(1, 1, 1)),
    "conv2d float64 input, float32 weight": lambda L: L.nn.functional.conv2d(
        _x4(L).double(), _w4(L)),
    "conv2d float32 input, float64 weight": lambda L: L.nn.functional.conv2d(
        _x4(L), _w4(L).double()),
    "conv2d float64 bias": lambda L: L.nn.functional.conv2d(
        _x4(L), _w4(L), L.ones(6, dtype=L.float64)),
    "conv1d of a 4-d weight": lambda L: L.nn.functional.conv1d(L.ones(1, 3, 8), _w4(L)),
    "conv2d of a 5-d weight": lambda L: L.nn.functional.conv2d(_x4(L), L.ones(6, 3, 3, 3, 3)),
    "max_pool2d on 2-d input": lambda L: L.nn.functional.max_pool2d(L.ones(7, 7), 2),
    "max_pool2d padding more than half the kernel": lambda L: L.nn.functional.max_pool2d(
        L.ones(1, 2, 7, 7), 3, padding=2),
    "max_pool2d output too small": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 9),
    "max_pool2d kernel 0": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 0),
    "max_pool2d kernel 0, stride 1": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 0,
                                                                          1),
    "max_pool2d stride 0": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 2, stride=0),
    "max_pool2d stride -1": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 2, -1),
    "max_pool2d dilation 0": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7), 2,
                                                                  dilation=0),
    "max_pool2d kernel of 3": lambda L: L.nn.functional.max_pool2d(L.ones(1, 2, 7, 7),
                                                                   (2, 2, 2)),
    "max_pool2d empty plane": lambda L: L.nn.functional.max_pool2d(L.ones(1, 1, 0, 4), 2),
    "max_pool2d negative padding": lambda L: L.nn.functional.max_pool2d(L.ones(1, 1, 4, 4), 2,
                                                                        padding=-1),
    "avg_pool2d on 2-d input": lambda L: L.nn.functional.avg_pool2d(L.ones(7, 7), 2),
    "avg_pool2d on 5-d input": lambda L: L.nn.functional.avg_pool2d(L.ones(1, 1, 1, 7, 7), 2),
    "avg_pool2d padding more than half": lambda L: L.nn.functional.avg_pool2d(
        L.ones(1, 2, 7, 7), 2, padding=2),
    "avg_pool2d output too small": lambda L: L.nn.functional.avg_pool2d(L.ones(1, 2, 7, 7), 9),
    "avg_pool2d divisor 0": lambda L: L.nn.functional.avg_pool2d(L.ones(1, 2, 7, 7), 2,
                                                                 divisor_override=0),
    "adaptive_avg_pool2d on 2-d input": lambda L: L.nn.functional.adaptive_avg_pool2d(
        L.ones(7, 7), 3),
    "adaptive_avg_pool2d output of 3": lambda L: L.nn.functional.adaptive_avg_pool2d(
        L.ones(1, 2, 7, 7), (3, 4, 5)),
    "adaptive_avg_pool2d negative output": lambda L: L.nn.functional.adaptive_avg_pool2d(
        L.ones(1, 2, 7, 7), (-1, 2)),
    "adaptive_avg_pool2d empty plane": lambda L: L.nn.functional.adaptive_avg_pool2d(
        L.ones(1, 2, 0, 7), 2),
    "pad odd length": lambda L: L.nn.functional.pad(L.ones(2, 3), (1,)),
    "pad too long": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1) * 3),
    "pad crops below zero": lambda L: L.nn.functional.pad(L.ones(2, 3), (-2, -2)),
    "pad unknown mode": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1), mode="foo"),
    "pad reflect with a value": lambda L: L.nn.functional.pad(L.ones(2, 3), (1, 1),
                                                              mode="reflect", value=2.0),
    "pad reflect 2 on 4-d input": lambda L: L.nn.functional.pad(L.ones(1, 2, 3, 4), (1, 1),
                                                                mode="reflect"),
    "pad reflect wider than the input": lambda L: L.nn.functional.pad(
        L.ones(1, 2, 4, 5), (1, 1, 4, 0), mode="reflect"),
    "pad with a float": lambda L: L.nn.functional.pad(L.ones(2, 3), (1.5, 1)),
}


@pytest.mark.parametrize("name", sorted({**CASES, **ERRORS}))
def test_same_as_torch(name: str, torch) -> None:
    case = {**CASES, **ERRORS}[name]
    ours = assert_same_as_torch(case, torch)
    if name in ERRORS:
        assert ours[0].split(":")[0] in ("RuntimeError", "ValueError", "IndexError",
                                         "NotImplementedError", "TypeError"), ours


@pytest.mark.slow  # two fresh interpreters
def test_same_padding_with_an_even_kernel_warns_once_per_process(tmp_path, torch) -> None:
    code = ("import warnings, torch as L\n"
            "warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    for _ in range(2):\n"
            "        L.nn.functional.conv2d(L.ones(1, 1, 4, 4), L.ones(1, 1, 2, 2),\n"
            "                               padding='same')\n"
            "print([str(w.message).split(' (Triggered')[0] for w in caught])\n")
    assert assert_same_on_both(code, tmp_path).count("Using padding='same'") == 1


def test_lenet_trains_as_in_pytorch(torch) -> None:
    """The blitz tutorial's LeNet on a batch of 4: the same loss and parameters after three
    SGD steps, from the same seeded start."""
    params = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(
            lib.nn.Conv2d(1, 6, 5), lib.nn.ReLU(), lib.nn.MaxPool2d(2),
            lib.nn.Conv2d(6, 16, 5, padding=1, padding_mode="reflect"), lib.nn.ReLU(),
            lib.nn.AvgPool2d(2, ceil_mode=True), lib.nn.Flatten(), lib.nn.Linear(16 * 4 * 4, 10))
        optimizer = lib.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
        images, labels = lib.randn(4, 1, 24, 24), lib.tensor([1, 0, 7, 3])
        for _ in range(3):
            optimizer.zero_grad()
            loss = lib.nn.functional.cross_entropy(net(images), labels)
            loss.backward()
            optimizer.step()
        params.append([p.detach().numpy() for p in net.parameters()] + [loss.detach().numpy()])
    for ours, theirs in zip(*params):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
