"""One clear line for what minigrad leaves out of PyTorch.

minigrad is the part of PyTorch this course needs. A program that reaches for another part
(`nn.Transformer`, `torch.fft`, `x.to_sparse`) gets an
AttributeError, so `hasattr` still answers False, whose message names the API, says that
minigrad is a subset of PyTorch, and what to use in the course instead. A name PyTorch does not
have either (a typo) gets PyTorch's own message, with a pointer to the list of what minigrad has
(docs/api.md)."""
from __future__ import annotations

# What to use instead, by the name a program writes (torch.X, torch.nn.X, ...).
INSTEAD = {
    "torch.compile": "call the model as it is",
    "torch.jit": "call the model as it is",
    "torch.fft": "numpy.fft on tensor.numpy()",
    "torch.profiler": "time.perf_counter() around the block",
    "torch.bfloat16": "torch.float32 (numpy has no bfloat16)",
    "torch.autocast": "float32 throughout (no mixed precision)",
    "torch.channels_last": "the default layout (contiguous)",
    "torch.nn.Transformer": "nn.Linear layers and softmax",
    "torch.nn.functional.embedding_bag": "F.embedding, then .sum(1) or .mean(1)",
    "torch.optim.SparseAdam": "optim.Adam: minigrad's tensors are dense",
    "Tensor.to_sparse": "dense tensors",
}

DOCS = "docs/api.md lists what it has"


def missing(owner: str, name: str, plain_message: str) -> AttributeError:
    """The error for `owner.name` (owner like 'torch.nn' or 'Tensor'); `plain_message` is the
    one Python would give, kept for names PyTorch does not have either."""
    qualified = f"{owner}.{name}"
    if qualified in INSTEAD:
        return AttributeError(f"minigrad is a subset of PyTorch: it has no {qualified}; in this "
                              f"course use {INSTEAD[qualified]}")
    return AttributeError(f"{plain_message} (minigrad is a subset of PyTorch: {DOCS})")


def module_getattr(owner: str, module_name: str):  # noqa: ANN201
    """A module-level __getattr__ for the module `module_name`, shown to learners as `owner`."""
    def __getattr__(name: str):  # noqa: ANN202, N807
        if name.startswith("__"):  # Python's and tools' probes (__path__, __wrapped__, ...)
            raise AttributeError(f"module '{module_name}' has no attribute '{name}'")
        raise missing(owner, name, f"module '{owner}' has no attribute '{name}'")

    return __getattr__
