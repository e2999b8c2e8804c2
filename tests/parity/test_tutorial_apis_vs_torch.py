"""The APIs the tutorial corpus needs (tests/corpus/), each run on minigrad and on PyTorch 2.13:
the same values, gradients, printed text, warnings and errors (type and message).

A case is a function of the library (`torch` or `minigrad`) returning what is compared."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest

import minigrad

from harness.parity import assert_same_as_torch, outcome


def _x(lib: Any) -> Any:
    return lib.tensor([7.0, -3.0, 5.5], requires_grad=True)


def _grads_after(lib: Any, make: Callable[[Any, Any], Any]) -> Any:
    x = _x(lib)
    make(lib, x).sum().backward()
    return x.grad


def _seed_everything(lib: Any) -> Any:
    """The seeding cell of the UvA and d2l notebooks: CUDA's generators and cuDNN's switches
    are set (and change nothing on a CPU)."""
    lib.manual_seed(42)
    lib.cuda.manual_seed(42)
    lib.cuda.manual_seed_all(42)
    defaults = (lib.backends.cudnn.deterministic, lib.backends.cudnn.benchmark,
                lib.backends.cudnn.enabled, lib.backends.mps.is_available())
    lib.backends.cudnn.deterministic, lib.backends.cudnn.benchmark = True, False
    set_to = (lib.backends.cudnn.deterministic, lib.backends.cudnn.benchmark)
    lib.backends.cudnn.deterministic = False
    return defaults, set_to, lib.rand(2)


CASES: dict[str, Callable[[Any], Any]] = {
    # the device boilerplate
    "device": lambda lib: (lib.device("cpu"), lib.device("cuda:0"), lib.device("cuda", 1),
                           str(lib.device("cuda", 0)), lib.device("cpu") == lib.device("cpu"),
                           lib.device("cpu") == "cpu"),
    "device_bad": lambda lib: lib.device("gpu"),
    "cuda_is_available": lambda lib: (lib.cuda.is_available(), lib.cuda.device_count()),
    "seeding every generator": lambda lib: _seed_everything(lib),
    "tensor_on_cuda": lambda lib: lib.zeros(2, device="cuda"),
    # ragged nested lists (Zero to GANs, lesson 1): PyTorch names the dim and the lengths
    "tensor of ragged rows": lambda lib: lib.tensor([[5., 6, 11], [7, 8], [9, 10]]),
    "tensor of a short row": lambda lib: lib.tensor([[1, 2], [3]]),
    "tensor of a ragged third dim": lambda lib: lib.tensor([[[1, 2], [3, 4]], [[1, 2], [3]]]),
    "tensor of an empty row after a full one": lambda lib: lib.tensor([[1.0, 2.0], []]),
    "tensor of a number among rows": lambda lib: lib.tensor([[1, 2], 3]),
    "tensor of an empty first row": lambda lib: lib.tensor([[], [1.0]]),
    "tensor_to_cuda": lambda lib: lib.ones(2).to("cuda"),
    "tensor_cuda": lambda lib: lib.ones(2).cuda(),
    "factories_on_cpu": lambda lib: [f(device=lib.device("cpu")) for f in (
        lambda **k: lib.zeros(2, **k), lambda **k: lib.ones((2,), **k),
        lambda **k: lib.full((2,), 3.0, **k), lambda **k: lib.arange(3, **k),
        lambda **k: lib.linspace(0, 1, 3, **k), lambda **k: lib.eye(2, **k),
        lambda **k: lib.tensor([1.0], **k), lambda **k: lib.empty(0, **k))],
    "to_device_and_dtype": lambda lib: (lib.ones(2).to("cpu"), lib.ones(2).to("cpu", lib.float64),
                                        lib.ones(2).to(dtype=lib.int64), lib.ones(2).device),
    "module_to": lambda lib: lib.nn.Linear(2, 1).to(lib.device("cpu")).to(lib.float64).weight.dtype,
    "module_to_cuda": lambda lib: lib.nn.Linear(2, 1).to("cuda"),
    # (set back to None: PyTorch's default device, once set, stays a mode for later tests, whose
    # warnings then name torch/utils/_device.py as where they came from)
    "set_default_device": lambda lib: (lib.set_default_device("cpu"), lib.zeros(1).device,
                                       lib.set_default_device(None)),
    # random numbers, bit for bit
    "randn_small": lambda lib: (lib.manual_seed(3), lib.randn(5).tolist())[1],
    "randn_scalars": lambda lib: (lib.manual_seed(3),
                                  [lib.randn(()).item() for _ in range(5)])[1],
    "randn_large": lambda lib: (lib.manual_seed(4), lib.randn(1000).numpy().tobytes().hex())[1],
    "randn_odd_size": lambda lib: (lib.manual_seed(5), lib.randn(37, 3).tolist())[1],
    "randn_double": lambda lib: (lib.manual_seed(5),
                                 lib.randn(40, dtype=lib.float64).tolist())[1],
    "rand": lambda lib: (lib.manual_seed(6), lib.rand(4, 3).tolist(),
                         lib.rand(5, dtype=lib.float64).tolist())[1:],
    "randint": lambda lib: (lib.manual_seed(7), lib.randint(0, 10, (12,)).tolist(),
                            lib.randint(5, (3,)).tolist())[1:],
    "randperm": lambda lib: (lib.manual_seed(8), lib.randperm(10).tolist())[1],
    "normal": lambda lib: (lib.manual_seed(9), lib.normal(2 * lib.ones(20, 2), 1).tolist(),
                           lib.normal(0.0, 2.0, (3,)).tolist())[1:],
    "uniform_normal_in_place": lambda lib: (lib.manual_seed(10),
                                            lib.empty(30).uniform_(-2, 3).tolist(),
                                            lib.empty(30).normal_(1.5, 0.5).tolist())[1:],
    "generator_object": lambda lib: (
        lib.randn(4, generator=lib.Generator().manual_seed(2147483647)).tolist(),
        lib.rand(3, generator=lib.Generator().manual_seed(2147483647)).tolist()),
    "linear_init": lambda lib: (lib.manual_seed(11), lib.nn.Linear(5, 3).weight.tolist(),
                                lib.nn.Linear(784, 2).bias.tolist())[1:],
    "rng_state_round_trip": lambda lib: (lib.manual_seed(12), state := lib.get_rng_state(),
                                         a := lib.randn(3).tolist(), lib.set_rng_state(state),
                                         lib.randn(3).tolist() == a)[-1],
    "randn_size_keyword": lambda lib: (lib.manual_seed(13), lib.randn(size=(2,)).tolist(),
                                       lib.zeros(size=(2, 1)).shape)[1:],
    # legacy names
    "FloatTensor": lambda lib: (lib.FloatTensor([[1, 2], [3, 4]]), lib.FloatTensor(2, 3).shape,
                                repr(lib.FloatTensor), lib.LongTensor([1.7]),
                                lib.FloatTensor().shape, lib.LongTensor()),  # empty, not 0-d
    "type_cast": lambda lib: (lib.tensor([1.5, 2.0]).type(lib.LongTensor),
                              lib.tensor([1, 2]).type("torch.DoubleTensor"),
                              lib.tensor([1.0]).type(), isinstance(lib.ones(1), lib.FloatTensor)),
    "Variable": lambda lib: (v := lib.autograd.Variable(lib.ones(2), requires_grad=True),
                             (v * v).sum().backward(), v.grad)[::2],
    "tensor_of_tensor_warns": lambda lib: lib.tensor(lib.ones(2)),
    # arithmetic
    "floordiv": lambda lib: (_x(lib) // 2, 7 // lib.tensor([2, -3]), lib.tensor([7, -7]) // 2),
    "floordiv_backward": lambda lib: _grads_after(lib, lambda lib, x: x // 2),
    "mod": lambda lib: (_x(lib) % 2, lib.tensor([7, -7]) % 3, 5.5 % lib.tensor([2.0, -2.0])),
    "mod_grads": lambda lib: _grads_after(lib, lambda lib, x: x % 2),
    "mod_grads_divisor": lambda lib: (d := lib.tensor([2.0, -4.0, 3.0], requires_grad=True),
                                      (lib.tensor([7.0, 5.0, -4.0]) % d).sum().backward(),
                                      d.grad)[2],
    "div_rounding": lambda lib: [lib.div(_x(lib), 2, rounding_mode=m) for m in
                                 (None, "floor", "trunc")] + [
        lib.div(lib.tensor([7, -7]), 2, rounding_mode="trunc")],
    "div_rounding_grads": lambda lib: _grads_after(
        lib, lambda lib, x: lib.div(x, 2, rounding_mode="floor")),
    "div_bad_mode": lambda lib: lib.div(_x(lib), 2, rounding_mode="round"),
    "nelement_norm_keepdims": lambda lib: (_x(lib).nelement(), _x(lib).norm(),
                                           _x(lib).sum(0, keepdims=True),
                                           lib.ones(2, 3).sum(1, keepdims=True)),
    # nn
    "flatten": lambda lib: (lib.nn.Flatten(), lib.nn.Flatten(0, 1),
                            lib.nn.Flatten()(lib.ones(2, 3, 4)).shape,
                            lib.nn.Flatten(0, 1)(lib.ones(5, 1)).shape),
    "softmax_module": lambda lib: (lib.nn.Softmax(dim=1),
                                   lib.nn.Softmax(dim=1)(lib.tensor([[1.0, 2.0, 3.0]]))),
    "one_hot": lambda lib: (lib.nn.functional.one_hot(lib.tensor([0, 2, 1])),
                            lib.nn.functional.one_hot(lib.tensor([0, 5]), num_classes=6).float()),
    "one_hot_errors": lambda lib: [outcome(c, lib)[0] for c in (
        lambda lib: lib.nn.functional.one_hot(lib.tensor([0.0])),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([3]), num_classes=2),
        lambda lib: lib.nn.functional.one_hot(lib.tensor([-1])))],
    "bce_with_logits": lambda lib: (
        z := lib.tensor([[0.5, -2.0, 30.0], [-40.0, 0.0, 1.5]], requires_grad=True),
        y := lib.tensor([[0.0, 1.0, 1.0], [0.0, 0.5, 0.0]]),
        loss := lib.nn.functional.binary_cross_entropy_with_logits(z, y),
        loss.backward(), z.grad,
        lib.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="sum"),
        lib.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="none"),
        lib.nn.BCEWithLogitsLoss(pos_weight=lib.tensor([1.0, 2.0, 3.0]))(z, y))[2:],
    "bce_with_logits_pos_weight_grad": lambda lib: (
        z := lib.tensor([0.5, -2.0, 3.0], requires_grad=True),
        lib.nn.functional.binary_cross_entropy_with_logits(
            z, lib.tensor([0.0, 1.0, 0.3]), pos_weight=lib.tensor([2.0, 3.0, 0.5])).backward(),
        z.grad)[2],
    "bce_shape_error": lambda lib: lib.nn.functional.binary_cross_entropy_with_logits(
        lib.ones(3), lib.ones(2)),
    "rmsprop_bad_lr": lambda lib: lib.optim.RMSprop([_x(lib)], lr=-1),
    # grad mode
    "inference_mode": lambda lib: (lib.is_inference_mode_enabled(),
                                   _in_inference(lib), (_x(lib) * 2).requires_grad,
                                   lib.inference_mode()(lambda: (_x(lib) * 2).requires_grad)()),
    # autograd's argument checks, in PyTorch's order
    "backward_empty_inputs": lambda lib: (_x(lib) * 2).sum().backward(inputs=[]),
    "backward_inputs_intermediate": lambda lib: (
        x := _x(lib), h := x * 2, (h * 3).sum().backward(inputs=[h]),
        h.retains_grad, h.grad, x.grad)[3:],
    "grad_empty_inputs": lambda lib: lib.autograd.grad((_x(lib) * 2).sum(), []),
    "grad_output_not_tensor": lambda lib: lib.autograd.backward([1.0]),
    "grad_order_non_scalar_first": lambda lib: lib.autograd.grad(_x(lib) * 2, [lib.ones(3)]),
    "grad_order_output_before_input": lambda lib: lib.autograd.grad(lib.ones(3) * 2,
                                                                    [lib.ones(3)]),
    "backward_order": lambda lib: lib.autograd.backward(_x(lib) * 2, inputs=[lib.ones(3)]),
    "gradcheck_float32_warning": lambda lib: lib.autograd.gradcheck(
        lambda a: a * 2, (lib.tensor([1.0, 2.0], requires_grad=True),)),
    "matmul_dtype": lambda lib: [outcome(c, lib)[0] for c in (
        lambda lib: lib.ones(3) @ lib.arange(3),
        lambda lib: lib.ones(2, 3) @ lib.ones(3, 2, dtype=lib.int64))],
}


def _in_inference(lib: Any) -> tuple:
    with lib.inference_mode():
        return (_x(lib) * 2).requires_grad, lib.is_inference_mode_enabled(), lib.is_grad_enabled()


def _optimised(lib: Any, make: Callable[[Any], Any]) -> list:
    w = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    optimizer = make([w])
    seen = []
    for step in range(4):
        optimizer.zero_grad()
        ((w * lib.tensor([[1.0, 2.0], [3.0, 4.0]])) ** 2).sum().backward()
        optimizer.step()
        seen.append(w.detach().tolist())
    return seen


@pytest.mark.parametrize("options", [{}, {"alpha": 0.9, "momentum": 0.5, "centered": True,
                                                                   "weight_decay": 0.1}])
def test_rmsprop_follows_torch(options: dict, torch) -> None:
    """To float32 rounding: the first steps agree bit for bit, later ones within an ulp or two
    (PyTorch's kernels round a few intermediate steps differently)."""
    mine = _optimised(minigrad, lambda params: minigrad.optim.RMSprop(params, lr=0.01, **options))
    theirs = _optimised(torch, lambda params: torch.optim.RMSprop(params, lr=0.01, **options))
    assert mine[0] == theirs[0]
    np.testing.assert_allclose(mine, theirs, rtol=1e-6, atol=1e-7)


def test_a_typo_gets_pytorchs_message_and_a_pointer(torch) -> None:
    with pytest.raises(AttributeError) as caught:
        minigrad.tensr  # noqa: B018
    with pytest.raises(AttributeError) as expected:
        torch.tensr  # noqa: B018
    assert str(caught.value) == (f"{expected.value} (minigrad is a subset of PyTorch: "
                                 "docs/api.md lists what it has)")


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name: str, torch) -> None:
    assert_same_as_torch(CASES[name], torch)


