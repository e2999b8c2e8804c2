"""torch.nn.utils.rnn: pad_sequence, which stacks sequences of different lengths into one
tensor, the shorter ones padded, as PyTorch does it: a tensor full of padding_value into
which each sequence is copied (grad_fn CopySlices); and PackedSequence, the same sequences
without their padding, step by step (`batch_sizes[t]` of them still running at step t, the
longest first), which RNN, LSTM and GRU take and give back (pack_padded_sequence,
pad_packed_sequence, pack_sequence)."""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...autograd.function import Function
from ...creation import full, tensor
from ...tensor import Tensor, tensor_of


def pad_sequence(sequences: Sequence[Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> Tensor:
    """(longest, batch, *) (or (batch, longest, *) with batch_first)."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    longest = max(s.shape[0] for s in sequences)
    rest = tuple(sequences[0].shape[1:])
    shape = (len(sequences), longest, *rest) if batch_first else (longest, len(sequences), *rest)
    out = full(shape, padding_value, dtype=sequences[0].dtype)
    for i, s in enumerate(sequences):
        steps = slice(0, s.shape[0]) if padding_side == "right" else slice(longest - s.shape[0],
                                                                           longest)
        out[(i, steps) if batch_first else (steps, i)] = s
    return out



class PackedSequence(namedtuple("PackedSequence",
                                ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """Sequences without their padding: `data` holds step 0 of every sequence, then step 1 of
    those still running, ...; `batch_sizes[t]` says how many ran at step t."""

    __slots__ = ()

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None) -> PackedSequence:
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _inverse(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)


def _inverse(permutation: Tensor) -> Tensor:
    inverse = np.empty_like(permutation._data)
    inverse[permutation._data] = np.arange(len(inverse))
    return tensor(inverse)


class PackPaddedSequence(Function):
    """The running sequences' rows of each step, one after the other: the gradient goes back
    to those rows (the padding gets 0)"""
    node_name = "PackPaddedSequenceBackward0"

    @staticmethod
    def forward(ctx, padded, batch_sizes):
        ctx.shape, ctx.batch_sizes = padded.shape, batch_sizes
        return tensor_of(np.concatenate([padded._data[t, :n] for t, n in enumerate(batch_sizes)]))

    @staticmethod
    def backward(ctx, grad):
        out = np.zeros(ctx.shape, grad._data.dtype)
        offset = 0
        for t, n in enumerate(ctx.batch_sizes):
            out[t, :n] = grad._data[offset:offset + n]
            offset += n
        return tensor_of(out), None


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,  # noqa: A002
                         enforce_sorted: bool = True) -> PackedSequence:
    """Padded sequences (longest first, unless enforce_sorted=False) as a PackedSequence."""
    lengths = (lengths.long() if isinstance(lengths, Tensor)
               else tensor(np.asarray(lengths, dtype=np.int64)))
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)  # noqa: A001
    counts = lengths._data
    if enforce_sorted and (np.diff(counts) > 0).any():
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if len(counts) and counts.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0")
    if batch_first:
        input = input.transpose(0, 1)  # noqa: A001
    batch_sizes = [int((counts > t).sum()) for t in range(int(counts.max()))]
    data = PackPaddedSequence.apply(input, tuple(batch_sizes))
    return PackedSequence(data, tensor(batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """A PackedSequence as padded sequences (in their order before packing), and their
    lengths."""
    sizes = [int(n) for n in sequence.batch_sizes.tolist()]
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
        steps = total_length
    data = sequence.data
    out = full((steps, sizes[0], *data.shape[1:]), padding_value, dtype=data.dtype)
    offset = 0
    for t, n in enumerate(sizes):
        out[t, :n] = data[offset:offset + n]
        offset += n
    lengths = tensor([sum(n > b for n in sizes) for b in range(sizes[0])])
    if batch_first:
        out = out.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        out = out.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices]
    return out, lengths


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Sequences of different lengths as a PackedSequence (padded, then packed)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


from ..._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.utils.rnn", __name__)
