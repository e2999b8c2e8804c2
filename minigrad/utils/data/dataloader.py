"""torch.utils.data.dataloader: the DataLoader, under the module name PyTorch keeps it in."""
from . import DataLoader, default_collate, default_convert, get_worker_info

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]