def test_float32_normals_take_pytorchs_avx2_path_bit_for_bit(torch) -> None:
    """80,000 normal numbers in float32 (the vectorised Box-Muller), over 20 seeds."""
    for seed in range(20):
        torch.manual_seed(seed)
        minigrad.manual_seed(seed)
        assert np.array_equal(torch.randn(4096).numpy(), minigrad.randn(4096).numpy()), seed


def test_float64_normals_are_pytorchs_bit_for_bit(torch) -> None:
    """40,000 normal numbers in float64 (Box-Muller with the C library's log, sin and cos)
    over 10 seeds, then a batch of images' worth of float32 ones (fidelity/generator.py
    makes all blocks of 16 at once)."""
    for seed in range(10):
        torch.manual_seed(seed)
        minigrad.manual_seed(seed)
        assert np.array_equal(torch.randn(4000, dtype=torch.float64).numpy(),
                              minigrad.randn(4000, dtype=minigrad.float64).numpy()), seed
    assert np.array_equal(torch.randn(64, 3, 32, 32).numpy(),
                          minigrad.randn(64, 3, 32, 32).numpy())


# ---- float fidelity (minigrad/fidelity/ranges.py and vector_math.py) --------------------------

RANGES = [(-8.0, 8.0, 0.1), (0, 1, 0.01), (-3.3, 7.7, 0.037), (0.5, 100.3, 0.31), (10, 0, -0.3),
          (1e-3, 5.0, 1e-3), (0, 1e4, 0.7), (0.0, 1.0, 0.3), (5,), (0, 2.5)]
