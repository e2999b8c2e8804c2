"""Holding sub-modules: Sequential (which calls them in turn), ModuleList and ModuleDict
(which have no forward of their own), and Identity, the module that changes nothing (as in
torch.nn). Their modules are registered, so that `parameters()` finds their weights; so are
the Parameters of ParameterList and ParameterDict."""
from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ..tensor import Tensor
from .module import Module
from .parameter import Parameter


def _position(size: int, index: Any) -> int:
    """An index into `size` modules, as a position from 0, or PyTorch's IndexError."""
    index = operator.index(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of range")
    return index % size


# Where PyTorch keeps the classes minigrad's messages name (they print as <class '...'>)
_TORCH_MODULES = {"minigrad.nn.containers": "torch.nn.modules.container",
                  "minigrad.nn.module": "torch.nn.modules.module"}


def _class(cls: type) -> str:
    """A class as PyTorch's message prints it: minigrad's own under PyTorch's module path."""
    if cls.__module__ not in _TORCH_MODULES:
        return str(cls)
    return f"<class '{_TORCH_MODULES[cls.__module__]}.{cls.__qualname__}'>"


def _only_sequential(other: Any) -> None:
    if not isinstance(other, Sequential):
        raise ValueError("add operator supports only objects of Sequential class, but "
                         f"{_class(type(other))} is given.")


def _repeats(container: Any, times: Any) -> int:
    if not isinstance(times, int):
        raise TypeError(f"unsupported operand type(s) for *: {_class(type(container))} and "
                        f"{_class(type(times))}")
    if times <= 0:
        raise ValueError(f"Non-positive multiplication factor {times} for "
                         f"{_class(type(container))}")
    return times


class Sequential(Module):
    """Modules applied one after the other; they are named "0", "1", ... (or by the keys of
    an OrderedDict), which is where parameter names like "0.weight" come from. Index, slice,
    assign, delete, insert, pop, add (`+`) and repeat (`*`) as in PyTorch: deleting renumbers
    the modules from "0"."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def _key(self, index: Any) -> str:
        return list(self._modules)[_position(len(self), index)]

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._modules.items())[index]))
        return self._modules[self._key(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        setattr(self, self._key(index), module)

    def __delitem__(self, index: int | slice) -> None:
        keys = list(self._modules)[index] if isinstance(index, slice) else [self._key(index)]
        for key in keys:
            delattr(self, key)
        modules = list(self._modules.values())  # renumbered, as PyTorch does
        self._modules.clear()
        self._modules.update((str(i), module) for i, module in enumerate(modules))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]

    def pop(self, index: int | slice) -> Any:
        module = self[index]
        del self[index]
        return module

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential: Iterable[Module]) -> Sequential:
        for module in sequential:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {_class(Module)}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def __add__(self, other: Any) -> Sequential:
        _only_sequential(other)
        return Sequential().extend(self).extend(other)

    def __iadd__(self, other: Any) -> Sequential:
        _only_sequential(other)
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other: Any) -> Sequential:
        return Sequential().extend(list(self) * _repeats(self, other))

    __rmul__ = __mul__

    def __imul__(self, other: Any) -> Sequential:
        modules = [self._modules[str(i)] for i in range(len(self))]
        for i, module in enumerate(modules * (_repeats(self, other) - 1), start=len(self)):
            self.add_module(str(i), module)
        return self


class ModuleList(Module):
    """A list of modules, named "0", "1", ...; index it, iterate it, append to it."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _index(self, index: int) -> str:
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} is out of range")
        return str(index % len(self))

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return ModuleList(list(self._modules.values())[index])
        return self._modules[self._index(index)]

    def __setitem__(self, index: int, module: Module) -> None:
        self._modules[self._index(index)] = module  # in its place, not appended

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        self.extend(modules)

    def _repr_children(self, children: list[tuple[str, str]]) -> list[str]:
        """PyTorch's ModuleList prints a run of equal modules once: `(0-2): 3 x Linear(...)`."""
        runs: list[list] = []
        for key, text in children:
            if runs and runs[-1][2] == text:
                runs[-1][1] = key
            else:
                runs.append([key, key, text])
        return [f"({first}): {text}" if first == last else
                f"({first}-{last}): {int(last) - int(first) + 1} x {text}"
                for first, last, text in runs]


class ModuleDict(Module):
    """Modules by name, in insertion order; use it as a dict."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self) -> Iterable[str]:
        return self._modules.keys()

    def values(self) -> Iterable[Module]:
        return self._modules.values()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self._modules.items()

    def update(self, modules: Any) -> None:
        for key, module in (modules.items() if hasattr(modules, "items") else modules):
            self.add_module(key, module)


def _parameter_line(key: Any, value: Any, dtype_text: str) -> str:
    """One line of a ParameterList's or ParameterDict's repr, as PyTorch writes it."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    return f"  ({key}): {kind} containing: [{dtype_text} of size {size}]"


def _as_parameter(value: Any) -> Any:
    """A plain tensor put into a ParameterList or ParameterDict becomes a Parameter."""
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) \
        else value


class ParameterList(Module):
    """A list of Parameters, registered as "0", "1", ...: a plain tensor given becomes one."""

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return ParameterList([self[i] for i in range(len(self))[index]])
        return getattr(self, str(_position(len(self), index)))

    def __setitem__(self, index: int, value: Any) -> None:
        setattr(self, str(_position(len(self), index)), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable[Any]) -> ParameterList:
        return self.extend(values)

    def append(self, value: Any) -> ParameterList:
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(i, p, str(p.dtype) if isinstance(p, Tensor) else "")
                         for i, p in enumerate(self))


class ParameterDict(Module):
    """Parameters by name: a dict's keys sorted (an OrderedDict's kept in order), as PyTorch
    does; a plain tensor given becomes a Parameter."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self) -> Iterable[str]:
        return self._keys.keys()

    def values(self) -> Iterable[Any]:
        return (self[k] for k in self._keys)

    def items(self) -> Iterable[tuple[str, Any]]:
        return ((k, self[k]) for k in self._keys)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def update(self, parameters: Any) -> None:
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif hasattr(parameters, "items"):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, p.type() if isinstance(p, Tensor) else "")
                         for k, p in self.items())


class Identity(Module):
    """Returns its input as it is (arguments are accepted and ignored, as in PyTorch)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input
