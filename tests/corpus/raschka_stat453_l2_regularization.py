# Source: rasbt/stat453-deep-learning-ss21 L10/code/L2-log-reg.ipynb (Raschka's STAT 453,
#   lecture 10: L2 regularization of logistic regression two ways with the same losses: SGD's
#   `weight_decay=LAMBDA`, then the penalty `0.5 * LAMBDA * torch.mm(w, w.t())` and the bias's
#   square added to the cost by hand, whose 1x1 result `cost.backward()` is called on)
# Edits: the code cells in order; data/toydata.txt (100 rows) is kept here as text and read by
#   np.genfromtxt from io.StringIO; the %watermark cell, matplotlib and the scatter plot are
#   removed.
import io


import numpy as np

import torch
import torch.nn.functional as F

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
LAMBDA = 2


TOYDATA = """\
0.77	-1.14	0
-0.33	1.44	0
0.91	-3.07	0
-0.37	-1.91	0
-1.84	-1.13	0
-1.50	0.34	0
-0.63	-1.53	0
-1.08	-1.23	0
0.39	-1.99	0
-1.26	-2.90	0
-5.27	-0.78	0
-0.49	-2.74	0
1.48	-3.74	0
-1.64	-1.96	0
0.45	0.36	0
-1.48	-1.17	0
-2.94	-4.47	0
-2.19	-1.48	0
0.02	-0.02	0
-2.24	-2.12	0
-3.17	-3.69	0
-4.09	1.03	0
-2.41	-2.31	0
-3.45	-0.61	0
-3.96	-2.00	0
-2.95	-1.16	0
-2.42	-3.35	0
-1.74	-1.10	0
-1.61	-1.28	0
-2.59	-2.21	0
-2.64	-2.20	0
-2.84	-4.12	0
-1.45	-2.26	0
-3.98	-1.05	0
-2.97	-1.63	0
-0.68	-1.52	0
-0.10	-3.43	0
-1.14	-2.66	0
-2.92	-2.51	0
-2.14	-1.62	0
-3.33	-0.44	0
-1.05	-3.85	0
0.38	0.95	0
-0.05	-1.95	0
-3.20	-0.22	0
-2.26	0.01	0
-1.41	-0.33	0
-1.20	-0.71	0
-1.69	0.80	0
-1.52	-1.14	0
3.88	0.65	1
0.73	2.97	1
0.83	3.94	1
1.59	1.25	1
3.92	3.48	1
3.87	2.91	1
1.14	3.91	1
1.73	2.80	1
2.95	1.84	1
2.61	2.92	1
2.38	0.90	1
2.30	3.33	1
1.31	1.85	1
1.56	3.85	1
2.67	2.41	1
1.23	2.54	1
1.33	2.03	1
1.36	2.68	1
2.58	1.79	1
2.40	0.91	1
0.51	2.44	1
2.17	2.64	1
4.38	2.94	1
1.09	3.12	1
0.68	1.54	1
1.93	3.71	1
1.26	1.17	1
1.90	1.34	1
3.13	0.92	1
0.85	1.56	1
1.50	3.93	1
2.95	2.09	1
0.77	2.84	1
1.00	0.46	1
3.19	2.32	1
2.92	2.32	1
2.86	1.35	1
0.97	2.68	1
1.20	1.31	1
1.54	2.02	1
1.65	0.63	1
1.36	-0.22	1
2.63	0.40	1
0.90	2.05	1
1.26	3.54	1
0.71	2.27	1
1.96	0.83	1
2.52	1.83	1
2.77	2.82	1
4.16	3.34	1
"""


##########################
### DATASET
##########################

data = np.genfromtxt(io.StringIO(TOYDATA), delimiter='\t')
x = data[:, :2].astype(np.float32)
y = data[:, 2].astype(np.int64)

np.random.seed(123)
idx = np.arange(y.shape[0])
np.random.shuffle(idx)
X_test, y_test = x[idx[:25]], y[idx[:25]]
X_train, y_train = x[idx[25:]], y[idx[25:]]
mu, std = np.mean(X_train, axis=0), np.std(X_train, axis=0)
X_train, X_test = (X_train - mu) / std, (X_test - mu) / std


def custom_where(cond, x_1, x_2):
    return (cond * x_1) + ((1-cond) * x_2)


