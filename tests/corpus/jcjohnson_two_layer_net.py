# Source: jcjohnson/pytorch-examples at 0003fcd (Justin Johnson's "Learning PyTorch with
#   Examples", the repository the PyTorch tutorial grew from): autograd/two_layer_net_custom_function.py
#   (a MyReLU Function whose backward writes `grad_x[x < 0] = 0` into a clone of grad_output,
#   manual updates `w1 -= learning_rate * w1.grad` under no_grad with `w1.grad.zero_()`),
#   nn/two_layer_net_optim.py (Sequential, MSELoss(reduction='sum'), Adam) and
#   nn/dynamic_net.py (a Linear reused a random number of times)
# Edits: torch.manual_seed(0) added; the sizes are made small (N, D_in, H, D_out = 4, 3, 4, 2;
#   the repository: 64, 1000, 100, 10) so that every matrix product has at most four terms
#   in its sums, with learning rates raised to match (1e-2 for the manual updates, 1e-2 for
#   Adam; the repository: 1e-6 and 1e-4); each loop runs 50 steps (the repository: 500) and
#   prints its loss every 10 steps; the three files run one after the other.
import random

import torch

torch.manual_seed(0)
random.seed(0)


class MyReLU(torch.autograd.Function):
  """
  We can implement our own custom autograd Functions by subclassing
  torch.autograd.Function and implementing the forward and backward passes
  which operate on Tensors.
  """
  @staticmethod
  def forward(ctx, x):
    ctx.save_for_backward(x)
    return x.clamp(min=0)

  @staticmethod
  def backward(ctx, grad_output):
    x, = ctx.saved_tensors
    grad_x = grad_output.clone()
    grad_x[x < 0] = 0
    return grad_x


device = torch.device('cpu')
# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 4, 3, 4, 2

# Create random Tensors to hold input and output
x = torch.randn(N, D_in, device=device)
y = torch.randn(N, D_out, device=device)

# Create random Tensors for weights; setting requires_grad=True means that we
# want to compute gradients for these Tensors during the backward pass.
w1 = torch.randn(D_in, H, device=device, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, requires_grad=True)

learning_rate = 1e-2
for t in range(50):
  # Forward pass: compute predicted y by applying our custom ReLU
  y_pred = MyReLU.apply(x.mm(w1)).mm(w2)

  # Compute and print loss
  loss = (y_pred - y).pow(2).sum()
  if t % 10 == 9:
    print(t, loss.item())

  # Use autograd to compute the backward pass.
  loss.backward()

  with torch.no_grad():
    # Update weights using gradient descent
    w1 -= learning_rate * w1.grad
    w2 -= learning_rate * w2.grad

    # Manually zero the gradients after running the backward pass
    w1.grad.zero_()
    w2.grad.zero_()
print(y_pred.grad_fn, w1.grad, w1.requires_grad, w1.is_leaf)

# nn/two_layer_net_optim.py
model = torch.nn.Sequential(
          torch.nn.Linear(D_in, H),
          torch.nn.ReLU(),
          torch.nn.Linear(H, D_out),
        )
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-2
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(50):
  y_pred = model(x)
  loss = loss_fn(y_pred, y)
  if t % 10 == 9:
    print(t, loss.item())
  optimizer.zero_grad()
  loss.backward()
  optimizer.step()


# nn/dynamic_net.py
class DynamicNet(torch.nn.Module):
  def __init__(self, D_in, H, D_out):
    super(DynamicNet, self).__init__()
    self.input_linear = torch.nn.Linear(D_in, H)
    self.middle_linear = torch.nn.Linear(H, H)
    self.output_linear = torch.nn.Linear(H, D_out)

  def forward(self, x):
    h_relu = self.input_linear(x).clamp(min=0)
    for _ in range(random.randint(0, 3)):
      h_relu = self.middle_linear(h_relu).clamp(min=0)
    y_pred = self.output_linear(h_relu)
    return y_pred


model = DynamicNet(D_in, H, D_out)
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
for t in range(50):
  y_pred = model(x)
  loss = criterion(y_pred, y)
  if t % 10 == 9:
    print(t, loss.item())
  optimizer.zero_grad()
  loss.backward()
  optimizer.step()
print(model.middle_linear.weight.grad)
