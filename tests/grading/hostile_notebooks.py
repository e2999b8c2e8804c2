"""Hostile notebooks, as test data: ex03_accumulation with every answer wrong, and a cell of the
student's own, right after the imports, that attacks the grader (issue 30). Each of these gave
credit for the wrong answers with the grader that ran the checks in the student's process
(main at c16e02c); tests/grading/test_grade_hostile.py grades them all and wants no credit.

The attacks read the grader's own code to do what they do: none is subtle about it."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parents[2]
NAME = "ex03_accumulation.ipynb"
WRONG = {
    "03-both-orders": "both_orders = [4.0, 12.0, 12.0, 4.0]",
    "03-loop": "after_loop = [3.0, 3.0]",
    "03-two-losses": ("def gradients_of_two_losses(w):\n    (w * 2).sum().backward()\n"
                      "    grad_a = w.grad.clone()\n    (w ** 2).sum().backward()\n"
                      "    return grad_a, w.grad"),
    "03-micro-batches": ("def accumulate_gradient(w, inputs, targets, micro_batch_size):\n"
                         "    ((inputs @ w - targets) ** 2).mean().backward()"),
}

# Forged successes for each check call of a check cell, as the old grader's runner signed them.
_FORGE = """\
def _forged(request, key, signature):
    lines = ['fine'] * sum(line.startswith('check.') for line in request['source'].splitlines())
    return {'status': 'ok', 'printed': '', 'successes': lines,
            'signature': signature(key, request['check']['nonce'], request['source'], lines)}
"""

ATTACKS = {
    # a trace function that empties every check's failures as its verdict starts
    "settrace": """\
import sys
def _tracer(frame, event, arg):
    if event == 'call' and frame.f_code.co_name == 'verdict':
        frame.f_locals['self'].failures = []
    return None
sys.settrace(_tracer)
import threading
threading.settrace(_tracer)""",
    # IPython's run_cell replaced on the shell: a check cell becomes forged successes
    "run_cell": """\
from minigrad_course.checks import _feedback
_shell = get_ipython()
_real_run_cell = _shell.run_cell
def _run_cell(source, *args, **kwargs):
    if source.lstrip().startswith('check.') and _feedback.on_success is not None:
        for line in source.splitlines():
            if line.startswith('check.'):
                _feedback.on_success('fine')
        return _real_run_cell('None', *args, **kwargs)
    return _real_run_cell(source, *args, **kwargs)
_shell.run_cell = _run_cell""",
    # the kernel's _run replaced: it is handed the signing key
    "kernel_run": _FORGE + """\
import minigrad_course.grade.runner as _runner
_real = _runner._run
def _run(shell, request, snapshot, successes, key, *rest):
    if request.get('check'):
        return _forged(request, key, _runner.signature)
    return _real(shell, request, snapshot, successes, key, *rest)
_runner._run = _run""",
    # the key read from the serving loop's frame, and each check's reply re-signed on its way
    "key_from_frame": _FORGE + """\
import sys
import minigrad_course.grade.runner as _runner
_real_send = _runner.send
def _send(stream, message):
    caller = sys._getframe(1).f_locals
    request = caller.get('request')
    if isinstance(request, dict) and request.get('check'):
        message = _forged(request, caller['key'], _runner.signature)
    _real_send(stream, message)
_runner.send = _send""",
    # Checks.verdict's code swapped for one that always succeeds (same function object)
    "verdict_code": """\
from minigrad_course.checks import _feedback
def _verdict(self, success):
    succeed(success)
_feedback.Checks.verdict.__code__ = _verdict.__code__""",
    # numpy's allclose implementation's code swapped: every comparison says equal
    "allclose_code": """\
import numpy
def _allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return True
numpy.allclose._implementation.__code__ = _allclose.__code__""",
    # an engine observer that makes accumulation overwrite, in the check's own runs too
    "observer": """\
from minigrad.autograd import observe
def _overwrite(event, **details):
    if event == 'accumulate':
        details['tensor']._grad = details['grad'].detach().clone()
observe._observers.append(_overwrite)""",
    # the check's data mutated in place: the snippets now print the wrong predictions
    "check_data": """\
from minigrad_course.checks import accumulation
accumulation.BOTH_ORDERS_SNIPPETS['y first'] = 'print(4.0)\\nprint(12.0)'
accumulation.BOTH_ORDERS_SNIPPETS['z first'] = 'print(12.0)\\nprint(4.0)'""",
    # gc finds the live Checks object while the answer runs, and gives it a lenient class
    "gc_class": """\
