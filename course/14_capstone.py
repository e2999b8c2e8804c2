# %% [markdown]
# # 14 · Capstone: a classifier, and the gradients that train it
#
# Everything so far was about one attribute on small tensors. This last notebook puts it to
# work the way PyTorch is used every day: a small neural network from `torch.nn`, an optimizer
# from `torch.optim`, a loss, and a loop. At each step we look at what `backward()` left in
# the `.grad` of every layer, and at the end we plot what the network learned, its loss, and
# the size of each layer's gradient over training.

# %%
import minigrad as torch

# %% tags=["minigrad-only"]
from minigrad import viz

# The cells you write: until yours runs, the cells that use it wait, and say so.
# %load_ext minigrad_course.builds

# %%
import matplotlib.pyplot as plt
import numpy as np

# %matplotlib inline
# %config InlineBackend.figure_formats = ["svg"]
# %config InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Date": None}}
plt.rcParams["svg.hashsalt"] = "course"  # fixed ids inside the SVG: the same bytes every run

# %% [markdown]
# ## The data: two moons
#
# 200 points in the plane, in two interleaved half circles, one per class, with a little noise.
# A straight line cannot separate them, so the network needs its hidden layer. They are drawn
# with numpy's random numbers from a fixed seed: the same points on every run and machine.

# %%
def two_moons(n, noise, seed):
    """n points on two interleaved half circles (class 0 above, class 1 below), plus noise."""
    rng = np.random.RandomState(seed)
    angle = rng.uniform(0, np.pi, n)
    label = rng.randint(0, 2, n)
    x = np.where(label == 0, np.cos(angle), 1 - np.cos(angle))
    y = np.where(label == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.stack([x, y], axis=1) + rng.normal(0, noise, (n, 2))
    return points.astype(np.float32), label


points, labels = two_moons(200, noise=0.15, seed=0)
xs = torch.tensor(points)
ys = torch.tensor(labels)
print(xs.shape, xs.dtype, ys.shape, ys.dtype)

# %%
assert xs.shape == (200, 2) and set(ys.tolist()) == {0, 1}


# %%
def plot_points(ax):
    for label, colour in [(0, "tab:blue"), (1, "tab:orange")]:
        chosen = labels == label
        ax.scatter(points[chosen, 0], points[chosen, 1], s=12, color=colour, edgecolor="black",
                   linewidth=0.3, label=f"class {label}")
    ax.set_aspect("equal")


fig, ax = plt.subplots(figsize=(5, 3))
plot_points(ax)
ax.legend(loc="upper right")
plt.show()

# %% [markdown]
# ## The model: `torch.nn.Sequential`
#
# Two inputs (the coordinates), a hidden layer of 16 `tanh` units, two outputs (one score per
# class). `nn.Linear(2, 16)` holds a weight of shape `(16, 2)` and a bias of shape `(16,)`,
# both `nn.Parameter`s: leaves with `requires_grad=True`.
#
# `nn.Linear` starts from random weights, and PyTorch seeds its random numbers differently on
# every run. To make this notebook print the same on every run, we overwrite every parameter
# with numbers from numpy's fixed seed. The overwrite is an in-place change of leaves that
# require grad, so it runs under `torch.no_grad()` (notebook 08).

# %%
model = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))

rng = np.random.RandomState(1)
with torch.no_grad():
    for param in model.parameters():
        param.copy_(torch.tensor(rng.uniform(-1, 1, tuple(param.shape)), dtype=torch.float32))

print(model)
for name, param in model.named_parameters():
    print(f"{name:9} {tuple(param.shape)!s:8} is_leaf={param.is_leaf} grad={param.grad}")

# %%
assert all(param.is_leaf and param.requires_grad and param.grad is None
           for param in model.parameters())

# %% [markdown]
# ## One step, looked at closely
#
# The loss is `nn.CrossEntropyLoss`: it turns the two scores of each point into probabilities
# (a softmax) and averages $-\log$ of the probability given to the right class. Before any
# training it is large.

# %%
loss_fn = torch.nn.CrossEntropyLoss()
loss = loss_fn(model(xs), ys)
print(f"loss before training: {loss.item():.4f}")

# %% [markdown]
# The graph of that loss has 19 boxes. A real model's has thousands, so `viz.draw` takes
# `max_nodes`: it draws the boxes nearest the output and sums up the rest in one box. Here is
# the loss end of the graph, capped at 8: the cross-entropy is `LogSoftmaxBackward0` then
# `NllLossBackward0`, and the last layer is an `AddmmBackward0` (PyTorch's name for the
# `x @ W.T + b` of a linear layer).

# %% tags=["minigrad-only"]
parameter_names = {param: name for name, param in model.named_parameters()}
viz.draw(loss, names=parameter_names, max_nodes=8)

