"""One clear line for what minigrad leaves out of PyTorch.

minigrad is the part of PyTorch this course needs. A program that reaches for another part
(`nn.LSTM`, `torch.fft`, `x.masked_fill`) gets an
AttributeError, so `hasattr` still answers False, whose message names the API, says that
minigrad is a subset of PyTorch, and what to use in the course instead. A name PyTorch does not
have either (a typo) gets PyTorch's own message, with a pointer to the list of what minigrad has
(docs/api.md)."""
from __future__ import annotations

# What to use instead, by the name a program writes (torch.X, torch.nn.X, ...).
INSTEAD = {
    "torch.multinomial": "sample with numpy: numpy.random.default_rng(seed).choice(len(p), "
                         "p=p.numpy())",
    "torch.bernoulli": "compare with uniform numbers: (torch.rand(shape) < p).float()",
    "torch.compile": "call the model as it is",
    "torch.jit": "call the model as it is",
    "torch.fft": "numpy.fft on tensor.numpy()",
    "torch.distributions": "torch.randn / torch.rand, scaled and shifted",
    "torch.sort": "numpy.sort on tensor.numpy()",
    "torch.topk": "torch.max or torch.argmax",
    "torch.nn.Dropout": "no dropout: the course's models are small",
    "torch.nn.BatchNorm1d": "no normalisation layer: standardise the inputs once, "
                            "(X - X.mean(0)) / X.std(0)",
    "torch.nn.BatchNorm2d": "no normalisation layer: standardise the inputs once",
    "torch.nn.LayerNorm": "no normalisation layer: standardise the inputs once",
    "torch.nn.Embedding": "F.one_hot(indices, n).float() @ weight, a Parameter",
    "torch.nn.RNN": "a Python loop over the time steps with nn.Linear and torch.tanh",
    "torch.nn.LSTM": "a Python loop over the time steps with nn.Linear and torch.tanh",
    "torch.nn.GRU": "a Python loop over the time steps with nn.Linear and torch.tanh",
    "torch.nn.Transformer": "nn.Linear layers and softmax",
    "torch.nn.Softplus": "torch.log(1 + torch.exp(x))",
    "torch.nn.GELU": "nn.ReLU, nn.Tanh or nn.Sigmoid",
    "torch.nn.ELU": "nn.ReLU or nn.LeakyReLU",
    "torch.nn.NLLLoss": "F.nll_loss",
    "torch.nn.init": "assign in torch.no_grad(): layer.weight.copy_(...) or .uniform_(a, b)",
    "torch.nn.functional.dropout": "no dropout: the course's models are small",
    "torch.nn.functional.softplus": "torch.log(1 + torch.exp(x))",
    "torch.nn.functional.gelu": "F.relu, torch.tanh or torch.sigmoid",
    "torch.nn.functional.embedding": "F.one_hot(indices, n).float() @ weight",
    "torch.optim.AdamW": "optim.Adam(params, weight_decay=...)",
    "torch.optim.Adagrad": "optim.RMSprop, optim.Adam or optim.SGD",
    "torch.optim.lr_scheduler": "set group['lr'] in optimizer.param_groups yourself between epochs",
    "Tensor.masked_fill": "torch.where(mask, value, x)",
    "Tensor.topk": "x.max(dim) or x.argmax(dim)",
    "Tensor.sort": "numpy.sort on x.numpy()",
    "Tensor.to_sparse": "dense tensors",
    "Tensor.softmax": "F.softmax(x, dim)",
    "Tensor.log_softmax": "F.log_softmax(x, dim)",
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
