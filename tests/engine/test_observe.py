"""The engine's observation events (minigrad/autograd/observe.py): what the step-by-step
diagrams and the course's checks see of a backward pass, without reading the engine's frames."""
from __future__ import annotations

import minigrad
from minigrad.autograd import engine, observe


def test_each_pass_is_announced_once_with_its_roots_and_its_task() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    heard: list[tuple] = []
    with observe.observe_passes(lambda event, task, roots: heard.append((event, task, roots))):
        y.backward(retain_graph=True)
        (g,) = minigrad.autograd.grad(y, [x], create_graph=True)
        engine.GraphTask([y], [minigrad.ones_like(y)], True, False).run()  # a pass by hand
    y.backward()  # the block is over: nobody hears it
    assert [event for event, _, _ in heard] == ["pass"] * 3
    assert all(roots == (y,) and roots[0] is y for _, _, roots in heard)
    captured = heard[1][1]
    assert isinstance(captured, engine.CapturingTask) and not captured.accumulate
    assert captured.create_graph and captured.captured[0].tolist() == g.tolist() == [2.0, 4.0]


def test_a_pass_that_is_only_announced_runs_its_nodes_unwrapped() -> None:
    """Only a step observer makes the pass report each node (the diagrams); the checks, which
    only count passes, leave each node's run as it is."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    tasks: list = []
    steps: list[str] = []
    with observe.observe_passes(lambda event, task, roots: tasks.append(task)):
        (x * x).sum().backward()
        with observe.observe(lambda event, **details: steps.append(event)):
            (x * x).sum().backward()
    assert "call_function" not in vars(tasks[0]) and "call_function" in vars(tasks[1])
    assert steps == ["node", "node", "accumulate"]
    assert not observe.watching()
