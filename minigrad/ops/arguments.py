"""PyTorch's words for a call that none of an operation's signatures takes: `t.add(None)`,
`torch.eq(t, [1, 2])`, `t.maximum(2.0)`. Without them a None became nan, a list became a
tensor, and a numpy array's error was numpy's.

SIGNATURES holds, for each checked method, the signatures PyTorch 2.13 prints for it (the
method's, then the function's: `torch.add(t, x)` counts `input` as argument 1), as its argument
parser prints them. `refusal` words the error as that parser does (python_arg_parser.cpp's
print_error): when one signature takes that many arguments, the first argument of the wrong
type is named ("add(): argument 'other' (position 1) must be Tensor, not NoneType"); else
every signature is listed, and the ones that take that many arguments say which did not fit.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..tensor import Tensor
from .operands import type_name

_OTHER = ("(Tensor other)",
          "(Tensor input, Tensor other, *, Tensor out = None)")
_OTHER_OR_NUMBER = (("(Tensor other)", "(Number other)"),
                    ("(Tensor input, Tensor other, *, Tensor out = None)",
                     "(Tensor input, Number other, *, Tensor out = None)"))
_OTHER_OR_NUMBER_NO_OUT = (("(Tensor other)", "(Number other)"),
                           ("(Tensor input, Tensor other, *, Tensor out = None)",
                            "(Tensor input, Number other)"))
_ALPHA = (("(Tensor other, *, Number alpha = 1)",),
          ("(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",))
_DIV = (("(Tensor other)", "(Tensor other, *, str rounding_mode)",
         "(Number other, *, str rounding_mode)"),
        ("(Tensor input, Tensor other, *, Tensor out = None)",
         "(Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)",
         "(Tensor input, Number other, *, str rounding_mode)"))
_POW = (("(Tensor exponent)", "(Number exponent)"),
        ("(Tensor input, Tensor exponent, *, Tensor out = None)",
         "(Number self, Tensor exponent, *, Tensor out = None)",
         "(Tensor input, Number exponent, *, Tensor out = None)"))
_CLAMP = (("(Tensor min = None, Tensor max = None)", "(Number min = None, Number max = None)"),
          ("(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
           "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)"))


_INDEX_ADD = (("(int dim, Tensor index, Tensor source, *, Number alpha = 1)",),
              ("(Tensor input, int dim, Tensor index, Tensor source, *, Number alpha = 1, "
               "Tensor out = None)",))
_INDEX_COPY = (("(int dim, Tensor index, Tensor source)",),
               ("(Tensor input, int dim, Tensor index, Tensor source, *, Tensor out = None)",))
_SCATTER_ADD = (("(int dim, Tensor index, Tensor src)",),
                ("(Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)",))
_MASKED_FILL = (("(Tensor mask, Tensor value)", "(Tensor mask, Number value)"),
                ("(Tensor input, Tensor mask, Tensor value)",
                 "(Tensor input, Tensor mask, Number value)"))
_INDEX_FILL = (("(int dim, Tensor index, Tensor value)", "(int dim, Tensor index, Number value)"),
               ("(Tensor input, int dim, Tensor index, Tensor value)",
                "(Tensor input, int dim, Tensor index, Number value)"))
_SCATTER = (("(int dim, Tensor index, Tensor src)",
             "(int dim, Tensor index, Tensor src, *, str reduce)",
             "(int dim, Tensor index, Number value)",
             "(int dim, Tensor index, Number value, *, str reduce)"),
            ("(Tensor input, int dim, Tensor index, Tensor src, *, Tensor out = None)",
             "(Tensor input, int dim, Tensor index, Tensor src, *, str reduce, Tensor out = None)",
             "(Tensor input, int dim, Tensor index, Number value, *, Tensor out = None)",
             "(Tensor input, int dim, Tensor index, Number value, *, str reduce, "
             "Tensor out = None)"))


def _bound(name: str) -> tuple:
    return ((f"(Tensor {name})", f"(Number {name})"),
            (f"(Tensor input, Tensor {name}, *, Tensor out = None)",
             f"(Tensor input, Number {name}, *, Tensor out = None)"))


SIGNATURES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "add": _ALPHA, "sub": _ALPHA, "add_": _ALPHA, "sub_": _ALPHA,
    "mul": ((_OTHER[0],), (_OTHER[1],)), "mul_": ((_OTHER[0],), ()),
    "div": _DIV, "div_": _DIV,
    "pow": _POW, "pow_": _POW,
    **{name: ((_OTHER[0],), (_OTHER[1],)) for name in (
        "maximum", "minimum", "logical_and", "logical_or", "logical_xor")},
    **{name: _OTHER_OR_NUMBER for name in ("eq", "ne", "lt", "le", "gt", "ge", "fmod")},
    **{name: (_OTHER_OR_NUMBER[0], ("(Tensor input, Tensor other, *, Tensor out = None)",
                                    "(Number self, Tensor other)",
                                    "(Tensor input, Number other, *, Tensor out = None)"))
       for name in ("remainder", "bitwise_and", "bitwise_or", "bitwise_xor")},
    **{name: _OTHER_OR_NUMBER_NO_OUT for name in ("floor_divide", "true_divide", "multiply")},
    "subtract": (("(Tensor other, *, Number alpha = 1)", "(Number other, Number alpha = 1)"),
                 ("(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
                  "(Tensor input, Number other, Number alpha = 1)")),
    "divide": (("(Tensor other)", "(Tensor other, *, str rounding_mode)", "(Number other)",
                "(Number other, *, str rounding_mode)"),
               ("(Tensor input, Tensor other, *, Tensor out = None)",
                "(Tensor input, Tensor other, *, str rounding_mode, Tensor out = None)",
                "(Tensor input, Number other)",
                "(Tensor input, Number other, *, str rounding_mode)")),
    "clamp": _CLAMP, "clamp_": (_CLAMP[0], ()),
    "clamp_min": _bound("min"), "clamp_max": _bound("max"),
    "lerp": (("(Tensor end, Tensor weight)", "(Tensor end, Number weight)"),
             ("(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
              "(Tensor input, Tensor end, Number weight, *, Tensor out = None)")),
    **{name: (("(Tensor tensor1, Tensor tensor2, *, Number value = 1)",),
              ("(Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, "
               "Tensor out = None)",))
       for name in ("addcmul", "addcdiv", "addcmul_", "addcdiv_")},
    "equal": (("(Tensor other)",), ("(Tensor input, Tensor other)",)),
    "dist": (("(Tensor other, Number p = 2)",), ("(Tensor input, Tensor other, Number p = 2)",)),
    "isclose": (("(Tensor other, float rtol = 1e-05, float atol = 1e-08, bool equal_nan = False)",),
                ("(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, "
                 "bool equal_nan = False)",)),
    "allclose": (("(Tensor other, float rtol = 1e-05, float atol = 1e-08, "
                  "bool equal_nan = False)",),
                 ("(Tensor input, Tensor other, float rtol = 1e-05, float atol = 1e-08, "
                  "bool equal_nan = False)",)),
    # reading and writing at given positions (they raised AttributeError)
    "gather": (("(int dim, Tensor index, *, bool sparse_grad = False)",),
               ("(Tensor input, int dim, Tensor index, *, bool sparse_grad = False, "
                "Tensor out = None)",)),
    "index_select": (("(int dim, Tensor index)",),
                     ("(Tensor input, int dim, Tensor index, *, Tensor out = None)",)),
    "masked_select": (("(Tensor mask)",), ("(Tensor input, Tensor mask, *, Tensor out = None)",)),
    "index_add": _INDEX_ADD, "index_add_": (_INDEX_ADD[0], ()),
    "index_copy": _INDEX_COPY, "index_copy_": (_INDEX_COPY[0], ()),
    "scatter_add": _SCATTER_ADD, "scatter_add_": (_SCATTER_ADD[0], ()),
    "masked_fill": _MASKED_FILL, "masked_fill_": (_MASKED_FILL[0], ()),
    "index_fill": _INDEX_FILL, "index_fill_": (_INDEX_FILL[0], ()),
    "scatter": _SCATTER, "scatter_": (_SCATTER[0], ()),
    "where": (("(Tensor condition, Tensor other)", "(Tensor condition, Number other)"),
              ("(Tensor condition)",
               "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
               "(Tensor condition, Number self, Tensor other)",
               "(Tensor condition, Tensor input, Number other)",
               "(Tensor condition, Number self, Number other)")),
}
# The operations whose `Tensor` arguments PyTorch's parser also lets a number stand for
# (python_arg_parser.cpp, should_allow_numbers_as_tensors): `t.add(2)`, but not `t.maximum(2)`.
NUMBERS_AS_TENSORS = frozenset({
    "add", "add_", "sub", "sub_", "subtract", "mul", "mul_", "multiply", "div", "div_", "divide",
    "true_divide", "floor_divide"})

NUMBERS = (int, float, complex, np.number, np.bool_)
_PARAMETER = re.compile(r"(\w+) (\w+)( = [^,]+)?")


class Parameter:
    def __init__(self, text: str, keyword_only: bool):
        kind, self.name, default = _PARAMETER.fullmatch(text).groups()
        self.kind, self.keyword_only = kind, keyword_only
        self.optional = default is not None
        self.none_default = default == " = None"

    def takes(self, value: Any, numbers_as_tensors: bool = False) -> bool:
        """As PyTorch's parser matches it (str is `str?` in these signatures: None fits)."""
        if value is None:
            return self.none_default or self.kind == "str"
        if self.kind == "Tensor":
            return isinstance(value, Tensor) or (numbers_as_tensors and _number(value))
        if self.kind == "Number":
            return _number(value)
        if self.kind == "float":
            return _number(value) and not isinstance(value, complex)
        if self.kind == "bool":
            return isinstance(value, (bool, np.bool_))
        if self.kind == "int":
            return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        return isinstance(value, str)

    def shown(self, value: Any) -> bool:
        """Whether the listing shows `value` as fitting. It compares type names (PyTorch's
        invalid_arguments.cpp), by which nothing is a `Number` and a bool is not an int."""
        if value is None:
            return self.none_default
        return type_name(value) in _LISTED_FITS.get(self.kind, (self.kind,))


