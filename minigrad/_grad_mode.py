"""Whether operations record a graph: no_grad, enable_grad, set_grad_enabled.

As in PyTorch, the switch is per thread: `no_grad()` in one thread leaves the others recording,
and every new thread starts with grad mode on (and inference mode off)."""
from __future__ import annotations

import functools
import inspect
import threading
from typing import Any, Callable


class _PerThread(threading.local):
    # Whether operations record a graph, read by every recorded operation: grad mode, except
    # in inference mode, where nothing records, whatever grad mode says.
    enabled = True
    inference = False
    grad_in_inference = False  # grad mode inside inference mode (enable_grad there records nothing)


state = _PerThread()


def is_grad_enabled() -> bool:
    return state.grad_in_inference if state.inference else state.enabled


def _set_enabled(mode: bool) -> None:
    if state.inference:
        state.grad_in_inference = mode
    else:
        state.enabled = mode


class _GradModeContext:
    """A context manager that is also a decorator, as PyTorch's are (with or without `()`)."""

    _mode: bool

    def __new__(cls, func: Callable | None = None):
        self = super().__new__(cls)
        if func is None:
            return self
        if not callable(func):
            raise TypeError(f"{cls.__name__}() takes no arguments")
        return self(func)

    def __enter__(self) -> None:
        self._previous = is_grad_enabled()
        _set_enabled(self._mode)

    def __exit__(self, *exc_info: Any) -> None:
        _set_enabled(self._previous)

    def __call__(self, func: Callable) -> Callable:
        return _decorated(func, self.clone)

    def clone(self) -> "_GradModeContext":
        return self.__class__()


class no_grad(_GradModeContext):  # noqa: N801 - PyTorch's name
    """Inside it, results of operations never require grad and no graph is built."""

    _mode = False


class enable_grad(_GradModeContext):  # noqa: N801
    """Turns graph building back on, for instance inside a no_grad block."""

    _mode = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Sets grad mode to `mode`: immediately when called, and back when used as a context."""

    def __new__(cls, mode: bool):
        return object.__new__(cls)

    def __init__(self, mode: bool) -> None:
        self._previous = is_grad_enabled()
        self._mode = mode
        _set_enabled(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc_info: Any) -> None:
        _set_enabled(self._previous)

    def clone(self) -> "set_grad_enabled":
        return set_grad_enabled(self._mode)

    def __repr__(self) -> str:  # what a notebook shows for `torch.set_grad_enabled(False)`
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._mode})"

    def __call__(self, func: Callable) -> Callable:
        _set_enabled(self._previous)  # as a decorator it changes nothing until func runs
        return _decorated(func, self.clone)


def is_inference_mode_enabled() -> bool:
    return state.inference


class inference_mode(_GradModeContext):  # noqa: N801
    """`with torch.inference_mode():` (or as a decorator): for evaluating a model, grad mode off
    as in no_grad. The tensors made inside are inference tensors (`Tensor.is_inference`): later,
    outside, they can be read by recorded operations but not saved for backward, nor changed in
    place (tensor.py, function._save and _inplace.check_inplace raise PyTorch's errors).

    As in PyTorch, `enable_grad()` inside turns grad mode on but records nothing (inference mode
    wins), and `inference_mode(False)` turns inference mode off and grad mode on, wherever it is
    (even inside no_grad): PyTorch's InferenceMode(enabled) sets grad mode to `not enabled`."""

    def __new__(cls, mode: Any = True):
        self = object.__new__(cls)
        if callable(mode):  # @torch.inference_mode without ()
            self.__init__(True)
            return self(mode)
        return self

    def __init__(self, mode: Any = True) -> None:
        self._inference_mode = bool(mode)

    def __enter__(self) -> None:
        self._previous_state = state.inference, state.enabled, state.grad_in_inference
        state.inference = self._inference_mode
        state.enabled = not self._inference_mode
        state.grad_in_inference = False

    def __exit__(self, *exc_info: Any) -> None:
        state.inference, state.enabled, state.grad_in_inference = self._previous_state

    def clone(self) -> "inference_mode":
        return inference_mode(self._inference_mode)


def _decorated(func: Callable, make_context: Callable) -> Callable:
    """`func` run inside a fresh context from `make_context` at each call; a generator
    function's body inside one at each step (as PyTorch's decorators do: the mode holds
    while the generator runs, not while its caller does)."""
    if not inspect.isgeneratorfunction(func):
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with make_context():
                return func(*args, **kwargs)
        return wrapper

    @functools.wraps(func)
    def generator(*args: Any, **kwargs: Any) -> Any:
        steps = func(*args, **kwargs)
        try:
            with make_context():
                response = steps.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_context():
                        steps.close()
                    raise
                except BaseException as error:  # noqa: BLE001 - passed on into the generator
                    with make_context():
                        response = steps.throw(error)
                else:
                    with make_context():
                        response = steps.send(request)
        except StopIteration as stop:
            return stop.value
    return generator
