"""Training steps of small MLPs: forward, loss, backward, SGD update.

minigrad and PyTorch run the very same code (`training_step(lib, ...)`, or `lesson_step` for
the step written as the lessons write it), with raw weight tensors, so neither gets a shortcut
the other lacks. The third contender does the same math its own way: micrograd with its scalar
`Value` MLP, numpy with a hand-written backward."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from types import ModuleType

import numpy as np
from libraries import NOT_INSTALLED, optional

LEARNING_RATE = 0.01


def _weights(sizes: list[int], seed: int) -> list[np.ndarray]:
    """W1, b1, W2, b2, ... in float32, scaled so that activations stay of order one."""
    rng = np.random.default_rng(seed)
    arrays = []
    for n_in, n_out in itertools.pairwise(sizes):
        arrays.append((rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32))
        arrays.append(np.zeros(n_out, dtype=np.float32))
    return arrays


def training_step(lib: ModuleType, params: list, x: object, y: object) -> None:
    """One SGD step of a ReLU MLP written with plain tensor operations (torch or minigrad)."""
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    out = h @ params[-2] + params[-1]
    loss = ((out - y) ** 2).mean()
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= LEARNING_RATE * p.grad
            p.grad = None


def lesson_step(lib: ModuleType, params: list, x: object, labels: object) -> float:
    """The same MLP's step written as the lessons write training code (notebooks 02, 04, 08,
    exercise 04): a hinge loss for labels of -1 and 1 with the Python number on the left
    (`1 - labels * scores`), `.mean()`, the update `p -= lr * p.grad` under `no_grad`, the
    gradients reset with `zero_()` (notebook 04), and the loss kept with `.item()`."""
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    scores = h @ params[-2] + params[-1]
    loss = (1 - labels * scores).relu().mean()
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= LEARNING_RATE * p.grad
    for p in params:
        p.grad.zero_()
    return loss.item()


def _tensor_contender(lib: ModuleType | None, sizes: list[int], x: np.ndarray,
                      y: np.ndarray, step: Callable = training_step) -> Callable[[], object] | str:
    if lib is None:
        return NOT_INSTALLED
    params = [lib.tensor(w, requires_grad=True) for w in _weights(sizes, seed=0)]
    xs, ys = lib.tensor(x), lib.tensor(y)
    return lambda: step(lib, params, xs, ys)


def _micrograd_contender(sizes: list[int], x: np.ndarray, y: np.ndarray,
                         hinge: bool = False) -> Callable[[], None] | str:
    nn = optional("micrograd.nn")
    if nn is None:
        return NOT_INSTALLED
    model = nn.MLP(sizes[0], sizes[1:])
    arrays = _weights(sizes, seed=0)
    for layer, weight, bias in zip(model.layers, arrays[::2], arrays[1::2]):
        for j, neuron in enumerate(layer.neurons):  # the same starting point as the others
            for w, value in zip(neuron.w, weight[:, j]):
                w.data = float(value)
            neuron.b.data = float(bias[j])
    rows, targets = x.tolist(), y[:, 0].tolist()

    def step() -> None:
        outputs = [model(row) for row in rows]
        if hinge:  # micrograd's own demo writes its hinge loss this way
            losses = [(1 + -t * out).relu() for out, t in zip(outputs, targets)]
        else:
            losses = [(out - t) ** 2 for out, t in zip(outputs, targets)]
        loss = sum(losses) * (1.0 / len(rows))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= LEARNING_RATE * p.grad

    return step


def small_mlp() -> dict[str, Callable[[], None] | str]:
    """(a) a 2-16-16-1 MLP on 100 points."""
    sizes = [2, 16, 16, 1]
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    y = (np.sin(3 * x[:, :1]) * x[:, 1:]).astype(np.float32)
    return {"minigrad": _tensor_contender(optional("minigrad"), sizes, x, y),
            "torch": _tensor_contender(optional("torch"), sizes, x, y),
            "micrograd": _micrograd_contender(sizes, x, y)}


def lesson_mlp() -> dict[str, Callable[[], object] | str]:
    """(a) written as the lessons write it (`lesson_step`): the same points, labelled -1 or 1
    by the sign of (a)'s target."""
    sizes = [2, 16, 16, 1]
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (100, 2)).astype(np.float32)
    labels = np.where(np.sin(3 * x[:, :1]) * x[:, 1:] > 0, 1, -1).astype(np.float32)
    return {"minigrad": _tensor_contender(optional("minigrad"), sizes, x, labels, lesson_step),
            "torch": _tensor_contender(optional("torch"), sizes, x, labels, lesson_step),
            "micrograd": _micrograd_contender(sizes, x, labels, hinge=True)}


def _numpy_contender(sizes: list[int], x: np.ndarray, y: np.ndarray) -> Callable[[], None]:
    w1, b1, w2, b2 = _weights(sizes, seed=0)

    def step() -> None:  # the same math as training_step, differentiated by hand
        z1 = x @ w1 + b1
        h = np.maximum(z1, 0)
        out = h @ w2 + b2
        d_out = (out - y) * (2 / out.size)  # d mean((out - y)^2)
        d_z1 = (d_out @ w2.T) * (z1 > 0)
        grads = (x.T @ d_z1, d_z1.sum(0), h.T @ d_out, d_out.sum(0))
        for p, g in zip((w1, b1, w2, b2), grads):
            p -= LEARNING_RATE * g

    return step


def mnist_mlp() -> dict[str, Callable[[], None] | str]:
    """(b) a 784-256-10 MLP on 128 rows, against one-hot targets."""
    sizes = [784, 256, 10]
    rng = np.random.default_rng(2)
    x = rng.random((128, 784), dtype=np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 128)]
    return {"minigrad": _tensor_contender(optional("minigrad"), sizes, x, y),
            "torch": _tensor_contender(optional("torch"), sizes, x, y),
            "numpy": _numpy_contender(sizes, x, y)}
