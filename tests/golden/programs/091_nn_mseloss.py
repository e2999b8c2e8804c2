# nn.MSELoss with mean and sum reduction.
import torch
import torch.nn as nn

pred = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
target = torch.tensor([1.5, 2.0, 3.0])
loss_fn = nn.MSELoss()
print(loss_fn)
loss = loss_fn(pred, target)
print(loss)
loss.backward()
print(pred.grad)
pred.grad = None
s = nn.MSELoss(reduction="sum")(pred, target)
print(s)
s.backward()
print(pred.grad)
n = nn.MSELoss(reduction="none")(pred, target)
print(n)
