"""minigrad.utils: what torch.utils offers that the course needs: hooks' handles, and `data`
(Dataset, TensorDataset, DataLoader)."""
from typing import Any


def __getattr__(name: str) -> Any:  # torch.utils.data works after `import torch` alone
    if name == "data":  # loaded on first use: tensor.py imports utils.hooks before ops exist
        import importlib
        return importlib.import_module(".data", __name__)
    raise AttributeError(f"module 'minigrad.utils' has no attribute '{name}'")
