"""Grad mode is per thread, as in PyTorch: `no_grad()` in one thread does not stop another from
recording, and a new thread starts with grad mode on and inference mode off. Each test runs on
minigrad and on PyTorch (the `lib` fixture), which must agree."""
from __future__ import annotations

import threading
from typing import Any



def _in_a_new_thread(fn: Any) -> Any:
    result = []
    thread = threading.Thread(target=lambda: result.append(fn()))
    thread.start()
    thread.join()
    return result[0]


def _modes(lib: Any) -> tuple:
    return lib.is_grad_enabled(), lib.is_inference_mode_enabled()


def test_a_new_thread_starts_with_grad_mode_on(lib: Any) -> None:
    with lib.no_grad():
        assert _in_a_new_thread(lambda: _modes(lib)) == (True, False)
    with lib.inference_mode():
        assert _in_a_new_thread(lambda: _modes(lib)) == (True, False)


def test_no_grad_in_another_thread_leaves_this_one_recording(lib: Any) -> None:
    inside, outside = threading.Event(), threading.Event()

    def other() -> None:
        with lib.no_grad():
            inside.set()
            outside.wait(timeout=30)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(timeout=30)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2  # recorded here while the other thread sits inside no_grad
    outside.set()
    thread.join()
    assert y.requires_grad and y.grad_fn is not None
    assert lib.is_grad_enabled()


def test_set_grad_enabled_in_a_thread_stays_in_that_thread(lib: Any) -> None:
    def other() -> bool:
        lib.set_grad_enabled(False)
        return (lib.tensor([1.0], requires_grad=True) * 2).requires_grad

    assert _in_a_new_thread(other) is False
    assert lib.is_grad_enabled()
