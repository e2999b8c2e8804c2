"""torch.utils.data: datasets, and the DataLoader that cuts them into batches.

A map-style dataset answers `len(ds)` and `ds[i]`; the DataLoader asks a sampler for the order
of the indices (0, 1, 2, ... or, with `shuffle=True`, a random permutation), cuts it into
batches of `batch_size`, fetches each sample and `default_collate`s them: tensors are stacked
along a new first dimension, numbers become a tensor, tuples and dicts are collated field by
field. The random order is PyTorch's own, bit for bit, so a tutorial's printed losses match: see
RandomSampler.__iter__ and DataLoader.__iter__ for the numbers each draws from the generator.
Everything runs in this process; `num_workers` is accepted and gives the same batches."""
from __future__ import annotations

import collections.abc
import copy
import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ... import _dtype
from ...creation import as_tensor, tensor
from ...random import Generator, default_generator
from ...ops.sampling import multinomial
from ...ops.shape import stack
from ...random import randint, randperm
from ...tensor import Tensor

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info", "random_split"]


# ---- datasets --------------------------------------------------------------------------------

class Dataset:
    """A map-style dataset: subclasses give `__getitem__(index)` and usually `__len__()`."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read as a stream: subclasses give `__iter__()`."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Sample i is `(t[i] for t in tensors)`: features and labels side by side."""

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets one after the other (`ds1 + ds2`)."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = next(i for i, end in enumerate(self.cumulative_sizes) if idx < end)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


def random_split(dataset: Dataset, lengths: Sequence[int | float],
                 generator: Generator = default_generator) -> list[Subset]:
    """Splits into subsets of the given lengths (or fractions of the whole), from one
    `randperm(len(dataset))` as PyTorch does; a fraction's remainder goes one sample at a time
    to the first subsets."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = [math.floor(len(dataset) * frac) for frac in lengths]  # type: ignore[arg-type]
        for i in range(len(dataset) - sum(sizes)):  # type: ignore[arg-type]
            sizes[i % len(sizes)] += 1
        lengths = sizes
    if sum(lengths) != len(dataset):  # type: ignore[arg-type]
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()  # type: ignore[arg-type]
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(ends, lengths)]


# ---- samplers: the order of the indices --------------------------------------------------------

class Sampler:
    """Gives indices into a dataset, one at a time (`__iter__`)."""

    def __init__(self, data_source: Any = None) -> None:
        pass


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A new random permutation of the indices on every pass (with `replacement=True`, indices
    drawn independently)."""

    def __init__(self, data_source: Any, replacement: bool = False,
                 num_samples: int | None = None, generator: Generator | None = None) -> None:
        if not isinstance(replacement, bool):
            raise TypeError("replacement should be a boolean value, but got replacement="
                            f"{replacement}")
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        # PyTorch's recipe: without a generator of its own, each pass seeds a fresh one with a
        # number drawn from the default generator, then shuffles with randperm.
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = Generator().manual_seed(default_generator.random_int64())
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from randint(high=n, size=(32,), generator=generator).tolist()
            yield from randint(high=n, size=(self.num_samples % 32,),
                               generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from randperm(n, generator=generator).tolist()
        yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a random order (one randperm per pass)."""

    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices, each drawn with probability proportional to its weight (put back
    after each draw unless replacement=False): torch.multinomial's draws, PyTorch's numbers."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Generator | None = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got replacement="
                             f"{replacement}")
        weights = as_tensor(weights, dtype=_dtype.float64)
        if len(weights.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self) -> Iterator[int]:
        yield from multinomial(self.weights, self.num_samples, self.replacement,
                               generator=self.generator).tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups a sampler's indices into lists of `batch_size`; the last, shorter one is kept
    unless `drop_last`."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch and (len(batch) == self.batch_size or not self.drop_last):
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]
        return -(-len(self.sampler) // self.batch_size)  # type: ignore[arg-type]


# ---- collating: a list of samples into one batch -----------------------------------------------

_COLLATE_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                  "lists; found {}")


def default_collate(batch: Sequence) -> Any:
    """Tensors are stacked on a new dimension 0; Python floats become a float64 tensor, ints an
    int64 one; strings stay a list; dicts, tuples and lists are collated field by field (a tuple
    of fields comes back as a list, as in PyTorch)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "USO":
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, np.generic):
        return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)
            clone.update(fields)
            return clone
        return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(samples) for samples in zip(*batch)]
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data: Any) -> Any:
    """With `batch_size=None` samples are not batched: numpy arrays become tensors, the rest
    is given as it is (field by field for dicts, tuples and lists)."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "USO":
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data


def get_worker_info() -> None:
    """None: minigrad loads every batch in the main process."""


# ---- the loader --------------------------------------------------------------------------------

class DataLoader:
    """Batches of a dataset: `for xb, yb in DataLoader(ds, batch_size=64, shuffle=True)`."""

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable | None = None, multiprocessing_context: Any = None,
                 generator: Generator | None = None, *, prefetch_factor: int | None = None,
                 persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        self._iterable = isinstance(dataset, IterableDataset)
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.pin_memory, self.timeout = num_workers, pin_memory, timeout
        self.worker_init_fn, self.prefetch_factor = worker_init_fn, prefetch_factor
        self.persistent_workers, self.pin_memory_device = persistent_workers, pin_memory_device
        self._batched = batch_size is not None or batch_sampler is not None
        if collate_fn is None:
            collate_fn = default_collate if self._batched else default_convert
        self.collate_fn = collate_fn

    def __iter__(self) -> Iterator[Any]:
        if self.pin_memory and self.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used "
                          f"as the device,ignore pin_memory_device='{self.pin_memory_device}'.",
                          stacklevel=2)
        if self.pin_memory:  # minigrad has no accelerator: PyTorch on a CPU-only machine warns
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)
        # PyTorch's iterator draws a base seed for its workers from the generator when it is
        # made, even with no workers; drawn here too, so later random numbers stay in step.
        (self.generator or default_generator).random_int64()
        return self._batches()

    def _batches(self) -> Iterator[Any]:
        if self._iterable:
            samples = iter(self.dataset)
            if not self._batched:
                yield from (self.collate_fn(s) for s in samples)
                return
            batch = list(itertools.islice(samples, self.batch_size))
            while batch and (len(batch) == self.batch_size or not self.drop_last):
                yield self.collate_fn(batch)
                batch = list(itertools.islice(samples, self.batch_size))
            return
        if not self._batched:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        for indices in self.batch_sampler:
            if hasattr(self.dataset, "__getitems__"):
                samples = self.dataset.__getitems__(indices)
            else:
                samples = [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def __len__(self) -> int:
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is None:
                return length
            return length // self.batch_size if self.drop_last else -(-length // self.batch_size)
        return len(self.batch_sampler if self._batched else self.sampler)


from . import dataloader, dataset, sampler  # noqa: E402  (after the names they give)
