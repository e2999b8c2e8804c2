"""What a check watches while the learner's function runs, beyond the value it returns: the
backward passes the engine ran (and from which tensors), calls to functions the exercise asks
the learner to write rather than borrow, and functions of the learner's that call themselves.

A value alone cannot tell a gradient from one written out by hand, or a walk without recursion
from one with a raised recursion limit; watching can. The engine announces each pass it starts,
in any thread (`minigrad.autograd.observe.observe_passes`); calls are seen through
`sys.setprofile`, which sees every Python call in this thread (and, through
`threading.setprofile`, in the threads the learner's code starts) and costs a little time only
while it is on. Like all in-process checking it can be switched off by the code it watches; it
notices that (even when the code switches it back on, or takes its observer off the engine),
and the check fails saying so. In the course's grader a Watch runs in the sandboxed worker:
what it saw is data the judge may use to fail an answer, never to pass one (docs/integrity.md)."""
from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import minigrad
import minigrad_course
from minigrad.autograd import engine, observe

from ..checks._feedback import NOT_LEARNERS, CheckFailed, _fingerprint

# Calls that switch a watcher off, even for a moment: seen as they are made ("c_call"; the two
# of `threading` are Python functions, seen as a "call").
_SWITCHES = (sys.setprofile, sys.settrace)
_SWITCH_CODES = frozenset(f.__code__ for f in (threading.setprofile, threading.settrace))
# Bound now: an answer that rebinds sys.setprofile and sys.getprofile to fakes fools no Watch.
_setprofile, _getprofile = sys.setprofile, sys.getprofile
_thread_setprofile, _thread_getprofile = threading.setprofile, threading.getprofile
# What reads the frames of the calls in progress, the check's own among them, whose variables
# hold the answers it compares with: called from the learner's code, each marks the run
# (sys._getframe is seen as a "c_call", inspect's functions as a "call").
_FRAME_READER_CODES = frozenset(f.__code__ for f in (inspect.currentframe, inspect.stack,
                                                     inspect.trace))
# The topic modules (checks/tensors_and_graphs.py, ...): the learner's namespace holds one as
# `check`, and its helpers compute the answers the checks compare with.
_TOPIC_MODULES = frozenset(str(path.resolve()) for path in
                           (Path(__file__).parent.parent / "checks").glob("[a-z]*.py"))


@dataclass
class Run:
    """One pass of the engine, as it announced itself: the tensors it started from, and how it
    was asked to run (read from its task once the learner's function has returned)."""
    roots: tuple
    task: engine.GraphTask

    @property
    def accumulate(self) -> bool:
        """backward() fills .grad; autograd.grad() returns the gradients instead."""
        return not isinstance(self.task, engine.CapturingTask) or self.task.accumulate

    @property
    def create_graph(self) -> bool:
        return self.task.create_graph

    @property
    def result(self) -> Any:
        """What autograd.grad's pass returned: the gradients it captured."""
        return None if self.accumulate else self.task.captured