# %% [markdown]
# <details><summary>After <code>loss.backward()</code>, which tensors have a <code>.grad</code>?
# Click to reveal</summary>
#
# The four parameters, each with a gradient of its own shape. `xs` does not require grad and
# the activations in between are intermediates: their `.grad` stays `None` (notebooks 02 and
# 06).
# </details>

# %%
loss.backward()
for name, param in model.named_parameters():
    print(f"{name:9} grad shape {tuple(param.grad.shape)}")

# %%
assert all(param.grad.shape == param.shape for param in model.parameters())
assert xs.grad is None

# %% [markdown]
# All of it, after backward. The parameters are named by `model.named_parameters()`
# (`0.weight` is the weight of layer 0) and now show their gradients; the data `xs` is a grey
# constant; the activations in between were freed once used (dashed).

# %% tags=["minigrad-only"]
viz.draw(loss, names=parameter_names)

# %% [markdown]
# ## Your turn: the training step
#
# Write `train_step(model, optimizer, loss_fn, xs, ys)`: one step of gradient descent on the
# loss `loss_fn(model(xs), ys)`, with the optimizer's two methods from notebook 04,
# `zero_grad()` and `step()`. Afterwards every parameter has moved once, by this step's
# gradient, and its `.grad` holds that gradient (the loop below reads it). Return the loss as a
# Python float.

# %% tags=["build"]
def train_step(model, optimizer, loss_fn, xs, ys):
    ### BEGIN SOLUTION
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss.item()
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import capstone as check

check.train_step(train_step)

# %% [markdown]
# Now train: plain gradient descent, `torch.optim.SGD`, with a learning rate of 0.5, for 300
# steps on all 200 points. After each step we record the size (Euclidean norm) of each
# parameter's gradient.

# %%
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
losses = []
grad_norms = {name: [] for name, _ in model.named_parameters()}
for step in range(300):
    losses.append(train_step(model, optimizer, loss_fn, xs, ys))
    for name, param in model.named_parameters():
        grad_norms[name].append(param.grad.norm().item())  # sqrt of the sum of squares

for step in (0, 100, 200, 299):
    print(f"step {step:3}: loss {losses[step]:.3f}")

# %% [markdown]
# <details><summary>After the loop, <code>model[0].weight.grad</code> holds the last step's
# gradient. Is that the gradient of the loss at the weights the model has now? Click to
# reveal</summary>
#
# No. It was taken at the weights before the last update: `step()` moved them after that
# `backward()`, and reads `.grad` without changing it. The gradient at the final weights is a
# new backward away (here through `torch.autograd.grad`, notebook 09, so that `.grad` is left
# alone), and a little smaller, since the loss is still going down.
# </details>

# %%
first_layer = grad_norms["0.weight"]
(at_final_weights,) = torch.autograd.grad(loss_fn(model(xs), ys), model[0].weight)
print(f"norm of model[0].weight.grad now:         {model[0].weight.grad.norm().item():.4f}")
print(f"norm recorded at step 299:                {first_layer[-1]:.4f}")
print(f"norm of the gradient at the weights now:  {at_final_weights.norm().item():.4f}")

# %%
assert model[0].weight.grad.norm().item() == first_layer[-1]
assert at_final_weights.norm().item() < first_layer[-1]

# %% [markdown]
# How well does the trained network classify the 200 points? Evaluation needs no gradient, so it
# runs under `torch.no_grad()`: no graph is recorded.

# %%
with torch.no_grad():
    predicted = model(xs).argmax(dim=1)
accuracy = (predicted == ys).float().mean().item()
print(f"accuracy after {len(losses)} steps: {accuracy:.1%}")

# %%
assert losses[-1] < 0.1 * losses[0] and accuracy >= 0.98

# %% [markdown]
# Only the few points where the noise pushed one moon into the other end up on the wrong side.
#
# ## What the network learned
#
# Every point of a grid over the plane, through the trained model (under `no_grad`), coloured by
# the probability it gives to class 1 (`torch.nn.functional.softmax` of the two scores). The
# white band where both classes get 0.5 is the decision boundary, bent around the moons by the
# hidden layer.

# %%
grid_x, grid_y = np.meshgrid(np.linspace(-1.5, 2.5, 120), np.linspace(-1.0, 1.5, 80))
grid = torch.tensor(np.stack([grid_x.ravel(), grid_y.ravel()], axis=1), dtype=torch.float32)
with torch.no_grad():
    probability = torch.nn.functional.softmax(model(grid), dim=1)[:, 1]

fig, ax = plt.subplots(figsize=(6, 3.6))
ax.imshow(probability.reshape(80, 120).tolist(), origin="lower", extent=(-1.5, 2.5, -1.0, 1.5),
          cmap="RdBu_r", vmin=0, vmax=1, alpha=0.6, interpolation="bilinear")
