"""minigrad.utils: what torch.utils offers that the course needs (hooks' handles)."""
