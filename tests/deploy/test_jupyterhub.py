"""A class on a JupyterHub on 127.0.0.1, run as deployed: the JupyterHub that Zero to JupyterHub
4.4.0 runs (5.5.0), each server started as the students' image starts it, in the image's
environment (tests/deploy/students_image.py, tests/deploy/hub_driver.py). Two students and their
teacher log in through the REST API. The teacher, in a kernel of their own server, runs every
command docs/jupyterhub.md and docs/teaching.md give them, as written (the repository cloned from a
local copy instead of GitHub); the students do what the lessons and the Assignments panel lead
them to (nbgrader's server extension, through its REST API): follow a lesson's Exercises link,
fetch, work, submit, fetch their feedback. On the way, each student runs a lesson and gets the
stored outputs, and grades their own notebook; at the end the hub stops and leaves no process
behind.

Needs configurable-http-proxy (`npm install -g configurable-http-proxy@5.2.0`, as .ci/run does);
without it the module skips with one line. Start-up times and memory per user are printed
(`pytest tests/deploy/test_jupyterhub.py -s`; `python benchmarks/hub.py` prints the same
figures)."""
from __future__ import annotations

import html
import json
import os
import posixpath
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import nbformat
import psutil
import pytest

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")

from hub_driver import ROOT, Hub, proxy_command, start_hub  # noqa: E402
from minigrad_course.checks import markers  # noqa: E402
from students_image import export_tracked, git, image_environment  # noqa: E402
from harness.worked_answers import worked  # noqa: E402

pytestmark = [pytest.mark.hub, pytest.mark.skipif(
    proxy_command() is None,
    reason="configurable-http-proxy not installed: npm install -g configurable-http-proxy@5.2.0")]

STUDENTS = ["ada", "grace"]
TEACHER = "teacher"
COURSE_ID = "minigrad"
ASSIGNMENT = "ex03_accumulation"
LESSON = "notebooks/03_accumulation.ipynb"
CLONE_URL = "https://github.com/you/minigrad.git"  # what the docs name; a local copy here
MIB = 1024 * 1024


def shell_block(doc: str, first_line: str) -> str:
    """The ```sh block of docs/`doc` that begins with `first_line`."""
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
               if b.startswith(first_line)]
    return block


def teachers_setup() -> str:
    return shell_block("jupyterhub.md", "# In a terminal of your own server on the hub")


def release_to_feedback() -> list[str]:
    """docs/teaching.md's nbgrader commands, in the parts between the students' turns (each in
    the course folder, where the block's first line puts the teacher's terminal)."""
    block = shell_block("teaching.md", "cd ~/minigrad-class")
    cd, _ = block.split("\n", 1)
    first, *others = re.split(r"^# students:.*\n", block, flags=re.MULTILINE)
    return [first, *(f"{cd}\n{part}" if part.strip() else "" for part in others)]


def test_the_docs_give_the_teacher_commands_this_test_runs() -> None:
    setup = teachers_setup()
    assert setup.count(f"git clone {CLONE_URL} ~/minigrad") == 1, setup
    assert "python -m minigrad_course.nbgrader_course ~/minigrad-class" in setup
    parts = release_to_feedback()
    assert len(parts) == 3 and parts[2].strip() == "", parts
    for step in ("generate_assignment", "release_assignment"):
        assert f"nbgrader {step} {ASSIGNMENT}" in parts[0]
    for step in ("collect", "autograde", "generate_feedback", "release_feedback"):
        assert f"nbgrader {step} {ASSIGNMENT}" in parts[1]


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("hub")
    exchange = folder / "exchange"  # the shared volume, mounted in every pod
    exchange.mkdir()
    image = image_environment(folder / "image", exchange=str(exchange))
    # The repository the teacher clones: what git tracks, as a repository of its own.
    repository = export_tracked(folder / "repository")
    git("init", "--quiet", cwd=repository)
    git("add", "--all", cwd=repository)
    git("commit", "--quiet", "-m", "the course", cwd=repository)
    hub = start_hub(folder, [*STUDENTS, TEACHER], image)
    hub.figures["hub start (s)"] = hub.started_in
    hub.repository = repository
    yield hub
    # Whatever a failed test left running is stopped here; test_stopping_* asserts on it.
    leftover = hub.descendants()
    hub.stop()
    for process in leftover:
        if process.is_running():
            process.kill()


@pytest.fixture(scope="module")
def servers(hub: Hub) -> Hub:
    """Everyone logged in, their servers started together, as a class starts."""
    for user in [*STUDENTS, TEACHER]:
        answer = hub.log_in(user)
        assert answer.status_code == 201, hub.fail(f"{user}'s log-in: {answer.text}")
    with ThreadPoolExecutor(len(STUDENTS) + 1) as pool:  # the hub's POST waits up to 10 s
        took = dict(zip([*STUDENTS, TEACHER],
                        pool.map(hub.start_and_wait, [*STUDENTS, TEACHER])))
    for student in STUDENTS:
        hub.figures[f"{student}: server start, asked to ready (s)"] = took[student]
        rss = hub.server_process(student).memory_info().rss
        hub.figures[f"{student}: server RSS, idle (MiB)"] = rss / MIB
    return hub