plot_points(ax)
ax.set_title(f"P(class 1) after {len(losses)} steps")
plt.show()

# %% [markdown]
# ## The loss, and the gradient of each layer
#
# Left, the loss per step. Right, the gradient norms recorded in the loop, one line per
# parameter. They are large at the start, when the predictions are poor, and shrink as the loss
# does: near a minimum the slope is small. The bias of the output layer (`2.bias`) gets the
# smallest: its gradient is the average over all points of (predicted probabilities minus the
# one-hot label), which is small as soon as the model predicts each class about as often as it
# occurs, long before every point is right.

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.2))
left.plot(losses)
left.set_yscale("log")
left.set_xlabel("step")
left.set_title("cross-entropy loss")
for name, values in grad_norms.items():
    right.plot(values, label=name)
right.set_yscale("log")
right.set_xlabel("step")
right.set_title("norm of .grad, per parameter")
right.legend()
plt.show()

# %%
for name, values in grad_norms.items():
    print(f"{name:9} first step {values[0]:.3f}   last step {values[-1]:.4f}")

# %%
assert all(values[-1] < values[0] for values in grad_norms.values())

# %% [markdown]
# This plot is the first thing to look at when a network does not learn. A layer whose gradient
# norm sits near zero from the start is not learning (vanishing gradients, or dead units as in
# notebook 07); norms that grow step after step announce a loss about to blow up (exploding
# gradients, the reason for gradient clipping).
#
# ## Freezing a layer
#
# Fine-tuning keeps a pretrained layer fixed while the rest trains. `requires_grad_(False)` on a
# module switches off all its parameters (notebook 10): backward computes nothing for them.
#
# <details><summary>Freeze <code>model[0]</code> now, after the loop, and call
# <code>optimizer.step()</code> once more. Will <code>model[0].weight</code> move? Click to
# reveal</summary>
#
# Yes. The optimizer does not read `requires_grad`: `step()` updates every parameter it holds
# whose `.grad` is not `None`, and this one still holds the last step's gradient. With momentum,
# even a `.grad` of zeros (`zero_grad(set_to_none=False)`) lets the velocity keep moving it.
# </details>

# %%
model[0].requires_grad_(False)
before = model[0].weight.detach().clone()
optimizer.step()
print("model[0].weight moved:", not torch.equal(model[0].weight.detach(), before))

# %%
assert not torch.equal(model[0].weight.detach(), before)

# %% [markdown]
# So freeze in full: write `freeze(model, index, lr)`, which switches off `model[index]`'s
# parameters, drops their gradients (`.grad = None`), and returns a new `torch.optim.SGD` with
# learning rate `lr` and `momentum=0.9` that holds only the parameters still trained.

# %% tags=["build"]
def freeze(model, index, lr):
    ### BEGIN SOLUTION
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    trained = [param for param in model.parameters() if param.requires_grad]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)
    ### END SOLUTION


# %% tags=["minigrad-only"]
from minigrad_course.checks import capstone as check

check.freeze(freeze)

# %% [markdown]
# Fifty more steps with the frozen layer: only `model[2]` learns.

# %%
optimizer = freeze(model, 0, lr=0.1)
frozen = model[0].weight.detach().clone()
for step in range(50):
    last_loss = train_step(model, optimizer, loss_fn, xs, ys)
for name, param in model.named_parameters():
    print(f"{name:9} requires_grad={param.requires_grad!s:5}  grad is None: {param.grad is None}")
print(f"loss {last_loss:.4f}; model[0].weight moved: "
      f"{not torch.equal(model[0].weight.detach(), frozen)}")

# %%
assert torch.equal(model[0].weight.detach(), frozen) and model[2].weight.grad is not None

# %% [markdown]
# ## Summary
#
# - A model is a set of leaves that require grad (`model.parameters()`); `loss.backward()` fills
#   their `.grad`, and only theirs.
# - The training step is `zero_grad()`, forward, `backward()`, `step()`; evaluation runs under
#   `torch.no_grad()`.
# - Per-parameter gradient norms show which layers learn and when training has settled.
# - `requires_grad_(False)` stops a layer's gradients, not its updates: `step()` moves every
#   parameter it holds that has a `.grad`. Freeze by also giving the optimizer only the
#   parameters still trained.
# - Every behaviour of `.grad` in this loop is one from notebooks 01 to 12: `None` before
#   backward, accumulation and resetting, leaves versus intermediates, in-place updates under
#   `no_grad`.
#
# Exercises: [exercises/ex14_capstone.ipynb](../exercises/ex14_capstone.ipynb).
# Three more notebooks go beyond training's everyday loop: differentiating a gradient (15),
# choosing what a graph keeps for backward (16), and derivatives carried forward (17).
# Next: [15 · Gradients of gradients](15_second_derivatives.ipynb).