SPACES = [(-math.pi, math.pi, 2000), (-1, 1, 100), (0, 2 * math.pi, 50), (-10, 10, 1000),
          (0.1, 7.3, 33), (3, -2, 11), (0, 1, 1), (0, 1, 0), (-1e3, 1e3, 100001)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_ranges_are_pytorchs_bit_for_bit(dtype: str, torch) -> None:
    """arange with a float step and linspace: every value's last bit as PyTorch 2.13's kernel
    makes it (arange(-8.0, 8.0, 0.1)[-1] is 7.8999996, not 7.9000001)."""
    for make, cases in ((lambda lib, *a: lib.arange(*a, dtype=getattr(lib, dtype)), RANGES),
                        (lambda lib, *a: lib.linspace(*a, dtype=getattr(lib, dtype)), SPACES)):
        for args in cases:
            expected = make(torch, *args).numpy()
            got = make(minigrad, *args).numpy()
            assert got.dtype == expected.dtype and np.array_equal(got, expected), args
    assert repr(minigrad.arange(-8.0, 8.0, 0.1)[-1].item()) == "7.899999618530273"


def test_tanh_backward_is_pytorchs_bit_for_bit(torch) -> None:
    """grad * (1 - y*y) with the inner multiply-add fused, as PyTorch's kernel rounds it: the
    gradient of every element equals PyTorch's (given the same tanh)."""
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        y = np.tanh(rng.uniform(-3, 3, 20000)).astype(dtype)
        grad = rng.standard_normal(20000).astype(dtype)
        expected = torch.ops.aten.tanh_backward(torch.from_numpy(grad), torch.from_numpy(y))
        got = minigrad.fidelity.vector_math.tanh_backward_like_torch(grad, y)
        assert np.array_equal(got, expected.numpy()), dtype


@pytest.mark.parametrize(("name", "least"), [("tanh", 0.995), ("sin", 0.93), ("cos", 0.93),
                                           ("exp", 0.98), ("log", 0.9)])
def test_float32_vector_math_agrees_with_pytorchs_mkl_as_measured(name: str, least: float,
                                                                  torch) -> None:
    """PyTorch's x86-64 builds compute these with Intel MKL's closed vector math, which is not
    correctly rounded; minigrad's correctly rounded values agree on at least `least` of the
    inputs (measured: 99.9%, 95%, 95%, 99%, 92%; numpy's float32: 66%, 88%, 84%, 61%, 84%)."""
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-10, 10, 20000), rng.uniform(-1, 1, 20000),
                        rng.standard_normal(20000) * 3]).astype(np.float32)
    if name == "log":
        x = np.abs(x) + np.float32(1e-3)
    expected = getattr(torch, name)(torch.from_numpy(x)).numpy()
    agree = np.mean(getattr(minigrad, name)(minigrad.tensor(x)).numpy() == expected)
    assert agree >= least
    assert agree > np.mean(getattr(np, name)(x) == expected)  # better than numpy's float32

