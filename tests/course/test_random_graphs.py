"""The graphs the checks draw at random (minigrad_course/checks/_graphs.py): the grader's judge
draws them from a secret seed at each grading, so every draw must be a graph the exercises can
be asked about. One whose output required no grad (0.4% of draws did) crashed lesson 11's
checks with "'NoneType' object has no attribute 'next_functions'"."""
from __future__ import annotations

import numpy as np

from minigrad_course.checks import _graphs


def test_every_random_graph_reaches_a_leaf() -> None:
    for seed in range(1500):
        rng = np.random.default_rng(seed)
        steps = int(rng.integers(4, 10))
        values, _ = _graphs.build(_graphs.random_ops(rng, steps))
        assert values[-1].grad_fn is not None, seed
