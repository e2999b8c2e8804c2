"""torch.device: where a tensor lives, and the check behind every `device=` argument.

minigrad computes on the CPU only. Naming a device is fine, as in PyTorch on a machine without a
GPU: `torch.device("cuda")` is a value like any other, and only putting a tensor on CUDA fails,
with PyTorch's own error. (The rest of the device boilerplate, `torch.cuda`, `torch.backends`
and `torch.accelerator`, is compat/device.py's.)"""
from __future__ import annotations

import builtins
import re
from typing import Any

_KNOWN_TYPES = ("cpu", "cuda", "mps", "xpu", "meta", "mtia", "xla", "hip", "ipu", "hpu", "lazy",
                "vulkan", "ort", "ve", "fpga", "maia", "privateuseone")


class device:  # noqa: N801 - PyTorch's spelling
    """`torch.device("cpu")`, `torch.device("cuda", 0)` or `torch.device("cuda:0")`."""

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, builtins.int):
            type, index = "cpu", type  # PyTorch reads a bare number as an accelerator index
        match = re.fullmatch(r"([a-z_]+)(?::(\d+))?", str(type))
        if match is None or match.group(1) not in _KNOWN_TYPES:
            raise RuntimeError(
                f"Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                f"fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type "
                f"at start of device string: {type}")
        if match.group(2) is not None:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            index = builtins.int(match.group(2))
        object.__setattr__(self, "type", match.group(1))
        object.__setattr__(self, "index", index)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:  # a string is not a device, as in PyTorch
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> Any:
        return (device, (self.type, self.index))


CPU = device("cpu")

NOT_COMPILED_WITH_CUDA = "Torch not compiled with CUDA enabled"


def check(requested: Any) -> device:
    """The device a new tensor may live on: the CPU. CUDA fails as in a PyTorch built without
    it; the other accelerators fail with one line saying what minigrad offers instead."""
    if requested is None:
        return _default["device"]
    dev = device(requested)
    if dev.type == "cpu":
        return CPU
    if dev.type == "cuda":
        raise AssertionError(NOT_COMPILED_WITH_CUDA)
    raise RuntimeError(f"minigrad is a subset of PyTorch: it computes on the CPU only, not on "
                       f"'{dev}'; leave out device= or use device='cpu'")


_default = {"device": CPU}


def set_default_device(requested: Any) -> None:
    """`torch.set_default_device("cpu")` (or None) is accepted; another device is not there."""
    _default["device"] = CPU if requested is None else check(requested)


def get_default_device() -> device:
    return _default["device"]
