"""torch.utils.data.sampler: the samplers, under the module name PyTorch keeps them in
(CS231n's notebook writes `from torch.utils.data import sampler`)."""
from . import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
               WeightedRandomSampler)

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
           "SubsetRandomSampler", "WeightedRandomSampler"]