def test_only_the_class_list_can_log_in(hub: Hub) -> None:
    assert hub.log_in("mallory").status_code == 403


def test_each_student_gets_the_lessons_trusted_and_no_answers(servers: Hub) -> None:
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    for student in STUDENTS:
        listing = servers.server_request("GET", student, "/api/contents/notebooks")
        assert listing.status_code == 200, listing.text
        assert sorted(item["name"] for item in listing.json()["content"]) == lessons
        for folder in ("exercises", "solutions"):
            assert servers.server_request("GET", student,
                                          f"/api/contents/{folder}").status_code == 404
        # Trusted, so JupyterLab shows the lesson's stored diagrams.
        lesson = servers.server_request("GET", student, f"/api/contents/{LESSON}").json()
        code = [c for c in lesson["content"]["cells"] if c["cell_type"] == "code"]
        assert code and all(c["metadata"].get("trusted") for c in code)


def test_a_student_cannot_reach_another_students_server(servers: Hub) -> None:
    answer = servers.server_request("GET", "grace", "/api/status", as_user="ada")
    assert answer.status_code == 403, (answer.status_code, answer.text[:200])
    assert servers.server_request("GET", "grace", "/api/status").status_code == 200


@pytest.mark.parametrize("student", STUDENTS)
def test_the_kernel_runs_the_course_from_the_images_environment(servers: Hub,
                                                                student: str) -> None:
    kernel = servers.start_kernel(student, "notebooks")
    (outputs,) = servers.run_cells(student, kernel, [
        "import os, sys, minigrad, minigrad_course\n"
        "print(sys.prefix, os.environ['HOME'], os.getcwd(), sep='\\n')"])
    assert [output["output_type"] for output in outputs] == ["stream"], outputs
    home = servers.homes / student
    image_prefix = servers.folder / "image" / "env"
    assert outputs[0]["text"].splitlines() == [str(image_prefix), str(home),
                                               str(home / "notebooks")]


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


def in_server(hub: Hub, user: str, script: str, timeout: float = 900) -> str:
    """Run a bash script in `user`'s server, from their home, as a terminal there would (a
    kernel runs it); fails on a non-zero exit. Returns what it printed."""
    kernel = hub.start_kernel(user, "")
    (outputs,) = hub.run_cells(user, kernel, [
        "import os, subprocess\n"
        f"done = subprocess.run(['bash', '-euo', 'pipefail', '-c', {script!r}],"
        " cwd=os.environ['HOME'], capture_output=True, text=True)\n"
        "print(done.stdout + done.stderr, end='')\n"
        "print('\\nexit status', done.returncode)"], timeout=timeout)
    text = "".join(output.get("text", "") for output in outputs)
    assert text.rstrip().endswith("exit status 0"), f"{user} ran:\n{script}\n---\n{text}"
    return text


def assignments(hub: Hub, student: str, action: str | None = None) -> list[dict]:
    """The Assignments panel's list (nbgrader's assignment_list server extension), after
    pressing `action` (fetch, submit, fetch_feedback) for the assignment if given."""
    if action is None:
        answer = hub.server_request("GET", student, f"/assignments?course_id={COURSE_ID}")
    else:
        answer = hub.server_request("POST", student, f"/assignments/{action}",
                                    data={"course_id": COURSE_ID, "assignment_id": ASSIGNMENT})
    assert answer.status_code == 200, answer.text
    listed = answer.json()
    assert listed.get("success", True), listed
    return [a for a in listed["value"] if a["assignment_id"] == ASSIGNMENT]


def exercise_link(hub: Hub, student: str) -> str:
    """Where lesson 03's Exercises link leads, as a path in the student's home."""
    lesson = hub.server_request("GET", student, f"/api/contents/{LESSON}").json()["content"]
    text = "\n".join(c["source"] for c in lesson["cells"] if c["cell_type"] == "markdown")
    [target] = {t for t in re.findall(r"\]\(([^)]*ex03[^)]*)\)", text)}
    return posixpath.normpath(posixpath.join(posixpath.dirname(LESSON), target))


def score(report: str) -> tuple[int, int]:
    """(passed, exercises) from the grader's "  N of M exercises passed" line."""
    (line,) = [line for line in report.splitlines() if line.endswith(" exercises passed")]
    passed, _, total = line.split()[:3]
    return int(passed), int(total)