class Watch:
    """`with Watch(forbidden, given) as watch: <run the learner's function>`, then read
    `runs`, `called` (names of forbidden functions that ran) and `recursive` (the learner's
    functions that called themselves). `forbidden` maps functions to the name a message uses
    for them; `given` lists the check's own functions the learner's code may call (those the
    check hands it, hooks the check registered). Leaving the block raises CheckFailed when the
    learner's code replaced the watcher (nothing it counted can be trusted) or called any other
    function of a check module (they compute the answers)."""

    def __init__(self, forbidden: dict[Callable, str] | None = None,
                 given: tuple[Callable, ...] = ()) -> None:
        self.forbidden = {_code_of(function): name for function, name in
                          (forbidden or {}).items()}
        self.given = {_code_of(function) for function in given}
        self.borrowed: list[str] = []  # the check module's own functions the learner called
        self.runs: list[Run] = []
        self.called: list[str] = []
        self.backward_runs_before: list[int] = []  # per call noted: the passes run before it
        self.recursive: list[str] = []
        self.switched_off = False
        self._leaving = False  # __exit__'s own sys.setprofile is no learner's
        self.peeked = False  # the learner's code read the stack of frames
        self._depth: dict[CodeType, int] = {}  # learner's code -> how many of its calls are open
        self._kinds: dict[CodeType, Any] = {}
        self._forbidden_prints = {_fingerprint(code): name for code, name in
                                  self.forbidden.items()}
        self._hook = self._event  # one bound method, so that `is` can recognise it later
        self._passes = observe.observe_passes(self._on_pass)

    def __enter__(self) -> Watch:
        self._passes.__enter__()
        self._previous = _getprofile()
        self._previous_in_threads = _thread_getprofile()
        _thread_setprofile(self._hook)  # threads the learner's code starts are watched too
        _setprofile(self._hook)
        return self

    def __exit__(self, kind: type | None, *exc_info: Any) -> None:
        self._leaving = True
        self.switched_off = self.switched_off or _getprofile() is not self._hook \
            or not self._passes.active
        _thread_setprofile(self._previous_in_threads)
        _setprofile(self._previous)
        self._passes.__exit__()
        if self.switched_off and kind is None:
            raise CheckFailed("✗ Your code switched off the check's watcher (sys.setprofile), "
                              "so the check cannot judge it: leave sys.setprofile alone.")
        if self.peeked and kind is None:
            raise CheckFailed("✗ Your code reads the stack of calls (sys._getframe or inspect), "
                              "where the check keeps what it compares with: compute the answer "
                              "yourself.")
        if self.borrowed and kind is None:
            raise CheckFailed(f"✗ Your code calls the check's own {self.borrowed[0]}(), which "
                              "computes what the check compares with: write the answer "
                              "yourself.")

    @property
    def backward_runs(self) -> int:
        return len(self.runs)

    def _on_pass(self, event: str, task: engine.GraphTask, roots: tuple) -> None:
        self.runs.append(Run(roots, task))

    def _event(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call":  # every C function called: kept to two cheap tests
            if arg in _SWITCHES and not self._leaving:
                self.switched_off = True
            elif arg is sys._getframe and self._learners(frame.f_code):
                self.peeked = True
        elif event == "call":
            code = frame.f_code
            kind = self._kinds.get(code) or self._kind(code)
            if code in _SWITCH_CODES and not self._leaving:
                self.switched_off = True
            elif code in _FRAME_READER_CODES:
                caller = frame.f_back
                self.peeked = self.peeked or (caller is not None and self._learners(caller.f_code))
            elif isinstance(kind, tuple):
                (self.called if kind[0] == "forbidden" else self.borrowed).append(kind[1])
                self.backward_runs_before.append(len(self.runs))
            elif kind is LEARNER:
                depth = self._depth.get(code, 0) + 1
                self._depth[code] = depth
                if depth > 1 and code.co_name not in self.recursive:
                    self.recursive.append(code.co_name)
        elif event == "return":
            depth = self._depth.get(frame.f_code)
            if depth:
                self._depth[frame.f_code] = depth - 1

    def _learners(self, code: CodeType) -> bool:
        return (self._kinds.get(code) or self._kind(code)) is LEARNER

    def _kind(self, code: CodeType) -> Any:
        """What a function is, by what it is and then by what it does: a forbidden function,
        a check's own function (borrowed), the learner's, or ours. Code that is not one of the
        packages' own code objects is the learner's, whatever file name it claims (a recursion
        compiled under minigrad's name), unless its instructions are those of a forbidden
        function or of a check's (re-wrapped in a new code object, or typed out again)."""
        if code in self.forbidden:
            kind: Any = ("forbidden", self.forbidden[code])
        elif code in self.given:
            kind = OURS
        elif code in _genuine() and _ours(code.co_filename):  # (a copy under another file
            # name is equal to the original: code objects compare without their file names)
            kind = ("borrowed", code.co_qualname) if code.co_filename in _TOPIC_MODULES else OURS
        elif code in _FROZEN or _in_a_library(code.co_filename):
            kind = OURS  # Python's own and installed packages (minigrad's are genuine above)
        else:
            twin = _fingerprint(code)
            kind = (("forbidden", self._forbidden_prints[twin])
                    if twin in self._forbidden_prints else None) or \
                _borrowed_twin(_copy_print(code)) or LEARNER
        self._kinds[code] = kind
        return kind


LEARNER, OURS = "learner", "ours"
_COURSE = tuple(Path(folder).resolve() for folder in (*minigrad.__path__,
                                                      *minigrad_course.__path__))
_LIBRARIES = tuple(folder for folder in NOT_LEARNERS if folder not in _COURSE)
_GENUINE: set[CodeType] = set()  # every code object of minigrad's and minigrad_course's modules
_SCANNED: set[str] = set()
# How many modules sys.modules held at the last scan: _genuine() runs for every new code object
# a watch meets, and with PyTorch or IPython loaded sys.modules holds thousands of names; it is
# read again only when it grew (modules are imported, seldom removed).
_MODULES_SCANNED = [0]
# A check module's function, as a copy of its code object would be (its instructions and where
# its lines are) -> its name. Not its instructions alone: a learner who types the same
# algorithm as a check's function writes their own code.
_TOPIC_PRINTS: dict[Any, str] = {}


def _copy_print(code: CodeType) -> Any:
    return _fingerprint(code), code.co_firstlineno, code.co_linetable


def _frozen_codes() -> frozenset[CodeType]:
    """The code of Python's frozen modules (importlib's bootstrap, which runs every first
    import, abc, os...), read at import: Python's own, though their file names are no files
    ("<frozen importlib._bootstrap>"). A learner's code compiled under such a name is not
    among them."""
    stack = []
    for module in list(sys.modules.values()):
        if getattr(getattr(module, "__spec__", None), "origin", None) != "frozen":
            continue
        for value in list(vars(module).values()):
            for member in list(vars(value).values()) if isinstance(value, type) else [value]:
                function = getattr(member, "__func__", getattr(member, "fget", member))
                code = getattr(function, "__code__", None)
                if isinstance(code, CodeType) and code.co_filename.startswith("<frozen "):
                    stack.append(code)
    found: set[CodeType] = set()
    while stack:
        code = stack.pop()
        if code not in found:
            found.add(code)
            stack += [c for c in code.co_consts if isinstance(c, CodeType)]
    return frozenset(found)


_FROZEN = _frozen_codes()


@functools.lru_cache(maxsize=None)  # a Path.resolve() per new code object of each watch
def _ours(filename: str) -> bool:
    path = Path(filename)
    return path.is_absolute() and any(path.resolve().is_relative_to(f) for f in _COURSE)


def _in_a_library(filename: str) -> bool:
    path = Path(filename).resolve()
    return not any(path.is_relative_to(folder) for folder in _COURSE) and \
        any(path.is_relative_to(folder) for folder in _LIBRARIES)


def _genuine() -> set[CodeType]:
    """The packages' own code objects, their modules read as they were imported (a module
    imported since is read on the next call; a function put in an old module later is not)."""
    if len(sys.modules) == _MODULES_SCANNED[0]:
        return _GENUINE
    _MODULES_SCANNED[0] = len(sys.modules)
    for name, module in list(sys.modules.items()):
        if name in _SCANNED or not name.startswith(("minigrad.", "minigrad_course.")) and \
                name not in ("minigrad", "minigrad_course"):
            continue
        _SCANNED.add(name)
        found: list[Any] = []
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__ == name:
                found += [getattr(m, "__func__", m) for m in vars(value).values()]
                found += [m.fget for m in vars(value).values() if isinstance(m, property)]
            elif getattr(value, "__module__", None) == name:
                found.append(value)
        codes = [getattr(f, "__code__", None) for f in found]
        stack = [code for code in codes if isinstance(code, CodeType)]
        for code in stack:
            if code.co_filename in _TOPIC_MODULES:
                _TOPIC_PRINTS.setdefault(_copy_print(code), code.co_name)
        while stack:
            code = stack.pop()
            if code not in _GENUINE:
                _GENUINE.add(code)
                stack += [c for c in code.co_consts if isinstance(c, CodeType)]
    return _GENUINE


def _borrowed_twin(twin: Any) -> tuple[str, str] | None:
    name = _TOPIC_PRINTS.get(twin)
    return ("borrowed", name) if name is not None else None


def _code_of(function: Callable) -> CodeType:
    function = getattr(function, "__func__", function)
    return function.__code__