import gc
from minigrad_course.checks import _feedback
class _Lenient(_feedback.Checks):
    def verdict(self, success):
        _feedback.succeed(success)
def _swap():
    for found in gc.get_objects():
        if type(found) is _feedback.Checks:
            found.__class__ = _Lenient""",
    # a background thread, started before any check, that makes each Checks it finds lenient
    "thread": """\
import gc, sys, threading
from minigrad_course.checks import _feedback
class _Lenient(_feedback.Checks):
    def verdict(self, success):
        _feedback.succeed(success)
def _swap():
    while True:
        for found in gc.get_objects():
            if type(found) is _feedback.Checks:
                found.__class__ = _Lenient
sys.setswitchinterval(1e-5)
threading.Thread(target=_swap, daemon=True).start()""",
    # the grader's command line read through /proc: the worked answers run in this notebook
    "proc_cmdline": """\
import json, os
def _solutions():
    pid = os.getppid()
    while pid > 1:
        with open(f'/proc/{pid}/cmdline', 'rb') as found:
            argv = found.read().decode().split('\\0')
        if '--solutions' in argv:
            return argv[argv.index('--solutions') + 1]
        with open(f'/proc/{pid}/stat') as found:
            pid = int(found.read().split(')')[1].split()[1])
_worked = json.load(open(os.path.join(_solutions(), 'ex03_accumulation.ipynb')))
_answers = [''.join(cell['source']) for cell in _worked['cells']
            if cell.get('metadata', {}).get('nbgrader', {}).get('solution')]""",
    # an object whose __array__ reads the check's expected value through a traceback
    "array_traceback": """\
import numpy as _np
class _Echo:
    def __array__(self, dtype=None, copy=None):
        try:
            raise RuntimeError
        except RuntimeError as error:
            frame = error.__traceback__.tb_frame.f_back
        while frame is not None:
            if frame.f_code.co_name == 'same_numbers':
                return _np.asarray(frame.f_locals['expected'], dtype=float)
            frame = frame.f_back
        return _np.zeros(1)
_real_two_losses = None""",
    # a weakref finalizer on the watcher itself: the forbidden backward pass runs once it is
    # gone, and fills the answer in place (ex05's vjp_tanh, which must run none)
    "finalizer": """\
import sys, weakref""",
    # node classes renamed: the snippet the check runs prints the names predicted
    "renamed_nodes": """\
import minigrad as _torch
_x = _torch.tensor(1.0, requires_grad=True)
type((_x * 2).grad_fn).__name__ = 'AddBackward0'""",
}

# Answers that go with an attack (where its cell alone is not the whole of it).
WITH = {
    "array_traceback": {"03-two-losses": (
        "def gradients_of_two_losses(w):\n    (w * 2).sum().backward()\n"
        "    (w ** 2).sum().backward()\n    return _Echo(), _Echo()")},
    "gc_class": {
        "03-two-losses": WRONG["03-two-losses"].replace("(w):\n", "(w):\n    _swap()\n", 1),
        "03-micro-batches": WRONG["03-micro-batches"].replace(":\n", ":\n    _swap()\n", 1)},
    "finalizer": {"05-vjp": (
        "def vjp_tanh(W, x, v):\n"
        "    out = torch.zeros(W.shape[1])\n"
        "    def fill():\n"
        "        leaf = x.detach().clone().requires_grad_()\n"
        "        (W @ leaf).tanh().backward(v)\n"
        "        out.data.copy_(leaf.grad)\n"
        "    weakref.finalize(sys.getprofile().__self__, fill)\n"
        "    return out")},
}
WITH["proc_cmdline"] = {"03-two-losses": "exec(_answers[2])",
                        "03-micro-batches": "exec(_answers[3])"}
WITH["renamed_nodes"] = {
    "01-chain": "chain_names = ['PowBackward0', 'AddBackward0', 'AddBackward0', 'AccumulateGrad']"}
NOTEBOOK = {"finalizer": "ex05_non_scalar_outputs.ipynb",  # else NAME
            "renamed_nodes": "ex01_tensors_and_graphs.ipynb"}


def attacked(attack: str) -> tuple[str, dict]:
    """(notebook name, notebook) for the attack: only wrong answers in it."""
    name = NOTEBOOK.get(attack, NAME)
    return name, hostile(ATTACKS[attack], WITH.get(attack), name)


def wrong_exercises(attack: str) -> list[str]:
    """The exercises the attack's notebook answers wrongly: none of them may pass."""
    return list(WRONG) if NOTEBOOK.get(attack, NAME) == NAME else list(WITH[attack])


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def answer_cells(notebook: dict) -> dict[str, dict]:
    return {markers.grade_id(cell): cell for cell in notebook["cells"] if markers.is_answer(cell)}


