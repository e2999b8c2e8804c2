"""nn.init's dirac_, sparse_ and orthogonal_ (nn.init's docstring examples:
tests/corpus/pytorch_nn_init_examples.py) against real PyTorch from the same seed: dirac_'s ones
where PyTorch puts them (groups too), sparse_'s draws and zeros exactly, orthogonal_'s matrix to
float32 rounding (its QR comes from numpy's LAPACK, PyTorch's from MKL's), and their errors.
Skipped without PyTorch."""
from __future__ import annotations

import numpy as np

import minigrad as mg


def _exact(lib) -> list:
    lib.manual_seed(0)
    seen = []
    for shape, groups in (((3, 16, 5, 5), 1), ((3, 24, 5, 5), 3), ((4, 2, 3), 2),
                          ((2, 2, 3, 3, 3), 1)):
        seen.append(lib.nn.init.dirac_(lib.empty(*shape), groups).nonzero().tolist())
    seen.append(lib.nn.init.sparse_(lib.empty(6, 4), sparsity=0.5).tolist())
    g = lib.Generator().manual_seed(1)
    seen.append(lib.nn.init.sparse_(lib.empty(3, 5), 0.1, std=2.0, generator=g).tolist())
    seen.append(lib.rand(2).tolist())
    for attempt in (lambda: lib.nn.init.dirac_(lib.empty(3, 3)),
                    lambda: lib.nn.init.dirac_(lib.empty(4, 2, 3), 3),
                    lambda: lib.nn.init.sparse_(lib.empty(2, 2, 2), 0.1),
                    lambda: lib.nn.init.orthogonal_(lib.empty(3))):
        try:
            attempt()
        except ValueError as error:
            seen.append(str(error))
    return seen


def test_dirac_and_sparse_as_torch(torch):
    assert _exact(mg) == _exact(torch)


def _orthogonal(lib) -> list:
    lib.manual_seed(0)
    w = lib.empty(3, 5, requires_grad=True)
    out = [lib.nn.init.orthogonal_(w)]
    out.append(lib.nn.init.orthogonal_(lib.empty(5, 3), gain=2))
    out.append(lib.nn.init.orthogonal_(lib.empty(4, 2, 3)))
    return [(t.detach().numpy(), t.requires_grad, t.is_leaf) for t in out]


def test_orthogonal_as_torch_to_float32_rounding(torch):
    for (got, *flags), (want, *want_flags) in zip(_orthogonal(mg), _orthogonal(torch)):
        assert flags == want_flags
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
