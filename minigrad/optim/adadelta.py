"""Adadelta, as torch.optim.Adadelta: each step is the gradient scaled by the ratio of two
running root-mean-squares, of past steps over past gradients, so that lr=1 needs no tuning."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..fidelity import vector_math
from ..fidelity.formulas import add_scaled, addcmul_
from ..tensor import Tensor, tensor_of
from .optimizer import Optimizer, _check_not_supported


class Adadelta(Optimizer):
    """s = rho * s + (1 - rho) * g * g; delta = sqrt(u + eps) / sqrt(s + eps) * g;
    u = rho * u + (1 - rho) * delta * delta; p -= lr * delta. Same order of operations as
    PyTorch's."""

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_not_supported(capturable=capturable, differentiable=differentiable)
        super().__init__(params, {
            "lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
            "maximize": maximize, "capturable": capturable, "foreach": foreach,
            "differentiable": differentiable})

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:
        dtype = param._data.dtype.type
        rho, eps = group["rho"], dtype(group["eps"])
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, param._data, group["weight_decay"])
        if not state:
            state["step"] = tensor_of(np.float32(0))
            state["square_avg"] = tensor_of(np.zeros_like(param._data))
            state["acc_delta"] = tensor_of(np.zeros_like(param._data))
        state["step"]._data = state["step"]._data + np.float32(1)
        square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
        square_avg *= dtype(rho)
        addcmul_(square_avg, grad, grad, 1 - rho)
        std = vector_math.sqrt_like_torch(square_avg + eps)
        delta = vector_math.sqrt_like_torch(acc_delta + eps) / std * grad
        acc_delta *= dtype(rho)
        addcmul_(acc_delta, delta, delta, 1 - rho)
        param._data[...] = add_scaled(param._data, delta, -group["lr"])
