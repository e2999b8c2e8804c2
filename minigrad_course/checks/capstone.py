"""Checks for exercises/ex14_capstone.ipynb and lesson 14's builds: a small classifier
trained with nn and optim, its training step and a frozen layer."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad import _grad_mode, nn, optim, random
from minigrad.tensor import Tensor, tensor_of

from ..integrity.watch import Watch
from ._data import value_data
from ._exercise import Exercise, call, prediction
from ._feedback import Checks, describe, is_number, same_numbers, shown, times
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
    return tensor_of(points.astype(np.float32)), tensor_of(labels.astype(np.int64))


def make_model(seed: int = 0) -> nn.Module:
    random.manual_seed(seed)
    return nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))


# The read-only cell's bug, as the notebook shows it (a test keeps the two equal): while
# train is still this, the exercise is not answered.
TRAIN_BUGGY = """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model(xs), ys)
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        losses.append(loss.item())
    return losses"""


def _descent(model: nn.Module, xs: Tensor, ys: Tensor, lr: float,
             steps: int) -> tuple[list[float], list[np.ndarray]]:
    """The losses and the parameters after `steps` steps of plain gradient descent on the
    cross-entropy of `model` (Linear, Tanh, Linear), worked out with numpy: the numbers the
    usual loop gives, without the loop the exercise asks for (the installed course carries no
    worked answer)."""
    w1, b1, w2, b2 = (np.array(p._data, dtype=np.float64) for p in model.parameters())
    x, labels = xs._data.astype(np.float64), ys._data
    rows = len(labels)
    picked = np.zeros((rows, len(b2)))
    picked[np.arange(rows), labels] = 1.0
    losses = []
    for _ in range(steps):
        hidden = np.tanh(x @ w1.T + b1)
        logits = hidden @ w2.T + b2
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        losses.append(float(-(log_p * picked).sum() / rows))
        d_logits = (np.exp(log_p) - picked) / rows
        d_pre = (d_logits @ w2) * (1 - hidden * hidden)
        w1, b1 = w1 - lr * d_pre.T @ x, b1 - lr * d_pre.sum(axis=0)
        w2, b2 = w2 - lr * d_logits.T @ hidden, b2 - lr * d_logits.sum(axis=0)
    return losses, [w1, b1, w2, b2]


class _CountedSGD(optim.SGD):
    """The optimizer train() is handed: an SGD that counts its steps."""

    steps_taken = 0

    def step(self, closure: Callable | None = None) -> Any:
        self.steps_taken += 1
        return super().step(closure)


def _train_run(train_fn: Callable, case: list) -> dict:
    seed, points, steps, lr = case
    xs, ys = two_moons(points, seed)
    model = make_model(seed)
    optimizer = _CountedSGD(model.parameters(), lr=lr)
    with Watch(given=(_CountedSGD.step,)) as watch:
        losses = call(train_fn, model, optimizer, xs, ys, steps,
                      doing=f"train(...) with {steps} steps at lr={lr}")
    return {"losses": value_data(losses), "backward_runs": watch.backward_runs,
            "optimizer_steps": optimizer.steps_taken,
            "parameters": [value_data(p) for p in model.parameters()]}


def _train_judge(checks: Checks, case: list, got: dict) -> None:
    seed, points, steps, lr = case
    call_text = f"train(...) with {steps} steps at lr={lr}"
    losses = got["losses"]
    if not isinstance(losses, list) or len(losses) != steps:
        checks.fail_now(f"{call_text} should return a list of {steps} losses, one per step.")
    floats = checks.expect(all(type(loss) is float for loss in losses),
                           "each loss should be a Python float (loss.item()), not a tensor "
                           "that keeps its whole graph alive.")
    checks.expect(got["optimizer_steps"] == steps,
                  f"{call_text}: optimizer.step() ran {times(got['optimizer_steps'])}; once per "
                  "step is asked: the optimizer given does the update.")
    if steps == STEPS and floats:
        checks.expect(lambda: losses[-1] < 0.5 * losses[0],
                      f"{call_text}: the loss did not go down. Hint: is each step's loss "
                      "computed from the parameters as they are now, and does step() see "
                      "this step's gradient, and only it?")
    xs, ys = two_moons(points, seed)
    expected, parameters = _descent(make_model(seed), xs, ys, lr, steps)
    if floats:
        checks.expect(lambda: same_numbers(losses, expected),
                      f"{call_text}: the losses differ from those of the usual loop. Hint: "
                      "what should .grad hold when step() runs? (notebook 14)")
    checks.expect(lambda: all(same_numbers(mine, theirs) for mine, theirs in
                              zip(got["parameters"], parameters, strict=True)),
                  f"{call_text}: the model given was not trained as the usual loop trains it: "
                  "train that model, with that optimizer.")
    checks.expect(got["backward_runs"] == steps,
                  f"{call_text}: backward() ran {times(got['backward_runs'])}; once per step is "
                  "asked.")


train = Exercise(
    "train(model, optimizer, xs, ys, steps)", ("train_fn",), run=_train_run,
    judge=_train_judge, seed=0, buggy=(TRAIN_BUGGY, "train"),
    hints={"modified by an inplace operation": "step() changes the parameters in place, and "
                                               "the graph saved them as they were: which graph "
                                               "can give this step's gradient? (notebook 08)",
           "backward through the graph a second time": "a graph is gone after its backward: "
                                                       "which graph should each step go back "
                                                       "through? (notebook 09)"},
    cases=lambda rng: [[0, 100, STEPS, 0.5], [2, 60, 30, 0.2],
                       [int(rng.integers(3, 10**6)), int(rng.integers(30, 80)),
                        int(rng.integers(10, 40)), round(float(rng.uniform(0.05, 0.5)), 3)]],
    success="train trains the model it is given as the usual loop does, one backward per "
            "step, for three models, step counts and learning rates.")


FROZEN_SNIPPET = """\
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
model[0].requires_grad_(False)
out = model(torch.ones(4, 2)).sum()
out.backward()
print(model[0].weight.grad)
print(model[2].bias.grad)
print(model[0].weight.requires_grad)"""


@prediction
def frozen(answers: Any) -> None:
    check_predictions("your 3 predictions", answers, FROZEN_SNIPPET,
                      ["model[0].weight.grad", "model[2].bias.grad",
                       "model[0].weight.requires_grad"],
                      "All 3 right: a frozen layer gets no .grad, the rest train as usual.")


def _norms_model(case: list) -> tuple[nn.Module, dict]:
    """A model with hidden sizes `hidden` and the parameter `frozen` frozen, after one
    backward: the model, and each parameter's gradient (None where frozen)."""
    seed, points, hidden, frozen_name = case
    xs, ys = two_moons(points, seed)
    random.manual_seed(seed)
    sizes = (2, *hidden, 2)
    layers: list[nn.Module] = []
    for inputs, outputs in zip(sizes, sizes[1:]):
        layers += [nn.Linear(inputs, outputs), nn.Tanh()]
    model = nn.Sequential(*layers[:-1])
    index, name = frozen_name.removeprefix("model[").split("].")
    getattr(model[int(index)], name).requires_grad_(False)
    nn.CrossEntropyLoss()(model(xs), ys).backward()
    grads = {name: None if p.grad is None else p.grad._data.copy()
             for name, p in model.named_parameters()}
    return model, grads


