"""docs/jupyterhub.md against what it describes: its config.yaml is valid for the chart version
it names (the chart's own values.schema.yaml, kept in hub/z2jh-4.4.0/), runs the image's start-up
and mounts the exchange where the students' nbgrader config looks; its versions are the image's."""
from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
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


def test_the_doc_gives_the_measuring_commands_it_quotes() -> None:
    scripts = set(re.findall(r"python (benchmarks/\w+\.py)", DOC))
    assert "benchmarks/kernel_memory.py" in scripts
    for script in scripts:
        assert (ROOT / script).is_file(), script
