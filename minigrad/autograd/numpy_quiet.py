"""numpy quiet inside minigrad's operations and backward formulas, as PyTorch has no floating
point warnings, and as it was outside them. (A module of its own, below function.py; function.py,
_inplace.py and the engine, which keeps numpy quiet for a whole backward pass, import it;
node_call takes `_run_quietly` from function.py.)"""
from __future__ import annotations

import contextvars
from typing import Any

import numpy as np

# numpy warns of overflow and of 0 * inf, PyTorch does not: every forward runs with numpy's
# warnings off. `with np.errstate(all="ignore")` rebuilds numpy's error state on every entry
# (2-3 µs). numpy 2 keeps that state in one context variable, so forward instead sets that
# variable to the value errstate gives it, and resets it afterwards (a fraction of a µs). What
# it earns: benchmarks/tricks.md, row `_run_quietly`. It is set in the caller's own context,
# never in one captured once: Jupyter routes a cell's print() through a context variable, and a
# stale context sent what a forward printed to another cell, or nowhere.


def _variables_set_by(manager: Any) -> tuple:
    """(context variable, value) for each variable that entering `manager` changes."""
    before = contextvars.copy_context()
    with manager:
        inside = contextvars.copy_context()
    missing = object()
    return tuple((var, value) for var, value in inside.items()
                 if before.get(var, missing) is not value)


(_numpy_errors, _QUIET), = _variables_set_by(np.errstate(all="ignore"))


def _run_quietly(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` with numpy's floating point warnings off."""
    if _numpy_errors.get() is _QUIET:  # already quiet: a forward that calls other operations
        return fn(*args, **kwargs)
    token = _numpy_errors.set(_QUIET)
    try:
        return fn(*args, **kwargs)
    finally:
        _numpy_errors.reset(token)  # the caller's error state, whatever fn did to it
