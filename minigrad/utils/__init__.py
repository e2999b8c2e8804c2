"""minigrad.utils: what torch.utils offers that the course needs: hooks' handles, `data`
(Dataset, TensorDataset, DataLoader) and `checkpoint`."""
from typing import Any


def __getattr__(name: str) -> Any:  # torch.utils.data works after `import torch` alone
    if name in ("data", "checkpoint", "hooks"):  # loaded on first use
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'minigrad.utils' has no attribute '{name}'")
