"""torch.use_deterministic_algorithms: the switch seeded tutorials flip before they train.

PyTorch picks, for a few operations on some devices, a faster kernel whose results vary run to
run, and this switch asks it not to. minigrad's CPU kernels give the same result every run, so
the switch only records what it was asked, and answers as PyTorch does."""
from __future__ import annotations

from ..ops.operands import type_name

__all__ = ["are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
           "use_deterministic_algorithms"]

_asked = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    for name, value in (("mode", mode), ("warn_only", warn_only)):
        if not isinstance(value, bool):
            position = " (position 1)" if name == "mode" else ""
            raise TypeError(f"_set_deterministic_algorithms(): argument '{name}'{position} must "
                            f"be bool, not {type_name(value)}")
    _asked.update(mode=mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _asked["mode"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _asked["warn_only"]
