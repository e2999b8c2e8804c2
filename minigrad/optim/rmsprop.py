"""RMSprop, as torch.optim.RMSprop: each step divided by a running root-mean-square of the
gradient, so that every parameter moves at a similar pace whatever its gradient's scale."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..fidelity import vector_math
from ..fidelity.formulas import add_scaled, addcmul_, lerp_
from ..tensor import Tensor, tensor_of
from .optimizer import Optimizer, _check_not_supported


class RMSprop(Optimizer):
    """v = alpha * v + (1 - alpha) * g * g; p -= lr * g / (sqrt(v) + eps). `centered` divides
    by the standard deviation instead (subtracting the running mean of g squared), `momentum`
    keeps a buffer b = momentum * b + g / (sqrt(v) + eps) and steps by it. Same order of
    operations as PyTorch's."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False, foreach: bool | None = None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if alpha < 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        _check_not_supported(capturable=capturable, differentiable=differentiable)
        super().__init__(params, {
            "lr": lr, "alpha": alpha, "eps": eps, "weight_decay": weight_decay,
            "momentum": momentum, "centered": centered, "capturable": capturable,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable})

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:
        dtype = param._data.dtype.type
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad + dtype(group["weight_decay"]) * param._data
        if not state:
            state["step"] = tensor_of(np.float32(0))
            state["square_avg"] = tensor_of(np.zeros_like(param._data))
            if group["momentum"] > 0:
                state["momentum_buffer"] = tensor_of(np.zeros_like(param._data))
            if group["centered"]:
                state["grad_avg"] = tensor_of(np.zeros_like(param._data))
        state["step"]._data = state["step"]._data + np.float32(1)
        square_avg = state["square_avg"]._data
        square_avg *= dtype(group["alpha"])
        addcmul_(square_avg, grad, grad, 1 - group["alpha"])
        if group["centered"]:
            grad_avg = state["grad_avg"]._data
            lerp_(grad_avg, grad, 1 - group["alpha"])
            avg = square_avg.copy()  # square_avg.addcmul(grad_avg, grad_avg, value=-1)
            addcmul_(avg, grad_avg, grad_avg, -1)
            avg = vector_math.sqrt_like_torch(avg)
        else:
            avg = vector_math.sqrt_like_torch(square_avg)
        avg = avg + dtype(group["eps"])
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]._data
            buffer *= dtype(group["momentum"])
            buffer += grad / avg
            param._data[...] = add_scaled(param._data, buffer, -group["lr"])
        else:
            param._data += (dtype(-group["lr"]) * grad) / avg  # addcdiv_(g, avg, value=-lr)
