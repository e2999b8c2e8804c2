"""The students' image (hub/Dockerfile), without Docker: what it copies, and its set-up and
start-up steps run for real on temporary folders.

The test reads the Dockerfile's COPY lines and carries them out into a temporary root (so a COPY
of solutions/ added later is caught twice: by the parse and by the copy's result), runs the
image's set-up step (hub/set_up_image.py) with a Python environment of its own, then runs the
start-up (hub/start.py) on a temporary home, as a server's start on the hub would, and looks at
what a student sees. That environment is a venv layered over the project's .venv (its packages
through a .pth file), so that set-up writes into its own etc/ and share/, as in the image, and
the project's JupyterLab, which has nbgrader's panels turned off for learners, is left alone."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.hub  # the students' image and its hub

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "hub" / "Dockerfile"
DOCKERIGNORE = ROOT / "hub" / "Dockerfile.dockerignore"
CHART = ROOT / "hub" / "z2jh-4.4.0" / "Chart.yaml"
IN_IMAGE = "/srv/minigrad"

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra")


def instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("#"))
    text = re.sub(r"\\\n", " ", text)
    found = []
    for line in text.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def copies() -> list[tuple[list[str], str]]:
    """(sources, destination) of every COPY and ADD."""
    found = []
    for word, rest in instructions():
        if word in ("COPY", "ADD"):
            parts = [p for p in shlex.split(rest) if not p.startswith("--")]
            found.append((parts[:-1], parts[-1]))
    return found


def test_the_dockerfile_copies_no_answers_and_pins_the_charts_jupyterhub() -> None:
    sources = [source for sources, _ in copies() for source in sources]
    assert sources, "no COPY in hub/Dockerfile?"
    for source in sources:
        parts = Path(source).parts
        assert "solutions" not in source.lower(), source
        assert parts and parts[0] not in (".", "*") and "*" not in source, \
            f"COPY {source} could bring in the whole repository, solutions/ included"
    # The build context lets in only what is copied: everything else, solutions/ first, is out.
    rules = [line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert rules[0] == "*" and all(rule.startswith("!") for rule in rules[1:])
    allowed = [rule[1:].rstrip("/") for rule in rules[1:]]
    assert not any("solutions" in rule for rule in allowed)
    for source in sources:
        assert any(source.rstrip("/") == a or source.startswith(a + "/") for a in allowed), \
            f"{source} is copied but hub/Dockerfile.dockerignore keeps it out of the build"
    runs = " ".join(rest for word, rest in instructions() if word == "RUN")
    assert "|| true" not in runs and "|| :" not in runs, "a step that hides its failure"

    # JupyterHub in the image is the one the chart's hub runs (its appVersion).
    chart = yaml.safe_load(CHART.read_text(encoding="utf-8"))
    assert re.search(rf"\bjupyterhub=={re.escape(chart['appVersion'])}\b", runs), runs
    nbgrader = re.search(r'"nbgrader==([\d.]+)"', (ROOT / "pyproject.toml").read_text())
    assert nbgrader and f"nbgrader=={nbgrader.group(1)}" in runs
    [base] = [rest for word, rest in instructions() if word == "FROM"]
    version = re.search(r"python:(\d+)\.(\d+)", base)
    assert version and (int(version[1]), int(version[2])) >= (3, 11), base


def copy_as_docker_does(image_root: Path) -> None:
    """Carry out the Dockerfile's COPY lines that put files under /srv/minigrad."""
    for sources, destination in copies():
        if not destination.startswith(IN_IMAGE):
            continue  # the wheel: installed in the image, the test uses the project's own
        target = image_root / destination.lstrip("/")
        for source in sources:
            path = ROOT / source
            if path.is_dir():  # COPY dir/ dest/ copies the folder's contents into dest/
                shutil.copytree(path, target, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target / path.name)


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The image's files in a temporary root, set up by hub/set_up_image.py in an environment
    of its own: {"root", "env_python", "env"}."""
    base = tmp_path_factory.mktemp("image")
    image_root = base / "root"
    copy_as_docker_does(image_root)
    environment = base / "env"
    venv.EnvBuilder(with_pip=False).create(environment)
    python = environment / "bin" / "python"
    site_packages = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    # addsitedir, not a bare path: the project's editable install is itself a .pth file there.
    ours = sysconfig.get_paths()["purelib"]
    (site_packages / "the_course.pth").write_text(
        f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("JUPYTER", "PYTHON", "VIRTUAL_ENV", "MINIGRAD"))}
    # nbgrader's JupyterLab extension lives in the project's share/jupyter, as the image's
    # lives in its own.
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    env["HOME"] = str(base / "builder-home")
    done = subprocess.run([python, image_root / "srv/minigrad/hub/set_up_image.py"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return {"root": image_root, "python": python, "env": env}


def start(image: dict, home: Path, *command: str) -> subprocess.CompletedProcess:
    """hub/start.py as the server's start runs it, with `home` as the student's home."""
    env = dict(image["env"], HOME=str(home))
    return subprocess.run([image["python"], image["root"] / "srv/minigrad/hub/start.py",
                           *command], env=env, capture_output=True, text=True, timeout=300,
                          cwd=home)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_a_students_home_gets_the_course_and_no_answers(image: dict, tmp_path: Path) -> None:
    home = tmp_path / "jovyan"
    home.mkdir()
    done = start(image, home)
    assert done.returncode == 0, done.stderr
    for folder in ("notebooks", "exercises"):
        assert tree(home / folder) == tree(ROOT / folder), folder
    # No answers anywhere the student or the grader in their server can reach: not in the
    # home, not in the image's files, not in the installed package.
    for place in (home, image["root"]):
        assert not [p for p in place.rglob("*") if "solutions" in p.name], place
        assert not [p for p in place.rglob("*.ipynb")
                    if "### BEGIN SOLUTION" in p.read_text(encoding="utf-8")], place
    graded = subprocess.run([image["python"], "-m", "minigrad_course.grade",
                             "exercises/ex03_accumulation.ipynb"], cwd=home,
                            env=dict(image["env"], HOME=str(home)), capture_output=True,
                            text=True, timeout=300)
    assert "checks from the notebook itself: no solutions/ found" in graded.stdout, \
        graded.stdout + graded.stderr

    # The new server runs as the start's last step (exec: the same process, signals reach it).
    server = start(image, home, sys.executable, "-c", "import os; print('server', os.getcwd())")
    assert server.returncode == 0 and server.stdout.strip() == f"server {home}", server


def test_a_new_image_updates_what_the_student_left_alone(image: dict, tmp_path: Path) -> None:
    home = tmp_path / "jovyan"
    home.mkdir()
    assert start(image, home).returncode == 0
    shipped = image["root"] / "srv/minigrad/shipped"
    lesson, exercise = "notebooks/03_accumulation.ipynb", "exercises/ex03_accumulation.ipynb"
    mine = b'{"the student": "worked on this"}'
    (home / exercise).write_bytes(mine)
    (home / "notebooks/00_start_here.ipynb").unlink()

    # A new image: a lesson and the exercise fixed, one exercise added.
    originals = {relative: (shipped / relative).read_bytes() for relative in (lesson, exercise)}
    try:
        for relative in (lesson, exercise):
            (shipped / relative).write_bytes(originals[relative].replace(b"gradient",
                                                                         b"gradient ", 1))
        (shipped / "exercises/ex99_new.ipynb").write_bytes(b'{"new": true}')
        done = start(image, home)
        assert done.returncode == 0, done.stderr
        assert (home / lesson).read_bytes() == (shipped / lesson).read_bytes() \
            != originals[lesson], "an untouched lesson gets the new version"
        assert (home / exercise).read_bytes() == mine, "the student's work is kept"
        assert f"kept your {exercise}" in done.stderr
        assert (home / "exercises/ex99_new.ipynb").read_bytes() == b'{"new": true}'
        assert (home / "notebooks/00_start_here.ipynb").is_file(), "a deleted file comes back"
        # Kept once, kept every time: the student's file is never taken for the course's.
        assert start(image, home).returncode == 0
        assert (home / exercise).read_bytes() == mine
    finally:
        for relative, data in originals.items():
            (shipped / relative).write_bytes(data)
        (shipped / "exercises/ex99_new.ipynb").unlink(missing_ok=True)


def test_a_start_that_cannot_bring_the_course_fails_loudly(image: dict, tmp_path: Path) -> None:
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


def test_the_students_lab_has_the_assignments_panel_and_not_the_instructors(
        image: dict, tmp_path: Path) -> None:
    env = dict(image["env"], HOME=str(tmp_path))
    labextension = ("import sys; sys.argv[0] = 'jupyter-labextension'; "
                    "from jupyterlab.labextensions import main; sys.exit(main())")
    lab = subprocess.run([image["python"], "-c", labextension, "list"], env=env,
                         capture_output=True, text=True, timeout=300)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", lab.stdout + lab.stderr)
    line = next(line for line in listed.splitlines() if "@jupyter/nbgrader v" in line)
    assert " enabled " in line, line  # the Assignments panel and Validate
    disabled = listed.split("Disabled extensions:")[1].split()
    for plugin in ("formgrader", "create-assignment", "course-list"):
        assert f"@jupyter/nbgrader:{plugin}" in disabled, listed
    assert not any(p in disabled for p in ("@jupyter/nbgrader:assignment-list",
                                           "@jupyter/nbgrader:validate-assignment",
                                           "@jupyter/nbgrader"))

    # The server extensions, and the kernels' culling, as a server started in that environment
    # reads its configuration.
    server = subprocess.run([image["python"], "-c", """
import json
from jupyter_core.paths import jupyter_config_path
from jupyter_server.extension.config import ExtensionConfigManager
from jupyter_server.serverapp import ServerApp
manager = ExtensionConfigManager(read_config_path=jupyter_config_path())
app = ServerApp()
app.load_config_file()
print(json.dumps([manager.get_jpserver_extensions(), app.config.MappingKernelManager]))
"""], env=env, capture_output=True, text=True, timeout=300)
    extensions, kernels = json.loads(server.stdout)
    assert kernels["cull_idle_timeout"] > 0, kernels
    prefix = "nbgrader.server_extensions."
    assert {k.removeprefix(prefix): v for k, v in extensions.items() if k.startswith(prefix)} \
        == {"assignment_list": True, "validate_assignment": True, "formgrader": False,
            "course_list": False}

    # nbgrader in the student's server reads the class's exchange from the image's config.
    config = subprocess.run([image["python"], "-c", """
from nbgrader.apps.baseapp import NbGrader
app = NbGrader()
app.load_config_file()
print(app.config.Exchange.root, app.config.CourseDirectory.course_id)
"""], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert config.stdout.split() == ["/srv/nbgrader/exchange", "minigrad"], \
        config.stdout + config.stderr
