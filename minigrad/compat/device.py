"""torch.device and torch.cuda: the device boilerplate every tutorial starts with.

minigrad computes on the CPU only. Naming a device is fine, as in PyTorch on a machine without a
GPU: `torch.device("cuda")` is a value like any other, `torch.cuda.is_available()` answers False,
and only putting a tensor on CUDA fails, with PyTorch's own error."""
from __future__ import annotations

from typing import Any

from .._device import (CPU, NOT_COMPILED_WITH_CUDA, check, device, get_default_device,
                       set_default_device)

__all__ = ["CPU", "accelerator", "backends", "check", "cuda", "device", "get_default_device",
           "set_default_device"]

class _Cuda:
    """`torch.cuda` on a machine without a GPU: it answers questions, it holds no tensors."""

    __name__ = "minigrad.cuda"

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def device_count() -> int:
        return 0

    @staticmethod
    def manual_seed(seed: int) -> None:
        """PyTorch defers CUDA seeding until CUDA starts; without CUDA it never does."""

    manual_seed_all = manual_seed

    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def synchronize(device: Any = None) -> None:
        raise AssertionError(NOT_COMPILED_WITH_CUDA)

    @staticmethod
    def current_device() -> int:
        raise AssertionError(NOT_COMPILED_WITH_CUDA)

    @staticmethod
    def get_device_name(device: Any = None) -> str:
        raise AssertionError(NOT_COMPILED_WITH_CUDA)


class _Backend:
    """`torch.backends.mps` and friends: present, and not available."""

    def __init__(self, name: str) -> None:
        self.__name__ = f"minigrad.backends.{name}"

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def is_built() -> bool:
        return False


class _Cudnn(_Backend):
    """`torch.backends.cudnn`: its switches, which programs set for reproducible runs, are kept
    (and change nothing: there is no cuDNN on the CPU)."""

    def __init__(self) -> None:
        super().__init__("cudnn")
        self.benchmark, self.deterministic, self.enabled, self.allow_tf32 = False, False, True, True


class _Backends:
    def __init__(self) -> None:
        self.mps = _Backend("mps")
        self.cudnn = _Cudnn()


class _Accelerator:
    """`torch.accelerator`: the CPU is not an accelerator, so there is none."""

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def current_accelerator(check_available: bool = False) -> None:
        return None

    @staticmethod
    def device_count() -> int:
        return 0


cuda = _Cuda()
backends = _Backends()
accelerator = _Accelerator()
