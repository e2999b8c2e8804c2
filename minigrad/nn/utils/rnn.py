"""torch.nn.utils.rnn: pad_sequence, which stacks sequences of different lengths into one
tensor, the shorter ones padded, as PyTorch does it: a tensor full of padding_value into
which each sequence is copied (grad_fn CopySlices)."""
from __future__ import annotations

from collections.abc import Sequence

from ...creation import full
from ...tensor import Tensor


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


from ..._subset import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("torch.nn.utils.rnn", __name__)
