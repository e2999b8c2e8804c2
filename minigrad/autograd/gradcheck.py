"""Check an analytical gradient against finite differences, as torch.autograd.gradcheck."""
from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from ..tensor import Tensor, tensor_of
from . import grad  # (this package's __init__ imports this module last, once grad exists)


class GradcheckError(RuntimeError):
    pass


def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, fast_mode: bool = False) -> bool:
    """True when, for every input that requires grad, the Jacobian that backward computes
    matches the central-difference one, (f(x + eps) - f(x - eps)) / 2 eps, column by column
    (PyTorch's default, slow mode: `fast_mode=False`)."""
    if fast_mode:
        raise NotImplementedError("minigrad is a subset of PyTorch: gradcheck's fast_mode=True "
                                  "(a check of random projections of the Jacobian) is not "
                                  "implemented; the default full check is")
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    wrt = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    for index, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad and t.dtype.name != "float64":
            warnings.warn(f"Input #{index} requires gradient and is not a double precision "
                          "floating point or complex. This check will likely fail if all the "
                          "inputs are not of double precision floating point or complex. ",
                          UserWarning, stacklevel=2)
    outputs = func(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for k, out in enumerate(outputs):
        for i, x in enumerate(wrt):
            numerical = np.zeros((x.numel(), out.numel()))
            flat = x._data.reshape(-1)  # a view: perturbing it perturbs x
            for j in range(x.numel()):
                keep = flat[j]
                flat[j] = keep + eps
                plus = np.array(_output(func, inputs, k)._data, dtype=np.float64).reshape(-1)
                flat[j] = keep - eps
                minus = np.array(_output(func, inputs, k)._data, dtype=np.float64).reshape(-1)
                flat[j] = keep
                numerical[j] = (plus - minus) / (2 * eps)
            analytical = np.zeros_like(numerical)
            for m in range(out.numel()):
                seed = np.zeros(out.numel(), dtype=out._data.dtype)
                seed[m] = 1
                (g,) = grad(out, x, tensor_of(seed.reshape(out.shape)), retain_graph=True,
                            allow_unused=True)
                if g is not None:
                    analytical[:, m] = g._data.reshape(-1)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {k} with respect to input {i},\n"
                    f"numerical:{_show(numerical, x)}\nanalytical:{_show(analytical, x)}\n")
    return True


def _output(func: Callable[..., Any], inputs: tuple, k: int) -> Any:
    # Not under no_grad: `func` may itself differentiate (a gradient of a gradient).
    out = func(*inputs)
    return out[k] if isinstance(out, tuple) else out


def _show(matrix: np.ndarray, like: Any) -> str:
    """The Jacobian printed in the input's dtype, as PyTorch builds it."""
    return str(tensor_of(matrix.astype(like._data.dtype)))


def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  **ignored: Any) -> bool:
    """gradcheck of the backward pass itself: the function checked maps (inputs, weights g on
    the outputs) to the gradients of g . func(inputs), taken with create_graph=True. Without
    grad_outputs, g is drawn uniform in [-1, 1) as PyTorch draws it."""
    from ..creation import empty
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    if grad_outputs is None:
        outputs = func(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        grad_outputs = tuple(empty(o.shape, dtype=o.dtype).uniform_(-1, 1).requires_grad_(True)
                             for o in outputs if o.requires_grad)
    grad_outputs = grad_outputs if isinstance(grad_outputs, tuple) else (grad_outputs,)
    count = len(inputs)

    def backward_of_func(*args: Any) -> tuple:
        wrt = [t for t in args[:count] if isinstance(t, Tensor) and t.requires_grad]
        outputs = func(*args[:count])
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        outputs = [o for o in outputs if isinstance(o, Tensor) and o.requires_grad]
        grads = grad(outputs, wrt, list(args[count:]), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(backward_of_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
