"""`grad_fn._saved_self`, `_saved_other`, `_saved_result`, ... against real PyTorch: every such
name a minigrad node has, PyTorch's node has too, and reading it gives the same thing (the
input itself, a new tensor for the node's own output, None, a number) before backward, after a
backward that freed it (PyTorch's error) and after one with retain_graph=True; a saved tensor
changed in place raises the in-place error when read. Then saved-tensor hooks
(torch.autograd.graph.saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks): which
tensors are packed and unpacked, in which order, and what comes back. Skipped without
PyTorch."""
from __future__ import annotations

import threading
import warnings
import weakref

import numpy as np
import pytest

import minigrad as mg

OPS = {
    "h * h": lambda lib, h, z, c: h * h,
    "h * z": lambda lib, h, z, c: h * z,
    "h * c": lambda lib, h, z, c: h * c,
    "c * h": lambda lib, h, z, c: c * h,
    "h * 3": lambda lib, h, z, c: h * 3,
    "h * 2.5": lambda lib, h, z, c: h * 2.5,
    "h / z": lambda lib, h, z, c: h / z,
    "c / h": lambda lib, h, z, c: c / h,
    "h / 2": lambda lib, h, z, c: h / 2,
    "h ** 2": lambda lib, h, z, c: h**2,
    "h ** 0.5": lambda lib, h, z, c: h**0.5,
    "h ** z": lambda lib, h, z, c: h**z,
    "h.reciprocal()": lambda lib, h, z, c: h.reciprocal(),
    "h.exp()": lambda lib, h, z, c: h.exp(),
    "h.log()": lambda lib, h, z, c: h.log(),
    "h.sqrt()": lambda lib, h, z, c: h.sqrt(),
    "h.sin()": lambda lib, h, z, c: h.sin(),
    "h.cos()": lambda lib, h, z, c: h.cos(),
    "h.tanh()": lambda lib, h, z, c: h.tanh(),
    "h.sigmoid()": lambda lib, h, z, c: h.sigmoid(),
    "h.abs()": lambda lib, h, z, c: h.abs(),
    "h.relu()": lambda lib, h, z, c: h.relu(),
    "h.clamp(0, 1.5)": lambda lib, h, z, c: h.clamp(0, 1.5),
    "h + z": lambda lib, h, z, c: h + z,
    "h - 1": lambda lib, h, z, c: h - 1,
    "h @ z": lambda lib, h, z, c: h @ z,
    "h @ c": lambda lib, h, z, c: h @ c,
    "c @ h": lambda lib, h, z, c: c @ h,
    "matrix @ h": lambda lib, h, z, c: lib.stack([c, z]) @ h,
    "matrix @ matrix": lambda lib, h, z, c: lib.stack([h, c]) @ lib.stack([c, z]).t(),
}


def _describe(value, named: dict) -> object:
    """What a saved value is, in terms both libraries share."""
    if value is None or isinstance(value, (int, float, tuple)):
        return repr(value)
    for name, tensor in named.items():
        if value is tensor:
            return f"the tensor {name} itself"
    return ("a tensor", repr(value), value.requires_grad,
            None if value.grad_fn is None else value.grad_fn.name())


def _read(node, attribute: str, named: dict) -> object:
    try:
        return _describe(getattr(node, attribute), named)
    except RuntimeError as error:
        return ("RuntimeError", str(error))


def _saved(lib, op: str, attributes: list, retain_graph: bool) -> list:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1  # an intermediate: _saved_self is it, not a leaf
    z = lib.tensor([0.5, 3.0], requires_grad=True)
    c = lib.tensor([2.0, 4.0])  # needs no gradient
    out = OPS[op](lib, h, z, c)
    node = out.grad_fn
    named = {"h": h, "z": z, "c": c, "out": out}
    before = [_read(node, a, named) for a in attributes]
    out.sum().backward(retain_graph=retain_graph)
    return before + [_read(node, a, named) for a in attributes]


@pytest.mark.parametrize("retain_graph", [False, True])
@pytest.mark.parametrize("op", OPS)
def test_saved_attributes_match(torch, op, retain_graph):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    ours = [a for a in dir(OPS[op](mg, x * 1, x, x.detach()).grad_fn)
            if a.startswith("_saved_")]
    theirs = [a for a in dir(OPS[op](torch, torch.ones(2, requires_grad=True) * 1,
                                     torch.ones(2, requires_grad=True), torch.ones(2)).grad_fn)
              if a.startswith("_saved_")]
    assert set(ours) <= set(theirs)  # no name PyTorch does not have
    if op not in ("h + z", "h - 1"):  # those save only alpha, a number
        assert any(a in ours for a in ("_saved_self", "_saved_result", "_saved_other"))
    assert _saved(mg, op, ours, retain_graph) == _saved(torch, op, ours, retain_graph)