def test_a_class_from_release_to_feedback(servers: Hub) -> None:
    """The teacher sets up and releases; each student follows lesson 03's Exercises link,
    fetches, works (Ada) or not (Grace), grades their own notebook and submits; the teacher
    collects, grades and releases feedback; each student fetches exactly their own, which
    holds no hidden test."""
    setup = teachers_setup().replace(CLONE_URL, str(servers.repository))
    in_server(servers, TEACHER, setup)
    release, grading, _ = release_to_feedback()
    in_server(servers, TEACHER, release)

    notebook = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
    for student in STUDENTS:
        assert exercise_link(servers, student) == notebook  # not ~/exercises/: one copy
        assert servers.server_request("GET", student,
                                      f"/api/contents/{notebook}").status_code == 404
        [listed] = assignments(servers, student)
        assert listed["status"] == "released", listed
        [listed] = assignments(servers, student, "fetch")
        assert listed["status"] == "fetched", listed
        assert servers.server_request("GET", student,
                                      f"/api/contents/{notebook}").status_code == 200
    fetched = servers.server_request("GET", "ada", f"/api/contents/{notebook}").json()
    saved = servers.server_request("PUT", "ada", f"/api/contents/{notebook}",
                                   json={"type": "notebook", "format": "json",
                                         "content": worked(fetched["content"], ASSIGNMENT)})
    assert saved.status_code == 200, saved.text

    # Each grades their own copy in their server, as notebook 00's class note says.
    start = time.monotonic()
    graded = {student: in_server(servers, student,
                                 f"python -m minigrad_course.grade {notebook} || true")
              for student in STUDENTS}
    servers.figures["grading one notebook in a student's server (s)"] = \
        (time.monotonic() - start) / len(STUDENTS)
    assert "checks from the notebook itself" in graded["ada"]  # no solutions/ in a home
    passed, exercises = score(graded["ada"])
    assert exercises > 0 and passed == exercises, graded["ada"]
    assert score(graded["grace"]) == (0, exercises) and "not attempted" in graded["grace"]

    for student in STUDENTS:
        listed = assignments(servers, student, "submit")
        assert "submitted" in {entry["status"] for entry in listed}, listed
    graded = in_server(servers, TEACHER, grading)
    # No warning to read past: no deprecated setting, no "has changed" for untouched checks.
    assert not re.search(r"WARNING|Warning", graded), graded

    from nbgrader.api import Gradebook

    course = servers.homes / TEACHER / "minigrad-class"
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s: gradebook.find_submission(ASSIGNMENT, s).score for s in STUDENTS}
        max_score = gradebook.find_assignment(ASSIGNMENT).max_score
    assert max_score > 0 and scores == {"ada": max_score, "grace": 0}

    source = json.loads((course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text())
    hidden = set()
    for cell in source["cells"]:
        lines = markers.source_of(cell).split("\n")
        shown = markers.remove_hidden_tests("\n".join(lines), ASSIGNMENT).split("\n")
        hidden |= {line.strip() for line in lines if line not in shown} - {""}
    assert any("micro_batches_uneven" in line for line in hidden), hidden
    for student in STUDENTS:
        assignments(servers, student, "fetch_feedback")
        folder = servers.homes / student / ASSIGNMENT / "feedback"
        [feedback] = folder.glob(f"*/{ASSIGNMENT}.html")
        mine = feedback.read_text(encoding="utf-8")
        assert mine == (course / "feedback" / student / ASSIGNMENT /
                        f"{ASSIGNMENT}.html").read_text(encoding="utf-8"), student
        shown = html.unescape(mine)
        assert "HIDDEN TESTS" not in shown and not [line for line in hidden if line in shown]


def test_only_the_teacher_has_the_formgrader(servers: Hub) -> None:
    """After docs/jupyterhub.md's set-up (run above) and a restart of their server."""
    servers.stop_server(TEACHER)
    servers.start_and_wait(TEACHER)
    assert servers.server_request("GET", TEACHER, "/formgrader").status_code == 200
    for student in STUDENTS:
        assert servers.server_request("GET", student, "/formgrader").status_code == 404
    listed = in_server(servers, TEACHER, "jupyter labextension list")
    assert "@jupyter/nbgrader:formgrader" not in listed.split("Disabled extensions:")[-1]
    assert "@jupyter/nbgrader:formgrader" in in_server(
        servers, STUDENTS[0], "jupyter labextension list").split("Disabled extensions:")[-1]


def test_stopping_the_hub_leaves_no_process(servers: Hub) -> None:
    """Ada stops her server through the API; the hub, stopped with SIGTERM, stops the other
    servers (and their kernels) and the proxy. No process the hub started outlives it."""
    started = servers.descendants()
    # The proxy, every server and at least one kernel each.
    assert len(started) >= 1 + 2 * (len(STUDENTS) + 1), [p.cmdline() for p in started]
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
