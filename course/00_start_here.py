# %% [markdown]
# # 00 · Start here
#
# This course is about one attribute: `.grad`. When you train a model in PyTorch you call
# `loss.backward()` and then read `.grad` on your parameters. Most of the time that just works.
# Sometimes `.grad` is `None`, sometimes it is twice what you expected, sometimes `backward()`
# refuses to run at all. Each of those surprises follows from a few simple rules, and this course
# teaches them one at a time.
#
# You will run small cells, predict what they print, look at pictures of the computation graph,
# work out gradients by hand, and check every claim with an `assert`. Until notebook 11, where
# you write a backward pass and open the engine, you will not need to read any source code.

# %% [markdown]
# ## minigrad speaks PyTorch
#
# The course runs on **minigrad**, a small autograd engine written on numpy for this course.
# Its tensors have PyTorch's names, PyTorch's rules and PyTorch's printed output, so every
# notebook starts with one line:

# %%
import minigrad as torch

# %% [markdown]
# From here on, `torch.tensor`, `requires_grad`, `backward()` and `.grad` mean exactly what they
# mean in PyTorch. If you have PyTorch installed, replace that line with `import torch` and every
# cell prints the same text (the course's test suite checks this for each notebook).
#
# What minigrad adds is a way to *draw* what happens: `minigrad.viz`. PyTorch has no built-in
# equivalent (the separate torchviz package draws part of it). Cells that draw, check your
# answers (`minigrad_course.checks`) or open minigrad's own engine (notebook 11) are the only
# ones that do not run on PyTorch.

# %% tags=["minigrad-only"]
from minigrad import viz

# %% [markdown]
# ## Running a cell
#
# Click into the cell below and press **Shift+Enter**. The cell runs and the cursor moves to the
# next one. The last expression of a cell is printed below it.

# %%
x = torch.tensor(3.0, requires_grad=True)
x

# %% [markdown]
# `x` is a tensor holding the number 3. `requires_grad=True` asks PyTorch to remember every
# operation done with `x`, so that it can later say how the result depends on `x`.
#
# Now compute something from `x`:

# %%
y = x**2
y

# %% [markdown]
# `y` holds 9. The `grad_fn=<PowBackward0>` part says that `y` was produced by a power
# operation, and that PyTorch knows how to send a gradient back through it.
#
# ## Reading the diagrams
#
# `viz.draw(y)` draws everything that led to `y`. Each box is a tensor, labelled with your
# variable name and its shape, then its data, then its `.grad` (`None` when there is none). The
# rounded node between them is the operation, named as PyTorch names it. Arrows run from inputs to
# outputs, left to right (a long graph runs top to bottom). The colours tell what each tensor is;
# the legend is inside the picture.

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ## Predict, then reveal
#
# Every notebook asks you to predict before it shows you. Think of an answer, then click the line
# below to check it.
#
# We are going to call `y.backward()`, which computes the derivative of `y` with respect to every
# tensor that asked for it, and then look at `x.grad`.
#
# <details><summary>What will <code>x.grad</code> print? Click to reveal</summary>
#
# `tensor(6.)`: $y = x^2$, so $dy/dx = 2x$, evaluated at $x = 3$ (the slope of `y`, not its
# value 9). It is a tensor of the same shape as `x` (here a single number), and it does not
# carry `requires_grad=True` itself.
# </details>

# %%
y.backward()
x.grad

# %% [markdown]
# Each claim gets checked right away with an `assert`, so a notebook that runs to the end is a
# notebook whose claims are true:

# %%
assert x.grad.item() == 2 * x.item()

# %% [markdown]
# Draw the graph again: the box of `x` now shows `grad 6.`. The box of `y` still says `None`;
# notebook 06 says why.

# %% tags=["minigrad-only"]
viz.draw(y)

# %% [markdown]
# ## Write it yourself
#
# Lessons 01 to 17 ask you to write some of the code: a cell holding
# `raise NotImplementedError()` under `# YOUR CODE HERE`. Put your lines in its place and run
# the cell. Until you do, it says "Not answered yet", and each cell that uses what you write
# waits and says what for, so the rest of the notebook still runs. A worked answer sits under
# the cell, closed: open it once yours runs.
#
# ## Exercises
#
# Each notebook from 01 on has a companion in `exercises/`, named like it with `ex` in front:
# `exercises/ex03_accumulation.ipynb` goes with this folder's `03_accumulation.ipynb`, so their
# tabs tell them apart. An exercise is a cell with `# YOUR CODE HERE`; the cell after it checks
# your answer: a green ✓ box when it is right, otherwise what to look at next. Until you answer,
# both cells say "Not answered yet" in one line. To grade a whole notebook from a terminal (in
# the course folder, or in `exercises/` without the folder name):
#
# ```
# python -m minigrad_course.grade exercises/ex03_accumulation.ipynb
# ```
#
# Worked answers live in `solutions/`, for when you are stuck.

# %% [markdown]
# ## The path
#
# | notebook | the question |
# | --- | --- |
# | 01 | what does PyTorch record as you compute: `requires_grad`, leaves and `grad_fn` |
# | 02 | where does a gradient come from: nudging, the chain rule by hand, `backward()` |
# | 03 | what does a second `backward()` do to `.grad`? |
# | 04 | how to reset: `grad.zero_()`, `grad = None`, `optimizer.zero_grad()` |
# | 05 | what if the output is not a single number: the `gradient` argument, Jacobians |
# | 06 | what becomes of the gradients of tensors in the middle, and `retain_grad()` |
# | 07 | hooks: look at a gradient as it passes, or replace it |
# | 08 | what in-place operations do to backward, and version counters |
# | 09 | using a graph again: `retain_graph`, `torch.autograd.grad`, `backward(inputs=...)` |
# | 10 | stopping gradients: `detach()`, `torch.no_grad()`, `requires_grad_()` |
# | 11 | inside the engine: you write `backward()`, then find your loop in the engine's |
# | 12 | your own operation: `torch.autograd.Function`, checked with `gradcheck` |
# | 13 | an engine of your own: a tensor that records, `backward()`, an optimizer, on numpy |
# | 14 | capstone: train a small classifier, freeze a layer, inspect its gradients |
# | 15 | gradients of gradients: `create_graph=True`, second derivatives, a Newton step |
# | 16 | what a graph keeps for backward: saved-tensor hooks and checkpointing |
# | 17 | forward mode: dual numbers, and why backward runs backwards |
#
# ## Summary
#
# - `import minigrad as torch` gives you PyTorch's `.grad` behaviour on numpy, with diagrams.
# - Predict before you reveal; every claim is followed by an `assert` that proves it.
# - Next: [01 · Tensors, leaves and `grad_fn`](01_tensors_and_graphs.ipynb).