def _changed_in_place(lib) -> list:
    errors = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    square, exponential = h * h, h.exp()
    node = exponential.grad_fn
    h.add_(1)  # saved by MulBackward0 as its input
    exponential.mul_(2)  # saved by ExpBackward0 as its output
    for read in (lambda: square.grad_fn._saved_self, lambda: node._saved_result):
        try:
            read()
            errors.append(None)
        except RuntimeError as error:
            errors.append(str(error))
    return errors


def test_reading_a_tensor_changed_in_place_raises(torch):
    ours = _changed_in_place(mg)
    assert ours == _changed_in_place(torch)
    assert None not in ours


def test_own_output_comes_back_as_a_new_tensor_each_time():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    first, second = y.grad_fn._saved_result, y.grad_fn._saved_result
    assert first is not y and first is not second
    assert first.grad_fn is y.grad_fn and mg.equal(first, y)


# ---- saved-tensor hooks: torch.autograd.graph.saved_tensors_hooks and what is built on it ----

def _program(lib, name: str):
    F = lib.nn.functional
    return {
        "x * w": lambda x, w: x * w,
        "x * 3 (a number is not packed)": lambda x, w: x * 3,
        "x / w": lambda x, w: x / w,
        "x ** 2": lambda x, w: x ** 2,
        "x.abs() ** w": lambda x, w: x.abs() ** w,
        "2 ** x": lambda x, w: 2 ** x,
        "exp (its output)": lambda x, w: x.exp(),
        "log": lambda x, w: x.abs().log(),
        "sin": lambda x, w: x.sin(),
        "tanh": lambda x, w: x.tanh(),
        "sigmoid": lambda x, w: x.sigmoid(),
        "relu": lambda x, w: x.relu(),
        "x @ w.t()": lambda x, w: x @ w.t(),
        "batched matmul": lambda x, w: x.reshape(1, 2, 3) @ w.reshape(1, 3, 2),
        "x @ vector": lambda x, w: x @ w[0],
        "linear": lambda x, w: F.linear(x, w),
        "linear with bias": lambda x, w: F.linear(x, w, w[0, :2]),
        "linear of a 1-d input": lambda x, w: F.linear(x[0], w, w[0, :2]),
        "log_softmax": lambda x, w: F.log_softmax(x, 1),
        "softmax": lambda x, w: F.softmax(x, 1),
        "mse_loss": lambda x, w: F.mse_loss(x, w),
        "cross_entropy": lambda x, w: F.cross_entropy(x, lib.tensor([0, 2])),
        "nll_loss with weights": lambda x, w: F.nll_loss(x, lib.tensor([0, 2]),
                                                         weight=lib.tensor([1.0, 2.0, 3.0])),
        "sum, mean, views (nothing saved)": lambda x, w: x.sum() + x.mean(1).sum() + x.t()[0],
        "conv2d": lambda x, w: F.conv2d(x.reshape(1, 1, 2, 3), w.reshape(1, 1, 2, 3)[..., :2],
                                        w[0, :1]),
        "max_pool2d": lambda x, w: F.max_pool2d(x.reshape(1, 1, 2, 3), 2, 1),
        "avg_pool2d": lambda x, w: F.avg_pool2d(x.reshape(1, 1, 2, 3), 2, 1),
        "a chain": lambda x, w: ((x * w).tanh() @ w.t()).sigmoid(),
    }[name]


HOOKED_PROGRAMS = ["x * w", "x * 3 (a number is not packed)", "x / w", "x ** 2", "x.abs() ** w",
                   "2 ** x", "exp (its output)", "log", "sin", "tanh", "sigmoid", "relu",
                   "x @ w.t()", "batched matmul", "x @ vector", "linear", "linear with bias",
                   "linear of a 1-d input", "log_softmax", "softmax", "mse_loss",
                   "cross_entropy", "nll_loss with weights", "sum, mean, views (nothing saved)",
                   "conv2d", "max_pool2d", "avg_pool2d", "a chain"]


