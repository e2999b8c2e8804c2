"""torch.save and torch.load keep views' shared storage, as the "Serialization semantics" note
says (tests/corpus/pytorch_serialization_note.py): against real PyTorch, tensors saved from one
storage load sharing one (a change through one shows in the others), a view loads with its
whole storage, its offset and strides, and a clone only with its own values.
Skipped without PyTorch."""
from __future__ import annotations

import io

import pytest

import minigrad as mg


def _round_trip(lib, obj):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return lib.load(buffer)


def _behaviour(lib) -> list:
    numbers = lib.arange(1, 10)
    evens, block = numbers[1::2], numbers.view(3, 3).t()
    loaded_numbers, loaded_evens, loaded_block = _round_trip(lib, [numbers, evens, block])
    loaded_evens *= 2
    loaded_block[0, 1] = 0
    seen = [loaded_numbers.tolist(), loaded_block.tolist(), loaded_block.stride(),
            loaded_evens.storage_offset(), loaded_evens.stride()]
    large = lib.arange(1.0, 1000.0, requires_grad=True)
    small = _round_trip(lib, {"v": large.detach()[3:8], "c": large.detach()[3:8].clone()})
    seen += [small["v"].storage().size(), small["v"].storage_offset(), small["v"].tolist(),
             small["c"].storage().size()]
    p = lib.nn.Parameter(lib.ones(2, 2))
    loaded = _round_trip(lib, {"p": p, "row": p.detach()[1]})
    loaded["row"] += 1
    seen += [type(loaded["p"]).__name__, loaded["p"].requires_grad, loaded["p"].tolist()]
    return seen


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_saved_views_share_storage_as_torch(torch):
    assert _behaviour(mg) == _behaviour(torch)
