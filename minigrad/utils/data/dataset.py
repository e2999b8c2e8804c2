"""torch.utils.data.dataset: the datasets and random_split, under the module name PyTorch keeps
them in (Deep Learning with PyTorch Step-by-Step writes
`from torch.utils.data.dataset import random_split`)."""
from . import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split

__all__ = ["ConcatDataset", "Dataset", "IterableDataset", "Subset", "TensorDataset",
           "random_split"]
