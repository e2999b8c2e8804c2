"""Checks for exercises/ex13_capstone.ipynb and lesson 13's builds: a small classifier
trained with nn and optim, its training step and a frozen layer."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _grad_mode, nn, optim, random
from minigrad.tensor import Tensor
from ._feedback import Checks, describe, is_number, same_numbers, shown
from ._guards import Watch, roughly
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
    def usual_loop(model: nn.Module, optimizer: Any, xs: Tensor, ys: Tensor,
                   steps: int) -> list[float]:
        """Reset, forward, backward, step: written here, not as a function of this module
        (the learner's namespace holds the module as `check`)."""
        loss_fn, losses = nn.CrossEntropyLoss(), []
        for _ in range(steps):
            optimizer.zero_grad()
            loss = loss_fn(model(xs), ys)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    checks = Checks("train(model, optimizer, xs, ys, steps)")
    checks.require_changed(train_fn, TRAIN_BUGGY, "train")
    for seed, points, steps, lr in ((0, 100, STEPS, 0.5), (2, 60, 30, 0.2)):
        xs, ys = two_moons(points, seed)
        model = make_model(seed)
        optimizer = optim.SGD(model.parameters(), lr=lr)
        call = f"train(...) with {steps} steps at lr={lr}"
        with Watch() as watch:
            losses = checks.call(train_fn, model, optimizer, xs, ys, steps, doing=call)
        if not isinstance(losses, list) or len(losses) != steps:
            checks.fail_now(f"{call} should return a list of {steps} losses, one per step.")
        checks.expect(lambda: all(isinstance(loss, float) for loss in losses),
                      "each loss should be a Python float (loss.item()), not a tensor that keeps "
                      "its whole graph alive.")
        if steps == STEPS:
            checks.expect(lambda: losses[-1] < 0.5 * losses[0],
                          f"{call}: the loss did not go down. Hint: in which order do "
                          "zero_grad(), backward() and step() have to come, so that step() sees "
                          "this step's gradient?")
        reference = make_model(seed)
        expected = usual_loop(reference, optim.SGD(reference.parameters(), lr=lr), xs, ys, steps)
        checks.expect(lambda: same_numbers(losses, expected),
                      f"{call}: the losses differ from those of the usual loop. Hint: what "
                      "should .grad hold when step() runs? (notebook 13)")
        checks.expect(lambda: all(same_numbers(mine, theirs) for mine, theirs in
                                  zip(model.parameters(), reference.parameters())),
                      f"{call}: the model given was not trained as the usual loop trains it: "
                      "train that model, with that optimizer.")
        checks.expect(watch.backward_runs == steps,
                      f"{call}: backward() ran {watch.backward_runs} times; once per step is "
                      "asked.")
    checks.verdict("train trains the model it is given as the usual loop does, one backward "
                   "per step, for two models, step counts and learning rates.")


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
                      "All 3 right: a frozen layer gets no .grad, the rest train as usual.")


