"""A learner's install holds what learning needs: `make lab` installs the `course` extra only,
`make site` adds `site`, `make test` and `make venv` add `test`; and scripts/set_up_lab.py,
which turns nbgrader's panels off where the tests installed it, leaves nbgrader out of the
configuration of a learner's environment, which has none."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import set_up_lab  # noqa: E402

pytestmark = pytest.mark.slow  # runs make lab's install

# What only the tests, the site or a class use: none of it belongs in a learner's lab.
NOT_FOR_LEARNERS = {"pytest", "pytest-xdist", "hypothesis", "nbval", "playwright", "pyyaml",
                    "build", "jupyterhub", "requests", "psutil", "nbgrader", "latex2mathml",
                    "docker"}


def extras() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]


def extra(name: str) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in extras()[name]}


def test_the_course_extra_holds_no_test_or_site_package() -> None:
    assert sorted(extra("course") & NOT_FOR_LEARNERS) == []
    assert "notebook" in extra("course")  # `jupyter notebook` shows the course too


def test_the_notebooks_alone_need_no_lab_browser_or_hub() -> None:
    """`make notebooks` (the `nbval` extra): the kernel's packages, pytest and nbval."""
    assert extra("nbval") == {"minigrad-course", "pytest", "nbval"}
    assert extra("kernel") == {"minigrad-course", "numpy", "matplotlib", "ipykernel"}
    assert "minigrad-course[kernel]" in extras()["course"]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize(("target", "extras"), [("lab", "course"), ("site", "course,site"),
                                                ("test", "course,site,test"),
                                                ("venv", "course,site,test"),
                                                ("notebooks", "nbval")])
def test_each_make_target_installs_its_extras(tmp_path: Path, target: str, extras: str) -> None:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "scripts").mkdir()
    for name in ("set_up_lab.py", "course_lab.css"):
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    planned = subprocess.run(["make", "-n", target, f"PYTHON={sys.executable}"], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    installs = [line for line in planned.splitlines() if "pip install" in line]
    assert len(installs) == 1 and installs[0].endswith(f"-e '.[{extras}]'"), installs


def test_set_up_leaves_nbgrader_out_where_it_is_not_installed(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    server_config, page_config = tmp_path / "server.json", tmp_path / "page_config.json"
    monkeypatch.setattr(set_up_lab, "SERVER_CONFIG", server_config)
    monkeypatch.setattr(set_up_lab, "PAGE_CONFIG", page_config)
    monkeypatch.setattr(set_up_lab, "nbgrader_installed", lambda: True)
    server_config.write_text(json.dumps(set_up_lab.server_config()))
    page_config.write_text(json.dumps(set_up_lab.page_config()))
    assert set(json.loads(server_config.read_text())["ServerApp"]["jpserver_extensions"]) == set(
        set_up_lab.NBGRADER_SERVER_EXTENSIONS)
    assert json.loads(page_config.read_text())["disabledExtensions"] == {
        set_up_lab.NBGRADER_LAB_EXTENSION: True}

    # nbgrader uninstalled (or never there): its entries go, the rest stays.
    monkeypatch.setattr(set_up_lab, "nbgrader_installed", lambda: False)
    server = set_up_lab.server_config()["ServerApp"]
    assert "jpserver_extensions" not in server
    assert server["contents_manager_class"] == set_up_lab.CONTENTS_MANAGER
    assert set_up_lab.page_config() == {"disabledExtensions": {}, "lockedExtensions": {}}


def test_set_up_for_students_then_for_a_learner(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """--students (a class's image) keeps nbgrader's students' half; run again without it
    (a learner's lab), every nbgrader panel is off and no students' entry is left behind."""
    server_config, page_config = tmp_path / "server.json", tmp_path / "page_config.json"
    monkeypatch.setattr(set_up_lab, "SERVER_CONFIG", server_config)
    monkeypatch.setattr(set_up_lab, "PAGE_CONFIG", page_config)
    monkeypatch.setattr(set_up_lab, "nbgrader_installed", lambda: True)
    server_config.write_text(json.dumps(set_up_lab.server_config(students=True)))
    page_config.write_text(json.dumps(set_up_lab.page_config(students=True)))
    on = {name.rsplit(".", 1)[1] for name, enabled in json.loads(server_config.read_text())
          ["ServerApp"]["jpserver_extensions"].items() if enabled}
    assert on == {"assignment_list", "validate_assignment"}
    assert json.loads(page_config.read_text())["disabledExtensions"] == dict.fromkeys(
        set_up_lab.INSTRUCTORS_LAB_PLUGINS, True)
    # Off but not locked: the instructor turns the formgrader on for themselves.
    assert json.loads(page_config.read_text())["lockedExtensions"] == dict.fromkeys(
        set_up_lab.INSTRUCTORS_LAB_PLUGINS, False)
    assert json.loads(json.dumps(set_up_lab.page_config()))["disabledExtensions"] == {
        set_up_lab.NBGRADER_LAB_EXTENSION: True}
    assert not any(set_up_lab.server_config()["ServerApp"]["jpserver_extensions"].values())
