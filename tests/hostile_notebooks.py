"""Hostile notebooks, as test data: ex03_accumulation with every answer wrong, and a cell of the
student's own, right after the imports, that attacks the grader (issue 30). Each of these gave
credit for the wrong answers with the grader that ran the checks in the student's process
(main at c16e02c); tests/test_grade_hostile.py grades them all and wants no credit.

The attacks read the grader's own code to do what they do: none is subtle about it."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parent.parent
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
