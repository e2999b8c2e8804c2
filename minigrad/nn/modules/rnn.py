"""torch.nn.modules.rnn: where PyTorch defines GRU, GRUCell, LSTM and the like."""
from ..recurrent import (  # noqa: F401
    GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase)
