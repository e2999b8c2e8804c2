"""max() and min(): over a dim of a 0-d tensor (a MaxBackward0/MinBackward0 at index 0), and
the errors for an empty tensor, worded as PyTorch 2.13 words them."""
from __future__ import annotations

import pytest

import minigrad as mg


@pytest.mark.parametrize(("op", "node"), [("max", "MaxBackward0"), ("min", "MinBackward0")])
@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_extremum_over_a_dim_of_a_0d_tensor(op: str, node: str, dim: int, keepdim: bool) -> None:
    x = mg.tensor(3.0, requires_grad=True)
    values, indices = getattr(x, op)(dim=dim, keepdim=keepdim)
    assert values.grad_fn.name() == node
    assert values.shape == indices.shape == ()
    assert (values.item(), indices.item(), indices.dtype) == (3.0, 0, mg.int64)
    assert indices.grad_fn is None and not indices.requires_grad
    (values * 5).backward()
    assert x.grad.item() == 5.0


@pytest.mark.parametrize("op", ["max", "min"])
def test_extremum_of_a_0d_tensor_checks_the_dim(op: str) -> None:
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of "
                                         r"\[-1, 0\], but got 1\)$"):
        getattr(mg.tensor(3.0), op)(dim=1)


@pytest.mark.parametrize("op", ["max", "min"])
def test_extremum_of_a_0d_tensor_matches_torch(op: str, torch) -> None:
    ours, theirs = (getattr(lib.tensor(3.0, requires_grad=True) * 2, op)(0) for lib in (mg, torch))
    assert ours.values.grad_fn.name() == theirs.values.grad_fn.name()
    assert ours.indices.item() == theirs.indices.item()
    assert repr(ours) == repr(theirs)


# ---- the max or min of nothing: PyTorch's errors, naming the op that was asked for ----------

def _empty_error(lib, op: str, dim: int | None) -> tuple[type, str]:
    with pytest.raises((RuntimeError, IndexError)) as caught:
        if dim is None:
            getattr(lib.zeros(0), op)()
        else:
            getattr(lib.zeros(0, 3), op)(dim)
    return caught.type, str(caught.value)


@pytest.mark.parametrize("op", ["max", "min"])
def test_the_extremum_of_an_empty_tensor_names_the_op(op: str) -> None:
    assert _empty_error(mg, op, None) == (RuntimeError, (
        f"{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
        "reduction dim with the 'dim' argument."))


@pytest.mark.parametrize("op", ["max", "min"])
def test_the_extremum_over_an_empty_dim_names_the_op_and_the_dim(op: str) -> None:
    assert _empty_error(mg, op, 0) == (IndexError,
                                       f"{op}(): Expected reduction dim 0 to have non-zero size.")


@pytest.mark.parametrize("op", ["max", "min"])
def test_the_extremum_along_a_non_empty_dim_of_an_empty_tensor_is_empty(op: str) -> None:
    values, indices = getattr(mg.zeros(0, 3), op)(1)
    assert values.shape == indices.shape == (0,)
    assert indices.dtype == mg.int64


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dim", [None, 0])
def test_empty_extremum_errors_match_torch(op: str, dim: int | None, torch) -> None:
    assert _empty_error(mg, op, dim) == _empty_error(torch, op, dim)
