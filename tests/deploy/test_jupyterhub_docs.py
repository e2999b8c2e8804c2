"""docs/jupyterhub.md against what it describes: its config.yaml is valid for the chart version
it names (the chart's own values.schema.yaml, kept in hub/z2jh-4.4.0/), runs the image's start-up
and mounts the exchange where the students' nbgrader config looks; its versions are the image's."""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "jupyterhub.md").read_text(encoding="utf-8")
CHART_DIR = ROOT / "hub" / "z2jh-4.4.0"


def yaml_blocks() -> list[dict]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL)]


def config_yaml() -> dict:
    [config] = [block for block in yaml_blocks() if "singleuser" in block]
    return config


def test_the_chart_files_are_the_named_versions_with_their_license() -> None:
    chart = yaml.safe_load((CHART_DIR / "Chart.yaml").read_text(encoding="utf-8"))
    assert chart["name"] == "jupyterhub" and chart["appVersion"] == "5.5.0"
    assert "BSD 3-Clause License" in (CHART_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "chart **4.4.0**" in DOC and "**JupyterHub 5.5.0**" in DOC
    assert f"jupyterhub=={chart['appVersion']}" in DOC
    assert "--version\n4.4.0" in DOC or "--version 4.4.0" in DOC


def helm_merge(defaults: dict, given: dict) -> dict:
    """Values as Helm gives them to the schema: the chart's values.yaml with the user's on top,
    maps merged key by key, anything else replaced, a null removing the default."""
    merged = dict(defaults)
    for key, value in given.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = helm_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def validate(config: dict) -> None:
    schema = yaml.safe_load((CHART_DIR / "values.schema.yaml").read_text(encoding="utf-8"))
    defaults = yaml.safe_load((CHART_DIR / "values.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(helm_merge(defaults, config), schema)


def test_config_yaml_is_valid_for_the_chart() -> None:
    validate(config_yaml())  # raises with the path of what is wrong
    # The check can fail: a key the chart does not know, or a value of the wrong type.
    with pytest.raises(jsonschema.ValidationError, match="memmory"):
        validate({"singleuser": {"memmory": {"limit": "1G"}}})
    with pytest.raises(jsonschema.ValidationError):
        validate({"singleuser": {"cmd": 42}})


def test_config_yaml_runs_the_images_start_and_mounts_the_exchange() -> None:
    singleuser = config_yaml()["singleuser"]
    dockerfile = (ROOT / "hub" / "Dockerfile").read_text(encoding="utf-8")
    [cmd] = re.findall(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert singleuser["cmd"] == yaml.safe_load(cmd)
    mounts = {m["name"]: m["mountPath"] for m in singleuser["storage"]["extraVolumeMounts"]}
    volumes = {v["name"]: v for v in singleuser["storage"]["extraVolumes"]}
    students = (ROOT / "hub" / "nbgrader_config.py").read_text(encoding="utf-8")
    [root] = re.findall(r'^c\.Exchange\.root = "(.*)"$', students, re.MULTILINE)
    [exchange] = [name for name, path in mounts.items() if path == root]
    claim = volumes[exchange]["persistentVolumeClaim"]["claimName"]
    [pvc] = [block for block in yaml_blocks() if block.get("kind") == "PersistentVolumeClaim"]
    assert pvc["metadata"]["name"] == claim
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    from minigrad_course.nbgrader_course import EXCHANGE
    assert EXCHANGE == root, "the instructor's and the students' exchange differ"


def shell_lines() -> list[str]:
    """Every command of the doc's ```sh blocks, continuation lines joined, comments dropped."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", DOC, re.DOTALL):
        for line in re.sub(r"\\\n\s*", "", block).splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                lines.append(line.strip())
    return lines


def test_the_image_is_built_from_a_clean_export_with_the_files_and_tag_it_names() -> None:
    [export, build, push] = [line for line in shell_lines()
                             if line.startswith(("export=", "docker "))]
    # The export runs as written: what git tracks, into a new folder.
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", f'{export} && echo "$export"'],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    folder = Path(done.stdout.strip())
    try:
        assert (folder / "hub" / "Dockerfile").is_file() and not (folder / ".venv").exists()
        assert not list(folder.rglob(".ipynb_checkpoints"))
    finally:
        shutil.rmtree(folder)
    words = shlex.split(build)
    assert words[:2] == ["docker", "build"] and words[-1] == "$export"
    assert words[words.index("-f") + 1] == "$export/hub/Dockerfile"
    tag = words[words.index("-t") + 1]
    assert shlex.split(push) == ["docker", "push", tag]
    image = config_yaml()["singleuser"]["image"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert tag == f"{image['name']}:{image['tag']}" and image["tag"] == project["version"]


def test_the_helm_lines_name_the_charts_repository_version_namespace_and_values() -> None:
    helm = [shlex.split(line) for line in shell_lines() if line.startswith("helm ")]
    chart = yaml.safe_load((CHART_DIR / "Chart.yaml").read_text(encoding="utf-8"))
    [add] = [words for words in helm if words[1:3] == ["repo", "add"]]
    repository, url = add[3:5]
    assert url == "https://hub.jupyter.org/helm-chart/" and chart["icon"].startswith(url)
    assert ["helm", "repo", "update"] in helm
    [install] = [words for words in helm if words[1] == "upgrade"]
    assert f"{repository}/{chart['name']}" in install and "--install" in install
    options = dict(zip(install, install[1:]))
    assert options["--version"] == CHART_DIR.name.removeprefix("z2jh-") == "4.4.0"
    assert options["--values"] == "config.yaml" and "`config.yaml`" in DOC
    namespace = options["--namespace"]
    assert f"kubectl apply --namespace {namespace} -f exchange-pvc.yaml" in DOC


def test_the_doc_gives_the_measuring_commands_it_quotes() -> None:
    scripts = set(re.findall(r"python (benchmarks/\w+\.py)", DOC))
    assert "benchmarks/kernel_memory.py" in scripts
    for script in scripts:
        assert (ROOT / script).is_file(), script
