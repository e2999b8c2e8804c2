"""Anomaly detection against PyTorch: the switches and what they report, the warning on turning
it on, the forward stack a node keeps, the warning that names a failing node and shows where
its forward ran, the NaN check, and the in-place error's hint. Every case runs in both
libraries; warnings and errors must match, with the stack compared frame by frame for the
frames in this file (PyTorch adds a C++ build path, minigrad leaves out its own frames).
Skipped without PyTorch."""
from __future__ import annotations

import re
import warnings
from typing import Any, Callable

import pytest

import minigrad as mg


@pytest.fixture(autouse=True)
def anomaly_off(torch):
    yield
    for lib in (mg, torch):
        lib.autograd.set_detect_anomaly(False)


def _frames(text: str) -> list[tuple]:
    """(line, function, source) of each frame in this file, from a formatted stack."""
    found = re.findall(r'  File "([^"]+)", line (\d+), in (\S+)\n    (.*)\n', text)
    return [(int(line), name, source) for path, line, name, source in found if path == __file__]


def _report(lib: Any, work: Callable) -> dict:
    """What `work(lib)` warns and raises: each warning's category and text (PyTorch's C++ suffix
    removed) with the frames it shows from this file, and the error."""
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            work(lib)
        except Exception as exc:  # noqa: BLE001 - the error is part of what is compared
            error = (type(exc).__name__, str(exc))
    shown = []
    for w in caught:
        text = re.sub(r" \(Triggered internally at [^)]*\.\)$", "", str(w.message))
        header = text.split('  File "', 1)[0]  # the text before the stack
        shown.append((w.category.__name__, header, _frames(text)))
    return {"warnings": shown, "error": error}


def both(work: Callable, torch: Any) -> dict:
    mine, theirs = _report(mg, work), _report(torch, work)
    assert mine == theirs
    return mine


# ---- the switches ---------------------------------------------------------------------------

def _switches(lib: Any) -> list:
    seen = [(lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled())]
    lib.autograd.set_detect_anomaly(True)
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    lib.autograd.set_detect_anomaly(True, check_nan=False)
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    with lib.autograd.set_detect_anomaly(False):
        seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    lib.autograd.set_detect_anomaly(False)
    with lib.autograd.detect_anomaly(check_nan=False):
        seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
        with lib.autograd.detect_anomaly():
            seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
        seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    seen.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))
    return seen


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_the_switches_and_what_they_report(torch):
    assert _switches(mg) == _switches(torch)
    assert _switches(mg)[1] == (True, True)  # (the comparison alone could pass on no-ops)


