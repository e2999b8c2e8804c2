"""The course on a JupyterHub, on 127.0.0.1: a hub with a dummy authenticator and a local
process spawner (tests/hub_driver.py holds its configuration), two students who log in through
the REST API and each get a single-user server with the course in their home; each runs a
lesson through the kernel API and gets the stored outputs, and grades an exercise notebook in
their own server; the hub then stops and leaves no process behind.

Needs configurable-http-proxy (`npm install -g configurable-http-proxy@5.2.0`, as .ci/run does);
without it the module skips with one line. Start-up times and memory per user are printed
(`pytest tests/test_jupyterhub.py -s`; `python benchmarks/hub.py` prints the same figures)."""
from __future__ import annotations

import os
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import nbformat
import psutil
import pytest

from hub_driver import COURSE_FOLDERS, ROOT, Hub, proxy_command, start_hub

pytestmark = [pytest.mark.hub, pytest.mark.skipif(
    proxy_command() is None,
    reason="configurable-http-proxy not installed: npm install -g configurable-http-proxy@5.2.0")]

STUDENTS = ["ada", "grace"]
LESSON = "notebooks/03_accumulation.ipynb"
EXERCISE = "exercises/ex03_accumulation.ipynb"
WORKED = ROOT / "solutions" / "ex03_accumulation.ipynb"  # what a student who did it all hands in
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory):
    hub = start_hub(tmp_path_factory.mktemp("hub"), STUDENTS)
    hub.figures["hub start (s)"] = hub.started_in
    yield hub
    # Whatever a failed test left running is stopped here; test_stopping_* asserts on it.
    leftover = hub.descendants()
    hub.stop()
    for process in leftover:
        if process.is_running():
            process.kill()


@pytest.fixture(scope="module")
def servers(hub: Hub) -> Hub:
    """Both students logged in, their servers started together, as a class starts."""
    for student in STUDENTS:
        answer = hub.log_in(student)
        assert answer.status_code == 201, hub.fail(f"{student}'s log-in: {answer.text}")
    with ThreadPoolExecutor(len(STUDENTS)) as pool:  # the hub's POST waits up to 10 s
        took = dict(zip(STUDENTS, pool.map(hub.start_and_wait, STUDENTS)))
    for student in STUDENTS:
        hub.figures[f"{student}: server start, asked to ready (s)"] = took[student]
        rss = hub.server_process(student).memory_info().rss
        hub.figures[f"{student}: server RSS, idle (MiB)"] = rss / MIB
    return hub


def test_only_the_class_list_can_log_in(hub: Hub) -> None:
    assert hub.log_in("mallory").status_code == 403


def test_each_student_gets_a_server_with_the_course_in_their_home(servers: Hub) -> None:
    for student in STUDENTS:
        for folder in COURSE_FOLDERS:
            listing = servers.server_request("GET", student, f"/api/contents/{folder}")
            assert listing.status_code == 200, listing.text
            names = sorted(item["name"] for item in listing.json()["content"])
            assert names == sorted(p.name for p in (ROOT / folder).glob("*.ipynb")), names
        # Students get their exercises, never the solutions.
        assert servers.server_request("GET", student, "/api/contents/solutions").status_code == 404
        assert (servers.homes / student / LESSON).is_file()


def test_a_student_cannot_reach_another_students_server(servers: Hub) -> None:
    answer = servers.server_request("GET", "grace", "/api/status", as_user="ada")
    assert answer.status_code == 403, (answer.status_code, answer.text[:200])
    assert servers.server_request("GET", "grace", "/api/status").status_code == 200


@pytest.mark.parametrize("student", STUDENTS)
def test_the_kernel_runs_the_course_from_this_environment(servers: Hub, student: str) -> None:
    kernel = servers.start_kernel(student, "notebooks")
    (outputs,) = servers.run_cells(student, kernel, [
        "import os, sys, minigrad, minigrad_course\n"
        "print(sys.prefix, minigrad.__file__, minigrad_course.__file__, os.environ['HOME'],"
        " os.getcwd(), sep='\\n')"])
    assert [output["output_type"] for output in outputs] == ["stream"], outputs
    home = servers.homes / student
    assert outputs[0]["text"].splitlines() == [
        sys.prefix, str(ROOT / "minigrad" / "__init__.py"),
        str(ROOT / "minigrad_course" / "__init__.py"), str(home), str(home / "notebooks")]


def comparable(outputs: list[dict]) -> list[tuple]:
    """What a learner sees of a cell's outputs: consecutive stream chunks joined (a kernel may
    split them anywhere), an error's name and message without its traceback's colours."""
    seen = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            if seen and seen[-1][:2] == ("stream", output["name"]):
                seen[-1] = ("stream", output["name"], seen[-1][2] + output["text"])
                continue
            seen.append(("stream", output["name"], output["text"]))
        elif kind == "error":
            seen.append(("error", output["ename"], output["evalue"]))
        else:
            seen.append((kind, dict(output["data"])))
    return seen