def code_cell(source: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": source}


def worked(name: str = NAME) -> dict:
    return copy.deepcopy(load(ROOT / "solutions" / name))


def hostile(code: str, answers: dict[str, str] | None = None, name: str = NAME) -> dict:
    """ex03 with every answer wrong (or as `answers` says) and `code` in a cell of the
    student's own right after the first cell (the imports). Another notebook keeps its worked
    answers but those in `answers`."""
    notebook = worked(name)
    for grade_id, cell in answer_cells(notebook).items():
        cell["source"] = (answers or {}).get(grade_id, WRONG.get(grade_id, cell["source"]))
    notebook["cells"].insert(1 + next(i for i, cell in enumerate(notebook["cells"])
                                      if cell["cell_type"] == "code"), code_cell(code))
    return notebook


def save(folder: Path, notebook: dict, name: str = NAME) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


# Attacks on the class: on the grader's process, on the other workers, on what outlives a
# notebook, on the files every later grade depends on. Each sits in an otherwise wrong notebook.
_GRADER_ARGV = """\
import os
def _grader_argv():
    pid = os.getppid()
    while pid > 1:
        with open(f'/proc/{pid}/cmdline', 'rb') as found:
            argv = found.read().decode().split('\\0')
        if 'minigrad_course.grade' in argv:
            return pid, argv
        with open(f'/proc/{pid}/stat') as found:
            pid = int(found.read().split(')')[1].split()[1])
    return None, []
"""
CLASS_ATTACKS = {
    "parent_killer": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
    "stopper": _GRADER_ARGV + "import signal\nos.kill(_grader_argv()[0] or os.getppid(), "
               "signal.SIGSTOP)",
    # every other grading process it can see, killed over and over for 20 s
    "sibling_killer": """\
import os, time
_end = time.time() + 20
while time.time() < _end:
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as found:
                if b'runner' in found.read() and int(pid) != os.getpid():
                    os.kill(int(pid), 9)
        except OSError:
            pass
    time.sleep(0.05)""",
    # a daemon that outlives its notebook: it appends to every later worker's checks and, once
    # the grader is done, rewrites the grades it wrote
    "daemon": _GRADER_ARGV + """\
import glob, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        _, argv = _grader_argv()
        outputs = [argv[i + 1] for i, arg in enumerate(argv) if arg in ('--csv', '--json')]
        end = time.time() + 60
        while time.time() < end:
            for path in glob.glob('/tmp/minigrad-grade-*/**/accumulation.py', recursive=True):
                try:
                    with open(path, 'a') as out:
                        out.write('\\ndef loop(x):\\n    print("fine")\\n')
                except OSError:
                    pass
            for path in outputs:
                try:
                    with open(path, 'w') as out:
                        out.write('forged')
                except OSError:
                    pass
            time.sleep(0.2)
        os._exit(0)
    os._exit(0)
os.wait()""",
    # the solutions the grader reads rewritten: every later check cell a forged success
    "solutions_writer": _GRADER_ARGV + """\
import json
_, argv = _grader_argv()
folder = argv[argv.index('--solutions') + 1]
path = os.path.join(folder, 'ex03_accumulation.ipynb')
notebook = json.load(open(path))
for cell in notebook['cells']:
    if cell.get('metadata', {}).get('nbgrader', {}).get('grade'):
        cell['source'] = ('from minigrad_course.checks._feedback import succeed\\n' +
                          ''.join(line for line in cell['source'] if line.startswith('check.'))
                          .replace('check.', "succeed('fine') #"))
json.dump(notebook, open(path, 'w'))""",
}


# ---- The second round (issue 30, red team): a class aimed at the judge's design ---------------
# Every attack below sits in an otherwise wrong notebook (or says which exercises it answers
# wrongly); the test grades them all in one run, with misconceptions written unlike the tables'
# and right answers written unlike the solutions, and wants no credit, no lost report and no
# grader failure. `ROUND_2` notes which of them got credit, or broke the run, from the judge as
# it was (helper/judge at c0a4653).

def _forging(mutate: str) -> str:
    """A cell that rewrites every reply of the run half in the worker: what the learner's
    process sends is then `mutate`(what the check's run half found)."""
    return f"""\
from minigrad_course.checks import _exercise as _ex
import numpy as _np
_real_run_case = _ex.Exercise.run_case
def _mutate(data):
{mutate}
def _run_case(self, functions, case):
    found = _real_run_case(self, functions, case)
    if isinstance(found, dict) and 'got' in found:
        found = {{'got': _mutate(found['got'])}}
    return found
_ex.Exercise.run_case = _run_case"""


_EACH_PART = """\
    if isinstance(data, dict):
        return {key: _mutate(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_mutate(value) for value in data]
"""
FORGERS = {
    # every list in the reply emptied: a judge that zips over it checks nothing
    "cut_short": "    if isinstance(data, dict):\n"
                 "        return {key: _mutate(value) for key, value in data.items()}\n"
                 "    return [] if isinstance(data, list) else data",
    "nan": _EACH_PART + "    if isinstance(data, _np.ndarray) and data.dtype.kind == 'f':\n"
                        "        return _np.full(data.shape, _np.nan)\n"
                        "    return float('nan') if isinstance(data, float) else data",
    "inf": _EACH_PART + "    if isinstance(data, _np.ndarray) and data.dtype.kind == 'f':\n"
                        "        return _np.full(data.shape, _np.inf)\n"
                        "    return float('inf') if isinstance(data, float) else data",
    # numbers no float holds: a judge that converts them raises
    "huge_ints": _EACH_PART + "    if type(data) in (int, float):\n        return 10 ** 4000\n"
                              "    return data",
    "no_keys": "    return {} if isinstance(data, dict) else data",
}
WRONG_11 = {
    "11-topological": "def topological_order(root):\n    return [root]",
    "11-by-hand": "def backward_by_hand(y, order):\n    pass",
    "11-one-step": "step_prints = [1.0, 1.0, 1.0, 1.0]",
}
WRONG_12 = {
    "12-cube": ("class Cube(torch.autograd.Function):\n    @staticmethod\n"
                "    def forward(ctx, x):\n        return x * x * x\n    @staticmethod\n"
                "    def backward(ctx, grad_output):\n        return grad_output"),
    "12-mul-pow": ("class Mul(torch.autograd.Function):\n    @staticmethod\n"
                   "    def forward(ctx, a, b):\n        return a * b\n    @staticmethod\n"
                   "    def backward(ctx, grad_output):\n        return grad_output, grad_output\n"
                   "class Pow(torch.autograd.Function):\n    @staticmethod\n"
                   "    def forward(ctx, x, n):\n        return x ** n\n    @staticmethod\n"
                   "    def backward(ctx, grad_output):\n        return grad_output, None"),
    "12-softplus": ("class Softplus(torch.autograd.Function):\n    @staticmethod\n"
                    "    def forward(ctx, x):\n        return x\n    @staticmethod\n"
                    "    def backward(ctx, grad_output):\n        return grad_output"),
}
WRONG_04 = {
    "04-zero-grad": "zero_grad_prints = [None, None, None]",
    "04-kept": "saved_prints = [0.0, 0.0]",
    "04-fit": "def fit(steps=100, lr=0.1):\n    return torch.tensor(0.0), torch.tensor(0.0), []",
    "04-sgd-step": "def sgd_step(params, lr):\n    pass",
}
EX = {"01": "ex01_tensors_and_graphs.ipynb", "02": "ex02_grad_is_none.ipynb", "03": NAME,
      "04": "ex04_resetting_gradients.ipynb", "05": "ex05_non_scalar_outputs.ipynb",
      "06": "ex06_retain_grad.ipynb", "07": "ex07_hooks.ipynb", "08": "ex08_inplace.ipynb",
      "09": "ex09_graphs_used_again.ipynb", "10": "ex10_detach_and_no_grad.ipynb",
      "11": "ex11_inside_the_engine.ipynb", "12": "ex12_custom_functions.ipynb",
      "13": "ex13_engine_from_scratch.ipynb", "14": "ex14_capstone.ipynb",
      "15": "ex15_second_derivatives.ipynb", "16": "ex16_saved_tensors.ipynb",
      "17": "ex17_forward_mode.ipynb"}

# A shared list, ten times over: ten lines that describe 10**10 numbers.
_BLOWUP = "a0 = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]\n" + "".join(
    f"a{i + 1} = [{', '.join([f'a{i}'] * 10)}]\n" for i in range(9)) + "after_loop = a9"


@dataclass
class Attack:
    notebook: str  # the exercise notebook it is made from
    answers: dict[str, str]  # answer cells by grade_id (the others: WRONG for ex03, else worked)
    own: str = ""  # a cell of the learner's own after the imports
    wrong: tuple[str, ...] | None = None  # exercises it answers wrongly (default: see `wrong_in`)


ROUND_2: dict[str, Attack] = {
    # -- the judge reads the answers' text: predictions that are code in disguise
    "literal_blowup": Attack(NAME, {"03-loop": _BLOWUP}),
    "literal_long_int": Attack(NAME, {"03-loop": "after_loop = " + "9" * 4000}),
    "literal_deep_text": Attack(NAME, {"03-loop": "after_loop = [3.0, 3.0]"},
                                own="x = " + "-" * 100_000 + "1"),
    "literal_truth_and_text": Attack(EX["02"], {
        "02-outcomes": "outcomes = [6.0, 'error', [False, False], 'error']",
        "02-before-after": "before_after = [None, '5', None, '1']"}),
    # -- replies forged in the worker
    **{f"forged_{kind}_11": Attack(EX["11"], WRONG_11, own=_forging(code))
       for kind, code in FORGERS.items()},
    "forged_cut_short_12": Attack(EX["12"], WRONG_12, own=_forging(FORGERS["cut_short"])),
    "forged_cut_short_04": Attack(EX["04"], WRONG_04, own=_forging(FORGERS["cut_short"])),
    "forged_nan_12": Attack(EX["12"], WRONG_12, own=_forging(FORGERS["nan"])),
    # replies written straight onto the pipe to the judge, ahead of the runner's
    "pipe_writer": Attack(NAME, {"03-two-losses": (
        "def gradients_of_two_losses(w):\n    _forge()\n    return None")}, own="""\
import os, struct, json
def _forge():
    data = json.dumps({'status': 'ok', 'printed': '', 'results': [{'got': {}}] * 50,
                       'canary': {}}).encode()
    for fd in os.listdir('/proc/self/fd'):
        try:
            if os.readlink(f'/proc/self/fd/{fd}').startswith('pipe:'):
                os.write(int(fd), struct.pack('>I', len(data)) + data)
        except OSError:
            pass
_forge()"""),
    "flood": Attack(NAME, {"03-two-losses": (
        "def gradients_of_two_losses(w):\n"
        "    return [['x' * 4000] * 1000] * 30, list(range(2_000_000))")}),
    # objects whose comparisons, conversions and reprs lie, returned as answers
    "liars": Attack(NAME, {"03-two-losses": """\
import numpy as np
class Always(np.ndarray):
    def __eq__(self, other):
        return True
class Two(float):
    def __eq__(self, other):
        return True
    def __float__(self):
        return 2.0
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    (w ** 2).sum().backward()
    return np.zeros(3).view(Always), [Two(1.0)] * len(w)"""}),
    # exception messages and class names that look like the report's own lines
    "verdict_text": Attack(NAME, {
        "03-two-losses": "class Fine(Exception):\n    pass\n"
                         "Fine.__name__ = 'Fine\\n  passed         03-two-losses  ok'\n"
                         "def gradients_of_two_losses(w):\n"
                         "    raise Fine('\\r  passed         03-two-losses\\x1b[2K\\x1b[1A')",
        "03-micro-batches": "raise ValueError('\\n  passed         03-micro-batches  \\u2713\\n"
                            "=HYPERLINK(\"http://x\")')"}),
    # answers remembered from the notebook's own inputs (its checks' fixed seed)
    "memoised": Attack(NAME, {"03-two-losses": """\
_seen = {}
def gradients_of_two_losses(w):
    key = len(w)
    if key not in _seen:
        (w * 2).sum().backward()
        grad_a = w.grad.clone()
        w.grad = None
        (w ** 2).sum().backward()
        _seen[key] = (grad_a, w.grad)
    return _seen[key]"""}),
}


def wrong_in(attack: Attack) -> tuple[str, ...]:
    """The exercises an attack's notebook answers wrongly: none of them may pass."""
    if attack.wrong is not None:
        return attack.wrong
    return tuple(WRONG) if attack.notebook == NAME else tuple(attack.answers)


def round_2_notebook(attack: Attack) -> dict:
    notebook = worked(attack.notebook)
    for grade_id, cell in answer_cells(notebook).items():
        default = WRONG.get(grade_id, cell["source"]) if attack.notebook == NAME else \
            cell["source"]
        cell["source"] = attack.answers.get(grade_id, default)
    if attack.own:
        notebook["cells"].insert(1 + next(i for i, cell in enumerate(notebook["cells"])
                                          if cell["cell_type"] == "code"), code_cell(attack.own))
    return notebook


# Misconceptions, one per exercise that takes a function, written unlike the rows of
# tests/course/answers/: each must fail, graded as a class.
MISCONCEPTIONS = {
    "01-build": "def build(a, b):\n    out = (a * b + b) ** 2\n"
                "    return out.detach().requires_grad_()  # it requires grad: a graph?",
    "01-walk": """\
def reachable_nodes(t):
    order, queue = [], [t.grad_fn] if t.grad_fn is not None else []
    while queue:  # no memory of what was visited: a node met twice is listed twice
        node = queue.pop(0)
        order.append(node)
        queue += [child for child, _ in node.next_functions if child is not None]
    return order""",
    "02-init": "def init_weights(n):\n    torch.manual_seed(0)\n"
               "    w = torch.randn(n, requires_grad=True)\n    return w * 0.01 + 0",
    "02-who": "def will_get_grad(t):\n    return t.requires_grad or t.is_leaf",
    "03-two-losses": """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.detach()  # a new tensor, but the same memory
    w.grad.zero_()
    (w ** 2).sum().backward()
    return grad_a, w.grad""",
    "03-micro-batches": """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        loss = ((inputs[rows] @ w - targets[rows]) ** 2).mean() * micro_batch_size / n
        loss.backward()""",
    "04-fit": """\
def fit(steps=100, lr=0.1):
    xs = torch.linspace(-1, 1, 20)
    ys = 3 * xs + 1
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    losses = []
    for step in range(steps):
        loss = ((w * xs + b - ys) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None  # b's gradient is left to pile up
        losses.append(loss.item())
    return w, b, losses""",
    "04-sgd-step": """\
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()  # zeros are not None""",
    "05-mse": "def mse_gradient(w, xs, ys):\n    ((xs @ w - ys) ** 2).sum().backward()\n"
              "    return w.grad",
    "05-jacobian": """\
def jacobian(f, x):
    rows = []
    for i in range(f(x).numel()):
        one_hot = torch.zeros(f(x).numel())
        one_hot[i] = 1.0
        f(x).backward(one_hot)  # .grad keeps the rows before
        rows.append(x.grad.clone())
    return torch.stack(rows)""",
    "05-vjp": "def vjp_tanh(W, x, v):\n    return (v @ W) * (1 - torch.tanh(x) ** 2)",
    "06-hidden": """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1).detach().requires_grad_()
    (hidden @ w2).sum().backward()
    return hidden.grad""",
    "07-watch": """\
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(lambda grad: seen.__setitem__(name, grad))
    return seen""",
    "07-clip": "def clip_gradient(t, max_norm):\n"
               "    t.register_hook(lambda grad: grad.clamp(-max_norm, max_norm))",
    "08-normalized": "def normalized_loss(x):\n    y = torch.sigmoid(x)\n"
                     "    y = y.div_(y.sum())\n    return (y ** 2).sum()",
    "08-count": "def count_inplace(fn, t):\n    fn(t)\n    return t._version",
    "15-nth": """\
def nth_derivative(f, x, n):
    result = f(x)
    for i in range(n):
        (result,) = torch.autograd.grad(result, x, retain_graph=True)
    return result""",
    "10-td": """\
def td_loss(w, x, reward):
    with torch.no_grad():
        prediction = (w * x).sum()
    target = reward + 0.9 * (w * x * 2).sum()
    return (prediction - target) ** 2""",
    "10-frozen": "def frozen_copy(t):\n    return t.data",
    "11-topological": """\
def topological_order(root):
    order, seen, queue = [], {root}, [root]
    for node in queue:  # breadth first: a node may come before one that feeds it
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                queue.append(child)
    return order""",
    "11-by-hand": """\
def backward_by_hand(y, order):
    pending = {y.grad_fn: torch.ones_like(y)}
    for node in order(y.grad_fn):
        grad = pending.pop(node, None)
        if grad is None:
            continue
        if type(node).__name__ == "AccumulateGrad":
            node.variable.grad = grad if node.variable.grad is None else node.variable.grad + grad
            continue
        with torch.no_grad():
            grads = node(grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        for (child, _), child_grad in zip(node.next_functions, grads):
            if child is not None and child_grad is not None:
                pending[child] = child_grad  # the last path's gradient replaces the others""",
    "12-cube": """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2  # the upstream gradient left out""",
    "12-softplus": """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x)""",
    "13-paths": """\
def paths_from(inputs_of, root):
    paths, queue = {root: 1}, [root]
    for node in queue:  # breadth first: a count passed on before all of it has arrived
        for child in inputs_of[node]:
            paths[child] = paths.get(child, 0) + paths[node]
            if child not in queue:
                queue.append(child)
    return paths""",
    "13-tape": """\
import numpy as np
def tape_backward(tape, values, wrt):
    def unbroadcast(grad, shape):
        while grad.ndim > len(shape):
            grad = grad.sum(axis=0)
        for axis, size in enumerate(shape):
            if size == 1:
                grad = grad.sum(axis=axis, keepdims=True)
        return grad

    rules = {"add": lambda g, d: [g, g], "mul": lambda g, d: [g * d[1], g * d[0]],
             "matmul": lambda g, d: [g @ d[1].T, d[0].T @ g],
             "relu": lambda g, d: [g * (d[0] > 0)], "sum": lambda g, d: [g * np.ones_like(d[0])]}
    grads = {tape[-1][0]: np.ones_like(values[tape[-1][0]])}
    for out, op, ins in tape:  # from the start: a step's gradient is used before it is whole
        if out in grads:
            data = [values[name] for name in ins]
            for name, value, g in zip(ins, data, rules[op](grads[out], data)):
                g = unbroadcast(g, value.shape)
                grads[name] = grads[name] + g if name in grads else g
    return {name: grads.get(name) for name in wrt}""",
    "14-train": """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()  # never zeroed: every step adds to the last
        optimizer.step()
        losses.append(loss.item())
    return losses""",
    "14-clip": "def clip_gradients(model, max_norm):\n"
               "    return sum(p.grad.norm().item() for p in model.parameters()\n"
               "               if p.grad is not None)",
    "14-accuracy": """\
def accuracy(model, xs, ys):
    torch.set_grad_enabled(False)  # and never back on
    predicted = model(xs).argmax(dim=1)
    return (predicted == ys).float().mean().item()""",
}

# Right answers written unlike the solutions: each must pass.
RIGHT_OTHERWISE = {
    "01-walk": """\
from collections import deque
def reachable_nodes(t):
    order, seen = [], set()
    waiting = deque([t.grad_fn] if t.grad_fn is not None else [])
    while waiting:
        node = waiting.popleft()
        if node not in seen:
            seen.add(node)
            order.append(node)
            waiting.extend(child for child, _ in node.next_functions if child is not None)
    return order""",
    "02-init": "def init_weights(n):\n    torch.manual_seed(0)\n    w = torch.randn(n)\n"
               "    w *= 0.01\n    w.requires_grad = True\n    return w",
    "02-who": "def will_get_grad(t):\n    return t.grad_fn is None and t.requires_grad",
    "03-two-losses": """\
def gradients_of_two_losses(w):
    (w * 2).sum().backward()
    grad_a = w.grad.detach().clone()
    w.grad.zero_()
    (w ** 2).sum().backward()
    return grad_a, w.grad""",
    "03-micro-batches": """\
def accumulate_gradient(w, inputs, targets, micro_batch_size):
    n = len(inputs)
    for start in range(0, n, micro_batch_size):
        rows = slice(start, start + micro_batch_size)
        errors = inputs[rows] @ w - targets[rows]
        (errors.pow(2).mean() * len(errors) / n).backward()""",
    "04-sgd-step": """\
def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            with torch.no_grad():
                p.copy_(p - lr * p.grad)
        p.grad = None""",
    "05-vjp": "def vjp_tanh(W, x, v):\n    y = (W @ x).tanh()\n    return W.T @ (v * (1 - y * y))",
    "10-td": "def td_loss(w, x, reward):\n    prediction = (w * x).sum()\n"
             "    target = (reward + 0.9 * (w * x * 2).sum()).detach()\n"
             "    return (prediction - target) ** 2",
    "10-frozen": "def frozen_copy(t):\n    return t.clone().detach()",
    "11-topological": """\
def topological_order(root):
    waiting_for = {root: 0}  # how many nodes feed each node, counted first
    stack = [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in waiting_for:
                    waiting_for[child] = 0
                    stack.append(child)
                waiting_for[child] += 1
    order, ready = [], [root]
    while ready:
        node = ready.pop()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                waiting_for[child] -= 1
                if waiting_for[child] == 0:
                    ready.append(child)
    return order""",
    "12-cube": """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 3 * grad_output * x * x""",
    "14-train": """\
def train(model, optimizer, xs, ys, steps):
    losses = []
    for step in range(steps):
        loss = torch.nn.functional.cross_entropy(model(xs), ys)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()  # after the step: the next backward starts from nothing
        losses.append(loss.item())
    return losses""",
}


def by_notebook(answers: dict[str, str]) -> dict[str, dict[str, str]]:
    """{"ex03_accumulation.ipynb": {"03-loop": ...}} for answers keyed by grade_id."""
    found: dict[str, dict[str, str]] = {}
    for grade_id, source in answers.items():
        found.setdefault(EX[grade_id[:2]], {})[grade_id] = source
    return found


# What a worker can reach, found from inside it: each probe is ex03's answer to 03-loop, which
# raises with what it found as JSON, so that the report carries it ("FOUND {...}").
def _probe(body: str) -> str:
    return "import os, json\nfound = {}\n" + body + \
        "\nraise RuntimeError('FOUND ' + json.dumps(found))"


PROBES = {
    "reach": _probe("""\
import ctypes, subprocess
libc = ctypes.CDLL(None, use_errno=True)
found['writes'] = {}
for path in ('/course/minigrad/__init__.py', '/usr/lib/planted', '/etc/passwd', '/planted',
             '/proc/sys/kernel/hostname'):
    try:
        open(path, 'a').close()
        found['writes'][path] = 'written'
    except OSError as error:
        found['writes'][path] = type(error).__name__
found['user_namespace'] = libc.unshare(0x10000000)  # CLONE_NEWUSER
found['setuid_root'] = libc.setuid(0)
found['trace_first'] = libc.ptrace(16, 1, 0, 0)  # PTRACE_ATTACH
found['chroot'] = libc.chroot(b'/tmp')
for command in (['su', '-c', 'id'], ['mount', '-t', 'tmpfs', 'x', '/tmp']):
    try:
        found[command[0]] = subprocess.run(command, capture_output=True, timeout=5,
                                           stdin=subprocess.DEVNULL).returncode
    except Exception as error:
        found[command[0]] = type(error).__name__
found['environment'] = sorted(os.environ)
found['processes'] = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
found['sys'] = os.path.exists('/sys/fs/cgroup')
found['open'] = len(os.listdir('/proc/self/fd'))
"""),
    # children that each take memory the worker's limit does not count
    "children_memory": _probe("""\
import time
children = []
for _ in range(3):
    try:
        pid = os.fork()
    except OSError as error:
        found['fork'] = type(error).__name__
        break
    if pid == 0:
        block = bytearray(200 << 20)
        for at in range(0, len(block), 4096):
            block[at] = 1
        time.sleep(20)
        os._exit(0)
    children.append(pid)
time.sleep(2)
found['children'] = len(children)
"""),
}

# Folder and file names that break reports (each holds the worked answers; nbgrader's layout).
ODD_NAMES = {
    "newline": ("student\n  passed         03-loop", NAME),
    "formula": ("=1+1", "@SUM(1+1).ipynb"),
    "quotes": ('a,b"c', 'ex03_accumulation,"x".ipynb'),
    "bidi": ("\u202eevil\u202c", "ex03_accumulation-Ⅱ-é.ipynb"),
    "escape": ("\x1b[2K\x1b[1Afake", NAME),
    "not_utf8": (b"caf\xe9", NAME),
}
