"""The grading worker's containment (minigrad_course/grade/sandbox.py), seen from inside a
worker: cells that look around and report what they find. As root (CI), each worker has a user
id of its own, sees only its notebook and the Python installation, cannot reach the grader, has
no network, and leaves no process behind. And the grader works from any folder, a clone named
`minigrad` beside it included (issue 30, items 2 and 5)."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad_course.grade import grader
from minigrad_course.grade.sandbox import (DEFAULT_UIDS, NAMESPACES, TMP_FILES, TMP_MB,
                                           _running_as)
from minigrad_course.grade.worker import Session

pytestmark = pytest.mark.slow  # starts grading workers, each a kernel

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
UIDS = range(DEFAULT_UIDS[0], DEFAULT_UIDS[1] + 1)
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="workers are contained only as root")


def session() -> Session:
    run = grader()
    return Session(run.sandbox, run.library, ("notebook.ipynb", b"{}"), [], 30, 120, 2048)


def printed(worker: Session, source: str) -> str:
    outcome = worker.ask({"source": source})
    assert outcome.error is None, f"{outcome.error}: {outcome.message}"
    return outcome.printed.strip()


def processes_of(uid: int) -> list[int]:
    """The processes of `uid` still running (a zombie has ended; its parent reaps it)."""
    return [int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _running_as(pid, uid)]


@root_only
def test_the_grader_contains_its_workers_as_root() -> None:
    assert grader().sandbox.mode == NAMESPACES


@root_only
def test_a_worker_sees_only_its_notebook_and_python(tmp_path: Path) -> None:
    secret = tmp_path / "another_students_work.ipynb"
    secret.write_text("{}")
    worker = session()
    try:
        uid = int(printed(worker, "import os\nprint(os.getuid())"))
        assert uid in UIDS and uid == worker.uid
        for path in (SOLUTIONS, secret, ROOT / "README.md", Path.home() / ".cache",
                     Path(__file__)):
            assert printed(worker, f"import os\nprint(os.path.exists({str(path)!r}))") == \
                "False", path
        assert printed(worker, "import os\nprint(sorted(os.listdir('.')))") == \
            "['notebook.ipynb']"
        # its own processes only: the grader is not there to read, signal or trace
        pids = printed(worker, "import os\nprint(sorted(int(p) for p in os.listdir('/proc') "
                               "if p.isdigit()))")
        assert len(eval(pids)) <= 3, pids  # the namespace's first process, the worker, `ls`
        assert printed(worker, "import os\nprint(os.getppid())") == "1"
        assert printed(worker, f"import os\ntry:\n    os.kill({os.getpid()}, 0)\n"
                               "    print('reached')\nexcept OSError as e:\n"
                               "    print(type(e).__name__)") in ("ProcessLookupError",
                                                                  "PermissionError")
        # it cannot change the course's packages it imports
        assert printed(worker, "import minigrad_course.checks.accumulation as m\ntry:\n"
                               "    open(m.__file__, 'a')\n    print('wrote')\n"
                               "except OSError as e:\n    print(type(e).__name__)") in (
            "PermissionError", "OSError")
    finally:
        worker.close()


@root_only
def test_a_worker_has_no_network() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        worker = session()
        try:
            found = printed(worker, f"import socket\ntry:\n    socket.create_connection("
                                    f"('127.0.0.1', {port}), timeout=2)\n    print('reached')\n"
                                    "except OSError as e:\n    print(type(e).__name__)")
        finally:
            worker.close()
    assert found != "reached"


@root_only
def test_two_live_workers_never_share_a_user_id_and_nothing_outlives_them() -> None:
    """A worker is one process with one thread: it cannot fork (no fork bomb, no daemon, no
    children to hold memory past its limit or CPUs past its share) nor start a thread."""
    first, second = session(), session()
    try:
        assert first.uid != second.uid
        assert printed(first, "import os\ntry:\n    os.fork()\n    print('forked')\n"
                              "except OSError as e:\n    print(type(e).__name__)") == \
            "BlockingIOError"
        assert printed(first, "import threading, time\ntry:\n"
                              "    threading.Thread(target=time.sleep, args=(60,)).start()\n"
                              "    print('started')\nexcept RuntimeError:\n    print('refused')") == \
            "refused"
        assert len(processes_of(first.uid)) == 2  # the namespace's first process, the worker
    finally:
        first.close()
        second.close()
    assert processes_of(first.uid) == [] and processes_of(second.uid) == []


@root_only
def test_what_a_worker_writes_stays_in_its_own_bounded_space() -> None:
    """Its notebook's folder and /tmp are one file system in memory, of TMP_MB and TMP_FILES:
    a notebook cannot fill the grader's disk, nor its memory with empty files, and nothing it
    writes reaches the grader's copy of its folder."""
    worker = session()
    try:
        found = printed(worker, f"""\
import os
written, block = 0, b'x' * (1 << 20)
for folder in ('.', '/tmp'):
    for i in range(4):
        try:
            with open(os.path.join(folder, f'fill{{i}}'), 'wb') as out:
                for _ in range(100):
                    out.write(block)
                    written += 1
        except OSError:
            break
for name in os.listdir('.'):
    if name.startswith('fill'):
        os.remove(name)
files = 0
try:
    for files in range({TMP_FILES + 10}):
        open(f'/tmp/{{files}}', 'w').close()
except OSError:
    pass
print(written, files)""")
        written, files = map(int, found.split())
        assert written <= TMP_MB and files <= TMP_FILES
        assert sorted(path.name for path in worker.work.iterdir()) == ["notebook.ipynb"]
    finally:
        worker.close()


def test_the_grader_works_beside_a_clone_named_minigrad(tmp_path: Path) -> None:
    """From the folder that holds the clone (named `minigrad`), `import minigrad` would find
    the clone's folder, a namespace package: the grader drops that folder from its path, and
    copies only the packages to its workers, never the clone."""
    clone = tmp_path / "minigrad"
    shutil.copytree(SOLUTIONS, clone / "solutions")
    (clone / ".venv" / "lib").mkdir(parents=True)  # what a copy of the clone would drag along
    (clone / ".venv" / "lib" / "big.bin").write_bytes(bytes(50 << 20))
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade",
                           "minigrad/solutions/ex01_tensors_and_graphs.ipynb"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 of 4 exercises passed" in done.stdout


def test_uncontained_grading_says_so(tmp_path: Path) -> None:
    """Where the grader cannot drop privileges (forced here), the verdicts are still the
    judge's, and the report's last line says the workers were not contained."""
    env = dict(os.environ, MINIGRAD_GRADE_SANDBOX="none")
    done = subprocess.run([sys.executable, "-m", "minigrad_course.grade",
                           str(SOLUTIONS / "ex03_accumulation.ipynb")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("workers: NOT contained"), done.stdout
