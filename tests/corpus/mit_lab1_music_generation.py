# Source: MITDeepLearning/introtodeeplearning lab1/solutions/PT_Part2_Music_Generation_Solution.ipynb
#   at e44754e (MIT 6.S191 Introduction to Deep Learning, Lab 1 Part 2: Music Generation with
#   RNNs: characters of ABC tunes vectorized, batches made with `torch.tensor` from a list of
#   numpy arrays, an LSTMModel of nn.Embedding, nn.LSTM(batch_first=True) and nn.Linear, the
#   untrained model's predictions sampled with torch.multinomial, a cross-entropy loss over
#   `view`ed logits, Adam train steps, the state_dict saved as a checkpoint, text generated
#   one character at a time from the LSTM's state)
# Edits: torch.manual_seed(0) and np.random.seed(0) added (unseeded). In place of the
#   mitdeeplearning package's 817 Irish tunes (irish.abc), four short tunes in ABC notation
#   written here, split into songs at blank lines as mdl.lab1.extract_song_snippet does. The
#   model is smaller (embedding_dim 32, hidden_size 64: the solution's 256 and 1024), the
#   example batch has 4 sequences of 50 (32 of 100), and training takes 40 iterations (3000)
#   of 8 sequences of 50 (100); the loss is printed every 10 iterations and the generated text
#   is 200 characters (1000). The GPU check and `.to(device)` stay (device is the CPU). Left
#   out: the pip and apt installs, Comet ML, tqdm, the mitdeeplearning plotter, and playing
#   the songs as audio (play_song, the wav files). The solution's code otherwise, with its
#   TODO comments cut.
import torch
import torch.nn as nn
import torch.optim as optim

import numpy as np
import os
import time
import functools

torch.manual_seed(0)
np.random.seed(0)

TUNES = """X:1
T:Morning Walk
M:6/8
L:1/8
K:G
D|GAB cBA|BGG G2D|GAB cde|dBG A2D|
GAB cBA|BGG G2B|cBA BAG|AFD G2:|

X:2
T:Harbour Lights
M:4/4
L:1/8
K:D
A|d2fd A2FA|dfaf e2ce|d2fd A2FA|Bcde fdd:|
|:fg|a2fa g2eg|f2df e2ce|dcBA GFED|EFGE D2:|

X:3
T:Stone Bridge
M:3/4
L:1/8
K:Em
E2 GA B2|e2 dB A2|G2 FE D2|E4 z2|
B2 ed B2|A2 GF E2|G2 FE D2|E6|]

X:4
T:The Long Field
M:2/4
L:1/16
K:A
A2c2 e2c2|d2f2 e2c2|B2d2 c2A2|B2G2 E4|
A2c2 e2a2|f2d2 e2c2|B2d2 c2B2|A4 A4|]
"""


def extract_song_snippet(text):
    songs = [song for song in text.split("\n\n") if song.strip()]
    print("Found {} songs in text".format(len(songs)))
    return songs


songs = extract_song_snippet(TUNES)

# Print one of the songs to inspect it in greater detail!
example_song = songs[0]
print("\nExample song: ")
print(example_song)

# Join our list of song strings into a single string containing all songs
songs_joined = "\n\n".join(songs)

# Find all unique characters in the joined string
vocab = sorted(set(songs_joined))
print("There are", len(vocab), "unique characters in the dataset")

### Define numerical representation of text ###

# Create a mapping from character to unique index.
char2idx = {u: i for i, u in enumerate(vocab)}

# Create a mapping from indices to characters.
idx2char = np.array(vocab)

print('{')
for char, _ in zip(char2idx, range(20)):
    print('  {:4s}: {:3d},'.format(repr(char), char2idx[char]))
print('  ...\n}')


def vectorize_string(string):
  vectorized_output = np.array([char2idx[char] for char in string])
  return vectorized_output

vectorized_songs = vectorize_string(songs_joined)