def _clip_setting(case: list) -> tuple[nn.Module, dict, float, float]:
    """The case's model after one backward, its gradients, their joint norm worked out with
    numpy, and max_norm: the case's share of that norm (below 1: the gradients get clipped)."""
    model, grads = _norms_model(case[:4])
    total = math.sqrt(sum(float((g.astype(np.float64) ** 2).sum())
                          for g in grads.values() if g is not None))
    return model, grads, total, case[4] * total


def _ready_made_clipping() -> dict[Callable, str]:
    from minigrad.nn.utils import clip_grad

    return {clip_grad.clip_grad_norm_: "torch.nn.utils.clip_grad_norm_",
            clip_grad.get_total_norm: "torch.nn.utils.get_total_norm"}


def _clip_run(clip: Callable, case: list) -> dict:
    model, _, _, max_norm = _clip_setting(case)
    with Watch(_ready_made_clipping()) as watch:
        result = call(clip, model, max_norm, doing="clip_gradients(model, max_norm)")
    return {"total": value_data(result), "called": watch.called,
            "backward_runs": watch.backward_runs,
            "grads": [[name, value_data(p.grad)] for name, p in model.named_parameters()]}


def _clip_judge(checks: Checks, case: list, got: dict) -> None:
    _, grads, total, max_norm = _clip_setting(case)
    clipped = case[4] < 1
    which = (f"for a model with hidden sizes {tuple(case[2])} and {case[3]} frozen, max_norm "
             f"{'below' if clipped else 'above'} the gradients' norm")
    if got["called"]:
        checks.fail_now(f"{which}, it calls {got['called'][0]}, which does the exercise for "
                        "you: write the norm and the scaling yourself.")
    result = got["total"]
    if isinstance(result, dict) and "tensor" in result:
        checks.fail_now(f"{which}, it returned a tensor ({shown(result)}): return the norm as a "
                        "Python float. Hint: .item() turns a tensor of one element into a "
                        "number.")
    checks.expect(type(result) is float and same_numbers(result, total),
                  f"{which}, the norm it returned is not the gradients' joint norm before "
                  "clipping. Hint: the square root of the sum of every squared entry of every "
                  ".grad, all parameters together, taken before any scaling.")
    scale = min(1.0, max_norm / (total + 1e-6))
    after = {name: grad for name, grad in got["grads"]}
    for name, grad in grads.items():
        if grad is None:
            checks.expect(after.get(name) is None,
                          f"{which}: {name!r} had no .grad, and should still have none.")
            continue
        checks.expect(same_numbers(after.get(name), grad * scale),
                      f"{which}: the .grad of {name!r} is not what clipping leaves. Hint: "
                      "every gradient is scaled by the same factor, max_norm / total, and "
                      "only when the total is above max_norm.")
    checks.expect(got["backward_runs"] == 0,
                  f"{which}, a backward pass ran: clipping only rescales the .grad that are "
                  "there.")


