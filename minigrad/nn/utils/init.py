"""torch.nn.utils.skip_init: a module made without its default initialisation."""
from __future__ import annotations

import inspect
from typing import Any

from ... import random
from ..module import Module


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Module:
    """`module_cls(*args, **kwargs)` with its parameters and buffers left uninitialised, for a
    custom initialisation to fill: PyTorch makes it on the meta device and allocates it empty,
    so its random generator does not move; minigrad makes it and puts the generator back. (The
    values are PyTorch's `torch.empty`: whatever memory held; minigrad's are zeros.)"""
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    state = random.get_rng_state()
    try:
        module = module_cls(*args, **kwargs)
    finally:
        random.set_rng_state(state)
    for tensor in [*module.parameters(), *module.buffers()]:
        tensor._data[...] = 0
    return module