print ('{} ---- characters mapped to int ----> {}'.format(repr(songs_joined[:10]), vectorized_songs[:10]))
# check that vectorized_songs is a numpy array
assert isinstance(vectorized_songs, np.ndarray), "returned result should be a numpy array"

### Batch definition to create training examples ###

def get_batch(vectorized_songs, seq_length, batch_size):
    # the length of the vectorized songs string
    n = vectorized_songs.shape[0] - 1
    # randomly choose the starting indices for the examples in the training batch
    idx = np.random.choice(n - seq_length, batch_size)

    input_batch = [vectorized_songs[i: i + seq_length] for i in idx]
    output_batch = [vectorized_songs[i + 1: i + seq_length + 1] for i in idx]

    # Convert the input and output batches to tensors
    x_batch = torch.tensor(input_batch, dtype=torch.long)
    y_batch = torch.tensor(output_batch, dtype=torch.long)

    return x_batch, y_batch

# Perform some simple tests to make sure your batch function is working properly!
test_args = (vectorized_songs, 10, 2)
x_batch, y_batch = get_batch(*test_args)
assert x_batch.shape == (2, 10), "x_batch shape is incorrect"
assert y_batch.shape == (2, 10), "y_batch shape is incorrect"
print("Batch function works correctly!")

x_batch, y_batch = get_batch(vectorized_songs, seq_length=5, batch_size=1)

for i, (input_idx, target_idx) in enumerate(zip(x_batch[0], y_batch[0])):
    print("Step {:3d}".format(i))
    print("  input: {} ({:s})".format(input_idx, repr(idx2char[input_idx.item()])))
    print("  expected output: {} ({:s})".format(target_idx, repr(idx2char[target_idx.item()])))

### Defining the RNN Model ###

class LSTMModel(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_size):
        super(LSTMModel, self).__init__()
        self.hidden_size = hidden_size

        # Define each of the network layers
        # Layer 1: Embedding layer to transform indices into dense vectors
        #   of a fixed embedding size
        self.embedding = nn.Embedding(vocab_size, embedding_dim)

        # Layer 2: LSTM with hidden_size `hidden_size`. note: number of layers defaults to 1.
        self.lstm = nn.LSTM(embedding_dim, hidden_size, batch_first=True)

        # Layer 3: Linear (fully-connected) layer that transforms the LSTM output
        #   into the vocabulary size.
        self.fc = nn.Linear(hidden_size, vocab_size)

    def init_hidden(self, batch_size, device):
        # Initialize hidden state and cell state with zeros
        return (torch.zeros(1, batch_size, self.hidden_size).to(device),
                torch.zeros(1, batch_size, self.hidden_size).to(device))

    def forward(self, x, state=None, return_state=False):
        x = self.embedding(x)

        if state is None:
            state = self.init_hidden(x.size(0), x.device)
        out, state = self.lstm(x, state)

        out = self.fc(out)
        return out if not return_state else (out, state)

# Instantiate the model! Build a simple model with default hyperparameters. You
#     will get the chance to change these later.
vocab_size = len(vocab)
embedding_dim = 32
hidden_size = 64
batch_size = 8

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = LSTMModel(vocab_size, embedding_dim, hidden_size).to(device)

# print out a summary of the model
print(model)

# Test the model with some sample data
x, y = get_batch(vectorized_songs, seq_length=50, batch_size=4)
x = x.to(device)
y = y.to(device)

pred = model(x)
print("Input shape:      ", x.shape, " # (batch_size, sequence_length)")
print("Prediction shape: ", pred.shape, "# (batch_size, sequence_length, vocab_size)")

sampled_indices = torch.multinomial(torch.softmax(pred[0], dim=-1), num_samples=1)
sampled_indices = sampled_indices.squeeze(-1).cpu().numpy()
print(sampled_indices)

print("Input: \n", repr("".join(idx2char[x[0].cpu()])))
print()
print("Next Char Predictions: \n", repr("".join(idx2char[sampled_indices])))

### Defining the loss function ###

