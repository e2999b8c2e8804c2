"""nn.utils.skip_init (the "Modules" note: tests/corpus/pytorch_modules_note.py) against real
PyTorch: the module is made with the parameters it would have, the random generator does not
move, and a class that is no Module, or takes no `device`, is refused with PyTorch's words.
(The uninitialised values are not compared: PyTorch's are whatever memory held.)
Skipped without PyTorch."""
from __future__ import annotations

import minigrad as mg


def _behaviour(lib) -> list:
    lib.manual_seed(0)
    m = lib.nn.utils.skip_init(lib.nn.Linear, 5, 3, bias=False)
    seen = [repr(m), [(n, list(p.shape), p.requires_grad) for n, p in m.named_parameters()],
            lib.rand(2).tolist()]

    class NoDevice(lib.nn.Module):
        def __init__(self, n):
            super().__init__()

    for cls in (int, NoDevice):
        try:
            lib.nn.utils.skip_init(cls, 2)
        except RuntimeError as error:
            seen.append(str(error).replace("minigrad", "torch"))
    return seen


def test_skip_init_as_torch(torch):
    assert _behaviour(mg) == _behaviour(torch)