_LISTED_FITS = {"Number": (), "float": ("float", "int")}


class Signature:
    def __init__(self, text: str):
        self.text = text
        self.parameters, keyword_only = [], False
        for part in text[1:-1].split(", "):
            if part == "*":
                keyword_only = True
            else:
                self.parameters.append(Parameter(part, keyword_only))
        self.required = sum(not p.optional for p in self.parameters)

    def plausible(self, count: int) -> bool:
        return self.required <= count <= len(self.parameters)

    def takes(self, args: tuple, kwargs: dict, numbers_as_tensors: bool) -> bool:
        positional = [p for p in self.parameters if not p.keyword_only]
        if len(args) > len(positional):
            return False
        given = dict(zip((p.name for p in positional), args))
        for name, value in kwargs.items():
            if name in given or all(p.name != name for p in self.parameters):
                return False
            given[name] = value
        return all(p.name in given or p.optional for p in self.parameters) and all(
            p.takes(given[p.name], numbers_as_tensors) for p in self.parameters if p.name in given)


_PARSED: dict[tuple[str, bool], list[Signature]] = {}


def signatures(name: str, function: bool) -> list[Signature]:
    key = (name, function)
    if key not in _PARSED:
        _PARSED[key] = [Signature(text) for text in SIGNATURES[name][function]]
    return _PARSED[key]


