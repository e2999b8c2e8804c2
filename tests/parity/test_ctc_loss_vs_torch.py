"""nn.CTCLoss / F.ctc_loss, added in session 7, against PyTorch 2.13: losses (padded and
concatenated targets, lengths as tuples or tensors, empty targets, repeated labels, another
blank, zero_infinity, one sequence alone, float32 and float64), each reduction, graphs,
printing, the double backward PyTorch does not implement, and argument errors. Gradients
compare within a relative 2e-4 (float32) / 1e-12 (float64): PyTorch's kernel takes C's expf and
logf, which round the other way from minigrad's correctly rounded ones now and then, and a
gradient near 0 is a difference of nearly equal exponentials that magnifies it."""
from __future__ import annotations

from typing import Any

import pytest

from harness.parity import WithArrays, assert_same_as_torch


def _case(lib: Any, dtype: str, reduction: str, variant: str) -> WithArrays:
    lib.manual_seed(0)
    lp = lib.randn(7, 3, 5, dtype=getattr(lib, dtype)).log_softmax(2).detach().requires_grad_()
    f = lib.nn.functional
    if variant == "padded":
        loss = f.ctc_loss(lp, lib.tensor([[1, 2, 2], [3, 1, 0], [4, 4, 4]]), (7, 5, 6), (3, 2, 1),
                          reduction=reduction)
    elif variant == "tensors_concatenated":
        loss = f.ctc_loss(lp, lib.tensor([1, 2, 2, 3, 1, 4]), lib.tensor([7, 5, 6]),
                          lib.tensor([3, 2, 1]), reduction=reduction)
    elif variant == "empty_target_other_blank":
        loss = f.ctc_loss(lp, lib.tensor([[1, 2], [0, 0], [3, 1]]), (7, 4, 7), (2, 0, 2),
                          blank=4, reduction=reduction)
    elif variant == "impossible_zeroed":
        loss = lib.nn.CTCLoss(reduction=reduction, zero_infinity=True)(
            lp, lib.tensor([[1, 1, 1], [1, 2, 3], [2, 2, 0]]), (3, 7, 2), (3, 3, 2))
    else:  # one sequence, no batch dimension
        loss = f.ctc_loss(lp[:, 0], lib.tensor([1, 3]), (7,), (2,), reduction=reduction)
    weights = lib.arange(1, loss.numel() + 1, dtype=loss.dtype).reshape(loss.shape)
    (loss * weights).sum().backward()
    return WithArrays([loss, loss.grad_fn], (lp.grad.numpy(),))


VARIANTS = ["padded", "tensors_concatenated", "empty_target_other_blank", "impossible_zeroed",
            "unbatched"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_ctc_loss(torch: Any, variant: str, reduction: str, dtype: str) -> None:
    assert_same_as_torch(lambda lib: _case(lib, dtype, reduction, variant), torch,
                         rtol=2e-4 if dtype == "float32" else 1e-12)


def _forms(lib: Any) -> Any:
    lp = lib.zeros(4, 1, 3).log_softmax(2).requires_grad_()
    loss = lib.nn.functional.ctc_loss(lp, lib.tensor([[1, 2]]), (4,), (2,))
    (g,) = lib.autograd.grad(loss, lp, create_graph=True)
    try:
        g.sum().backward()
    except RuntimeError as error:
        refused = str(error)
    return [lib.nn.CTCLoss(), lib.nn.CTCLoss(blank=2, zero_infinity=True).zero_infinity,
            loss, g.grad_fn, refused]


ERRORS = {
    "blank": lambda lib: lib.nn.functional.ctc_loss(
        lib.zeros(4, 1, 3), lib.tensor([[1]]), (4,), (1,), blank=3),
    "input_lengths": lambda lib: lib.nn.functional.ctc_loss(
        lib.zeros(4, 2, 3), lib.tensor([[1], [1]]), (4,), (1, 1)),
    "target_lengths": lambda lib: lib.nn.functional.ctc_loss(
        lib.zeros(4, 2, 3), lib.tensor([[1], [1]]), (4, 4), (1,)),
    "too_long": lambda lib: lib.nn.functional.ctc_loss(
        lib.zeros(4, 1, 3), lib.tensor([[1]]), (5,), (1,)),
    "reduction": lambda lib: lib.nn.functional.ctc_loss(
        lib.zeros(4, 1, 3), lib.tensor([[1]]), (4,), (1,), reduction="x"),
}


@pytest.mark.parametrize("case", [_forms, *ERRORS.values()], ids=["forms", *ERRORS])
def test_forms_and_errors(torch: Any, case: Any) -> None:
    assert_same_as_torch(case, torch)
