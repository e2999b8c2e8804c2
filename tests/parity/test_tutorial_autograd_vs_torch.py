"""torch.autograd.functional (vjp, jvp, hessian, hvp, vhp, jacobian with create_graph),
gradgradcheck, @once_differentiable, the profiler's context manager, and torch.save /
torch.load, against real PyTorch. Skipped without PyTorch."""
from __future__ import annotations

import importlib
import io
import pickle

import pytest

import minigrad as mg


def _cubic(x):
    return (x ** 3).sum() + x[0] * x[1]


def _mixed(x, y):
    return (x * y.exp()).sum()


def _square(x):
    return x ** 2 * 3


FUNCTIONAL = {
    "vjp": lambda L, x: L.autograd.functional.vjp(_square, x, L.ones(3, dtype=x.dtype)),
    "vjp of a scalar, v=None": lambda L, x: L.autograd.functional.vjp(_cubic, x),
    "jvp": lambda L, x: L.autograd.functional.jvp(_square, x, L.tensor([1.0, 0, 2],
                                                                       dtype=x.dtype)),
    "hessian": lambda L, x: L.autograd.functional.hessian(_cubic, x),
    "hessian of two inputs": lambda L, x: L.autograd.functional.hessian(_mixed, (x, x * 0.5)),
    "hvp": lambda L, x: L.autograd.functional.hvp(_cubic, x, L.tensor([1.0, 0, 2],
                                                                      dtype=x.dtype)),
    "vhp": lambda L, x: L.autograd.functional.vhp(_cubic, x, L.tensor([1.0, 0, 2],
                                                                      dtype=x.dtype)),
    "jacobian(create_graph=True)": lambda L, x: L.autograd.functional.jacobian(
        _square, x, create_graph=True),
    "vjp without v": lambda L, x: L.autograd.functional.vjp(_square, x),
    "hvp of a vector": lambda L, x: L.autograd.functional.hvp(_square, x, x),
}


@pytest.mark.parametrize("name", FUNCTIONAL)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_functional_matches_torch(torch, name, dtype):
    seen = []
    for lib in (mg, torch):
        x = lib.tensor([1.0, 2.0, 3.0], dtype=getattr(lib, dtype))
        try:
            seen.append(repr(FUNCTIONAL[name](lib, x)).replace(" object at", ""))
        except Exception as error:  # noqa: BLE001 - the error is part of what is compared
            seen.append((type(error).__name__, str(error)))
    assert seen[0] == seen[1]


def test_gradgradcheck_answers_and_draws_as_torch(torch):
    """Its random weights come from the default generator: the numbers drawn after agree."""
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        x = lib.tensor([0.5, 1.5, -0.3], dtype=lib.float64, requires_grad=True)
        y = lib.tensor([0.1, 0.2, 0.3], dtype=lib.float64, requires_grad=True)
        seen.append((lib.autograd.gradgradcheck(lambda t: (t ** 3).sin(), x),
                     lib.autograd.gradgradcheck(lambda a, b: a * b.exp(), (x, y)),
                     lib.rand(3).tolist()))
    assert seen[0] == seen[1]


def _once(lib):
    function = importlib.import_module(f"{lib.__name__}.autograd.function")

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 2 * x

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    Square.apply(x).sum().backward()
    out = [repr(x.grad)]
    (g,) = lib.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    out.append((g.requires_grad, repr(g)))
    with lib.autograd.profiler.profile() as prof:
        (x * 2).sum().backward()
    out.append((repr(x.grad), prof.enabled))
    return out


def test_once_differentiable_and_profiler_block(torch):
    assert _once(mg) == _once(torch)


def test_profiler_results_say_minigrad_times_nothing():
    with mg.autograd.profiler.profile() as prof:
        mg.ones(2).sum()
    with pytest.raises(NotImplementedError, match="^minigrad is a subset of PyTorch: "):
        prof.key_averages()


def test_save_and_load_round_trip(tmp_path):
    """Tensors, parameters and a state_dict load back equal, as leaves with requires_grad
    kept (the file is minigrad's own pickle: PyTorch's format is not read or written)."""
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.ReLU(), mg.nn.Linear(4, 1))
    path = tmp_path / "model.pt"
    mg.save(model.state_dict(), path)
    other = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.ReLU(), mg.nn.Linear(4, 1))
    assert str(other.load_state_dict(mg.load(path, weights_only=True))) == \
        "<All keys matched successfully>"
    for a, b in zip(model.parameters(), other.parameters()):
        assert mg.equal(a, b) and b.is_leaf and b.requires_grad
    buffer = io.BytesIO()
    w = mg.nn.Parameter(mg.randn(2, 2))
    mg.save({"x": mg.arange(3), "w": w, "y": mg.ones(2, requires_grad=True) * 2,
             "list": [mg.tensor(1.5, dtype=mg.float64)]}, buffer)
    buffer.seek(0)
    back = mg.load(buffer)
    assert repr(back["x"]) == "tensor([0, 1, 2])"
    assert type(back["w"]).__name__ == "Parameter" and mg.equal(back["w"], w)
    # a result loads as a leaf that keeps requires_grad (as in PyTorch: compared with it below)
    assert repr(back["y"]) == "tensor([2., 2.], requires_grad=True)" and back["y"].is_leaf
    assert repr(back["list"]) == "[tensor(1.5000, dtype=torch.float64)]"