# ---- what minigrad leaves out: one line, still an AttributeError ------------------------

LEFT_OUT = [("minigrad", "fft", "torch.fft"),
            ("minigrad.nn", "Transformer", "torch.nn.Transformer"),
            ("minigrad.nn.functional", "embedding_bag", "torch.nn.functional.embedding_bag"),
            ("minigrad.optim", "SparseAdam", "torch.optim.SparseAdam"),
            ("minigrad.autograd", "forward_ad", None)]


@pytest.mark.parametrize(("module", "name", "qualified"), LEFT_OUT)
def test_a_left_out_api_gets_one_line(module: str, name: str, qualified: str | None) -> None:
    import importlib

    owner = importlib.import_module(module)
    assert not hasattr(owner, name)
    with pytest.raises(AttributeError) as caught:
        getattr(owner, name)
    message = str(caught.value)
    assert "\n" not in message and "minigrad is a subset of PyTorch" in message
    if qualified:
        assert f"it has no {qualified}; in this course use " in message


def test_a_left_out_tensor_method_gets_one_line() -> None:
    x = minigrad.ones(2)
    assert not hasattr(x, "to_sparse")
    with pytest.raises(AttributeError, match=r"^minigrad is a subset of PyTorch: it has no "
                                             r"Tensor.to_sparse; in this course use "
                                             r"dense tensors$"):
        x.to_sparse()
    with pytest.raises(AttributeError, match=r"^'Tensor' object has no attribute 'nonsense' "
                                             r"\(minigrad is a subset of PyTorch: docs/api.md"):
        x.nonsense  # noqa: B018


def test_probes_by_tools_get_plain_errors() -> None:
    """Dunder lookups (pickle, IPython, inspect) get Python's plain error, quickly."""
    with pytest.raises(AttributeError, match=r"^module 'minigrad' has no attribute '__wrapped__'$"):
        minigrad.__wrapped__  # noqa: B018


def test_the_unseeded_default_is_pytorchs_old_fixed_seed(torch) -> None:
    """PyTorch 2.13 seeds itself from the system at start; minigrad keeps PyTorch's documented
    default seed, so that notebooks print the same on every run."""
    import subprocess
    import sys

    code = "import minigrad; print(minigrad.initial_seed(), minigrad.randn(2).tolist())"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)}
    assert len(runs) == 1 and runs.pop().startswith("67280421310721 ")
    torch.manual_seed(67280421310721)
    expected = torch.randn(2).tolist()
    minigrad.manual_seed(67280421310721)
    assert minigrad.randn(2).tolist() == expected
    assert not math.isnan(expected[0])
