"""A computation beside every probe of the grader's worker, with numbers the judge drew: a
notebook that changed how minigrad computes gets it wrong, and none of its answers is credited
(grade/judge.py compares; grade/runner.py runs it in the worker). See docs/integrity.md."""
from __future__ import annotations

import numpy as np


def canary(numbers: dict) -> dict:
    """A computation the judge knows the answer to, run in the learner's process right after
    the learner's functions: two backward passes into one leaf through a few operations. A
    notebook that changed how minigrad computes (an observer that overwrites instead of adding,
    a patched operation) gets it wrong, and its answers are not credited."""
    from minigrad.tensor import tensor_of

    x = tensor_of(numbers["x"].copy(), requires_grad=True)
    y = (x * tensor_of(numbers["a"])).tanh()
    (y.sum() + (x ** 2).exp().sum()).backward()
    (x * tensor_of(numbers["b"])).sum().backward()
    return {"y": y.detach()._data.copy(), "grad": x.grad._data.copy()}


def canary_numbers(rng: np.random.Generator) -> dict:
    return {name: rng.uniform(-1, 1, 3) for name in ("x", "a", "b")}
