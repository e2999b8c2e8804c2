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
# ## 3 · Write it: gradient norms per layer
#
# Looking at the size of each layer's gradient is the first step in debugging a network that
# does not learn (vanishing or exploding gradients). Write `gradient_norms(model)` that returns a
# dict with one entry per name of `model.named_parameters()`, in that order: the Euclidean norm of
# that parameter's `.grad` as a Python float, or `None` when its `.grad` is `None`.

# %% grade_id="14-norms"
def gradient_norms(model):
    ### BEGIN SOLUTION
    return {name: None if param.grad is None else (param.grad ** 2).sum().sqrt().item()
            for name, param in model.named_parameters()}
    ### END SOLUTION


# %%
check.gradient_norms(gradient_norms)


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
# - Frozen parameters get no `.grad`; per-layer gradient norms show where learning stalls.
# - Evaluate in `model.eval()` mode and under `torch.no_grad()`: the first changes what
#   layers such as dropout compute, the second what autograd records; then `model.train()`.
#
# Next: [exercises 15](ex15_second_derivatives.ipynb).
