"""A lesson's build cells, in the kernel: a lesson with one loads this with
`%load_ext minigrad_course.builds` before its first build.

A build cell is code the learner writes (docs/authoring.md). As the lesson ships, the learner's
lines are the exercises' placeholder, `raise NotImplementedError()`. With this extension, Run All
goes through the whole lesson before a line is written, and nothing runs on code not yet there:

- a cell that still holds the placeholder does not run; it prints one line, "✗ Not answered
  yet: ...";
- a cell that uses a name no cell has defined yet, or one whose defining cell did not run, does
  not run either; it prints one line naming what it waits for: the names of the build, "not
  written yet" when they are the functions or classes of a cell that still holds the
  placeholder, "not defined yet" when no cell has bound them (a cell waiting on a waiting cell
  waits for what that one waits for).

Neither raises, so JupyterLab's Run All goes on, and a run stores the same line again. Once the
learner's code replaces the placeholder and runs, every cell runs as written. A cell whose code
did run is never changed. Only names a cell uses as it runs count: a name used inside a function
it defines is looked up when the function is called."""
from __future__ import annotations

import ast
import builtins
from collections.abc import Sequence
from typing import Any

NOT_ANSWERED = "✗ Not answered yet: replace `raise NotImplementedError()` with your code and " \
    "run the cell."


# The mark of a cell that waits: not passed (✓), not failed (✗), not run yet. A circle is in every
# default font; a pause sign (U+23F8) was not, and DejaVu, headless Chromium's font, drew a box.
WAITING = "○"


def waiting_line(undefined: Sequence[str], unwritten: Sequence[str] = ()) -> str:
    """The line of a cell that waits: for names no cell has defined (also what a typo in the
    learner's own cell gets, so it says what Python's NameError would), and for functions or
    classes whose cell still holds the placeholder (they are there above, but not written)."""
    parts = [f"{listing(names)} {'is' if len(names) == 1 else 'are'} not {what} yet"
             for names, what in ((unwritten, "written"), (undefined, "defined")) if names]
    it = "it" if len(undefined) + len(unwritten) == 1 else "them"
    return f"{WAITING} Not run: {', and '.join(parts)}; write {it} above and run {it}, then " \
        "this one."


def listing(names: Sequence[str]) -> str:
    shown = [f"`{name}`" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def load_ipython_extension(shell: Any) -> None:
    if not any(isinstance(t, Builds) for t in shell.ast_transformers):
        shell.ast_transformers.append(Builds(shell))


def unload_ipython_extension(shell: Any) -> None:
    shell.ast_transformers[:] = [t for t in shell.ast_transformers if not isinstance(t, Builds)]


class Builds(ast.NodeTransformer):
    """IPython hands each cell's code to `visit` before running it (an AST transformer)."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        # A name bound by a cell that did not run -> the names that cell waited for.
        self.not_run: dict[str, tuple[str, ...]] = {}
        # The functions and classes of a cell that holds the placeholder: not written yet.
        self.unwritten: set[str] = set()

    def visit(self, node: ast.AST) -> ast.AST:
        if not isinstance(node, ast.Module):  # %time's expression and the like: left alone
            return node
        used, bound = names_of(node)
        self.unwritten -= bound  # what this cell binds is now as this cell leaves it
        if holds_placeholder(node):
            # later cells wait for what the learner is to write here, not for the given code
            # beside it (lesson 13's `add`, given, sits in the cell of `record`, to be written)
            written_here = to_be_written(node)
            waits_for = written_here or tuple(sorted(bound))
            self.unwritten.update(written_here)
            line = NOT_ANSWERED
        else:
            waits_for = self.missing(used)
            if not waits_for:
                for name in bound:
                    self.not_run.pop(name, None)
                return node
            line = waiting_line([n for n in waits_for if n not in self.unwritten],
                                [n for n in waits_for if n in self.unwritten])
        for name in bound:
            self.not_run[name] = waits_for
        return printing(line)

    def missing(self, names: list[str]) -> tuple[str, ...]:
        """What the names wait for: their own names when nothing defines them, what their
        cell waited for when it did not run. In the order the cell uses them."""
        found: dict[str, None] = {}
        for name in names:
            if name in self.not_run:
                found.update(dict.fromkeys(self.not_run[name] or (name,)))
            elif name not in self.shell.user_ns and not hasattr(builtins, name):
                found[name] = None
        return tuple(found)


def printing(line: str) -> ast.Module:
    call = ast.Call(func=ast.Name("print", ast.Load()), args=[ast.Constant(line)], keywords=[])
    return ast.fix_missing_locations(ast.Module(body=[ast.Expr(call)], type_ignores=[]))


def holds_placeholder(module: ast.AST) -> bool:
    """Does the cell still hold `raise NotImplementedError()` (or `raise NotImplementedError`)?"""
    for node in ast.walk(module):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) and not node.exc.args \
                else node.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                return True
    return False


def to_be_written(module: ast.Module) -> tuple[str, ...]:
    """The functions and classes of the cell that hold the placeholder, in order; none when the
    placeholder is in the cell's own code."""
    return tuple(node.name for node in module.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and holds_placeholder(node))


def names_of(module: ast.Module) -> tuple[list[str], set[str]]:
    """(the names the cell reads from outside as it runs, in order; the names it defines for
    later cells). A function's or a lambda's body runs later, when called: only its decorators
    and defaults are read now. A class body, a comprehension, an `except ... as` read and bind
    names of their own, which are not defined for later cells."""
    used: list[tuple[int, int, str]] = []
    bound_anywhere: set[str] = set()
    defined: set[str] = set()
    todo: list[tuple[ast.AST, bool]] = [(module, True)]  # (node, in the cell's own scope)
    while todo:  # a stack, not recursion
        node, top = todo.pop()
        names: list[str] = []
        inner = top and not isinstance(node, (ast.ClassDef, ast.ListComp, ast.SetComp,
                                               ast.DictComp, ast.GeneratorExp))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            later = [*node.args.defaults, *(n for n in node.args.kw_defaults if n is not None)]
            if not isinstance(node, ast.Lambda):
                names.append(node.name)
                later += [*node.decorator_list, *(n for n in (node.returns,) if n is not None),
                          *(a.annotation for a in all_arguments(node.args) if a.annotation)]
            todo.extend((child, top) for child in later)
            bound_anywhere.update(names)
            defined.update(names if top else ())
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                used.append((node.lineno, node.col_offset, node.id))
            else:
                names.append(node.id)
        elif isinstance(node, ast.ClassDef):
            names.append(node.name)
            todo.extend((child, top) for child in (*node.decorator_list, *node.bases,
                                                   *(k.value for k in node.keywords)))
            todo.extend((child, False) for child in node.body)
            bound_anywhere.update(names)
            defined.update(names if top else ())
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
        bound_anywhere.update(names)
        defined.update(names if top else ())
        todo.extend((child, inner) for child in ast.iter_child_nodes(node))
    if "*" in bound_anywhere:  # `from m import *`: what it binds is not known before it runs
        return [], defined - {"*"}
    ordered = dict.fromkeys(name for *_, name in sorted(used) if name not in bound_anywhere)
    return list(ordered), defined


def all_arguments(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs,
            *(a for a in (args.vararg, args.kwarg) if a is not None)]
