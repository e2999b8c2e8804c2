"""minigrad.compat: PyTorch's names for code written for other machines or older PyTorch.

Tutorials and old programs start with lines that have nothing to do with autograd: they pick a
device (`torch.device("cuda" if torch.cuda.is_available() else "cpu")`), wrap tensors in
`Variable`, or make them with `torch.FloatTensor`. So that such code runs unchanged, this folder
gives those names a meaning on a CPU-only, modern minigrad, and says plainly what minigrad leaves
out of PyTorch:

- device.py: `torch.cuda`, `torch.backends`, `torch.accelerator` (`torch.device` itself, and the
  check behind every `device=` argument, are the core's: minigrad/_device.py);
- legacy.py: PyTorch 0.3's `torch.FloatTensor(...)` and friends, `x.type(...)` and
  `autograd.Variable`, which today are plain tensors;
- storage.py: `stride()`, `storage_offset()`, `data_ptr()` and `storage()`, read from the numpy
  array under a tensor;
- serialization.py: `torch.save` and `torch.load`.

The core never imports this folder: legacy.py and storage.py give Tensor (and autograd) their
names when minigrad/__init__.py imports them, on top of the core. (What minigrad leaves out of
PyTorch is said by minigrad/_subset.py, which the core's modules use.) None of it takes part in
computing a gradient: a learner can skip this folder."""
