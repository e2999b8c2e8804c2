"""The in-process guards of minigrad_course/integrity/ (docs/integrity.md). The snapshot tells a
notebook that replaced what the checks rely on from one that only used it: copying or pickling a
model is use (Python caches the class's slot names on it), adding a method to a watched class is
not. A Watch hears every backward pass from the engine's events, however it was started, and
refuses to judge once its observer was taken off the engine."""
from __future__ import annotations

import copy
import pickle
import threading

import pytest

import minigrad
import minigrad.nn  # loaded before each snapshot, as a notebook that uses it has it
from minigrad.autograd import engine, observe
from minigrad_course.checks._feedback import CheckFailed
from minigrad_course.integrity.snapshot import Snapshot
from minigrad_course.integrity.watch import Watch


def test_copying_and_pickling_a_model_changes_nothing_watched() -> None:
    snapshot = Snapshot()
    model = minigrad.nn.Sequential(minigrad.nn.Linear(2, 3), minigrad.nn.Tanh())
    copy.deepcopy(model)  # (the first copy in this process: Python caches the slot names)
    pickle.loads(pickle.dumps(minigrad.nn.Linear(1, 1)))
    snapshot.extend()
    assert snapshot.changes() == []


def test_a_method_added_to_a_watched_class_is_tampering(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = Snapshot()
    monkeypatch.setattr(minigrad.nn.Linear, "__getattribute__",
                        lambda self, name: object.__getattribute__(self, name), raising=False)
    snapshot.extend()
    assert "minigrad.nn.layers.Linear.__getattribute__" in snapshot.changes()


def test_a_mode_that_sets_a_flag_on_a_node_class_is_no_tampering() -> None:
    """saved_tensors_hooks and anomaly mode set BackwardFunction._links_in_full while on (a
    flag declared on its base class): lesson 16 and its exercises use the hooks before their
    checks run."""
    snapshot = Snapshot()
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        (minigrad.ones(2, requires_grad=True) * 2).sum().backward()
    with minigrad.autograd.detect_anomaly():
        pass
    snapshot.extend()
    assert snapshot.changes() == []


def test_a_watch_hears_every_pass_however_it_was_started() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with Watch() as watch:
        (g,) = minigrad.autograd.grad(y, [x], create_graph=True)
        engine.GraphTask([y], [minigrad.ones_like(y)], True, False).run()  # by hand
        thread = threading.Thread(target=(x * 3).sum().backward)
        thread.start()
        thread.join()
    assert watch.backward_runs == 3
    assert [run.accumulate for run in watch.runs] == [False, True, True]
    assert [run.create_graph for run in watch.runs] == [True, False, False]
    assert watch.runs[0].roots[0] is y and watch.runs[0].result[0].tolist() == g.tolist()


def test_a_watch_taken_off_the_engine_refuses_to_judge() -> None:
    with pytest.raises(CheckFailed, match="switched off the check's watcher"), Watch():
        observe._pass_observers.clear()  # the learner's code, blinding the pass count
    assert not observe.watching()