clip_gradients = Exercise(
    "clip_gradients(model, max_norm)", ("clip_gradients",), run=_clip_run, judge=_clip_judge,
    cases=lambda rng: [[1, 20, [16], "model[2].bias", 0.5], [3, 30, [5, 4], "model[0].weight", 2.0],
                       [int(rng.integers(4, 10**6)), 25, [int(n) for n in rng.integers(2, 8, 2)],
                        "model[2].weight", float(rng.uniform(0.2, 0.8))]],
    success="clip_gradients returns the joint norm and scales every gradient down to max_norm "
            "only when it is above, for three models, one of them left as it was.")


def make_dropout_model(seed: int = 0) -> nn.Module:
    """make_model's network, with the same weights, and dropout before its last layer."""
    random.manual_seed(seed)
    return nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Dropout(0.5), nn.Linear(16, 2))


class _Recording(nn.Module):
    """Wraps a model and remembers, each time it ran, whether gradients were being recorded
    and whether its dropout was in training mode."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model
        self.recorded: list[bool] = []
        self.dropping: list[bool] = []

    def forward(self, xs: Tensor) -> Tensor:
        self.recorded.append(_grad_mode.is_grad_enabled())
        # A plain loop: a generator is a function of its own, which Watch would take for the
        # learner calling one of the check's.
        dropping = False
        for layer in self.model.modules():
            dropping = dropping or isinstance(layer, nn.Dropout) and layer.training
        self.dropping.append(dropping)
        return self.model(xs)


def _accuracy_run(accuracy_of: Callable, case: list) -> dict:
    seed, points = case
    xs, ys = two_moons(points, seed)
    model = _Recording(make_dropout_model(seed))
    with Watch(given=(_Recording.forward,)):
        result = call(accuracy_of, model, xs, ys)
    left_off = not _grad_mode.is_grad_enabled()
    _grad_mode.set_grad_enabled(True)  # as it was, so that the rest of the check records
    return {"accuracy": value_data(result), "recorded": model.recorded,
            "dropping": model.dropping, "left_off": left_off,
            "left_in_eval": not all(layer.training for layer in model.modules()),
            "still_trained": all(p.requires_grad for p in model.parameters())}


def _accuracy_judge(checks: Checks, case: list, got: dict) -> None:
    seed, points = case
    xs, ys = two_moons(points, seed)
    # Not under no_grad, nor in eval mode: the answer's points, which these lines have no need
    # to show (the network without its dropout layer is the network in eval mode).
    wanted = float((make_model(seed)(xs)._data.argmax(axis=1) == ys._data).mean())
    which = f"on {points} points"
    result = got["accuracy"]
    kind = "a tensor" if isinstance(result, dict) and "tensor" in result else describe(result)
    checks.expect(type(result) is float, f"{which}: it should return a Python float, not "
                  f"{kind}. Hint: .item() turns a tensor of one element into a number.")
    dropping = any(got["dropping"])
    checks.expect(not dropping, f"{which}: the model ran in training mode, so its dropout "
                  "zeroed random hidden units and the accuracy changes from call to call. "
                  "Hint: which method of a module switches dropout off? (notebook 10)")
    if not dropping:
        checks.expect(same_numbers(got["accuracy"], wanted), f"{which}: that is not the "
                      "fraction of points whose highest score is their label. Hint: argmax "
                      "over dim 1, compare with ys.")
    checks.expect(not got["left_in_eval"], f"{which}: after accuracy() returned, the model is "
                  "still in evaluation mode, so training would go on without dropout. Hint: "
                  "put it back as you found it.")
    checks.expect(got["recorded"] and not any(got["recorded"]),
                  f"{which}: the model ran with gradients enabled (torch.is_grad_enabled() "
                  "was True). Hint: evaluation needs no gradients: which block turns recording "
                  "off? (notebook 10)")
    checks.expect(got["still_trained"], f"{which}: after accuracy() returned, some of the "
                  "model's parameters no longer require grad, so training would leave them "
                  "where they are. Hint: switch recording off for the evaluation, not the "
                  "parameters.")
    checks.expect(not got["left_off"], f"{which}: gradients are still off after accuracy() "
                  "returned, so the next training step would record nothing. Hint: a "
                  "`with` block turns recording back on when it ends.")


accuracy = Exercise(
    "accuracy(model, xs, ys)", ("accuracy_of",), run=_accuracy_run, judge=_accuracy_judge,
    cases=lambda rng: [[0, 100], [4, 80], [int(rng.integers(5, 10**6)), int(rng.integers(40,
                                                                                          120))]],
    success="accuracy is right for three models with dropout, runs each in evaluation mode "
            "without recording, and leaves it training, with recording on.")


def _snapshot(model: nn.Module) -> list[np.ndarray]:
    return [param._data.copy() for param in model.parameters()]


def train_step(step_fn: Callable) -> None:
    """Lesson 14's build: one step of the usual loop (reset first, forward, backward, step),
    judged against that loop on two models, over two calls (a missing reset shows on the
    second), with the loss returned as a float and .grad holding this step's gradient."""
    checks = Checks("train_step(model, optimizer, loss_fn, xs, ys)")
    for seed, points, lr in ((0, 40, 0.5), (5, 30, 0.2)):
        xs, ys = two_moons(points, seed)
        model, reference = make_model(seed), make_model(seed)
        optimizer = _CountedSGD(model.parameters(), lr=lr)
        expected_optimizer = optim.SGD(reference.parameters(), lr=lr)
        loss_fn = nn.CrossEntropyLoss()
        for attempt in (1, 2):
            which = f"call {attempt} on a model with lr={lr}"
            expected_optimizer.zero_grad()
            expected = loss_fn(reference(xs), ys)
            expected.backward()
            expected_optimizer.step()
            steps_before = optimizer.steps_taken
            with Watch(given=(_CountedSGD.step,)) as watch:
                loss = checks.call(step_fn, model, optimizer, loss_fn, xs, ys, doing=which)
            checks.expect(optimizer.steps_taken - steps_before == 1,
                          f"{which}: the optimizer given took "
                          f"{optimizer.steps_taken - steps_before} steps; one is asked: it is the "
                          "one the loop below goes on with.")
            checks.expect(isinstance(loss, float), f"{which}: it should return the loss as a "
                          f"Python float (loss.item()), not {describe(loss)}.")
            checks.expect(is_number(loss) and same_numbers(loss, expected.item()),
                          f"{which}: the loss returned is not the loss of the model before "
                          "this step's update. Hint: compute it from model(xs) before step().")
            checks.expect(watch.backward_runs == 1, f"{which}: backward() ran "
                          f"{times(watch.backward_runs)}; once per step is asked.")
            grads = [p.grad for p in model.parameters()]
            held = "some .grad is None" if any(g is None for g in grads) else \
                "every .grad is zeros" if all(not g._data.any() for g in grads) else \
                ".grad holds other numbers"
            checks.expect(all(g is not None and same_numbers(g, q.grad)
                              for g, q in zip(grads, reference.parameters())),
                          f"{which}: afterwards, {held}, not this step's gradient. Hint: reset "
                          "first, then backward(), then step(): gradients accumulate (notebook "
                          "03), and a reset after step() erases what the loop below reads.")
            if not checks.expect(all(same_numbers(mine, theirs) for mine, theirs in
                                     zip(_snapshot(model), _snapshot(reference))),
                                 f"{which}: the parameters did not move as one SGD step with "
                                 "this step's gradient moves them. Hint: step() uses .grad as "
                                 "backward() left it."):
                break
    checks.verdict("train_step takes the usual step (reset, forward, backward, step) on two "
                   "models, twice each, and returns the loss as a float.")


def freeze(freeze_fn: Callable) -> None:
    """Lesson 14's build: `freeze(model, index, lr)` switches off model[index], drops its
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
