"""index_put_ with repeated indices, with and without accumulate, against PyTorch 2.13: the
values written (accumulate adds each repeat; without it the last write wins), the gradients of
the base and of the values (every repeat gets its position's gradient), and the refusals."""
from __future__ import annotations

from typing import Any

import pytest

from harness.parity import assert_same_as_torch

REPEATS = [0, 2, 0, 0]


def _written_and_gradients(lib: Any, accumulate: bool, values: Any) -> Any:
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    out = y.index_put_((lib.tensor(REPEATS),), values, accumulate=accumulate)
    (out * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    return out, x.grad, values.grad, [type(n).__name__ for n, _ in out.grad_fn.next_functions]


def repeated_indices_accumulated(lib: Any) -> Any:
    return _written_and_gradients(
        lib, True, lib.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True))


def repeated_indices_overwritten(lib: Any) -> Any:
    return _written_and_gradients(
        lib, False, lib.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True))


def a_0_dim_value_accumulated(lib: Any) -> Any:
    return _written_and_gradients(lib, True, lib.tensor(5.0, requires_grad=True))


def other_keys(lib: Any) -> Any:
    return [lib.zeros(3).index_put_((lib.tensor([True, False, True]),), lib.tensor(1.0),
                                    accumulate=True),
            lib.zeros(2, 3).index_put_((lib.tensor([0, 0, 1]), lib.tensor([1, 1, 2])),
                                       lib.tensor([1.0, 2.0, 3.0]), accumulate=True),
            lib.zeros(2, 3).index_put_((lib.tensor([0, 0]),), lib.tensor([1.0, 2.0, 3.0]),
                                       accumulate=True),
            lib.zeros(3).index_put_((lib.tensor([-1, -1]),), lib.tensor([1.0, 2.0]),
                                    accumulate=True),
            lib.zeros(3, dtype=lib.int64).index_put_((lib.tensor([0, 0]),), lib.tensor([1, 2]),
                                                     accumulate=True),
            lib.zeros(3).index_put((lib.tensor([0, 0]),), lib.tensor([1.0, 2.0]),
                                   accumulate=True)]


def _refused(make: Any) -> str:
    try:
        make()
    except (RuntimeError, IndexError) as error:
        return f"{type(error).__name__}: {error}"
    return "not refused"


def refusals(lib: Any) -> Any:
    return [_refused(lambda: lib.zeros(3).index_put_((lib.tensor([3]),), lib.tensor([1.0]),
                                                     accumulate=True)),
            _refused(lambda: lib.zeros(3).index_put_(
                (lib.tensor([0]),), lib.tensor([1.0], dtype=lib.float64), accumulate=True)),
            _refused(lambda: lib.zeros(3, requires_grad=True).index_put_(
                (lib.tensor([0]),), lib.tensor([1.0])))]


@pytest.mark.parametrize("case", [
    repeated_indices_accumulated, repeated_indices_overwritten, a_0_dim_value_accumulated,
    other_keys, refusals,
], ids=lambda case: case.__name__)
def test_index_put_as_in_torch(torch: Any, case: Any) -> None:
    assert_same_as_torch(case, torch)
