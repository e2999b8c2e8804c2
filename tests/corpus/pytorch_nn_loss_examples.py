# Source: the examples in the docstrings of PyTorch 2.13's loss modules, as the reference page
#   "torch.nn" shows them (torch/nn/modules/loss.py): L1Loss, MSELoss, CrossEntropyLoss (class
#   indices and class probabilities), NLLLoss (and its 2D case after a Conv2d), BCELoss,
#   BCEWithLogitsLoss (pos_weight, then a backward), KLDivLoss (with and without log_target),
#   HuberLoss and SmoothL1Loss.
# Edits: torch.manual_seed(0) added before the examples (they draw unseeded); each example's
#   loss and the gradient its backward() leaves in `input.grad` (the conv's weight.grad and
#   bias.grad in the 2D NLLLoss example) are printed, and each `>>> expression` the docstring
#   shows a value of; the KLDivLoss example, which stops before backward, prints its two
#   losses. CrossEntropyLoss's example of class probabilities given wrongly waits in
#   waiting/pytorch_cross_entropy_wrong_probabilities.py. The other losses' examples
#   (MarginRankingLoss, TripletMarginLoss, CTCLoss, ...) are left out: minigrad has none of them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

print("== L1Loss")
loss = nn.L1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print(output, input.grad, sep="\n")

print("== MSELoss")
loss = nn.MSELoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print(output, input.grad, sep="\n")

print("== CrossEntropyLoss")
# Example of target with class indices
loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
output = loss(input, target)
output.backward()
print(target, output, input.grad, sep="\n")

# Example of target with class probabilities
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
output = loss(input, target)
output.backward()
print(output, input.grad, sep="\n")

print("== NLLLoss")
log_softmax = nn.LogSoftmax(dim=1)
loss_fn = nn.NLLLoss()
# input to NLLLoss is of size N x C = 3 x 5
input = torch.randn(3, 5, requires_grad=True)
# each element in target must have 0 <= value < C
target = torch.tensor([1, 0, 4])
loss = loss_fn(log_softmax(input), target)
loss.backward()
print(loss, input.grad, sep="\n")


# 2D loss example (used, for example, with image inputs)
N, C = 5, 4
loss_fn = nn.NLLLoss()
data = torch.randn(N, 16, 10, 10)
conv = nn.Conv2d(16, C, (3, 3))
log_softmax = nn.LogSoftmax(dim=1)
# output of conv forward is of shape [N, C, 8, 8]
output = log_softmax(conv(data))
# each element in target must have 0 <= value < C
target = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)
# input to NLLLoss is of size N x C x height (8) x width (8)
loss = loss_fn(output, target)
loss.backward()
print(loss, conv.weight.grad[0, 0], conv.bias.grad, sep="\n")

print("== BCELoss")
m = nn.Sigmoid()
loss = nn.BCELoss()
input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2, requires_grad=False)
output = loss(m(input), target)
output.backward()
print(output, input.grad, sep="\n")

print("== BCEWithLogitsLoss")
target = torch.ones([10, 64], dtype=torch.float32)  # 64 classes, batch size = 10
output = torch.full([10, 64], 1.5)  # A prediction (logit)
pos_weight = torch.ones([64])  # All weights are equal to 1
criterion = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)
print(criterion(output, target))  # -log(sigmoid(1.5))

loss = nn.BCEWithLogitsLoss()
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
output = loss(input, target)
output.backward()
print(target, output, input.grad, sep="\n")

print("== KLDivLoss")
kl_loss = nn.KLDivLoss(reduction="batchmean")
# input should be a distribution in the log space
input = F.log_softmax(torch.randn(3, 5, requires_grad=True), dim=1)
# Sample a batch of distributions. Usually this would come from the dataset
target = F.softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, target)
print(output)

kl_loss = nn.KLDivLoss(reduction="batchmean", log_target=True)
log_target = F.log_softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, log_target)
print(output)

print("== HuberLoss")
loss = nn.HuberLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print(output, input.grad, sep="\n")

print("== SmoothL1Loss")
loss = nn.SmoothL1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
output.backward()
print(output, input.grad, sep="\n")
