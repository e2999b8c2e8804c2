# Source: d2l-ai/d2l-en at 23d7a5a (d2l.ai 2nd edition, PyTorch tab):
#   chapter_recurrent-neural-networks/rnn-scratch.md (9.5, Recurrent Neural Network
#   Implementation from Scratch: RNNScratch of three Parameters, RNNLMScratch with
#   `F.one_hot(X.T, vocab_size).type(torch.float32)`, the output layer stacked over steps,
#   `clip_gradients` by `norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))`
#   and `param.grad[:] *= grad_clip_val / norm`, prediction by `int(argmax(...).reshape(1))`),
#   with the d2l package's Trainer.fit_epoch (d2l/torch.py), which calls `loss.backward()`,
#   the clipping and `optim.step()` inside `torch.no_grad()`
# Edits: torch.manual_seed(0) added; d2l's Module/Classifier/Trainer machinery is written out
#   as plain classes and a loop (the methods that `@d2l.add_to_class` adds are defined in the
#   class); The Time Machine is replaced by one sentence kept as text, cut into 8 batches of
#   4 windows of 10 characters, trained for 30 epochs (the book: 100 on the whole book) with
#   SGD at lr 1 and gradient_clip_val 1; perplexity is printed each 5 epochs instead of
#   plotted; the check of shapes prints them.
import math
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)


class RNNScratch(nn.Module):  #@save
    """The RNN model implemented from scratch."""
    def __init__(self, num_inputs, num_hiddens, sigma=0.01):
        super().__init__()
        self.num_inputs, self.num_hiddens, self.sigma = num_inputs, num_hiddens, sigma
        self.W_xh = nn.Parameter(
            torch.randn(num_inputs, num_hiddens) * sigma)
        self.W_hh = nn.Parameter(
            torch.randn(num_hiddens, num_hiddens) * sigma)
        self.b_h = nn.Parameter(torch.zeros(num_hiddens))

    def forward(self, inputs, state=None):
        if state is None:
            # Initial state with shape: (batch_size, num_hiddens)
            state = torch.zeros((inputs.shape[1], self.num_hiddens),
                                device=inputs.device)
        else:
            state, = state
        outputs = []
        for X in inputs:  # Shape of inputs: (num_steps, batch_size, num_inputs)
            state = torch.tanh(torch.matmul(X, self.W_xh) +
                               torch.matmul(state, self.W_hh) + self.b_h)
            outputs.append(state)
        return outputs, state


batch_size, num_inputs, num_hiddens, num_steps = 2, 16, 32, 100
rnn = RNNScratch(num_inputs, num_hiddens)
X = torch.ones((num_steps, batch_size, num_inputs))
outputs, state = rnn(X)
print(len(outputs), outputs[0].shape, state.shape)


class RNNLMScratch(nn.Module):  #@save
    """The RNN-based language model implemented from scratch."""
    def __init__(self, rnn, vocab_size, lr=0.01):
        super().__init__()
        self.rnn, self.vocab_size, self.lr = rnn, vocab_size, lr
        self.init_params()

    def init_params(self):
        self.W_hq = nn.Parameter(
            torch.randn(
                self.rnn.num_hiddens, self.vocab_size) * self.rnn.sigma)
        self.b_q = nn.Parameter(torch.zeros(self.vocab_size))

    def loss(self, Y_hat, Y, averaged=True):
        Y_hat = torch.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        Y = torch.reshape(Y, (-1,))
        return F.cross_entropy(
            Y_hat, Y, reduction='mean' if averaged else 'none')

    def training_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.ppl = torch.exp(l)
        return l

    def one_hot(self, X):
        # Output shape: (num_steps, batch_size, vocab_size)
        return F.one_hot(X.T, self.vocab_size).type(torch.float32)

    def output_layer(self, rnn_outputs):
        outputs = [torch.matmul(H, self.W_hq) + self.b_q for H in rnn_outputs]
        return torch.stack(outputs, 1)

    def forward(self, X, state=None):
        embs = self.one_hot(X)
        rnn_outputs, _ = self.rnn(embs, state)
        return self.output_layer(rnn_outputs)

    def predict(self, prefix, num_preds, vocab, device=None):
        state, outputs = None, [vocab[prefix[0]]]
        for i in range(len(prefix) + num_preds - 1):
            X = torch.tensor([[outputs[-1]]], device=device)
            embs = self.one_hot(X)
            rnn_outputs, state = self.rnn(embs, state)
            if i < len(prefix) - 1:  # Warm-up period
                outputs.append(vocab[prefix[i + 1]])
            else:  # Predict num_preds steps
                Y = self.output_layer(rnn_outputs)
                outputs.append(int(torch.reshape(torch.argmax(Y, axis=2), (1,))))
        return ''.join([vocab.idx_to_token[i] for i in outputs])


print(F.one_hot(torch.tensor([0, 2]), 5))

model = RNNLMScratch(rnn, num_inputs)
outputs = model(torch.ones((batch_size, num_steps), dtype=torch.int64))
print(outputs.shape)


def clip_gradients(grad_clip_val, model):
    params = [p for p in model.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > grad_clip_val:
        for param in params:
            param.grad[:] *= grad_clip_val / norm


class Vocab:
    def __init__(self, text):
        self.idx_to_token = sorted(set(text))
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}

    def __getitem__(self, token):
        return self.token_to_idx[token]

    def __len__(self):
        return len(self.idx_to_token)


text = ("the time traveller for so it will be convenient to speak of him was expounding "
        "a recondite matter to us his grey eyes shone and twinkled and his usually pale "
        "face was flushed and animated the fire burned brightly")
vocab = Vocab(text)
corpus = torch.tensor([vocab[c] for c in text])
windows = torch.stack([corpus[i:i + 11] for i in range(0, 32 * 5, 5)])
batches = [(windows[i:i + 4, :-1], windows[i:i + 4, 1:]) for i in range(0, 32, 4)]

rnn = RNNScratch(num_inputs=len(vocab), num_hiddens=32)
model = RNNLMScratch(rnn, vocab_size=len(vocab), lr=1)
optim = torch.optim.SGD(model.parameters(), lr=model.lr)
for epoch in range(30):
    model.train()
    for batch in batches:
        loss = model.training_step(batch)
        optim.zero_grad()
        with torch.no_grad():
            loss.backward()
            clip_gradients(1, model)
            optim.step()
    if (epoch + 1) % 5 == 0:
        print(f'epoch {epoch + 1}, ppl {model.ppl:.3f}')
print(model.ppl.requires_grad, loss.requires_grad)
print(model.predict('it has', 20, vocab))
print(model.predict('the time', 20, vocab))
