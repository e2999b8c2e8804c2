"""The students' image (hub/Dockerfile): without Docker, what enters its build and what each of
its steps does, run for real on temporary folders; with Docker (tests marked `docker`, which
`make test` and CI deselect), the image itself, built and started.

Without Docker (tests/deploy/students_image.py): the build context is a clean export of what git
tracks, filtered by hub/Dockerfile.dockerignore with Docker's own rules; the Dockerfile's COPY
lines are carried out from it into a temporary root (so a COPY of solutions/ added later is
caught twice: by the parse and by the copy's result); the wheel stage builds the course's wheel
from its copied files; the image's set-up step (hub/set_up_image.py) runs in a Python
environment of its own; then the start-up (hub/start.py) runs on a temporary home, as a
server's start on the hub would, and the test looks at what a student sees."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.hub  # the students' image and its hub

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")

from minigrad_course.generate import render  # noqa: E402
from minigrad_course.nbgrader_course import lesson_for_class  # noqa: E402
from students_image import (  # noqa: E402 (after the import check above)
    DOCKERFILE, ROOT, Image, build_context, context_files, copy_as_docker_does, export_tracked,
    image_environment, stages)

CHART = ROOT / "hub" / "z2jh-4.4.0" / "Chart.yaml"
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


def test_the_dockerfile_copies_no_answers_and_pins_the_charts_jupyterhub() -> None:
    wheel, final = stages()
    assert wheel.name == "wheel" and final.name is None
    sources = [source for stage in (wheel, final) for sources, _, options in stage.copies()
               if not options for source in sources]
    assert sources, "no COPY in hub/Dockerfile?"
    for source in sources:
        parts = Path(source).parts
        assert not {"solutions", "exercises"} & {part.lower() for part in parts}, source
        assert parts and parts[0] not in (".", "*") and "*" not in source, \
            f"COPY {source} could bring in the whole repository, solutions/ included"
    # The final stage takes only the wheel from the first one.
    assert [(s, d, o) for s, d, o in final.copies() if o] == [
        (["/wheels/"], "/tmp/wheels/", ["--from=wheel"])]
    assert "|| true" not in final.runs() + wheel.runs() and "|| :" not in final.runs(), \
        "a step that hides its failure"

    # JupyterHub in the image is the one the chart's hub runs (its appVersion), and the one the
    # tests run (the test extra); nbgrader's pin is the tests'.
    chart = yaml.safe_load(CHART.read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert re.search(rf"\bjupyterhub=={re.escape(chart['appVersion'])}\b", final.runs())
    for pin in ("nbgrader", "jupyterhub"):
        [tested] = [r for r in project["optional-dependencies"]["test"] if r.startswith(pin)]
        assert tested in final.runs(), (tested, final.runs())
    # The wheel it installs is the version pyproject.toml builds.
    assert f"minigrad_course-{project['version']}-py3-none-any.whl" in final.runs()
    # One Python: the base images' is the oldest pyproject.toml allows.
    oldest = re.fullmatch(r">=(\d+)\.(\d+)", project["requires-python"])
    for stage in (wheel, final):
        version = re.match(r"python:(\d+)\.(\d+)", stage.base)
        assert version and version.groups() == oldest.groups(), stage.base


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_context(tmp_path_factory.mktemp("build") / "context")


def test_the_build_gets_what_git_tracks_and_only_what_the_dockerfile_copies(
        context: Path) -> None:
    tracked = set(subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split())
    got = {p.relative_to(context).as_posix() for p in context.rglob("*") if p.is_file()}
    assert got <= tracked | {"hub/Dockerfile"}, got - tracked
    wanted = {"pyproject.toml", "README.md", "hub/Dockerfile", "scripts/set_up_lab.py",
              "scripts/course_lab.css", "hub/start.py", "hub/set_up_image.py",
              "hub/nbgrader_config.py", *(f"notebooks/{name}" for name in LESSONS)}
    packages = {path for path in tracked if path.startswith(("minigrad/", "minigrad_course/"))}
    assert got == wanted | packages, sorted(got ^ (wanted | packages))


def test_a_working_trees_leftovers_stay_out_of_the_build(tmp_path: Path) -> None:
    """Built from a working tree rather than an export, Docker's rules still keep out what a
    learner's or instructor's JupyterLab leaves beside the notebooks, answered exercises and
    the solutions."""
    tree = export_tracked(tmp_path / "tree")
    leftovers = ["notebooks/.ipynb_checkpoints/03_accumulation-checkpoint.ipynb",
                 "notebooks/Untitled.py", "minigrad/__pycache__/tensor.cpython-311.pyc",
                 "minigrad_course.egg-info/PKG-INFO", ".venv/bin/python", "_site/index.html",
                 "exercises/ex03_accumulation.ipynb", "solutions/ex03_accumulation.ipynb"]
    for relative in leftovers:
        (tmp_path / "tree" / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "tree" / relative).write_text("leftover", encoding="utf-8")
    kept = context_files(tree)
    assert not kept & set(leftovers), sorted(kept & set(leftovers))
    assert "notebooks/03_accumulation.ipynb" in kept  # the rules do let the course in


def test_the_wheel_stage_builds_the_course_from_its_copies(context: Path, tmp_path: Path) -> None:
    wheel, _ = stages()
    copy_as_docker_does(context, wheel, tmp_path)
    [run] = [rest for word, rest in wheel.instructions if word == "RUN"]
    assert run.startswith("pip wheel ") and run.endswith(" /src"), run
    # The same command, offline: this environment's setuptools instead of a fresh one.
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "--wheel-dir", str(tmp_path / "wheels"),
                           str(tmp_path / "src")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    [built] = (tmp_path / "wheels").glob("*.whl")
    names = zipfile.ZipFile(built).namelist()
    assert "minigrad/tensor.py" in names and "minigrad_course/checks/accumulation.py" in names
    assert not [name for name in names if name.endswith(".ipynb") or "solutions" in name]


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Image:
    return image_environment(tmp_path_factory.mktemp("image"))


def start(image: Image, home: Path, *command: str) -> subprocess.CompletedProcess:
    """hub/start.py as the server's start runs it, with `home` as the student's home."""
    return subprocess.run([image.python, image.srv / "hub/start.py", *command],
                          env=image.environ(home), capture_output=True, text=True, timeout=300,
                          cwd=home)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_a_students_home_gets_the_lessons_and_no_answers(image: Image, tmp_path: Path) -> None:
    home = tmp_path / "jovyan"
    home.mkdir()
    done = start(image, home)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in home.iterdir()) == [".local", ".minigrad", "notebooks"]
    assert sorted(tree(home / "notebooks")) == LESSONS
    # No answers anywhere the student or the grader in their server can reach: not in the
    # home, not in the image's files, not in the installed package.
    for place in (home, image.root):
        assert not [p for p in place.rglob("*") if p.name in ("solutions", "exercises")], place
        assert not [p for p in place.rglob("*.ipynb")
                    if "### BEGIN SOLUTION" in p.read_text(encoding="utf-8")], place
    # The lessons as stored, outputs and all, as the class reads them (lesson_for_class: their
    # links to exercises/ lead to the fetched assignments; notebook 00 says how).
    for name in LESSONS:
        ours = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
        assert (home / "notebooks" / name).read_text(encoding="utf-8") == \
            render(lesson_for_class(ours)), name
    # Trusted: JupyterLab shows the stored diagrams of trusted notebooks only.
    trusted = subprocess.run([image.python, "-c", """
