# Source: the examples in the docstrings of PyTorch 2.13's torch.nn.functional
#   (torch/nn/functional.py), as the reference page "torch.nn.functional" shows them: conv1d,
#   conv2d, conv3d, conv_transpose1d, conv_transpose2d, avg_pool1d, embedding (also with
#   padding_idx), one_hot, pad, cosine_similarity, binary_cross_entropy,
#   binary_cross_entropy_with_logits, cross_entropy (class indices and probabilities) and nll_loss.
# Edits: torch.manual_seed(0) added (the examples draw unseeded); each `>>> expression` whose
#   value the docstring shows is printed, a convolution's result as its shape (the docstrings
#   show none; its float32 sums are MKL's order), and each loss with the gradient its backward()
#   leaves in `input.grad`; conv3d's input is 2x16x10x10x20 rather than 20x16x50x10x20 (memory).
import torch
import torch.nn.functional as F

torch.manual_seed(0)

print("== conv1d")
inputs = torch.randn(33, 16, 30)
filters = torch.randn(20, 16, 5)
print(F.conv1d(inputs, filters).shape)

print("== conv2d")
# With square kernels and equal stride
filters = torch.randn(8, 4, 3, 3)
inputs = torch.randn(1, 4, 5, 5)
print(F.conv2d(inputs, filters, padding=1).shape)

print("== conv3d")
filters = torch.randn(33, 16, 3, 3, 3)
inputs = torch.randn(2, 16, 10, 10, 20)
print(F.conv3d(inputs, filters).shape)

print("== conv_transpose1d")
inputs = torch.randn(20, 16, 50)
weights = torch.randn(16, 33, 5)
print(F.conv_transpose1d(inputs, weights).shape)

print("== conv_transpose2d")
# With square kernels and equal stride
inputs = torch.randn(1, 4, 5, 5)
weights = torch.randn(4, 8, 3, 3)
print(F.conv_transpose2d(inputs, weights, padding=1).shape)

print("== avg_pool1d")
# pool of square window of size=3, stride=2
input = torch.tensor([[[1, 2, 3, 4, 5, 6, 7]]], dtype=torch.float32)
print(F.avg_pool1d(input, kernel_size=3, stride=2))

print("== embedding")
# a batch of 2 samples of 4 indices each
input = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
# an embedding matrix containing 10 tensors of size 3
embedding_matrix = torch.rand(10, 3)
print(F.embedding(input, embedding_matrix))

# example with padding_idx
weights = torch.rand(10, 3)
print(weights[0, :].zero_())
embedding_matrix = weights
input = torch.tensor([[0, 2, 0, 5]])
print(F.embedding(input, embedding_matrix, padding_idx=0))

print("== one_hot")
print(F.one_hot(torch.arange(0, 5) % 3))
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=5))
print(F.one_hot(torch.arange(0, 6).view(3,2) % 3))

print("== pad")
t4d = torch.empty(3, 3, 4, 2)
p1d = (1, 1) # pad last dim by 1 on each side
out = F.pad(t4d, p1d, "constant", 0)  # effectively zero padding
print(out.size())
p2d = (1, 1, 2, 2) # pad last dim by (1, 1) and 2nd to last by (2, 2)
out = F.pad(t4d, p2d, "constant", 0)
print(out.size())
t4d = torch.empty(3, 3, 4, 2)
p3d = (0, 1, 2, 1, 3, 3) # pad by (0, 1), (2, 1), and (3, 3)
out = F.pad(t4d, p3d, "constant", 0)
print(out.size())

print("== cosine_similarity")
input1 = torch.randn(100, 128)
input2 = torch.randn(100, 128)
output = F.cosine_similarity(input1, input2)
print(output)

print("== binary_cross_entropy")
input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2, requires_grad=False)
loss = F.binary_cross_entropy(torch.sigmoid(input), target)
loss.backward()
print(loss, input.grad, sep="\n")

print("== binary_cross_entropy_with_logits")
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
loss = F.binary_cross_entropy_with_logits(input, target)
loss.backward()
print(loss, input.grad, sep="\n")

print("== cross_entropy")
# Example of target with class indices
input = torch.randn(3, 5, requires_grad=True)
target = torch.randint(5, (3,), dtype=torch.int64)
loss = F.cross_entropy(input, target)
loss.backward()
print(loss, input.grad, sep="\n")

# Example of target with class probabilities
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
loss = F.cross_entropy(input, target)
loss.backward()
print(loss, input.grad, sep="\n")

print("== nll_loss")
# input is of size N x C = 3 x 5
input = torch.randn(3, 5, requires_grad=True)
# each element in target has to have 0 <= value < C
target = torch.tensor([1, 0, 4])
output = F.nll_loss(F.log_softmax(input, dim=1), target)
output.backward()
print(output, input.grad, sep="\n")