def _logged_hooks(lib, named: dict, log: list):
    """Hooks that log each call: pack with what it got (a named tensor, or its shape, grad_fn
    and first values) and grad mode, unpack with the number of the packed tensor."""
    packed = []

    def describe(t):
        for name, value in named.items():
            if t is value:
                return name
        values = [round(v, 4) for v in t.detach().reshape(-1).tolist()[:3]]
        return (tuple(t.shape), None if t.grad_fn is None else t.grad_fn.name(), values)

    def pack(t):
        packed.append(t)
        log.append(("pack", describe(t), lib.is_grad_enabled()))
        return len(packed) - 1

    def unpack(i):
        log.append(("unpack", i, lib.is_grad_enabled()))
        return packed[i]

    return lib.autograd.graph.saved_tensors_hooks(pack, unpack)


def _hooked_run(lib, name: str) -> tuple:
    x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    w = lib.tensor([[1.0, 2.0, -0.5], [0.3, -1.2, 0.8]], requires_grad=True)
    log: list = []
    with _logged_hooks(lib, {"x": x, "w": w}, log):
        out = _program(lib, name)(x, w)
    log.append("backward")
    out.sum().backward()
    return log, [None if t.grad is None else t.grad.numpy() for t in (x, w)]


@pytest.mark.parametrize("name", HOOKED_PROGRAMS)
def test_pack_and_unpack_are_called_as_in_pytorch(torch, name):
    """Which tensors each operation packs, in which order, with grad mode off; which are
    unpacked by backward, in which order; and the same gradients."""
    (ours, our_grads), (theirs, their_grads) = _hooked_run(mg, name), _hooked_run(torch, name)
    assert ours == theirs
    for got, expected in zip(our_grads, their_grads):
        assert (got is None) == (expected is None)
        if got is not None:
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def _saved_tensor_scenarios(lib) -> dict:
    graph = lib.autograd.graph
    seen: dict = {}

    def nested():
        log, x = [], lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t):
            with graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t):
                x.sin()
            x.cos()
        x.exp()  # outside: no hook
        return log

    def what_pack_gets_and_unpack_gives():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        got = []
        with graph.saved_tensors_hooks(lambda t: got.append(t) or t.detach(), lambda t: t):
            h = x * 1
            y = h.sin()
            z = y.exp()
        saved_x, saved_h = h.grad_fn._saved_other, y.grad_fn._saved_self
        result = z.grad_fn._saved_result
        return ([t is x for t in got], [t is h for t in got], [t is z for t in got],
                saved_x is x, saved_x.requires_grad, saved_x.is_leaf, saved_h is h,
                saved_h.grad_fn is h.grad_fn, result is z, result.grad_fn is z.grad_fn,
                lib.equal(result, z))

    def unpack_gives_a_number():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: t, lambda t: 5):
            y = x.sin().sum()
        y.backward()

    def pack_changes_its_input():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: t.add_(1), lambda t: t):
            (x * 1).sin()

    def disabled():
        x, outcomes = lib.tensor([1.0, 2.0], requires_grad=True), []
        with graph.disable_saved_tensors_hooks("no hooks in here"):
            for enter in (lambda: graph.saved_tensors_hooks(lambda t: t, lambda t: t),
                          lambda: graph.save_on_cpu()):
                try:
                    with enter():
                        pass
                except RuntimeError as error:
                    outcomes.append(str(error))
            with graph.disable_saved_tensors_hooks("nested"):
                try:
                    with graph.save_on_cpu():
                        pass
                except RuntimeError as error:
                    outcomes.append(str(error))
            try:
                with graph.save_on_cpu():
                    pass
            except RuntimeError as error:
                outcomes.append(str(error))
        with graph.saved_tensors_hooks(lambda t: outcomes.append("packed") or t, lambda t: t):
            x.sin()  # enabled again
            try:
                with graph.disable_saved_tensors_hooks("not while hooks are set"):
                    pass
            except RuntimeError as error:
                outcomes.append(str(error))
            x.sin()
        return outcomes

    def freed_after_backward():
        class Box:
            def __init__(self, t):
                self.t = t

        boxes = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: boxes.append(Box(t.detach())) or boxes[-1],
                                       lambda box: box.t):
            y = (x * x).exp().sum()
        refs = [weakref.ref(b) for b in boxes]
        boxes.clear()
        y.backward(retain_graph=True)
        alive_after_retain = [r() is not None for r in refs]
        y.backward()
        alive = [r() is not None for r in refs]
        try:
            y.backward()
        except RuntimeError as error:
            return alive_after_retain, alive, str(error)

    def changed_after_packing():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            h = x * 1
            y = h.sin()
        h.add_(1)  # no version check: the hooks own the values now
        y.sum().backward()
        return x.grad

    def second_derivative():
        x = lib.tensor([1.0, -2.0], requires_grad=True)
        log = []
        with graph.saved_tensors_hooks(lambda t: log.append("pack") or t.detach(),
                                       lambda t: log.append(("unpack", lib.is_grad_enabled()))
                                       or t):
            y = (x ** 3 * x.sin()).sum()
        g, = lib.autograd.grad(y, x, create_graph=True)
        gg, = lib.autograd.grad(g.sum(), x)
        return g, gg, log

    def leaf_through_hooks_gets_grad():
        w = lib.tensor([1.5, -0.5], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
            y = (w * w * w).sum()
        first, = lib.autograd.grad(y, w, create_graph=True)
        return first, lib.autograd.grad(first.sum(), w)

    def no_grad_packs_nothing():
        log, x = [], lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad(), graph.saved_tensors_hooks(lambda t: log.append(1) or t, lambda t: t):
            x.sin() * x
        return log

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            out = a * a * b
            ctx.save_for_backward(b, out, a)
            return out

        @staticmethod
        def backward(ctx, grad):
            b, _, a = ctx.saved_tensors
            return grad * 2 * a * b, grad * a * a

    def custom_function():
        log = []
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0], requires_grad=True)
        with _logged_hooks(lib, {"a": a, "b": b}, log):
            out = Square.apply(a, b)
        log.append("read")
        log.append([t.grad_fn is out.grad_fn for t in out.grad_fn.saved_tensors])
        log.append("backward")
        out.sum().backward()
        return log, a.grad, b.grad

    def save_on_cpu():
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.save_on_cpu(), graph.save_on_cpu(pin_memory=True):
            y = x * x
        z = y.grad_fn._saved_self
        y.sum().backward()
        return z is x, lib.equal(z, x), z.requires_grad, x.grad

    def per_thread():
        log, x = [], lib.tensor([1.0, 2.0], requires_grad=True)
        with graph.saved_tensors_hooks(lambda t: log.append("main") or t, lambda t: t):
            thread = threading.Thread(target=lambda: x.sin())
            thread.start()
            thread.join()
            x.cos()
        return log

    for name, scenario in list(locals().items()):
        if callable(scenario) and not isinstance(scenario, type) and name != "lib":
            seen[name] = scenario
    return seen