import sys, nbformat
from nbformat.sign import NotebookNotary
notary = NotebookNotary()
print(all(notary.check_signature(nbformat.read(p, as_version=nbformat.NO_CONVERT))
          for p in sys.argv[1:]))
""", *sorted(map(str, (home / "notebooks").glob("*.ipynb")))], env=image.environ(home),
        capture_output=True, text=True)
    assert trusted.stdout.strip() == "True", trusted.stdout + trusted.stderr

    # The new server runs as the start's last step (exec: the same process, signals reach it).
    server = start(image, home, sys.executable, "-c", "import os; print('server', os.getcwd())")
    assert server.returncode == 0 and server.stdout.strip() == f"server {home}", server


def test_the_lessons_lead_to_the_assignment_a_student_submits(image: Image) -> None:
    """In the image, each lesson's "Exercises" link leads where nbgrader fetches the assignment
    (~/ex03_accumulation/ex03_accumulation.ipynb from ~/notebooks/), and notebook 00 says how
    the class works; in the repository, the same links lead to exercises/ (a learner's clone)."""
    shipped = image.srv / "shipped" / "notebooks"
    exercises = {p.stem for p in (ROOT / "exercises").glob("*.ipynb")}
    linked = set()
    for name in LESSONS:
        text = "\n".join("".join(c["source"]) for c in json.loads(
            (shipped / name).read_text(encoding="utf-8"))["cells"])
        repository = "\n".join("".join(c["source"]) for c in json.loads(
            (ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"])
        for target in re.findall(r"\]\((\.\./[^)]*)\)", text):
            assert not target.startswith("../exercises/"), (name, target)
            if target.startswith("../ex"):
                folder, file = target.removeprefix("../").split("/")
                assert file == f"{folder}.ipynb" and folder in exercises, target
                linked.add(folder)
        for target in re.findall(r"\]\(\.\./exercises/([^)]*)\)", repository):
            assert (ROOT / "exercises" / target).is_file(), (name, target)
    assert linked == exercises, exercises - linked
    start_here = (shipped / LESSONS[0]).read_text(encoding="utf-8")
    assert "**In this class**" in start_here and "Assignment List" in start_here


def test_a_new_image_updates_what_the_student_left_alone(image: Image, tmp_path: Path) -> None:
    home = tmp_path / "jovyan"
    home.mkdir()
    assert start(image, home).returncode == 0
    shipped = image.srv / "shipped"
    lesson, edited = "notebooks/03_accumulation.ipynb", "notebooks/04_resetting_gradients.ipynb"
    mine = b'{"the student": "ran and saved this"}'
    (home / edited).write_bytes(mine)
    (home / "notebooks/00_start_here.ipynb").unlink()

    # A new image: two lessons fixed, one added.
    originals = {relative: (shipped / relative).read_bytes() for relative in (lesson, edited)}
    try:
        for relative in (lesson, edited):
            (shipped / relative).write_bytes(originals[relative].replace(b"gradient",
                                                                         b"gradient ", 1))
        (shipped / "notebooks/99_new.ipynb").write_bytes(b'{"new": true}')
        done = start(image, home)
        assert done.returncode == 0, done.stderr
        assert (home / lesson).read_bytes() == (shipped / lesson).read_bytes() \
            != originals[lesson], "an untouched lesson gets the new version"
        assert (home / edited).read_bytes() == mine, "the student's work is kept"
        assert f"kept your {edited}" in done.stderr
        assert (home / "notebooks/99_new.ipynb").read_bytes() == b'{"new": true}'
        assert (home / "notebooks/00_start_here.ipynb").is_file(), "a deleted file comes back"
        # Kept once, kept every time: the student's file is never taken for the course's.
        assert start(image, home).returncode == 0
        assert (home / edited).read_bytes() == mine
    finally:
        for relative, data in originals.items():
            (shipped / relative).write_bytes(data)
        (shipped / "notebooks/99_new.ipynb").unlink(missing_ok=True)


def test_a_start_that_cannot_bring_the_course_fails_loudly(image: Image, tmp_path: Path) -> None:
    home = tmp_path / "jovyan"
    home.mkdir()
    (home / "notebooks").write_text("a file where the lessons' folder goes", encoding="utf-8")
    done = start(image, home, sys.executable, "-c", "print('server started')")
    assert done.returncode == 1 and "server started" not in done.stdout
    assert "minigrad start: error: could not bring the course into" in done.stderr

    (home / "notebooks").unlink()
    (home / ".minigrad").mkdir()
    (home / ".minigrad" / "shipped.json").write_text("{not json", encoding="utf-8")
    done = start(image, home)
    assert done.returncode == 1 and "shipped.json is damaged" in done.stderr


def test_set_up_refuses_an_image_with_answers_or_a_second_copy_of_the_exercises(
        image: Image, tmp_path: Path) -> None:
    for extra, message in ((("shipped", "solutions", "ex03_accumulation.ipynb"),
                            "would hold answers"),
                           (("shipped", "exercises", "ex03_accumulation.ipynb"),
                            "not ['notebooks']")):
        copy = tmp_path / uuid.uuid4().hex
        shutil.copytree(image.srv, copy)
        (copy.joinpath(*extra)).parent.mkdir(parents=True)
        (copy.joinpath(*extra)).write_text("{}", encoding="utf-8")
        done = subprocess.run([image.python, copy / "hub/set_up_image.py"],
                              env=image.environ(tmp_path), capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 1 and message in done.stderr, done.stderr


def test_the_students_lab_has_the_assignments_panel_and_not_the_instructors(
        image: Image, tmp_path: Path) -> None:
    env = image.environ(tmp_path)
    lab = subprocess.run(["jupyter", "labextension", "list"], env=env, capture_output=True,
                         text=True, timeout=300)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", lab.stdout + lab.stderr)
    line = next(line for line in listed.splitlines() if "@jupyter/nbgrader v" in line)
    assert " enabled " in line, line  # the Assignments panel and Validate
    disabled = listed.split("Disabled extensions:")[1].split()
    for plugin in ("formgrader", "create-assignment", "course-list"):
        assert f"@jupyter/nbgrader:{plugin}" in disabled, listed
    assert not any(p in disabled for p in ("@jupyter/nbgrader:assignment-list",
                                           "@jupyter/nbgrader:validate-assignment",
                                           "@jupyter/nbgrader"))
    assert server_extensions(image, tmp_path) == {
        "assignment_list": True, "validate_assignment": True, "formgrader": False,
        "course_list": False}
    kernels = subprocess.run([image.python, "-c", """
import json
from jupyter_server.serverapp import ServerApp
app = ServerApp()
app.load_config_file()
print(json.dumps(app.config.MappingKernelManager))
"""], env=env, capture_output=True, text=True, timeout=300)
    assert json.loads(kernels.stdout)["cull_idle_timeout"] > 0, kernels.stderr

    # nbgrader in the student's server reads the class's exchange from the image's config.
    config = subprocess.run([image.python, "-c", """
from nbgrader.apps.baseapp import NbGrader
app = NbGrader()
app.load_config_file()
print(app.config.Exchange.root, app.config.CourseDirectory.course_id)
"""], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert config.stdout.split() == ["/srv/nbgrader/exchange", "minigrad"], \
        config.stdout + config.stderr


def server_extensions(image: Image, home: Path) -> dict[str, bool]:
    """nbgrader's server extensions, on or off, as a server started in the image with this
    home works them out (its configuration files, then the extensions' own)."""
    done = subprocess.run([image.python, "-c", """
import json
from jupyter_server.serverapp import ServerApp
app = ServerApp()
app.load_config_file()
app.find_server_extensions()
print(json.dumps(app.jpserver_extensions))
"""], env=image.environ(home), capture_output=True, text=True, timeout=300, cwd=home)
    prefix = "nbgrader.server_extensions."
    return {name.removeprefix(prefix): on for name, on in json.loads(done.stdout).items()
            if name.startswith(prefix)}


# With Docker: the image itself. `make test` and CI deselect these (pyproject.toml's addopts);
# run them where a Docker engine is:
#     .venv/bin/python -m pytest -m docker tests/deploy/test_hub_image.py


@pytest.fixture(scope="module")
def built_image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The image, built as docs/jupyterhub.md says: from a clean export, with Docker."""
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "info"], capture_output=True).returncode:
        pytest.fail("tests marked docker need a running Docker engine (`docker info` fails)")
    export = export_tracked(tmp_path_factory.mktemp("docker") / "export")
    tag = f"minigrad-course-test:{uuid.uuid4().hex[:12]}"
    done = subprocess.run([docker, "build", "-f", str(export / DOCKERFILE.relative_to(ROOT)),
                           "-t", tag, str(export)], capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    yield tag
    subprocess.run([docker, "image", "rm", "--force", tag], capture_output=True)


def in_container(tag: str, home: Path, *command: str) -> subprocess.CompletedProcess:
    """`command` in a container of the image, as the chart runs a pod: uid 1000, the home a
    volume mounted over /home/jovyan."""
    return subprocess.run(["docker", "run", "--rm", "--user", "1000:100", "-v",
                           f"{home}:/home/jovyan", tag, *command], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.docker
def test_the_built_image_starts_a_students_server_with_the_lessons(built_image: str,
                                                                   tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    os.chown(home, 1000, 100)
    versions = in_container(built_image, home, "python", "/srv/minigrad/hub/start.py", "python",
                            "-c", "import jupyterhub, nbgrader, minigrad; "
                            "print(jupyterhub.__version__, nbgrader.__version__)")
    assert versions.returncode == 0, versions.stderr
    chart = yaml.safe_load(CHART.read_text(encoding="utf-8"))
    assert versions.stdout.split() == [chart["appVersion"], "0.9.6"], versions.stdout
    assert sorted(p.name for p in (home / "notebooks").iterdir()) == LESSONS
    assert not (home / "exercises").exists()
    answers = in_container(built_image, home, "sh", "-c",
                           "find / -xdev \\( -name solutions -o -name exercises "
                           "-o -name .ipynb_checkpoints \\) -print; "
                           "grep -rl 'BEGIN SOLUTION' /srv /home/jovyan || true")
    assert answers.returncode == 0 and answers.stdout.strip() == "", answers.stdout
    git = in_container(built_image, home, "git", "--version")
    assert git.returncode == 0, git.stderr
    single_user = in_container(built_image, home, "jupyterhub-singleuser", "--version")
    assert single_user.stdout.strip() == chart["appVersion"], single_user