@pytest.mark.parametrize("student", STUDENTS)
def test_a_lesson_runs_in_the_students_kernel_as_stored(servers: Hub, student: str) -> None:
    """Every code cell of the lesson, from the student's copy, run through the kernel API,
    prints and draws exactly what the stored notebook shows."""
    stored = servers.server_request("GET", student, f"/api/contents/{LESSON}")
    assert stored.status_code == 200, stored.text
    lesson = nbformat.from_dict(stored.json()["content"])
    cells = [cell for cell in lesson.cells if cell.cell_type == "code"]
    kernel = servers.start_kernel(student, "notebooks")
    start = time.monotonic()
    ran = servers.run_cells(student, kernel, [cell.source for cell in cells])
    servers.figures[f"{student}: {LESSON} run (s)"] = time.monotonic() - start
    for number, (cell, outputs) in enumerate(zip(cells, ran), 1):
        assert comparable(outputs) == comparable(cell.outputs), \
            f"code cell {number} of {LESSON}:\n{cell.source}"
    server = servers.server_process(student)
    (lesson_kernel,) = [p for p in server.children() if any(kernel in a for a in p.cmdline())]
    servers.figures[f"{student}: server RSS, after the lesson (MiB)"] = \
        server.memory_info().rss / MIB
    servers.figures[f"{student}: the lesson's kernel RSS (MiB)"] = \
        lesson_kernel.memory_info().rss / MIB


def grade_in_server(hub: Hub, student: str) -> tuple[str, int]:
    """Run the course's grader on the student's exercise notebook, inside their own server (a
    kernel running it as a subprocess, as a terminal would)."""
    kernel = hub.start_kernel(student, "")
    (outputs,) = hub.run_cells(student, kernel, [
        "import subprocess, sys\n"
        f"done = subprocess.run([sys.executable, '-m', 'minigrad_course.grade', {EXERCISE!r}],"
        " capture_output=True, text=True)\n"
        "print(done.stdout + done.stderr, end='')\n"
        "print('exit status', done.returncode)"])
    text = "".join(output.get("text", "") for output in outputs)
    status = text.rstrip().splitlines()[-1]
    assert status.startswith("exit status "), outputs
    return text, int(status.split()[-1])


def score(report: str) -> tuple[int, int]:
    """(passed, exercises) from the report's "  N of M exercises passed" line."""
    (line,) = [line for line in report.splitlines() if line.endswith(" exercises passed")]
    passed, _, total = line.split()[:3]
    return int(passed), int(total)


def test_each_student_grades_their_own_exercise_notebook(servers: Hub) -> None:
    """Ada hands in a worked notebook (saved through the contents API, as JupyterLab saves),
    Grace the untouched one: each grade reflects that student's own file."""
    worked = nbformat.read(WORKED, as_version=4)
    saved = servers.server_request("PUT", "ada", f"/api/contents/{EXERCISE}",
                                   json={"type": "notebook", "format": "json", "content": worked})
    assert saved.status_code == 200, saved.text
    start = time.monotonic()
    ada, ada_status = grade_in_server(servers, "ada")
    servers.figures["ada: grading one notebook (s)"] = time.monotonic() - start
    grace, grace_status = grade_in_server(servers, "grace")
    assert "checks from the notebook itself" in ada, ada  # no solutions/ in a student's home
    ada_passed, exercises = score(ada)
    assert exercises > 0 and ada_passed == exercises and ada_status == 0, ada
    assert score(grace) == (0, exercises) and grace_status == 1, grace
    assert "not attempted" in grace, grace


def test_stopping_the_hub_leaves_no_process(servers: Hub) -> None:
    """Ada stops her server through the API; the hub, stopped with SIGTERM, stops Grace's
    server (and its kernels) and the proxy. No process the hub started outlives it."""
    started = servers.descendants()
    # The proxy, both servers and at least one kernel each.
    assert len(started) >= 1 + 2 * len(STUDENTS), [p.cmdline() for p in started]
    servers.stop_server("ada")
    status = servers.stop()
    assert status == 0, servers.fail(f"the hub exited with status {status}")
    deadline = time.monotonic() + 30
    while (alive := [p for p in started if running(p)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive, [(p.pid, p.cmdline()) for p in alive]
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", int(servers.url.rsplit(":", 1)[1]))) != 0
    print_figures(servers.figures)


def running(process: psutil.Process) -> bool:
    """Still there and not a zombie (is_running() also tells a reused pid from the original)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def print_figures(figures: dict[str, float]) -> None:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\nJupyterHub on 127.0.0.1 (figures, not asserted; {os.cpu_count()} CPUs, "
          f"load average {load}):")
    for name, value in figures.items():
        print(f"  {name:<52} {value:8.1f}")
