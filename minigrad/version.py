"""torch.version: what the build was made with. minigrad's has no CUDA (nor ROCm), as PyTorch's
CPU build says with None, which `print(torch.version.cuda)` in a tutorial shows."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
