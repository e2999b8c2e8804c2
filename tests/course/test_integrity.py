"""The checks' integrity snapshot (minigrad_course/integrity/snapshot.py) tells a notebook that
replaced what the checks rely on from one that only used it: copying or pickling a model is use
(Python caches the class's slot names on it), adding a method to a watched class is not."""
from __future__ import annotations

import copy
import pickle

import pytest

import minigrad
import minigrad.nn  # loaded before each snapshot, as a notebook that uses it has it
from minigrad_course.integrity.snapshot import Snapshot


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
