# Source: karpathy/nn-zero-to-hero, lectures/makemore/makemore_part2_mlp.ipynb
#   (makemore part 2: an MLP on three characters of context, Bengio et al. 2003)
# Edits: names.txt (a download) is replaced by the first 32 names of names.txt, split 80/10/10
#   as the lecture does; torch.manual_seed(0) added (the first cells and the minibatches draw
#   unseeded); the training loop runs 20 steps instead of 200000 (lr 0.1, then 0.01 after
#   10), and the losses after it are printed with .item(); the first, throw-away network's
#   batch is its first 32 examples; the matplotlib cells
#   are left out; the sampling cell (torch.multinomial) runs on the network of these 20 steps;
#   a cell's displayed last expression is printed with print().
import torch
import torch.nn.functional as F

torch.manual_seed(0)

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia',
         'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery',
         'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace',
         'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor']
print(words[:8])
print(len(words))

chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}
print(itos)
vocab_size = len(itos)

block_size = 3 # context length: how many characters do we take to predict the next one?
X, Y = [], []
for w in words:

  #print(w)
  context = [0] * block_size
  for ch in w + '.':
    ix = stoi[ch]
    X.append(context)
    Y.append(ix)
    #print(''.join(itos[i] for i in context), '--->', itos[ix])
    context = context[1:] + [ix] # crop and append

X = torch.tensor(X)
Y = torch.tensor(Y)
print(X.shape, X.dtype, Y.shape, Y.dtype)

def build_dataset(words):
  X, Y = [], []
  for w in words:

    #print(w)
    context = [0] * block_size
    for ch in w + '.':
      ix = stoi[ch]
      X.append(context)
      Y.append(ix)
      #print(''.join(itos[i] for i in context), '--->', itos[ix])
      context = context[1:] + [ix] # crop and append

  X = torch.tensor(X)
  Y = torch.tensor(Y)
  print(X.shape, Y.shape)
  return X, Y

import random
random.seed(42)
random.shuffle(words)
n1 = int(0.8*len(words))
n2 = int(0.9*len(words))

Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])

C = torch.randn((vocab_size, 2))
print(C[5])
print(F.one_hot(torch.tensor(5), num_classes=vocab_size).float() @ C)

emb = C[X[:32]]
print(emb.shape)

W1 = torch.randn((6, 100))
b1 = torch.randn(100)

print(torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1).shape)
print(torch.cat(torch.unbind(emb, 1), 1).shape)

a = torch.arange(18)
print(a.view(2, 9))
print(a.view(3, 3, 2))

h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(h.shape)

W2 = torch.randn((100, vocab_size))
b2 = torch.randn(vocab_size)

logits = h @ W2 + b2
print(logits.shape)

counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
print(prob.shape)

loss = -prob[torch.arange(32), Y[:32]].log().mean()
print(loss)
print(F.cross_entropy(logits, Y[:32]))

# ------------ now made respectable :) ---------------

print(Xtr.shape, Ytr.shape) # dataset

g = torch.Generator().manual_seed(2147483647) # for reproducibility
C = torch.randn((vocab_size, 10), generator=g)
W1 = torch.randn((30, 200), generator=g)
b1 = torch.randn(200, generator=g)
W2 = torch.randn((200, vocab_size), generator=g)
b2 = torch.randn(vocab_size, generator=g)
parameters = [C, W1, b1, W2, b2]

print(sum(p.nelement() for p in parameters)) # number of parameters in total

for p in parameters:
  p.requires_grad = True

lre = torch.linspace(-3, 0, 1000)
lrs = 10**lre
print(lrs[:3], lrs[-1])

lri = []
lossi = []
stepi = []

for i in range(20):

  # minibatch construct
  ix = torch.randint(0, Xtr.shape[0], (32,))

  # forward pass
  emb = C[Xtr[ix]] # (32, 3, 10)
  h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 200)
  logits = h @ W2 + b2 # (32, 27)
  loss = F.cross_entropy(logits, Ytr[ix])
  #print(loss.item())

  # backward pass
  for p in parameters:
    p.grad = None
  loss.backward()

  # update
  #lr = lrs[i]
  lr = 0.1 if i < 10 else 0.01
  for p in parameters:
    p.data += -lr * p.grad

  # track stats
  #lri.append(lre[i])
  stepi.append(i)
  lossi.append(loss.log10().item())

print(len(lossi), round(lossi[0], 3), round(lossi[-1], 3))
print(C.grad.shape, W1.grad[0, :4], b2.grad[:4])

emb = C[Xtr] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ytr)
print(loss.item())

emb = C[Xdev] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ydev)
print(loss.item())

context = [0] * block_size
print(C[torch.tensor([context])].shape)

# sample from the model
g = torch.Generator().manual_seed(2147483647 + 10)

for _ in range(20):

    out = []
    context = [0] * block_size # initialize with all ...
    while True:
      emb = C[torch.tensor([context])] # (1,block_size,d)
      h = torch.tanh(emb.view(1, -1) @ W1 + b1)
      logits = h @ W2 + b2
      probs = F.softmax(logits, dim=1)
      ix = torch.multinomial(probs, num_samples=1, generator=g).item()
      context = context[1:] + [ix]
      out.append(ix)
      if ix == 0:
        break

    print(''.join(itos[i] for i in out))