def test_detect_anomaly_warns_where_it_is_made_and_set_detect_anomaly_does_not(torch):
    def work(lib):
        with lib.autograd.detect_anomaly():
            pass
        lib.autograd.set_detect_anomaly(True)

    def located(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            work(lib)
        return [(w.category, str(w.message), w.filename, w.lineno) for w in caught]

    assert located(mg) == located(torch)
    assert len(located(mg)) == 1 and located(mg)[0][1].startswith("Anomaly Detection has been")


# ---- what a node records --------------------------------------------------------------------

def _make_y(lib: Any) -> Any:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    return x * 2


def test_nodes_keep_their_forward_stack_only_while_it_is_on(lib):
    assert _make_y(lib).grad_fn.metadata == {}
    lib.autograd.set_detect_anomaly(True)
    stack = _make_y(lib).grad_fn.metadata["traceback_"]
    assert isinstance(stack, list)
    frames = _frames("".join(stack))
    assert _frames(stack[-1]), stack[-1]  # the stack ends at the forward line, not inside the op
    assert frames[-1][1:] == ("_make_y", "return x * 2")
    assert frames[-2][1:] == ("test_nodes_keep_their_forward_stack_only_while_it_is_on",
                              'stack = _make_y(lib).grad_fn.metadata["traceback_"]')


# ---- a failing node -------------------------------------------------------------------------

def _square(lib: Any, x: Any) -> Any:
    return x * x


def _hook_fails(lib):
    with lib.autograd.detect_anomaly():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = _square(lib, x)
        y.register_hook(lambda grad: 1 / 0)
        y.sum().backward()


def test_a_failing_node_is_named_with_its_forward_stack_then_the_error_goes_on(torch):
    seen = both(_hook_fails, torch)
    assert seen["error"] == ("ZeroDivisionError", "division by zero")
    (_, enabled, _), (category, header, frames) = seen["warnings"]
    assert header == ("Error detected in MulBackward0. Traceback of forward call that caused "
                      "the error:\n")
    assert category == "UserWarning"
    assert [f[1:] for f in frames[-2:]] == [("_hook_fails", "y = _square(lib, x)"),
                                             ("_square", "return x * x")]


def _make_nan_function(lib: Any) -> Any:
    class Nan(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, grad):
            return grad * float("nan")
    return Nan


def _nan(check_nan: bool) -> Callable:
    def work(lib):
        nan = _make_nan_function(lib)
        with lib.autograd.detect_anomaly(check_nan=check_nan):
            x = lib.tensor([0.0, 1.0], requires_grad=True)
            a = x.sqrt()  # at 0 its backward makes 0 * inf = nan from a finite gradient
            (a * 0).sum().backward()
            x.grad = None
            nan.apply(x * 2).sum().backward()
    return work


def test_with_check_nan_a_backward_that_returns_nan_is_an_error(torch):
    seen = both(_nan(check_nan=True), torch)
    assert seen["error"] == ("RuntimeError",
                             "Function 'SqrtBackward0' returned nan values in its 0th output.")
    assert seen["warnings"][1][1].startswith("Error detected in SqrtBackward0.")
    assert seen["warnings"][1][2][-1][2].startswith("a = x.sqrt()")


def test_without_check_nan_nan_goes_through(torch):
    seen = both(_nan(check_nan=False), torch)
    assert seen["error"] is None and len(seen["warnings"]) == 1


def _custom_nan(lib):
    nan = _make_nan_function(lib)
    lib.autograd.set_detect_anomaly(True)
    x = lib.tensor([1.0], requires_grad=True)
    nan.apply(x * 3).sum().backward()


def test_a_custom_functions_nan_is_named_by_its_node(torch):
    seen = both(_custom_nan, torch)
    assert seen["error"] == ("RuntimeError",
                             "Function 'NanBackward' returned nan values in its 0th output.")


def _made_before(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda grad: 1 / 0)
    lib.autograd.set_detect_anomaly(True)
    y.sum().backward()


def test_a_node_made_before_it_was_on_says_it_has_no_forward_stack(torch):
    seen = both(_made_before, torch)
    assert seen["warnings"][0][1] == ("Error detected in MulBackward0. No forward pass "
                                      "information available. Enable detect anomaly during "
                                      "forward pass for more information.")


# ---- the in-place error ---------------------------------------------------------------------

def _inplace(on: bool) -> Callable:
    def work(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.set_detect_anomaly(on)
        y = x.exp()
        y.add_(1)
        y.sum().backward()
    return work


@pytest.mark.parametrize("on", [False, True], ids=["off", "on"])
def test_the_in_place_errors_hint_tells_what_to_do_in_each_mode(on, torch):
    seen = both(_inplace(on), torch)
    assert seen["error"][0] == "RuntimeError"
    assert ("the backtrace further above" in seen["error"][1]) == on
    assert len(seen["warnings"]) == int(on)
    if on:
        assert seen["warnings"][0][1].startswith("Error detected in ExpBackward0.")
        assert seen["warnings"][0][2][-1][2] == "y = x.exp()"


def _in_double_backward(lib):
    with lib.autograd.detect_anomaly():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()
        g, = lib.autograd.grad(y.sum(), x, create_graph=True)
        g.register_hook(lambda grad: 1 / 0)
        g.sum().backward()


def test_a_node_made_by_a_backward_also_shows_whose_backward_made_it(torch):
    seen = both(_in_double_backward, torch)
    assert [w[1] for w in seen["warnings"][1:]] == [
        "Error detected in MulBackward0. Traceback of forward call that caused the error:\n",
        "\n\nPrevious calculation was induced by ExpBackward0. Traceback of forward call that "
        "induced the previous calculation:\n"]
    assert seen["warnings"][2][2][-1][2] == "y = x.exp()"
