"""The course's website as files (scripts/build_site.py; tests/browser/test_site.py opens it in
Chromium): the same bytes at every build, the stored outputs and no run of its own, nothing
fetched from the network, math as MathML, and solutions only when asked for."""
from __future__ import annotations

import base64
import functools
import importlib.util
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.slow  # builds the website from every notebook

ROOT = Path(__file__).resolve().parents[2]
REPO = "example-owner/minigrad"
REMOTE_LINK_HOSTS = {"github.com", "mybinder.org"}
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))


def build(out: Path, *options: str) -> Path:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out", str(out),
                    "--repo", REPO, *options], check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("site") / "_site")


def files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


class References(HTMLParser):
    """Every (tag, attribute, value) of an href or src in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [(tag, name, value) for name, value in attrs
                       if name in ("href", "src") and value is not None]


def references(page: Path) -> list[tuple[str, str, str]]:
    parser = References()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def test_the_same_notebooks_give_the_same_bytes(site: Path, tmp_path: Path) -> None:
    again = files(build(tmp_path / "again"))
    first = files(site)
    assert sorted(first) == sorted(again)
    differing = [name for name in first if first[name] != again[name]]
    assert differing == []


def test_every_notebook_has_its_page_and_its_download(site: Path) -> None:
    for notebook in [*LESSONS, *EXERCISES]:
        folder = notebook.parent.name
        assert (site / folder / f"{notebook.stem}.html").is_file()
        assert (site / folder / notebook.name).read_bytes() == notebook.read_bytes()
    assert all((site / name).is_file() for name in ("index.html", "site.css", "jupyterlab.css"))


def test_pages_show_the_stored_outputs(site: Path) -> None:
    """Every stored diagram and plot is on its page as stored (nothing was run again)."""
    for notebook in [*LESSONS, *EXERCISES]:
        page = (site / notebook.parent.name / f"{notebook.stem}.html").read_text()
        for cell in json.loads(notebook.read_text())["cells"]:
            for output in cell.get("outputs", []):
                svg = output.get("data", {}).get("image/svg+xml")
                if svg is not None:
                    svg = "".join(svg)
                    assert base64.b64encode(svg.encode()).decode() in page, notebook.name
                html = "".join(output.get("data", {}).get("text/html", ""))
                for frame in re.findall(r'src="(data:image/svg\+xml;base64,[^"]+)"', html):
                    assert frame in page, f"{notebook.name}: a step-by-step frame changed"


def test_nothing_is_fetched_from_the_network(site: Path) -> None:
    """Pages load only the site's own files; remote links go to GitHub and Binder only."""
    for page in sorted(site.rglob("*.html")):
        for tag, attribute, value in references(page):
            parts = urlsplit(value)
            if parts.scheme == "data" or not (parts.scheme or parts.netloc):
                continue
            where = f"{page.relative_to(site)}: <{tag} {attribute}={value}>"
            assert tag == "a", f"{where}: a remote resource"
            assert parts.netloc in REMOTE_LINK_HOSTS and REPO in parts.path, where
        text = page.read_text(encoding="utf-8")
        assert "@import" not in text
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", text):
            assert url.startswith(("data:", "#")), f"{page.relative_to(site)}: url({url})"


def test_math_is_mathml(site: Path) -> None:
    page = (site / "notebooks" / "02_grad_is_none.html").read_text(encoding="utf-8")
    assert "$x = 2$" not in page and "\\partial" not in page
    assert re.search(r'<math display="inline" xmlns="http://www.w3.org/1998/Math/MathML">'
                     r"<mrow><mi>x</mi><mo>=</mo><mn>2</mn></mrow></math>", page)


def test_links_between_notebooks_lead_to_pages(site: Path) -> None:
    for page in sorted(site.rglob("*.html")):
        for tag, _, value in references(page):
            if tag == "a" and value.endswith(".ipynb") and not urlsplit(value).netloc:
                # a local link to a notebook: only the page's own download
                assert value == page.with_suffix(".ipynb").name, page.relative_to(site)
    lesson = (site / "notebooks" / "03_accumulation.html").read_text(encoding="utf-8")
    assert 'href="../exercises/ex03_accumulation.html"' in lesson


def test_solutions_only_when_asked_for(site: Path, tmp_path: Path) -> None:
    assert not (site / "solutions").exists()
    for page in sorted(site.rglob("*.html")):
        assert not [value for _, _, value in references(page) if "solutions/" in value]

    published = build(tmp_path / "with_solutions", "--solutions")
    for notebook in SOLUTIONS:
        assert (published / "solutions" / f"{notebook.stem}.html").is_file()
    exercise = (published / "exercises" / "ex03_accumulation.html").read_text(encoding="utf-8")
    assert 'href="../solutions/ex03_accumulation.html"' in exercise
    home = (published / "index.html").read_text(encoding="utf-8")
    assert 'href="solutions/ex03_accumulation.html"' in home


@functools.cache
def load_builder():
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_site"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def shown(outputs: list) -> list[tuple]:
    """What a reader sees of outputs: streams joined by name, rich outputs by their data."""
    seen: list[tuple] = []
    for output in outputs:
        if output["output_type"] == "stream":
            if seen and seen[-1][:2] == ("stream", output["name"]):
                seen[-1] = ("stream", output["name"], seen[-1][2] + output["text"])
            else:
                seen.append(("stream", output["name"], output["text"]))
        else:
            seen.append((output["output_type"], dict(output.get("data", {}))))
    return seen


@pytest.mark.parametrize("exercise", EXERCISES, ids=[path.name for path in EXERCISES])
def test_an_exercise_page_shows_what_its_given_code_shows_when_run(site: Path,
                                                                   exercise: Path) -> None:
    """The outputs an exercise page borrows from the solutions are what a learner gets by
    running the unanswered notebook: the exercise, its answers left as stubs, is run (errors
    allowed), and each borrowed output compared with the one the run gives. Exercise 01's
    target graph is among them."""
    import nbformat
    from nbclient import NotebookClient

    builder = load_builder()
    page = nbformat.read(exercise, as_version=4)
    borrowed = builder.with_given_outputs(page, ROOT / "solutions" / exercise.name)
    run = nbformat.read(exercise, as_version=4)
    run.cells = [cell for cell in run.cells if builder.GRADES_THE_NOTEBOOK not in cell.source]
    NotebookClient(run, timeout=120, allow_errors=True,
                   resources={"metadata": {"path": str(exercise.parent)}}).execute()
    ran = {cell.get("id"): cell for cell in run.cells}
    for cell in page.cells:
        if cell.get("id") in borrowed:
            assert shown(cell.outputs) == shown(ran[cell.id].outputs), (exercise.name, cell.id)
    html = (site / "exercises" / f"{exercise.stem}.html").read_text(encoding="utf-8")
    for cell in page.cells:
        for output in cell.get("outputs", []):
            if "image/svg+xml" in output.get("data", {}):
                svg = base64.b64encode(output.data["image/svg+xml"].encode()).decode()
                assert svg in html, (exercise.name, cell.id)
    if exercise.name == "ex01_tensors_and_graphs.ipynb":
        [target] = [c for c in page.cells if "show_target()" in c.source]
        assert target.id in borrowed and "image/svg+xml" in target.outputs[0]["data"]
