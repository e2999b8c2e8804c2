"""(c) A long chain of scalar multiplications, y = y * c, then backward: pure per-op overhead.
Its variant written with the Python number on the left, as the lessons write `2 * x` and
`1 - y`: y = 1 - c * y, half as many times (the same number of operations).

micrograd sorts its graph recursively, so a deep chain needs a raised recursion limit and a
big thread stack; if it still fails, the table says so."""
from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from types import ModuleType

from libraries import NOT_INSTALLED, optional

LENGTH = 100_000
FACTOR = 1.0000001


def chain_backward(lib: ModuleType, length: int) -> float:
    """Forward and backward of the chain with torch or minigrad; returns d y / d x."""
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * FACTOR
    y.backward()
    return x.grad.item()


def numbers_first_backward(lib: ModuleType, length: int) -> float:
    """`length` operations, two at a time: y = 1 - c * y (`__rmul__`, then `__rsub__`)."""
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(length // 2):
        y = 1 - FACTOR * y
    y.backward()
    return x.grad.item()


def _micrograd_chain(value_cls: type, length: int, numbers_first: bool = False) -> float:
    x = value_cls(1.0)
    y = x
    if numbers_first:
        for _ in range(length // 2):
            y = 1 - FACTOR * y
    else:
        for _ in range(length):
            y = y * FACTOR
    y.backward()
    return x.grad


def _in_deep_thread(work: Callable[[], object]) -> Callable[[], None]:
    """Run `work` in a thread with a 1 GiB stack and a recursion limit for a deep graph."""

    def run() -> None:
        outcome: list[BaseException] = []

        def target() -> None:
            try:
                work()
            except BaseException as error:  # noqa: BLE001 - reported, not swallowed
                outcome.append(error)

        old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
        sys.setrecursionlimit(10 * LENGTH)
        threading.stack_size(1 << 30)
        try:
            thread = threading.Thread(target=target)
            thread.start()
            thread.join()
        finally:
            sys.setrecursionlimit(old_limit)
            threading.stack_size(old_stack)
        if outcome:
            raise outcome[0]

    return run


def scalar_chain(numbers_first: bool = False) -> dict[str, Callable[[], object] | str]:
    """(c), or with `numbers_first` its variant y = 1 - c * y."""
    chain = numbers_first_backward if numbers_first else chain_backward
    contenders: dict[str, Callable[[], object] | str] = {}
    for name in ("minigrad", "torch"):
        lib = optional(name)
        contenders[name] = NOT_INSTALLED if lib is None else (
            lambda lib=lib: chain(lib, LENGTH))
    engine = optional("micrograd.engine")
    if engine is None:
        contenders["micrograd"] = NOT_INSTALLED
    else:
        run = _in_deep_thread(lambda: _micrograd_chain(engine.Value, LENGTH, numbers_first))
        try:
            run()  # does it survive the depth at all?
            contenders["micrograd"] = run
        except RecursionError:
            contenders["micrograd"] = "RecursionError"
    return contenders
