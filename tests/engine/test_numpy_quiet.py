"""numpy's floating point warnings are off inside minigrad's operations (PyTorch has none) and
on again outside them: `Function.apply` sets numpy's error state quiet around forward."""
import contextvars
import threading
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import Function


def test_overflow_and_zero_times_inf_do_not_warn_forward_or_backward():
    x = minigrad.tensor([1e30, 2.0], requires_grad=True)  # float32: 1e30 * 1e30 overflows
    c = minigrad.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = x * x * c  # overflow, then 0 * inf
        y.sum().backward()
    assert np.isnan(y.tolist()[0]) and y.tolist()[1] == 4.0
    assert c.grad.tolist() == [float("inf"), 4.0]


def test_the_learners_own_numpy_still_warns_after_minigrad_ran():
    minigrad.tensor([1e30]) * 1e30
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.array([1e300]) * np.array([1e300])
    assert np.geterr()["over"] == "warn"


def test_a_forward_that_calls_other_operations_stays_quiet():
    class Squash(Function):
        @staticmethod
        def forward(ctx, t):
            return (t * 1e300).exp()  # nested applies, inside the quiet context already

        @staticmethod
        def backward(ctx, grad):
            return grad

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = Squash.apply(minigrad.tensor([1e10, -1e10]))
    assert out.tolist() == [float("inf"), 0.0]


def test_operations_in_several_threads_at_once():
    # Each thread has its own grad mode and its own quiet numpy context: four threads racing
    # through apply all record graphs and stay quiet.
    errors = []

    def work():
        try:
            x = minigrad.tensor([1e30], requires_grad=True)
            for _ in range(2000):
                y = x * x
                assert y.tolist() == [float("inf")] and y.grad_fn is not None
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert minigrad.is_grad_enabled()


def test_forward_sees_the_callers_context_variables_as_they_are_now():
    """Jupyter sends print() to the cell that runs it through a context variable: a forward run
    in a context captured earlier printed into an older cell, or nowhere (seen in lesson 12)."""
    cell = contextvars.ContextVar("cell")
    seen = []

    class Record(Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(cell.get())
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    for name in ("cell 3", "cell 4"):
        cell.set(name)
        Record.apply(minigrad.tensor(1.0, requires_grad=True))
    assert seen == ["cell 3", "cell 4"]


def test_an_update_under_no_grad_that_overflows_does_not_warn(torch):
    # `p.add_(g, alpha=...)` under no_grad takes _inplace.update's one-pass numpy call, which
    # runs quietly too: alpha times the gradient overflows float32 without a warning, as in
    # PyTorch, and the learner's own numpy warns again afterwards.
    results = []
    for lib in (minigrad, torch):
        p = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with lib.no_grad():
                p.add_(lib.tensor([1e30, 1.0]), alpha=1e30)
                p.mul_(1e30)
        results.append(p.tolist())
    assert results[0] == results[1] == [float("inf"), float("inf")]
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.array([1e300]) * np.array([1e300])


def test_a_sum_over_paths_that_overflows_does_not_warn():
    # the engine keeps numpy quiet for a whole backward pass: two gradients of 3e38 reaching
    # one leaf add up to inf in float32 (engine.GraphTask.add_gradient), as in PyTorch
    x = minigrad.tensor([1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x * 3e38 + x * 3e38).sum().backward()
    assert x.grad.tolist() == [float("inf")]
    with pytest.warns(RuntimeWarning, match="overflow"):  # and numpy warns again afterwards
        np.array([1e300]) * np.array([1e300])


def test_hooks_and_custom_backwards_warn_as_the_callers_code_does():
    """A hook and a custom Function's backward are the learner's code: inside a backward pass,
    numpy warns there as it does outside it (and in PyTorch)."""
    class Doubled(Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            np.array([1e300]) * np.array([1e300])  # numpy of the learner's own
            return grad * 2

    x = minigrad.tensor([1.0], requires_grad=True)
    y = x * 3
    y.register_hook(lambda grad: np.log(np.zeros(1)) and None)
    with pytest.warns(RuntimeWarning) as caught:
        Doubled.apply(y).sum().backward()
    assert {"overflow", "divide"} <= {str(w.message).split()[0] for w in caught}, caught
    assert x.grad.tolist() == [6.0]
