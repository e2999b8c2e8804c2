"""Every differentiable operation, each a `Function` with its forward and backward."""
