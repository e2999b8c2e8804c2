"""The libraries minigrad is compared with, each optional: a missing one is reported, not fatal."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

NOT_INSTALLED = "not installed"

# Benchmark the checkout these files are in, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def version(name: str) -> str:
    module = optional(name)
    if module is None:
        return NOT_INSTALLED
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version(name)
    except PackageNotFoundError:
        return getattr(module, "__version__", "unknown")