def gradient_norms(norms_of: Callable) -> None:
    checks = Checks("gradient_norms(model)")
    cases = [(1, 20, (16,), "model[2].bias"), (3, 30, (5, 4), "model[0].weight")]
    for seed, points, hidden, frozen in cases:
        xs, ys = two_moons(points, seed)
        random.manual_seed(seed)
        sizes = (2, *hidden, 2)
        layers: list[nn.Module] = []
        for inputs, outputs in zip(sizes, sizes[1:]):
            layers += [nn.Linear(inputs, outputs), nn.Tanh()]
        model = nn.Sequential(*layers[:-1])
        index, name = frozen.removeprefix("model[").split("].")
        getattr(model[int(index)], name).requires_grad_(False)
        nn.CrossEntropyLoss()(model(xs), ys).backward()
        grads = {name: None if p.grad is None else p.grad._data.copy()
                 for name, p in model.named_parameters()}
        with Watch() as watch:
            result = checks.call(norms_of, model)
        which = f"for a model with hidden sizes {hidden} and {frozen} frozen"
        if not isinstance(result, dict):
            checks.fail_now(f"it should return a dict, not {type(result).__name__}.")
        checks.expect(list(result) == list(grads), f"{which}: the keys should be the names "
                      "from model.named_parameters(), in that order.")
        for name, grad in grads.items():
            wanted = None if grad is None else math.sqrt(float((grad ** 2).sum()))
            got = result.get(name, "missing")
            checks.expect(got is None if wanted is None else
                          isinstance(got, float) and same_numbers(got, wanted),
                          f"{which}: the entry for {name!r} is wrong (expected "
                          f"{roughly(wanted)}, got {got if isinstance(got, str) else shown(got)}). "
                          "Hint: a Python float, the square root of the sum of the squared "
                          "gradient entries; None when .grad is None.")
        checks.expect(watch.backward_runs == 0 and all(
            (p.grad is None) == (grads[name] is None) and
            (p.grad is None or same_numbers(p.grad, grads[name]))
            for name, p in model.named_parameters()),
            f"{which}: the gradients changed: reading their size should leave them as they "
            "are (no backward, no in-place change).")
    checks.verdict("gradient_norms reports each parameter's gradient norm, None where frozen, "
                   "for two models, and leaves the gradients alone.")


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
    for seed, points in ((0, 100), (4, 80)):
        xs, ys = two_moons(points, seed)
        model = _Recording(make_model(seed))
        with Watch(given=(_Recording.forward,)):
            result = checks.call(accuracy_of, model, xs, ys)
        which = f"on {points} points"
        left_off = not _grad_mode.is_grad_enabled()
        _grad_mode.set_grad_enabled(True)  # as it was, so that the rest of the check records
        with _grad_mode.no_grad():
            wanted = float((model.model(xs)._data.argmax(axis=1) == ys._data).mean())
        checks.expect(isinstance(result, float), f"{which}: it should return a Python float.")
        checks.expect(same_numbers(result, wanted), f"{which}: that is not the fraction of "
                      "points whose highest score is their label. Hint: argmax over dim 1, "
                      "compare with ys.")
        checks.expect(model.recorded and not any(model.recorded),
                      f"{which}: the model ran while recording a graph. Hint: evaluation needs "
                      "no gradients: which block turns recording off? (notebook 10)")
        checks.expect(not left_off, f"{which}: gradients are still off after accuracy() "
                      "returned, so the next training step would record nothing. Hint: a "
                      "`with` block turns recording back on when it ends.")
    checks.verdict("accuracy is right for two models, runs the model without recording, and "
                   "leaves recording on.")


def _snapshot(model: nn.Module) -> list[np.ndarray]:
    return [param._data.copy() for param in model.parameters()]


