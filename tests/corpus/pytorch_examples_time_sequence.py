# Source: pytorch/examples time_sequence_prediction/generate_sine_wave.py at 2b456e8 and
#   time_sequence_prediction/train.py at 04b1f3c (two LSTMCells and a Linear in float64 learn
#   sine waves; LBFGS with a closure that prints each loss; predictions of the future under
#   no_grad)
# Edits: the two scripts run as one program in a fresh temporary directory
#   (os.chdir(tempfile.mkdtemp())); the data is 12 waves of 60 points instead of 100 of 1000,
#   the training runs 2 steps instead of 15 and predicts 20 points instead of 1000; argparse's
#   options are their values (--device cpu); matplotlib's plots are left out. `torch.load` of
#   the saved numpy array, which PyTorch 2.13 refuses by default (weights_only=True), runs in a
#   try that prints the error's first line, then loads with weights_only=False.
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

os.chdir(tempfile.mkdtemp())

# generate_sine_wave.py
np.random.seed(2)

T = 20
L = 60
N = 12

x = np.empty((N, L), "int64")
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")
torch.save(data, open("traindata.pt", "wb"))

# train.py
class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)
        self.dummy_param = nn.Parameter(torch.empty(0))

    def forward(self, input, future = 0):
        outputs = []
        device = self.dummy_param.device
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
        h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)
        c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double).to(device)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):# if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs


steps = 2
device_name = 'cpu'
device = torch.device(device_name)
# set random seed to 0
np.random.seed(0)
torch.manual_seed(0)
# load data and make training set
try:
    data = torch.from_numpy(torch.load('traindata.pt')).to(device)
except Exception as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0]}")
    data = torch.from_numpy(torch.load('traindata.pt', weights_only=False)).to(device)
input = data[3:, :-1]
target = data[3:, 1:]
test_input = data[:3, :-1]
test_target = data[:3, 1:]
# build the model
seq = Sequence().to(device).double()
criterion = nn.MSELoss().to(device)
# use LBFGS as optimizer since we can load the whole data to train
optimizer = optim.LBFGS(seq.parameters(), lr=0.8)
#begin to train
for i in range(steps):
    print('STEP: ', i)
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print('loss:', loss.item())
        loss.backward()
        return loss
    optimizer.step(closure)
    # begin to predict, no need to track gradient here
    with torch.no_grad():
        future = 20
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', loss.item())
        y = pred.cpu().detach().numpy()
print(y.shape, y.dtype)
