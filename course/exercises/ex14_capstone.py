# %% [markdown]
# # Exercises 14 · Capstone: a classifier and its gradients
#
# Companion to [notebook 14](../notebooks/14_capstone.ipynb). A small network learns to tell two
# interleaved half-moons apart, with `torch.nn` and `torch.optim`. Replace each
# `# YOUR CODE HERE` with your answer, run the cell, then run the check below it.

# %%
import minigrad as torch
from minigrad_course.checks import capstone as check

xs, ys = check.two_moons()
print(xs.shape, ys.shape, ys[:10])


# %% [markdown]
# ## 1 · Fix the bug: a loop that stops at its second step
#
# The model is a `Sequential` of `Linear(2, 16)`, `Tanh()` and `Linear(16, 2)`; the loss is
# cross-entropy; the optimizer plain SGD. The data never change, so this loop computes the loss
# once and goes back through the same graph at every step, kept with `retain_graph=True`. Its
# first step works; its second raises:

# %%
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model(xs), ys)
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        losses.append(loss.item())
    return losses


model = check.make_model()
try:
    train(model, torch.optim.SGD(model.parameters(), lr=0.5), xs, ys, 100)
except RuntimeError as error:
    print("RuntimeError:", str(error).split(":")[0])


# %% [markdown]
# Write the fixed `train` below.

# %% grade_id="14-train"
### BEGIN SOLUTION
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()  # forget the last step's gradients before computing new ones
        loss = loss_fn(model(xs), ys)  # a new graph, from the parameters as they are now
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
### END SOLUTION


# %%
check.train(train)

# %% [markdown]
# ## 2 · Predict: a frozen layer
#
# ```python
# torch.manual_seed(0)
# model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
# model[0].requires_grad_(False)
# out = model(torch.ones(4, 2)).sum()
# out.backward()
# print(model[0].weight.grad)
# print(model[2].bias.grad)
# print(model[0].weight.requires_grad)
# ```
#
# Set `frozen_prints` to the three things it prints, each as a value: a number, a list of
# numbers (nested for a 2-D tensor), `None`, or `True`/`False`.

# %% grade_id="14-frozen"
### BEGIN SOLUTION
frozen_prints = [None, [4.0], False]
### END SOLUTION

# %%
check.frozen(frozen_prints)


# %% [markdown]
# ## 3 · Write it: clipping the gradient norm
#
# The notebook watched each layer's gradient norm. A loss that jumps can send every norm up at
# once, and one step with such gradients can undo the training so far. A common guard runs
# between `loss.backward()` and `optimizer.step()`: take the norm of *all* the gradients
# together, as if they were one long vector, and when it is above a limit, scale every gradient
# down by the same factor so that their joint norm is the limit.
#
# Write `clip_gradients(model, max_norm)`: the joint norm is the square root of the sum of every
# squared entry of every parameter's `.grad` (a parameter whose `.grad` is `None` adds
# nothing). When it is above `max_norm`, multiply each `.grad` by `max_norm / total`; otherwise
# leave them alone. Return the joint norm from before the scaling, as a Python float.
# (`torch.nn.utils.clip_grad_norm_` does this: write it without it.)

# %% grade_id="14-clip"
def clip_gradients(model, max_norm):
    ### BEGIN SOLUTION
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = sum((g ** 2).sum().item() for g in grads) ** 0.5
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)
    return total
    ### END SOLUTION


# %%
check.clip_gradients(clip_gradients)


# %% [markdown]
# ## 4 · Write it: accuracy, in the middle of training
#
# Write `accuracy(model, xs, ys)`: the fraction of points whose highest score (the `argmax` over
# dimension 1 of `model(xs)`) is their label, as a Python float. Notebook 14 measured it once,
# after training; here it is called between training steps, on a model with a
# `torch.nn.Dropout` layer. Evaluate the network as it will be used, with no hidden unit
# dropped and no graph recorded, and hand the model back as you got it, ready for the next
# training step (notebook 10).

# %% grade_id="14-accuracy"
def accuracy(model, xs, ys):
    ### BEGIN SOLUTION
    model.eval()  # dropout off: the network as it will be used
    with torch.no_grad():  # no graph: evaluation needs no gradients
        predicted = model(xs).argmax(dim=1)
    model.train()  # back to training mode for the next step
    return (predicted == ys).float().mean().item()
    ### END SOLUTION


# %%
check.accuracy(accuracy)

# %% [markdown]
# ## Summary
#
# - A training step is: reset the gradients, forward, `backward()`, `step()`. The forward pass
#   runs at every step, even on the same data: the last step's graph saved the parameters as
#   they were, and `step()` has changed them in place since.
# - Frozen parameters get no `.grad`.
# - Clipping takes the norm of all gradients together and, above a limit, scales every one by
#   the same factor, between `backward()` and `step()`.
# - Evaluate in `model.eval()` mode and under `torch.no_grad()`: the first changes what
#   layers such as dropout compute, the second what autograd records; then `model.train()`.
#
# Next: [exercises 15](ex15_second_derivatives.ipynb).
