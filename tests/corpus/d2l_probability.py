# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_preliminaries/probability.md (2.6, Probability and Statistics: coin tosses with
#   `random.random()`, `torch.distributions.multinomial.Multinomial(n, probs).sample()`,
#   relative frequencies, 10000 one-toss samples with `sample((10000,))`, their running
#   estimates by `cumsum` and `sum(dim=1, keepdims=True)`, then `.numpy()`)
# Edits: `random.seed(0)` and torch.manual_seed(0) added (the book is unseeded); a cell's
#   displayed last expression is printed; the plot of the running estimates is replaced by
#   printing some of them.
import random
import torch
from torch.distributions.multinomial import Multinomial

random.seed(0)
torch.manual_seed(0)

num_tosses = 100
heads = sum([random.random() > 0.5 for _ in range(num_tosses)])
tails = num_tosses - heads
print("heads, tails: ", [heads, tails])

fair_probs = torch.tensor([0.5, 0.5])
print(Multinomial(100, fair_probs).sample())

print(Multinomial(100, fair_probs).sample() / 100)

counts = Multinomial(10000, fair_probs).sample()
print(counts / 10000)

counts = Multinomial(1, fair_probs).sample((10000,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
estimates = estimates.numpy()

print(counts.shape, counts.dtype, counts[:5])
print(estimates[[0, 9, 99, 999, 9999]])
print(estimates.dtype, estimates.shape)