class LogisticRegression(torch.nn.Module):

    def __init__(self, num_features):
        super(LogisticRegression, self).__init__()
        self.linear = torch.nn.Linear(num_features, 1)
        # initialize weights to zeros here,
        # since we used zero weights in the
        # manual approach
        
        self.linear.weight.detach().zero_()
        self.linear.bias.detach().zero_()
        # Note: the trailing underscore
        # means "in-place operation" in the context
        # of PyTorch
        
    def forward(self, x):
        logits = self.linear(x)
        probas = torch.sigmoid(logits)
        return probas

model = LogisticRegression(num_features=2).to(device)

#########################################################
## Apply L2 regularization
optimizer = torch.optim.SGD(model.parameters(), 
                            lr=0.1, 
                            weight_decay=LAMBDA)
#-------------------------------------------------------


def comp_accuracy(label_var, pred_probas):
    pred_labels = custom_where((pred_probas > 0.5).float(), 1, 0).view(-1)
    acc = torch.sum(pred_labels == label_var.view(-1)).float() / label_var.size(0)
    return acc


num_epochs = 30

X_train_tensor = torch.tensor(X_train, dtype=torch.float32, device=device)
y_train_tensor = torch.tensor(y_train, dtype=torch.float32, device=device).view(-1, 1)


for epoch in range(num_epochs):
    
    #### Compute outputs ####
    out = model(X_train_tensor)
    
    #### Compute gradients ####
    cost = F.binary_cross_entropy(out, y_train_tensor, reduction='sum')
    optimizer.zero_grad()
    cost.backward()
    
    #### Update weights ####  
    optimizer.step()
    
    #### Logging ####      
    pred_probas = model(X_train_tensor)
    acc = comp_accuracy(y_train_tensor, pred_probas)
    print('Epoch: %03d' % (epoch + 1), end="")
    print(' | Train ACC: %.3f' % acc, end="")
    print(' | Cost: %.3f' % F.binary_cross_entropy(pred_probas, y_train_tensor))


    
print('\nModel parameters:')
print('  Weights: %s' % model.linear.weight)
print('  Bias: %s' % model.linear.bias)


X_test_tensor = torch.tensor(X_test, dtype=torch.float32, device=device)
y_test_tensor = torch.tensor(y_test, dtype=torch.float32, device=device)

pred_probas = model(X_test_tensor)
test_acc = comp_accuracy(y_test_tensor, pred_probas)

print('\n\nTest set accuracy: %.2f%%' % (test_acc*100))


model = LogisticRegression(num_features=2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(num_epochs):
    
    #### Compute outputs ####
    out = model(X_train_tensor)
    
    #### Compute gradients ####
    
    #########################################################
    ## Apply L2 regularization (weight decay)
    cost = F.binary_cross_entropy(out, y_train_tensor, reduction='sum')
    cost = cost + 0.5 * LAMBDA * torch.mm(model.linear.weight,
                                          model.linear.weight.t())
    
    # note that PyTorch also regularizes the bias, hence, if we want
    # to reproduce the behavior of SGD's "weight_decay" param, we have to add
    # the bias term as well: 
    cost = cost + 0.5 * LAMBDA * model.linear.bias**2
    #-------------------------------------------------------
    
    optimizer.zero_grad()
    cost.backward()
    
    #### Update weights ####  
    optimizer.step()
    
    #### Logging ####      
    pred_probas = model(X_train_tensor)
    acc = comp_accuracy(y_train_tensor, pred_probas)
    print('Epoch: %03d' % (epoch + 1), end="")
    print(' | Train ACC: %.3f' % acc, end="")
    print(' | Cost: %.3f' % F.binary_cross_entropy(pred_probas, y_train_tensor))


    
print('\nModel parameters:')
print('  Weights: %s' % model.linear.weight)
print('  Bias: %s' % model.linear.bias)


X_test_tensor = torch.tensor(X_test, dtype=torch.float32, device=device)
y_test_tensor = torch.tensor(y_test, dtype=torch.float32, device=device)

pred_probas = model(X_test_tensor)
test_acc = comp_accuracy(y_test_tensor, pred_probas)

print('\n\nTest set accuracy: %.2f%%' % (test_acc*100))
