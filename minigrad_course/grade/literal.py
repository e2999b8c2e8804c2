"""A prediction read from the answer cell's text, never by running it: the judge evaluates
only values written out (numbers, text, None, True/False, lists and tuples of them, arithmetic
on numbers, names set to such values earlier in the learner's own cells). A cell that computes
its prediction by running code (`torch.tensor(...)`, `x.grad`, any call but `print`) is refused:
a prediction is what the learner expects before running anything."""
from __future__ import annotations

import ast
import operator
from typing import Any

MAX_ITEMS = 10_000
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}


class NotValues(Exception):
    """The cell runs code to get its prediction (the message says where)."""


class Unanswered(Exception):
    """The cell still holds the placeholder."""


def values_set(source: str) -> dict[str, Any]:
    """The names a learner's own cell sets to plain values (others it binds are left out)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
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
    tree = ast.parse(source)
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
            if isinstance(result, float) or isinstance(result, int) and abs(result) < 10**30:
                return result  # not a complex number, not a giant integer
    raise _code(node)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
