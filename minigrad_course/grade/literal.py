"""A prediction read from the answer cell's text, never by running it: the judge evaluates
only values written out (numbers, text, None, True/False, lists and tuples of them, arithmetic
on numbers, names set to such values earlier in the learner's own cells). A cell that computes
its prediction by running code (`torch.tensor(...)`, `x.grad`, any call but `print`) is refused:
a prediction is what the learner expects before running anything."""
from __future__ import annotations

import ast
import operator
from typing import Any

# A prediction is a few numbers. Names make values shared, not copied (`b = [a, a]`), so a few
# lines can describe a list of 10**10 numbers: every value bound is measured, and refused past
# these bounds, before anything in the judge walks it.
MAX_ITEMS = 10_000  # numbers and lists in one value, counted as if written out
MAX_DEPTH = 20  # lists in lists
MAX_INT = 10**30
MAX_TEXT = 100_000  # characters of a cell read at all
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}


class NotValues(Exception):
    """The cell runs code to get its prediction (the message says where)."""


class Unanswered(Exception):
    """The cell still holds the placeholder."""


def _parse(source: str) -> ast.Module:
    """The cell's syntax tree. Raises SyntaxError as Python does, and NotValues for a text
    too long to be a prediction or that Python's parser gives up on in other ways (nested too
    deep, a number too long)."""
    if len(source) > MAX_TEXT:
        raise NotValues(f"the cell holds {len(source):,} characters: a prediction is a few "
                        "numbers")
    try:
        return ast.parse(source)
    except SyntaxError:
        raise
    except (ValueError, MemoryError, RecursionError) as error:
        raise NotValues(f"the cell cannot be read as values ({type(error).__name__})") \
            from None


def values_set(source: str) -> dict[str, Any]:
    """The names a learner's own cell sets to plain values (others it binds are left out)."""
    try:
        tree = _parse(source)
    except (SyntaxError, NotValues):
        return {}
    found: dict[str, Any] = {}
    for statement in tree.body:
        try:
            found.update(_statement(statement, found))
        except (NotValues, Unanswered):
            for node in ast.walk(statement):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    found.pop(node.id, None)
    return found


def prediction(source: str, name: str, earlier: dict[str, Any]) -> Any:
    """The value the answer cell `source` sets `name` to. Raises Unanswered for the
    placeholder, NotValues for code, SyntaxError as Python does."""
    tree = _parse(source)
    if any(isinstance(node, ast.Raise) and "NotImplementedError" in ast.unparse(node)
           for node in ast.walk(tree)):
        raise Unanswered()
    names = dict(earlier)
    for statement in tree.body:
        names.update(_statement(statement, names))
    if name not in names:
        raise NotValues(f"it does not set `{name}`")
    return names[name]


def _statement(statement: ast.stmt, names: dict[str, Any]) -> dict[str, Any]:
    if isinstance(statement, ast.Pass):
        return {}
    if isinstance(statement, ast.Expr):
        value = statement.value
        if isinstance(value, ast.Constant):  # a docstring, or `...`
            return {}
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                value.func.id == "print" and not value.keywords:
            for argument in value.args:
                _value(argument, names)
            return {}
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        value = _value(statement.value, names)
        _measure(value, statement)
        bound: dict[str, Any] = {}
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = value
            elif isinstance(target, (ast.Tuple, ast.List)) and \
                    all(isinstance(t, ast.Name) for t in target.elts) and \
                    isinstance(value, (list, tuple)) and len(value) == len(target.elts):
                bound.update({t.id: v for t, v in zip(target.elts, value)})
            else:
                raise _code(statement)
        return bound
    raise _code(statement)


def _code(node: ast.AST) -> NotValues:
    text = " ".join(ast.unparse(node).split())
    text = text if len(text) <= 60 else text[:57] + "..."
    return NotValues(f"line {getattr(node, 'lineno', '?')} runs code (`{text}`)")


def _value(node: ast.expr, names: dict[str, Any], depth: int = 0) -> Any:
    if depth > 20:
        raise _code(node)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)) or \
            isinstance(node, ast.Constant) and node.value is None:
        if isinstance(node.value, int) and abs(node.value) >= MAX_INT:
            raise _code(node)  # 31 digits or more: no prediction, a burden on the judge
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        if len(node.elts) > MAX_ITEMS:
            raise _code(node)
        items = [_value(item, names, depth + 1) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        operand = _value(node.operand, names, depth + 1)
        if _number(operand):
            return _UNARY[type(node.op)](operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left, names, depth + 1), _value(node.right, names, depth + 1)
        if _number(left) and _number(right) and not (
                isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 1e6)):
            try:
                result = _BINARY[type(node.op)](left, right)
            except (ZeroDivisionError, OverflowError, ValueError):
                raise _code(node) from None
            if isinstance(result, float) or isinstance(result, int) and abs(result) < MAX_INT:
                return result  # not a complex number, not a giant integer
    raise _code(node)


def _measure(value: Any, statement: ast.stmt) -> None:
    """Refuse a value with more than MAX_ITEMS parts or more than MAX_DEPTH levels, counting
    each shared part as often as it appears. The walk stops as soon as a bound is passed, so a
    value described in a few lines as 10**10 numbers costs MAX_ITEMS steps, not 10**10."""
    count, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_ITEMS or depth > MAX_DEPTH:
            raise NotValues(f"line {statement.lineno} sets a value of more than {MAX_ITEMS:,} "
                            f"parts or {MAX_DEPTH} levels of lists: a prediction is a few "
                            "numbers")
        if isinstance(item, (list, tuple)):
            stack.extend((part, depth + 1) for part in item)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