# '''TODO: define the compute_loss function to compute and return the loss between
#     the true labels and predictions (logits). '''
cross_entropy = nn.CrossEntropyLoss() # instantiates the function
def compute_loss(labels, logits):
    """
    Inputs:
      labels: (batch_size, sequence_length)
      logits: (batch_size, sequence_length, vocab_size)

    Output:
      loss: scalar cross entropy loss over the batch and sequence length
    """

    # Batch the labels so that the shape of the labels should be (B * L,)
    batched_labels = labels.view(-1)

    batched_logits = logits.view(-1, logits.size(-1))

    loss = cross_entropy(batched_logits, batched_labels)
    return loss

print(y.shape)  # (batch_size, sequence_length)
print(pred.shape)  # (batch_size, sequence_length, vocab_size)

example_batch_loss = compute_loss(y, pred)

print(f"Prediction shape: {pred.shape} # (batch_size, sequence_length, vocab_size)")
print(f"scalar_loss:      {example_batch_loss.mean().item()}")

### Hyperparameter setting and optimization ###

vocab_size = len(vocab)

# Model parameters:
params = dict(
  num_training_iterations = 40,  # Increase this to train longer
  batch_size = 8,  # Experiment between 1 and 64
  seq_length = 50,  # Experiment between 50 and 500
  learning_rate = 5e-3,  # Experiment between 1e-5 and 1e-1
  embedding_dim = 32,
  hidden_size = 64,  # Experiment between 1 and 2048
)

# Checkpoint location:
checkpoint_dir = './training_checkpoints'
checkpoint_prefix = os.path.join(checkpoint_dir, "my_ckpt")
os.makedirs(checkpoint_dir, exist_ok=True)

### Define optimizer and training operation ###

model = LSTMModel(vocab_size, params["embedding_dim"], params["hidden_size"])

# Move the model to the GPU
model.to(device)

optimizer = torch.optim.Adam(model.parameters(), lr=params["learning_rate"])

def train_step(x, y):
  # Set the model's mode to train
  model.train()

  # Zero gradients for every step
  optimizer.zero_grad()

  y_hat = model(x) # TODO

  loss = compute_loss(y, y_hat) # TODO

  loss.backward() # TODO
  optimizer.step() # TODO

  return loss

##################
# Begin training!#
##################

history = []

for iter in range(params["num_training_iterations"]):

    # Grab a batch and propagate it through the network
    x_batch, y_batch = get_batch(vectorized_songs, params["seq_length"], params["batch_size"])

    # Convert numpy arrays to PyTorch tensors
    x_batch = torch.tensor(x_batch, dtype=torch.long).to(device)
    y_batch = torch.tensor(y_batch, dtype=torch.long).to(device)

    # Take a train step
    loss = train_step(x_batch, y_batch)

    # Update the history (the solution logs it to Comet and plots it)
    history.append(loss.item())
    if iter % 10 == 0:
        print(iter, history[-1])

    # Save model checkpoint
    if iter % 100 == 0:
        torch.save(model.state_dict(), checkpoint_prefix)

# Save the final trained model
torch.save(model.state_dict(), checkpoint_prefix)

### Prediction of a generated song ###

def generate_text(model, start_string, generation_length=1000):
  # Evaluation step (generating ABC text using the learned RNN model)

  input_idx = [char2idx[s] for s in start_string] # TODO
  input_idx = torch.tensor([input_idx], dtype=torch.long).to(device)

  # Initialize the hidden state
  state = model.init_hidden(input_idx.size(0), device)

  # Empty string to store our results
  text_generated = []

  for i in range(generation_length):
    predictions, state = model(input_idx, state, return_state=True)

    # Remove the batch dimension
    predictions = predictions.squeeze(0)

    input_idx = torch.multinomial(torch.softmax(predictions, dim=-1), num_samples=1)

    # Hint: consider what format the prediction is in vs. the output
    text_generated.append(idx2char[input_idx].item()) # TODO

  return (start_string + ''.join(text_generated))

generated_text = generate_text(model, start_string="X", generation_length=200) # TODO
print(generated_text)

generated_songs = extract_song_snippet(generated_text)