def test_save_load_prints_as_torch(torch, tmp_path):
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = lib.nn.Linear(2, 2)
        lib.save(layer.state_dict(), tmp_path / f"{lib.__name__}.pt")
        seen.append(repr(lib.load(tmp_path / f"{lib.__name__}.pt")))
    assert seen[0] == seen[1]


def test_a_saved_result_loads_as_a_leaf_that_requires_grad_as_torch(torch, tmp_path):
    """A checkpoint's 'loss' (PyTorch's saving-and-loading tutorial) is a result with a
    grad_fn: saved and pickled, it comes back as a leaf that requires grad, as in PyTorch."""
    import pickle
    seen = []
    for lib in (mg, torch):
        x = lib.ones(2, requires_grad=True)
        saved = {"loss": (x * 2).sum(), "row": x[0], "plain": (x * 2).detach(), "leaf": x}
        lib.save(saved, tmp_path / f"{lib.__name__}.pt")
        loaded = lib.load(tmp_path / f"{lib.__name__}.pt")
        pickled = pickle.loads(pickle.dumps(x * 3))
        seen.append((repr(loaded), [t.is_leaf for t in loaded.values()], repr(pickled)))
    assert seen[0] == seen[1]


def test_load_refuses_a_saved_numpy_array_unless_told_as_torch(torch, tmp_path):
    """pytorch/examples' time-sequence data is a numpy array saved with torch.save: PyTorch
    2.13's default weights-only load refuses it (numpy's _reconstruct), and loads it with
    weights_only=False; tensors of every kind still load."""
    import numpy as np
    seen = []
    for lib in (mg, torch):
        path = tmp_path / f"{lib.__name__}.pt"
        outcome = []
        for saved in (np.ones(3), {"a": np.float64(2.0)}):
            lib.save(saved, path)
            try:
                lib.load(path)
                outcome.append("loaded")
            except Exception as error:  # noqa: BLE001 - the type is compared below
                outcome.append(f"{type(error).__name__}: {error}")
        outcome.append(repr(lib.load(path, weights_only=False)))
        lib.save({"t": lib.arange(6.).reshape(2, 3).t(), "s": lib.tensor(3.5),
                  "e": lib.zeros(0, 3), "h": lib.ones(2, dtype=lib.float16)}, path)
        outcome.append(repr(lib.load(path)))
        seen.append(outcome)
    assert seen[0] == seen[1]


class _Net:  # a module-level class, so that both libraries pickle it by name
    pass


def test_load_refuses_a_whole_model_unless_allowed_as_torch(torch, tmp_path):
    """PyTorch 2.6+ loads weights only by default: a model saved whole (`torch.save(model,
    path)`, as older tutorials do) raises UnpicklingError naming its class, loads with
    weights_only=False or inside safe_globals; plain containers, dtypes, sizes and optimizer
    state load as before."""
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(2, 1)
        optimizer = lib.optim.Adam(model.parameters())
        model(lib.ones(1, 2)).sum().backward()
        optimizer.step()
        saved = {"model": model, "net": _Net()}
        seen = []
        for name, obj in saved.items():
            path = tmp_path / f"{lib.__name__}-{name}.pt"
            lib.save(obj, path)
            with pytest.raises(Exception) as info:
                lib.load(path)
            seen.append((type(info.value).__name__, str(info.value)))
            seen.append(type(lib.load(path, weights_only=False)).__name__)
        with lib.serialization.safe_globals([_Net]):
            seen.append(type(lib.load(tmp_path / f"{lib.__name__}-net.pt")).__name__)
        seen.append(type(lib.load(tmp_path / f"{lib.__name__}-net.pt",
                                  pickle_module=pickle)).__name__)
        with pytest.raises(Exception) as info:
            lib.load(tmp_path / f"{lib.__name__}-net.pt", pickle_module=pickle,
                     weights_only=True)
        seen.append((type(info.value).__name__, str(info.value)))
        plain = {"sizes": lib.ones(2, 3).shape, "dtype": lib.float64, "set": {1}, "b": b"x",
                 "optimizer": optimizer.state_dict(), "list": [1.5, (2, "a")]}
        lib.save(plain, tmp_path / f"{lib.__name__}-plain.pt")
        seen.append(repr(lib.load(tmp_path / f"{lib.__name__}-plain.pt")))
        return seen
    ours, theirs = run(mg), run(torch)
    assert ours[0][1].replace("minigrad.nn.layers.Linear", "torch.nn.modules.linear.Linear") \
        == theirs[0][1]
    assert ours[1:] == theirs[1:]