def train_step(step_fn: Callable) -> None:
    """Lesson 13's build: one step of the usual loop (reset first, forward, backward, step),
    judged against that loop on two models, over two calls (a missing reset shows on the
    second), with the loss returned as a float and .grad holding this step's gradient."""
    checks = Checks("train_step(model, optimizer, loss_fn, xs, ys)")
    for seed, points, lr in ((0, 40, 0.5), (5, 30, 0.2)):
        xs, ys = two_moons(points, seed)
        model, reference = make_model(seed), make_model(seed)
        optimizer = optim.SGD(model.parameters(), lr=lr)
        expected_optimizer = optim.SGD(reference.parameters(), lr=lr)
        loss_fn = nn.CrossEntropyLoss()
        for call in (1, 2):
            which = f"call {call} on a model with lr={lr}"
            expected_optimizer.zero_grad()
            expected = loss_fn(reference(xs), ys)
            expected.backward()
            expected_optimizer.step()
            with Watch() as watch:
                loss = checks.call(step_fn, model, optimizer, loss_fn, xs, ys, doing=which)
            checks.expect(isinstance(loss, float), f"{which}: it should return the loss as a "
                          f"Python float (loss.item()), not {describe(loss)}.")
            checks.expect(is_number(loss) and same_numbers(loss, expected.item()),
                          f"{which}: the loss returned is not the loss of the model before "
                          "this step's update. Hint: compute it from model(xs) before step().")
            checks.expect(watch.backward_runs == 1, f"{which}: backward() ran "
                          f"{watch.backward_runs} times; once per step is asked.")
            checks.expect(all(p.grad is not None and same_numbers(p.grad, q.grad)
                              for p, q in zip(model.parameters(), reference.parameters())),
                          f"{which}: afterwards, .grad does not hold this step's gradient. "
                          "Hint: reset first, then backward(): gradients accumulate "
                          "(notebook 03), and a reset after step() would leave None.")
            if not checks.expect(all(same_numbers(mine, theirs) for mine, theirs in
                                     zip(_snapshot(model), _snapshot(reference))),
                                 f"{which}: the parameters did not move as one SGD step with "
                                 "this step's gradient moves them. Hint: step() uses .grad as "
                                 "backward() left it."):
                break
    checks.verdict("train_step takes the usual step (reset, forward, backward, step) on two "
                   "models, twice each, and returns the loss as a float.")


def freeze(freeze_fn: Callable) -> None:
    """Lesson 13's build: `freeze(model, index, lr)` switches off model[index], drops its
    gradients, and returns SGD(lr, momentum=0.9) over only the parameters still trained; then
    training with zero_grad(set_to_none=False) must leave the frozen layer exactly as it was."""
    checks = Checks("freeze(model, index, lr)")
    for seed, index, lr in ((0, 0, 0.1), (3, 2, 0.05)):
        xs, ys = two_moons(40, seed)
        model = make_model(seed)
        loss_fn = nn.CrossEntropyLoss()
        loss_fn(model(xs), ys).backward()  # every parameter holds a gradient, as after training
        frozen = {id(p) for p in model[index].parameters()}
        trained = {id(p) for i, layer in enumerate(model) if i != index
                   for p in layer.parameters()}
        which = f"freeze(model, {index}, lr={lr})"
        with Watch():
            optimizer = checks.call(freeze_fn, model, index, lr, doing=which)
        if not isinstance(optimizer, optim.SGD):
            checks.fail_now(f"{which} should return a torch.optim.SGD, not {describe(optimizer)}.")
        params = list(model.parameters())
        checks.expect(all(p.requires_grad == (id(p) in trained) for p in params),
                      f"{which}: only model[{index}]'s parameters should stop requiring grad.")
        checks.expect(all(p.grad is None for p in params if id(p) in frozen),
                      f"{which}: model[{index}]'s parameters still hold their old .grad.")
        held = [id(p) for group in optimizer.param_groups for p in group["params"]]
        checks.expect(sorted(held) == sorted(trained),
                      f"{which}: the optimizer should hold exactly the {len(trained)} "
                      f"parameters still trained, and it holds {len(held)}. Hint: filter "
                      "model.parameters() by requires_grad.")
        group = optimizer.param_groups[0] if optimizer.param_groups else {}
        checks.expect(group.get("lr") == lr and group.get("momentum") == 0.9,
                      f"{which}: the optimizer should use lr={lr} and momentum=0.9.")
        before = _snapshot(model)
        for _ in range(3):  # training goes on: the trained layers move, the frozen one may not
            optimizer.zero_grad(set_to_none=False)
            loss_fn(model(xs), ys).backward()
            optimizer.step()
        moved = {id(p) for p, old in zip(params, before) if not np.array_equal(p._data, old)}
        checks.expect(not moved & frozen, f"{which}: after three training steps "
                      f"model[{index}] moved.")
        checks.expect(trained <= moved, f"{which}: after three training steps some trained "
                      "parameters did not move.")
    checks.verdict("freeze switches off one layer, drops its gradients and returns an SGD with "
                   "momentum over the rest: three steps later the layer has not moved.")