def _number(value: Any) -> bool:
    return isinstance(value, NUMBERS)


def takes(name: str, args: tuple, kwargs: dict) -> bool:
    """Whether one of the method's signatures takes these arguments."""
    numbers = name in NUMBERS_AS_TENSORS
    return any(s.takes(args, kwargs, numbers) for s in signatures(name, False))


def refusal(name: str, args: tuple, kwargs: dict, function: bool = False) -> TypeError | None:
    """PyTorch's TypeError for a call none of `name`'s signatures takes for the types of its
    arguments; None when what is wrong is the number of arguments given to an operation of one
    signature (Python's own error says it, as PyTorch's parser does: "missing 1 required
    positional argument"). The error keeps the call (`refused`), so that the function form
    (`torch.add(t, x)`, minigrad/__init__.py) can word it again with its own signatures."""
    options = signatures(name, function)
    count = len(args) + len(kwargs)
    plausible = [s for s in options if s.plausible(count)]
    if not plausible and len(options) == 1:
        return None
    if len(plausible) == 1:
        wrong = _first_wrong(plausible[0], args, kwargs, name in NUMBERS_AS_TENSORS)
        if wrong is None:
            return None
        return _refused(TypeError(f"{name}(): {wrong}"), name, args, kwargs)
    got = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()]
    lines = [f"{name}() received an invalid combination of arguments - got "
             f"{_listed(got, args)}, but expected one of:"]
    for option in options:
        lines.append(f" * {option.text}")
        if len(option.parameters) == count:
            lines.append("      didn't match because some of the arguments have invalid types: "
                         + _marked(option, args, kwargs))
    return _refused(TypeError("\n".join(lines) + "\n"), name, args, kwargs)


