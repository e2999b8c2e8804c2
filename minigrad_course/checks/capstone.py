"""Checks for exercises/ex13_capstone.ipynb: a small classifier trained with nn and optim."""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _grad_mode, nn, optim, random
from minigrad.tensor import Tensor
from ._feedback import Checks, same_numbers, versus
from ._snippets import check_predictions

STEPS = 100


def two_moons(n: int = 100, seed: int = 0) -> tuple[Tensor, Tensor]:
    """Two interleaved half circles with a little noise: points (n, 2) and labels 0/1."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, np.pi, n)
    upper = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    lower = np.stack([1 - np.cos(angle), 0.5 - np.sin(angle)], axis=1)
    labels = rng.integers(0, 2, n)
    points = np.where(labels[:, None] == 0, upper, lower) + rng.normal(0, 0.1, (n, 2))
    return Tensor(points.astype(np.float32)), Tensor(labels.astype(np.int64))


def make_model(seed: int = 0) -> nn.Module:
    random.manual_seed(seed)
    return nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))


@functools.cache
def _reference_losses(steps: int) -> tuple[float, ...]:
    xs, ys = two_moons()
    model = make_model()
    optimizer = optim.SGD(model.parameters(), lr=0.5)
    loss_fn, losses = nn.CrossEntropyLoss(), []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return tuple(losses)


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# train is still this, the exercise is not answered.
TRAIN_BUGGY = """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
        losses.append(loss.item())
    return losses"""


def train(train_fn: Callable) -> None:
    checks = Checks("train(model, optimizer, xs, ys, steps)")
    checks.require_changed(train_fn, TRAIN_BUGGY, "train")
    xs, ys = two_moons()
    model = make_model()
    optimizer = optim.SGD(model.parameters(), lr=0.5)
    losses = checks.call(train_fn, model, optimizer, xs, ys, STEPS)
    if not isinstance(losses, list) or len(losses) != STEPS:
        checks.fail_now(f"it should return a list of {STEPS} losses, one per step.")
    checks.expect(lambda: all(isinstance(loss, float) for loss in losses),
                  "each loss should be a Python float (loss.item()), not a tensor that keeps "
                  "its whole graph alive.")
    checks.expect(lambda: losses[-1] < 0.5 * losses[0],
                  "the loss did not go down. Hint: in which order do zero_grad(), backward() "
                  "and step() have to come, so that step() sees this step's gradient?")
    checks.expect(lambda: same_numbers(losses, _reference_losses(STEPS)),
                  "the losses differ from those of the usual loop (reset, forward, backward, "
                  "step). Hint: one reset per step, before backward().")
    checks.verdict("The classifier learns: every step sees exactly its own gradient.")


FROZEN_SNIPPET = """\
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
model[0].requires_grad_(False)
out = model(torch.ones(4, 2)).sum()
out.backward()
print(model[0].weight.grad)
print(model[2].bias.grad)
print(model[0].weight.requires_grad)"""


def frozen(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, FROZEN_SNIPPET,
                      ["model[0].weight.grad", "model[2].bias.grad",
                       "model[0].weight.requires_grad"],
                      ["a parameter that does not require grad is left out of backward.",
                       "the bias is added to each of the 4 outputs, and out sums them.",
                       "requires_grad_(False) on a module applies to all its parameters."],
                      "All 3 right: a frozen layer gets no .grad, the rest train as usual.")


def gradient_norms(norms_of: Callable) -> None:
    checks = Checks("gradient_norms(model)")
    xs, ys = two_moons(20)
    model = make_model(1)
    model[2].bias.requires_grad_(False)
    nn.CrossEntropyLoss()(model(xs), ys).backward()
    result = checks.call(norms_of, model)
    if not isinstance(result, dict):
        checks.fail_now(f"it should return a dict, not {type(result).__name__}.")
    names = [name for name, _ in model.named_parameters()]
    checks.expect(list(result) == names, "the keys should be the names from "
                  "model.named_parameters(), in that order.")
    for name, param in model.named_parameters():
        wanted = None if param.grad is None else math.sqrt(float((param.grad._data ** 2).sum()))
        got = result.get(name, "missing")
        checks.expect(got is None if wanted is None else
                      isinstance(got, float) and same_numbers(got, wanted),
                      f"the entry for {name!r} is wrong ({versus(got, wanted)}). Hint: a "
                      "Python float, the square root "
                      "of the sum of the squared gradient entries; None when .grad is None.")
    checks.verdict("gradient_norms reports every layer's gradient size.")


class _Recording(nn.Module):
    """Wraps a model and remembers whether gradients were being recorded when it ran."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model
        self.recorded: list[bool] = []

    def forward(self, xs: Tensor) -> Tensor:
        self.recorded.append(_grad_mode.is_grad_enabled())
        return self.model(xs)


def accuracy(accuracy_of: Callable) -> None:
    checks = Checks("accuracy(model, xs, ys)")
    xs, ys = two_moons()
    model = _Recording(make_model())
    result = checks.call(accuracy_of, model, xs, ys)
    with _grad_mode.no_grad():
        wanted = float((model.model(xs)._data.argmax(axis=1) == ys._data).mean())
    checks.expect(isinstance(result, float), "it should return a Python float.")
    checks.expect(same_numbers(result, wanted), "that is not the fraction of points whose "
                  "highest score is their label. Hint: argmax over dim 1, compare with ys.")
    checks.expect(model.recorded and not any(model.recorded),
                  "the model ran while recording a graph. Hint: evaluation needs no "
                  "gradients: wrap it in torch.no_grad().")
    checks.verdict("accuracy evaluates without building a graph.")