SCENARIOS = sorted(_saved_tensor_scenarios(mg))


def _outcome(run) -> tuple:
    """What it returned (or raised), and the warnings on the way."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            shown = repr(run())
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            shown = f"{type(error).__name__}: {error}"
    return shown, [f"{w.category.__name__}: {w.message}" for w in caught]


@pytest.mark.parametrize("name", SCENARIOS)
def test_saved_tensor_hooks_behave_as_in_pytorch(torch, name):
    ours = _outcome(_saved_tensor_scenarios(mg)[name])
    assert ours == _outcome(_saved_tensor_scenarios(torch)[name])


def test_no_hooks_no_packing_cost_in_the_common_path():
    """Outside any context nothing is packed: a node keeps plain SavedTensors."""
    from minigrad.autograd.graph import SavedTensor

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert all(type(s) is SavedTensor for s in (x * x).grad_fn._saved)


# ---- torch.utils.checkpoint, made of saved-tensor hooks (use_reentrant=False) or a Function ---

def _checkpoint_scenarios(lib) -> dict:
    import importlib

    ck = importlib.import_module(f"{lib.__name__}.utils.checkpoint")
    graph = lib.autograd.graph
    calls: list = []

    def f(a):
        calls.append("f start")
        b = a.sin()
        c = b * a
        calls.append("f mid")
        d = c.exp()
        calls.append("f end")
        return d

    def leaf():
        return lib.tensor([1.0, 2.0, 3.0], requires_grad=True)

    def named(t):
        return None if t.grad_fn is None else t.grad_fn.name()

    def run(use_reentrant, **kwargs):
        x = leaf()
        y = ck.checkpoint(f, x, use_reentrant=use_reentrant, **kwargs)
        after_forward = list(calls)
        y.sum().backward()
        return named(y), after_forward, list(calls), x.grad

    def without_use_reentrant():
        x = leaf()
        y = ck.checkpoint(f, x)
        return named(y), list(calls)

    def no_input_requires_grad(use_reentrant):
        y = ck.checkpoint(f, leaf().detach(), use_reentrant=use_reentrant)
        return y.requires_grad, named(y), list(calls)

    def backward_twice(use_reentrant):
        y = ck.checkpoint(f, leaf(), use_reentrant=use_reentrant)
        y.sum().backward()
        y.sum().backward()

    def unexpected_keyword(use_reentrant):
        return ck.checkpoint(f, leaf(), use_reentrant=use_reentrant, foo=1)

    def outer_hooks():
        x, log = leaf(), []
        with graph.saved_tensors_hooks(lambda t: log.append(("pack", tuple(t.shape))) or t,
                                       lambda t: log.append("unpack") or t):
            y = ck.checkpoint(f, x, use_reentrant=False)
            z = y * y
        log.append(list(calls))
        calls.clear()
        z.sum().backward()
        return log, list(calls), x.grad

    def hooks_inside():
        log = []

        def g(a):
            with graph.saved_tensors_hooks(lambda t: log.append("pack") or t,
                                           lambda t: log.append("unpack") or t):
                return a.sin().exp()

        x = leaf()
        y = ck.checkpoint(g, x, use_reentrant=False)
        log.append("backward")
        y.sum().backward()
        return log, x.grad

    def random_numbers(use_reentrant, preserve):
        lib.manual_seed(0)
        x = leaf()
        y = ck.checkpoint(lambda a: a * lib.rand(3), x, use_reentrant=use_reentrant,
                          preserve_rng_state=preserve)
        drawn_after = lib.rand(1)
        y.sum().backward()
        return y, x.grad, drawn_after, lib.rand(1)

    def early_stop(setting):
        x = leaf()
        if setting == "argument":
            y = ck.checkpoint(f, x, use_reentrant=False, early_stop=False)
        else:
            with ck.set_checkpoint_early_stop(False):
                y = ck.checkpoint(f, x, use_reentrant=False)
        y.sum().backward()
        return list(calls)

    def rerun_differs(kind):
        count = [0]

        def changing(a):
            count[0] += 1
            if kind == "shape":
                return a[:count[0]].sin()
            if kind == "fewer":
                return a.sin().exp() if count[0] == 1 else a.sin() * 1
            return a.sin() * 1 if count[0] == 1 else a.sin().exp()  # more

        x = leaf()
        y = ck.checkpoint(changing, x, use_reentrant=False, early_stop=kind != "more, no stop")
        y.sum().backward()
        return x.grad

    def retain_graph():
        x = leaf()
        y = ck.checkpoint(f, x, use_reentrant=False)
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        return list(calls), x.grad

    def with_grad(use_reentrant, how):
        x = leaf()
        y = ck.checkpoint(f, x, use_reentrant=use_reentrant)
        if how == "inputs":
            y.sum().backward(inputs=[x])
            return x.grad, list(calls)
        return lib.autograd.grad(y.sum(), x), list(calls)

    def several_outputs(use_reentrant):
        def m(a, k, b=None):
            return a * k, a.sin()

        x = leaf()
        out = ck.checkpoint(m, x, 2.0, use_reentrant=use_reentrant)
        (out[0] * out[1]).sum().backward()
        return type(out).__name__, [named(o) for o in out], x.grad

    def saved_read_outside_backward():
        y = ck.checkpoint(f, leaf(), use_reentrant=False)
        first = y.grad_fn._saved_result
        return first, y.grad_fn._saved_result, list(calls)

    class ReadTwice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            for _ in range(2):
                ctx.saved_tensors  # noqa: B018 - the second read is the point
            return grad * 2

    def unpacked_twice():
        x = leaf()
        y = ck.checkpoint(lambda a: ReadTwice.apply(a.sin()), x, use_reentrant=False)
        y.sum().backward()
        return x.grad

    def sequential(use_reentrant):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 4),
                                  lib.nn.ReLU(), lib.nn.Linear(4, 2))
        x = lib.tensor([[1.0, -2.0, 0.5], [0.25, 1.0, -1.0]], requires_grad=True)
        y = ck.checkpoint_sequential(model, 2, x, use_reentrant=use_reentrant)
        y.sum().backward()
        return named(y), y, x.grad, model[0].weight.grad

    def under_no_grad():
        with lib.no_grad():
            y = ck.checkpoint(f, leaf(), use_reentrant=False)
        return y.requires_grad, list(calls)

    def nested():
        x = leaf()
        y = ck.checkpoint(lambda a: ck.checkpoint(f, a * 2, use_reentrant=False).cos(), x,
                          use_reentrant=False)
        y.sum().backward()
        return list(calls), x.grad

    def second_derivative():
        x = leaf()
        y = ck.checkpoint(f, x, use_reentrant=False)
        g, = lib.autograd.grad(y.sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x)

    def bad_arguments():
        errors = []
        for call in (lambda: ck.checkpoint(f, leaf(), use_reentrant=False,
                                           determinism_check="strict"),
                     lambda: ck.checkpoint(f, leaf(), use_reentrant=True, debug=True)):
            try:
                call()
            except ValueError as error:
                errors.append(str(error))
        return errors

    def determinism_check_off():
        count = [0]

        def changing(a):
            count[0] += 1
            return a[:count[0] + 1].sin()

        x = leaf()
        y = ck.checkpoint(changing, x, use_reentrant=False, determinism_check="none")
        y.sum().backward()
        return x.grad

    scenarios = {
        "default is reentrant, with a warning": without_use_reentrant,
        "use_reentrant=False": lambda: run(False),
        "use_reentrant=True": lambda: run(True),
        "no input requires grad, reentrant": lambda: no_input_requires_grad(True),
        "no input requires grad, not reentrant": lambda: no_input_requires_grad(False),
        "backward twice, reentrant": lambda: backward_twice(True),
        "backward twice, not reentrant": lambda: backward_twice(False),
        "unexpected keyword, reentrant": lambda: unexpected_keyword(True),
        "unexpected keyword, not reentrant": lambda: unexpected_keyword(False),
        "saved-tensor hooks around it": outer_hooks,
        "saved-tensor hooks inside it": hooks_inside,
        "random numbers, not reentrant": lambda: random_numbers(False, True),
        "random numbers, reentrant": lambda: random_numbers(True, True),
        "random numbers not preserved": lambda: random_numbers(False, False),
        "early_stop=False": lambda: early_stop("argument"),
        "set_checkpoint_early_stop(False)": lambda: early_stop("context"),
        "rerun saves another shape": lambda: rerun_differs("shape"),
        "rerun saves fewer tensors": lambda: rerun_differs("fewer"),
        "rerun saves more tensors": lambda: rerun_differs("more"),
        "rerun saves more tensors, no early stop": lambda: rerun_differs("more, no stop"),
        "retain_graph: one rerun per backward": retain_graph,
        "autograd.grad, not reentrant": lambda: with_grad(False, "grad"),
        "autograd.grad, reentrant": lambda: with_grad(True, "grad"),
        "backward(inputs=), reentrant": lambda: with_grad(True, "inputs"),
        "several outputs and a number, not reentrant": lambda: several_outputs(False),
        "several outputs and a number, reentrant": lambda: several_outputs(True),
        "a saved tensor read outside backward": saved_read_outside_backward,
        "ctx.saved_tensors read twice": unpacked_twice,
        "checkpoint_sequential, not reentrant": lambda: sequential(False),
        "checkpoint_sequential, reentrant": lambda: sequential(True),
        "checkpoint_sequential without use_reentrant": lambda: sequential(None),
        "under no_grad": under_no_grad,
        "nested": nested,
        "second derivative": second_derivative,
        "bad arguments": bad_arguments,
        "determinism_check='none'": determinism_check_off,
    }
    return {name: (lambda s=s: (s(), list(calls))) for name, s in scenarios.items()}


CHECKPOINT_SCENARIOS = list(_checkpoint_scenarios(mg))


@pytest.mark.parametrize("name", CHECKPOINT_SCENARIOS)
def test_checkpoint_behaves_as_in_pytorch(torch, name):
    """What the checkpointed function runs and when, gradients, random numbers, warnings and
    errors (CheckpointError's messages included)."""
    import torch.utils.checkpoint  # torch loads it on demand only

    ours = _outcome(_checkpoint_scenarios(mg)[name])
    assert ours == _outcome(_checkpoint_scenarios(torch)[name])


def test_a_graph_saved_under_hooks_is_drawn_without_its_packed_values():
    """What pack_hook returned is not a tensor: show_saved draws the tensors saved outside
    the hooks only."""
    from minigrad import viz

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = (x * x).exp()
    z = y.sin().sum()
    source = viz.draw(z, view="backward", show_saved=True).source
    assert source.count("{saved:") == 1 and "MulBackward0" in source
