"""Holding sub-modules without a forward of their own: ModuleList and ModuleDict, and
Identity, the module that changes nothing (as in torch.nn). Their modules are registered, so
that `parameters()` finds their weights."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .module import Module


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


class Identity(Module):
    """Returns its input as it is (arguments are accepted and ignored, as in PyTorch)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input
