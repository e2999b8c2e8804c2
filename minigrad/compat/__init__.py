"""minigrad.compat: PyTorch's names for code written for other machines or older PyTorch.

Tutorials and old programs start with lines that have nothing to do with autograd: they pick a
device (`torch.device("cuda" if torch.cuda.is_available() else "cpu")`), wrap tensors in
`Variable`, or make them with `torch.FloatTensor`. So that such code runs unchanged, this folder
gives those names a meaning on a CPU-only, modern minigrad, and says plainly what minigrad leaves
out of PyTorch:

- device.py: `torch.device`, `torch.cuda`, `torch.backends`, `torch.accelerator`, and the check
  behind every `device=` argument (the CPU is fine, CUDA fails with PyTorch's own error);
- legacy.py: PyTorch 0.3's `torch.FloatTensor(...)` and friends, and `autograd.Variable`, which
  today are plain tensors;
- subset.py: the one-line error for a PyTorch name minigrad does not have (`torch.fft`,
  `nn.LSTM`), with what to use in the course instead.

None of it takes part in computing a gradient: a learner can skip this folder."""