def _refused(error: TypeError, name: str, args: tuple, kwargs: dict) -> TypeError:
    error.refused = (name, args, kwargs)
    return error


def _first_wrong(signature: Signature, args: tuple, kwargs: dict, numbers: bool) -> str | None:
    positional = [p for p in signature.parameters if not p.keyword_only]
    for i, (parameter, value) in enumerate(zip(positional, args)):
        if not parameter.takes(value, numbers):
            return (f"argument '{parameter.name}' (position {i + 1}) must be {parameter.kind}, "
                    f"not {type_name(value)}")
    for parameter in signature.parameters:
        value = kwargs.get(parameter.name, parameter)
        if value is not parameter and not parameter.takes(value, numbers):
            return f"argument '{parameter.name}' must be {parameter.kind}, not {type_name(value)}"
    return None


def _listed(parts: list[str], args: tuple) -> str:
    """PyTorch's "(a, b)", which keeps a trailing ", " when only keywords were given."""
    text = "".join(part + ", " for part in parts)
    return f"({text[:-2] if args else text})"


def _marked(signature: Signature, args: tuple, kwargs: dict) -> str:
    """The arguments given, the ones that do not fit `signature` between !s."""
    parts = []
    values = [*args, *kwargs.values()]
    names = [None] * len(args) + list(kwargs)
    for i, (value, keyword) in enumerate(zip(values, names)):
        parameter = signature.parameters[i] if keyword is None else next(
            (p for p in signature.parameters if p.name == keyword), None)
        text = (f"{keyword}=" if keyword else "") + _described(value)
        parts.append(text if parameter is not None and parameter.shown(value) else f"!{text}!")
    return _listed(parts, args)


def _described(value: Any) -> str:
    """A value as the listing describes it: a list or tuple with its elements' types."""
    if isinstance(value, (list, tuple)):
        inner = ", ".join(type_name(v) for v in value)
        if isinstance(value, tuple):
            return f"tuple of ({inner}{',' if len(value) == 1 else ''})"
        return f"list of [{inner}]"
    return type_name(value)


_PLAIN = (int, float, bool)


def checked(method: Any, name: str) -> Any:
    """`method`, checking its arguments against PyTorch's signatures first. The common calls (a
    tensor, or a Python number where the operation takes one) go straight through."""
    numbers = name in NUMBERS_AS_TENSORS or any(
        s.parameters and s.parameters[0].kind == "Number" for s in signatures(name, False))

    def method_checked(self, *args, **kwargs):
        for value in (*args, *kwargs.values()) if kwargs else args:
            if not (isinstance(value, Tensor) or (numbers and type(value) in _PLAIN)):
                error = None if takes(name, args, kwargs) else refusal(name, args, kwargs)
                if error is not None:
                    raise error
                break
        return method(self, *args, **kwargs)

    method_checked.__name__ = method.__name__
    method_checked.__qualname__ = method.__qualname__
    method_checked.__doc__ = method.__doc__
    return method_checked
