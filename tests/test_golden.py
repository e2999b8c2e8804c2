"""Golden tests: each program in tests/golden/programs, run with minigrad installed as `torch`,
must print exactly what the real PyTorch 2.13 printed (tests/golden/expected, written by
scripts/record_golden.py). This file does not need torch.

All programs run in one batch (tests/golden/run_as_torch.py --batch): one subprocess imports
minigrad once and forks a child per program, one per CPU at a time. With pytest-xdist the batch's
results are shared between the workers through a file in the run's temporary directory, so each
program runs once per test session whatever the number of workers or the --dist mode.

To run one program by hand:  python tests/golden/run_as_torch.py tests/golden/programs/NAME.py
"""
from __future__ import annotations

import difflib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
PROGRAMS_DIR = os.path.join(GOLDEN, "programs")
EXPECTED_DIR = os.path.join(GOLDEN, "expected")
RUNNER = os.path.join(GOLDEN, "run_as_torch.py")

_spec = importlib.util.spec_from_file_location("_golden_run_as_torch", RUNNER)
run_as_torch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_as_torch)

PROGRAMS = sorted(n for n in os.listdir(PROGRAMS_DIR) if n.endswith(".py") and not n.startswith("_"))

# Seconds one batch may take before it is considered hung.
BATCH_TIMEOUT = 600


# One batch, parallel inside (one forked child per program, a CPU each). More shards would only
# pay the import of minigrad again; the code keeps the general case for a very large suite.
SHARDS = [PROGRAMS]
SHARD_OF = {name: k for k, shard in enumerate(SHARDS) for name in shard}


def _run_shard(names: list[str]) -> dict[str, dict]:
    paths = [os.path.join(PROGRAMS_DIR, n) for n in names]
    with tempfile.TemporaryDirectory() as cwd:
        out = os.path.join(cwd, "results.json")
        try:
            proc = subprocess.run(
                [sys.executable, RUNNER, "--batch", out, *paths],
                cwd=cwd,
                env=run_as_torch.child_env(),
                capture_output=True,
                text=True,
                timeout=BATCH_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            return {n: {"stdout": "", "stderr": f"batch timed out after {BATCH_TIMEOUT} s\n", "status": -9} for n in names}
        if proc.returncode != 0 or not os.path.exists(out):
            err = f"the batch runner failed (exit status {proc.returncode}):\n{proc.stdout}{proc.stderr}"
            return {n: {"stdout": "", "stderr": err, "status": proc.returncode or 1} for n in names}
        with open(out, encoding="utf-8") as f:
            return json.load(f)


class _ShardCache:
    """Runs each shard once per session, shared between xdist workers through files."""

    def __init__(self, shared_dir: str | None) -> None:
        self.shared_dir = shared_dir
        self.results: dict[str, dict] = {}

    def get(self, name: str) -> dict:
        if name not in self.results:
            self.results.update(self._load(SHARD_OF[name]))
        return self.results[name]

    def _load(self, k: int) -> dict[str, dict]:
        if self.shared_dir is None:
            return _run_shard(SHARDS[k])
        done = os.path.join(self.shared_dir, f"shard{k}.json")
        lock = os.path.join(self.shared_dir, f"shard{k}.lock")
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:  # another worker runs it: wait for its results
            deadline = time.monotonic() + BATCH_TIMEOUT + 30
            while time.monotonic() < deadline:
                if os.path.exists(done):
                    with open(done, encoding="utf-8") as f:
                        return json.load(f)
                time.sleep(0.02)
            return _run_shard(SHARDS[k])
        os.close(fd)
        results = _run_shard(SHARDS[k])
        tmp = done + f".{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(results, f)
        os.replace(tmp, done)
        return results


@pytest.fixture(scope="session")
def golden_results(tmp_path_factory, worker_id) -> _ShardCache:
    if worker_id == "master":
        return _ShardCache(None)
    # the parent of each worker's base temp directory is shared by all workers of this run
    shared = tmp_path_factory.getbasetemp().parent / "minigrad-golden"
    shared.mkdir(exist_ok=True)
    return _ShardCache(str(shared))


@pytest.fixture(scope="session")
def worker_id(request) -> str:
    """xdist's worker id ("gw0", ...) or "master" (also without pytest-xdist installed)."""
    workerinput = getattr(request.config, "workerinput", None)
    return workerinput["workerid"] if workerinput else "master"


def _expected_path(name: str) -> str:
    return os.path.join(EXPECTED_DIR, name[:-3] + ".txt")


@pytest.mark.parametrize("name", PROGRAMS, ids=[n[:-3] for n in PROGRAMS])
def test_golden(name: str, golden_results: _ShardCache) -> None:
    expected_file = _expected_path(name)
    if not os.path.exists(expected_file):
        pytest.fail(f"no expected output for {name}: run scripts/record_golden.py with torch 2.13", pytrace=False)
    with open(expected_file, encoding="utf-8") as f:
        expected = f.read()
    res = golden_results.get(name)
    actual = run_as_torch.combine(res["stdout"], res["stderr"], res["status"])
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True),
                actual.splitlines(True),
                fromfile=f"expected/{name[:-3]}.txt (torch 2.13)",
                tofile=f"{name} (minigrad)",
            )
        )
        if not diff.endswith("\n"):
            diff += "\n"
        pytest.fail(
            f"output of {name} differs from torch's\n"
            f"(rerun: python tests/golden/run_as_torch.py tests/golden/programs/{name})\n{diff}",
            pytrace=False,
        )


def test_every_expected_file_has_a_program() -> None:
    stale = sorted(n for n in os.listdir(EXPECTED_DIR) if n.endswith(".txt") and n[:-4] + ".py" not in PROGRAMS)
    assert not stale, f"expected outputs without a program (rerun scripts/record_golden.py): {stale}"
