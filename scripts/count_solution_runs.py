"""How many times a test run executes each solution's worked answers, and where:

    .venv/bin/python scripts/count_solution_runs.py -- -p no:randomly -n 0 solutions tests/grading

runs pytest with the arguments after `--` and prints, per solutions/exNN notebook, its full runs
(every answer cell of it ran in one process, as worked) and its partial ones (some ran: a copy
with an answer changed, as the attack and broken-notebook tests make), then where each happened.

How it sees them. A `sitecustomize` put first on PYTHONPATH, so in pytest, in nbval's and
nbgrader's kernels and in the grader's subprocesses, adds an audit hook: a `compile` of source
that is, marker lines aside, one of the answer cells is written to a log with the process and
the test. IPython parses a cell twice (under "<>" first) and the judge parses prediction
cells without running them (ast.parse, "<unknown>"): neither counts. The grader's workers run
with `python -I`, in a sandbox that cannot write the log: there the cells the grader sends down
the pipe are logged instead (subprocess.Popen wrapped; not minigrad_course's own functions,
which the in-notebook checks' tamper snapshot would rightly refuse).
A hub's or an OS user's server does not inherit PYTHONPATH: their runs are not seen.
"""
from __future__ import annotations

import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minigrad_course.checks import markers  # noqa: E402

SITECUSTOMIZE = r'''
import hashlib, json, os, subprocess, sys

_LOG, _ANSWERS = os.environ["COUNT_SOLUTION_RUNS_LOG"], os.environ["COUNT_SOLUTION_RUNS_ANSWERS"]
_KEYS = set(json.load(open(_ANSWERS)))
_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


def _key(source):
    kept = "\n".join(line for line in source.split("\n") if line.strip() not in _MARKERS)
    return hashlib.sha1(kept.strip().encode()).hexdigest()


def _write(kind, process, key):
    with open(_LOG, "a") as log:
        log.write(json.dumps({"kind": kind, "process": process, "key": key,
                              "test": os.environ.get("PYTEST_CURRENT_TEST", "")}) + "\n")


def _hook(event, args):
    if event != "compile" or str(args[1]) in ("<>", "<unknown>"):
        return
    source = args[0]
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    if isinstance(source, str) and len(source) < 20000 and _key(source) in _KEYS:
        kernel = any("ipykernel" in argument for argument in sys.argv[:3])
        _write("kernel" if kernel else "in-process", os.getpid(), _key(source))


class _Tee:
    """A grader's pipe to a worker: each cell it sends is logged on the way."""

    def __init__(self, stream, pid):
        self._stream, self._pid = stream, pid

    def write(self, data):
        try:
            message = json.loads(bytes(data[4:]))  # after the 4-byte length of runner.HEADER
        except ValueError:
            message = None
        if isinstance(message, dict) and isinstance(message.get("source"), str) and \
                _key(message["source"]) in _KEYS:
            _write("grader worker", self._pid, _key(message["source"]))
        return self._stream.write(data)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _Popen(subprocess.Popen):
    def __init__(self, args, *more, **options):
        super().__init__(args, *more, **options)
        listed = args if isinstance(args, (list, tuple)) else [args]
        if self.stdin is not None and any("grade/runner.py" in str(arg) for arg in listed):
            self.stdin = _Tee(self.stdin, self.pid)


subprocess.Popen = _Popen
sys.addaudithook(_hook)
'''


def answer_cells() -> dict[str, str]:
    """sha1 of each answer cell's worked code -> its notebook."""
    found = {}
    for path in sorted((ROOT / "solutions").glob("ex*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if markers.is_answer(cell):
                code = markers.keep_solution(markers.source_of(cell)).strip()
                found[hashlib.sha1(code.encode()).hexdigest()] = path.stem
    return found


def main(pytest_args: list[str]) -> int:
    answers = answer_cells()
    cells_of = collections.defaultdict(set)
    for key, notebook in answers.items():
        cells_of[notebook].add(key)
    with tempfile.TemporaryDirectory() as folder:
        log, listed = Path(folder, "runs.log"), Path(folder, "answers.json")
        listed.write_text(json.dumps(answers))
        Path(folder, "sitecustomize.py").write_text(SITECUSTOMIZE)
        env = dict(os.environ, COUNT_SOLUTION_RUNS_LOG=str(log),
                   COUNT_SOLUTION_RUNS_ANSWERS=str(listed),
                   PYTHONPATH=os.pathsep.join([folder, *filter(None, [os.environ.get(
                       "PYTHONPATH")])]))
        status = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT,
                                env=env).returncode
        events = [json.loads(line) for line in log.read_text().splitlines()] \
            if log.exists() else []
    # One group per process (a kernel, a worker) and, in-process, per test.
    groups: dict[tuple, collections.Counter] = collections.defaultdict(collections.Counter)
    for event in events:
        test = event["test"].rsplit(" (", 1)[0]
        groups[(event["kind"], event["process"], test)][event["key"]] += 1
    full, partial = collections.Counter(), collections.Counter()
    where = collections.Counter()
    for (kind, _, test), counts in groups.items():
        for notebook, keys in cells_of.items():
            runs = min(counts[key] for key in keys)
            if runs:
                full[notebook] += runs
                where[(notebook, "full", kind, test)] += runs
            elif any(counts[key] for key in keys):
                partial[notebook] += 1
                where[(notebook, "partial", kind, test)] += 1
    print(f"\n{'notebook':28} {'full':>5} {'partial':>8}")
    for notebook in sorted(cells_of):
        print(f"{notebook:28} {full[notebook]:5} {partial[notebook]:8}")
    print(f"{'total':28} {sum(full.values()):5} {sum(partial.values()):8}\n")
    for (notebook, how, kind, test), count in sorted(where.items()):
        print(f"{count:3} {how:7} {notebook:26} {kind:13} {test or '(nbval or a subprocess)'}")
    return status


if __name__ == "__main__":
    arguments = sys.argv[1:]
    sys.exit(main(arguments[arguments.index("--") + 1:] if "--" in arguments else arguments))
