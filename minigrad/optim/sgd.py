"""Stochastic gradient descent with momentum, as torch.optim.SGD."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..fidelity.formulas import add_scaled
from ..tensor import Tensor, tensor_of
from .optimizer import Optimizer, _check_not_supported


class SGD(Optimizer):
    """p -= lr * g, where g is the gradient plus weight_decay * p, and with momentum the
    running buffer b = momentum * b + (1 - dampening) * g (b = g on the first step) takes
    g's place (nesterov: g + momentum * b). Same order of operations and rounding as
    PyTorch's (each `add(x, alpha=...)` rounds once: fidelity.formulas.add_scaled)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check_not_supported(differentiable=differentiable, fused=fused)
        super().__init__(params, {
            "lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
            "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
            "differentiable": differentiable, "fused": fused})

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:  # grad.add(p, alpha=weight_decay)
            grad = add_scaled(grad, param._data, group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = tensor_of(grad.copy())
            else:  # b.mul_(momentum).add_(grad, alpha=1 - dampening)
                buffer._data *= momentum
                buffer._data[...] = add_scaled(buffer._data, grad, 1 - group["dampening"])
                buffer._bump_version()
            grad = (add_scaled(grad, buffer._data, momentum) if group["nesterov"]
                    else buffer._data)
        param._data[...] = add_scaled(param._data, grad, -group["lr"])  # p.add_(g, alpha=-lr)
