"""Which name a tensor gets in a picture: the one the learner gave it.

In order of precedence: `names={tensor: "x"}` passed to the drawing function, a `name`
attribute set on the tensor (`t.name = "x"`), then the variables of the code that called
the drawing function (its locals, then its globals; the first name bound wins)."""
from __future__ import annotations

from collections.abc import Mapping
from types import FrameType
from typing import Any

from ..tensor import Tensor


def caller_names(frame: FrameType | None) -> dict[Any, str]:
    """Tensor -> variable name, from a frame's locals then globals (insertion order, so the
    name bound first wins; names starting with "_" are IPython's output history, skipped)."""
    found: dict[Any, str] = {}
    if frame is None:
        return found
    scopes = [frame.f_locals] if frame.f_locals is frame.f_globals else [frame.f_locals,
                                                                          frame.f_globals]
    for scope in scopes:
        for name, value in list(scope.items()):
            if isinstance(value, Tensor) and not name.startswith("_") and value not in found:
                found[value] = name
    return found


class Names:
    """Callable: tensor -> its name in the picture, or None."""

    def __init__(self, frame: FrameType | None, names: Mapping | None = None) -> None:
        self.explicit: dict[Any, str] = {}
        for key, value in (names or {}).items():  # {tensor: "x"}, or {"x": tensor}
            if isinstance(key, Tensor) and isinstance(value, str):
                self.explicit[key] = value
            elif isinstance(key, str) and isinstance(value, Tensor):
                self.explicit[value] = key
            else:
                raise TypeError("names must map tensors to strings, e.g. names={x: 'x'}")
        self.found = caller_names(frame)

    def __call__(self, t: Any) -> str | None:
        if t is None:
            return None
        if t in self.explicit:
            return self.explicit[t]
        attribute = t.__dict__.get("name")
        return attribute if isinstance(attribute, str) else self.found.get(t)
