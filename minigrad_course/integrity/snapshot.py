"""Has the notebook's own code replaced what the checks rely on? A check runs in the learner's
kernel, so a cell can rebind `numpy.allclose`, a method of minigrad's Tensor or a function of a
check module, and a wrong answer would then pass with a real success line. A `Snapshot` records
those objects once, before the check runs anything of the learner's, and `changes()` names every
one that was replaced or deleted since, or that was written in the notebook (a lambda put there
before the snapshot was taken).

What is watched: the functions, classes and submodules of numpy, minigrad and minigrad_course,
every attribute of the check modules (their tolerances too), the methods of minigrad's and
minigrad_course's classes, and the builtins and `math`. Plain data of numpy and minigrad (grad
mode, the random generator, print options) is left alone: learners change it for good reasons.

This raises the cost of cheating, it does not make it impossible: code in the same process can
always find and undo any guard (docs/integrity.md; docs/teaching.md says what a class does
where that matters)."""
from __future__ import annotations

import builtins
import functools
import math
import sys
import types
from pathlib import Path
from typing import Any

WATCHED = ("numpy", "minigrad", "minigrad_course")
EVERY_ATTRIBUTE = ("minigrad_course.",)  # modules whose data counts too (tolerances, tables)
CALLABLE_KINDS = (types.FunctionType, types.BuiltinFunctionType, type, types.ModuleType,
                  staticmethod, classmethod, property, types.MethodDescriptorType,
                  types.WrapperDescriptorType)
SHOWN = 3  # names listed in the message; the rest are counted
SNAPSHOT_NAME = "_PRISTINE"  # where _feedback keeps its snapshot
# What Python itself writes on a class after the fact: copyreg caches a class's slot names the
# first time one of its objects is copied or pickled (`copy.deepcopy(model)`, `torch.save`).
PYTHON_CACHES = frozenset({"__slotnames__"})


def _watched_module(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in WATCHED)


def _homes() -> tuple[Path, ...]:
    """Where code of the watched objects may come from: the packages' folders, Python's own."""
    folders = {Path(sys.prefix), Path(sys.base_prefix)}
    for name in WATCHED:
        module = sys.modules.get(name)
        for folder in getattr(module, "__path__", []):
            folders.add(Path(folder).parent)
    return tuple(folder.resolve() for folder in folders)


def written_in_the_notebook(value: Any, homes: tuple[Path, ...]) -> bool:
    """A function (or a callable object) whose code was typed in a cell, not in a library."""
    function = getattr(value, "__func__", value)
    if not isinstance(function, types.FunctionType):
        function = getattr(type(value), "__call__", None) if not isinstance(value, type) else None
        if not isinstance(function, types.FunctionType):
            return False
    if function.__module__ == "__main__":
        return True
    return not _in_a_library(function.__code__.co_filename, homes)


@functools.lru_cache(maxsize=None)
def _in_a_library(filename: str, homes: tuple[Path, ...]) -> bool:
    if filename.startswith("<"):
        return filename.startswith("<frozen ")  # Python's own modules, frozen in
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError):
        return False
    return any(path.is_relative_to(home) for home in homes)


def _is_watched_kind(value: Any) -> bool:
    """Functions, classes, modules and descriptors: what a check calls, or reads through."""
    return isinstance(value, CALLABLE_KINDS) or callable(value)


class Snapshot:
    """The watched objects as they are now; `changes()` compares with a later moment."""

    def __init__(self) -> None:
        # (label, owner, name, object): owner is a module or a class, read again when compared.
        self.entries: list[tuple[str, Any, str, Any]] = []
        self.foreign: list[str] = []  # already written in the notebook when the snapshot was taken
        self.seen: set[tuple[str, str]] = set()
        self.sizes: dict[str, int] = {}  # label -> how many names its namespace had
        self.class_names: dict[str, set[str]] = {}  # label of a class -> its names when seen
        self.extend()

    def extend(self) -> None:
        """Watch what was defined since: modules imported later, and the rest of a module that
        was still being imported (a check module imports `_feedback` first)."""
        homes = _homes()
        for label, owner, everything in _owners():
            if self.sizes.get(label) == len(vars(owner)):
                continue  # nothing added since (a replaced name is changes()'s business)
            self.sizes[label] = len(vars(owner))
            is_class = isinstance(owner, type)
            if is_class:  # a class, unlike a module, is complete when first seen: a method
                # added later (a __getattribute__ that hides failures) is the notebook's; data
                # is not watched on a class (a flag minigrad sets on a subclass while a mode
                # is on, such as BackwardFunction._links_in_full, is no one's tampering)
                known = self.class_names.setdefault(label, set(vars(owner)) | PYTHON_CACHES)
                self.foreign += [f"{label}.{name}" for name, value in vars(owner).items()
                                 if name not in known and _is_watched_kind(value)]
                known.update(vars(owner))
            for name, value in list(vars(owner).items()):
                dunder = name.startswith("__") and name.endswith("__")
                if (dunder and not is_class) or (label, name) in self.seen \
                        or name in PYTHON_CACHES:
                    continue  # a class's __init__ or __eq__ is watched as its methods are
                if name == SNAPSHOT_NAME:
                    continue  # a snapshot is replaced by a newer one, never patched to cheat
                if owner is builtins and not isinstance(value, (types.BuiltinFunctionType, type)):
                    continue  # exit, quit, help: IPython swaps them in and out around each cell
                if everything or _is_watched_kind(value):
                    self.seen.add((label, name))
                    self.entries.append((label, owner, name, value))
                    if callable(value) and not isinstance(value, type) and not dunder and \
                            written_in_the_notebook(value, homes):  # (dataclasses write dunders)
                        self.foreign.append(f"{label}.{name}")

    def changes(self) -> list[str]:
        """The watched names replaced, deleted or written in the notebook, in a stable order."""
        changed = list(self.foreign)
        for label, owner, name, value in self.entries:
            if vars(owner).get(name, _MISSING) is not value:
                changed.append(f"{label}.{name}")
        return changed


def _owners() -> list[tuple[str, Any, bool]]:
    """(label, module or class, whether its data counts too) for everything watched."""
    found: list[tuple[str, Any, bool]] = [("builtins", builtins, False), ("math", math, False)]
    classes = []
    for name, module in sorted(sys.modules.items()):
        if not _watched_module(name) or not isinstance(module, types.ModuleType):
            continue
        found.append((name, module, name.startswith(EVERY_ATTRIBUTE)))
        classes += [value for value in vars(module).values()
                    if isinstance(value, type) and value.__module__ == name]
    found += [(f"{cls.__module__}.{cls.__qualname__}", cls, False) for cls in classes]
    return found


_MISSING = object()


def describe(changed: list[str]) -> str:
    shown = ", ".join(changed[:SHOWN])
    more = f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else ""
    return shown + more
