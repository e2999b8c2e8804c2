"""Build the course as a static website: what `make site` runs.

    python scripts/build_site.py                        # _site/: lessons and exercises
    python scripts/build_site.py --solutions            # and the worked solutions
    python scripts/build_site.py --repo OWNER/NAME      # "Open in Binder" and GitHub links
    python scripts/build_site.py --out DIR --ref BRANCH

Every page is a committed notebook as stored: nothing is run, so the outputs and diagrams are
the ones the notebook tests compare. nbconvert (installed with JupyterLab) writes each page
with scripts/site_template/, JupyterLab's look with nothing fetched from the network:

- a prediction's answer (an output stored with `jupyter.outputs_hidden`) and the assert that
  checks it (`jupyter.source_hidden`) are collapsed `<details>`, open only when clicked;
- the backward filmstrip (viz.backward_steps) is HTML whose buttons carry their own few lines
  of JavaScript, so it steps on a static page as in JupyterLab;
- math (`$dy/dx$`) is converted to MathML here (latex2mathml), which browsers draw themselves:
  no MathJax from a CDN;
- a link to another notebook of the site leads to its page (`.ipynb` becomes `.html`); a link
  to a notebook the site leaves out (a solution, when they are not published) keeps its text
  and loses its link; a link to another file of the repository leads to it on GitHub;
- each page links to its notebook (the .ipynb is copied beside the page), and with --repo to
  the notebook on GitHub and on Binder;
- an exercise page shows what its given code shows when run (the graph an exercise asks the
  learner to build, the wrong output of code whose bug they fix): exercises/ stores no output,
  so each read-only cell that is neither an answer nor a check (nor the cell that grades the
  notebook) takes the output the solutions notebook stored for the same code;
- a step-by-step view whose frames are taller than wide is marked `course-steps-tall`, which
  site.css lays out with the frame beside its buttons and caption, within the window's height.

The same notebooks give the same bytes: nothing in a page depends on the time, the machine or
the order files are listed in.
"""
from __future__ import annotations

import argparse
import base64
import html
import posixpath
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlsplit

import jinja2
import nbformat
from latex2mathml.converter import convert as latex_to_mathml
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIR = Path(__file__).resolve().parent / "site_template"
DEFAULT_OUT = ROOT / "_site"
COURSE_TITLE = "minigrad: how PyTorch's .grad really behaves"
# JupyterLab's styles, which nbconvert's lab template inlines in every page (a quarter of a
# megabyte each): the site holds them once, in jupyterlab.css, which a browser loads once.
LAB_STYLES = ("static/index.css", "static/theme-light.css")
# A notebook's title is its first heading: "# 03 · Gradients accumulate".
HEADING = re.compile(r"^#\s+(.+)$", re.MULTILINE)
NUMBERED = re.compile(r"^(?:Exercises\s+)?(\d+)\s+·\s+(.+)$")
# The last cell of an exercise notebook grades the saved notebook: its stored output is the
# solutions' grade, not what a learner's unanswered notebook shows.
GRADES_THE_NOTEBOOK = "grade_this_notebook("
# A step-by-step view (viz.backward_steps) and its first frame's size, in points.
STEPS = re.compile(r'<div class="minigrad-steps"')
FRAME = re.compile(r'<figure[^>]*>.*?src="data:image/svg\+xml;base64,([^"]+)"', re.DOTALL)
SVG_SIZE = re.compile(r'<svg[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"')


@dataclass(frozen=True)
class Page:
    source: Path  # the notebook, in the repository
    path: PurePosixPath  # where its page goes in the site: notebooks/03_accumulation.html
    kind: str  # "lesson", "exercises" or "solutions"
    number: str  # "03"
    title: str  # its heading without the number, in markdown

    @property
    def notebook(self) -> PurePosixPath:  # the repository path, which is also the site's copy
        return self.path.with_suffix(".ipynb")


def page_for(source: Path, kind: str) -> Page:
    notebook = nbformat.read(source, as_version=4)
    heading = next((m.group(1).strip() for cell in notebook.cells if cell.cell_type == "markdown"
                    for m in [HEADING.search(cell.source)] if m), source.stem)
    numbered = NUMBERED.match(heading)
    number, title = numbered.groups() if numbered else (source.stem[:2], heading)
    relative = PurePosixPath(source.relative_to(ROOT).as_posix())
    return Page(source, relative.with_suffix(".html"), kind, number, title)


def course_pages(with_solutions: bool) -> list[Page]:
    folders = [("notebooks", "lesson"), ("exercises", "exercises")]
    if with_solutions:
        folders.append(("solutions", "solutions"))
    return [page_for(path, kind) for folder, kind in folders
            for path in sorted((ROOT / folder).glob("*.ipynb"))]


def relative_url(target: PurePosixPath, start: PurePosixPath) -> str:
    """`target` (a site path) as a link from the page at `start`."""
    up = len(start.parent.parts)
    return "/".join([".."] * up + list(target.parts))


def inline_markdown(text: str) -> str:
    """A title's markdown: `code` spans, the rest escaped."""
    parts = text.split("`")
    return "".join(f"<code>{html.escape(part)}</code>" if odd else html.escape(part)
                   for odd, part in ((i % 2 == 1, p) for i, p in enumerate(parts)))


class Site:
    def __init__(self, pages: list[Page], repo: str | None, ref: str) -> None:
        self.pages = pages
        self.by_path = {page.path: page for page in pages}
        self.repo = repo
        self.ref = ref

    def page(self, kind: str, number: str) -> Page | None:
        return next((p for p in self.pages if p.kind == kind and p.number == number), None)

    def link_target(self, url: str, page: Page) -> str | None:
        """Where a notebook's link leads on the site: a notebook's to its page, another file of
        the repository's to GitHub; None (no link) for what the site and GitHub cannot show."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:  # remote, or an anchor on the page
            return url
        target = PurePosixPath(posixpath.normpath(page.path.parent / parts.path))
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        if target.suffix == ".ipynb":
            if target.with_suffix(".html") not in self.by_path:
                return None  # a notebook left out: a solution, unless they are published
            return parts.path[: -len(".ipynb")] + ".html" + fragment
        if self.repo and (ROOT / target).exists() and target.parts[0] != "..":
            return f"https://github.com/{self.repo}/blob/{quote(self.ref)}/{target}{fragment}"
        return None

    def github_url(self, page: Page) -> str:
        return f"https://github.com/{self.repo}/blob/{quote(self.ref)}/{page.notebook}"

    def binder_url(self, page: Page) -> str:
        return (f"https://mybinder.org/v2/gh/{self.repo}/{quote(self.ref)}"
                f"?urlpath={quote(f'lab/tree/{page.notebook}', safe='')}")


class CourseRenderer(IPythonRenderer):
    """nbconvert's markdown renderer, with math as MathML and links between notebooks made
    links between pages."""

    def __init__(self, site: Site, page: Page, **options) -> None:
        super().__init__(**options)
        self.site = site
        self.course_page = page

    def inline_math(self, body: str) -> str:
        return latex_to_mathml(body, display="inline")

    def block_math(self, body: str) -> str:
        return latex_to_mathml(body, display="block")

    def link(self, text: str, url: str, title: str | None = None) -> str:
        target = self.site.link_target(url, self.course_page)
        if target is None:
            return f'<span class="course-unpublished">{text}</span>'
        return super().link(text, target, title)


class CourseExporter(HTMLExporter):
    """HTMLExporter whose markdown goes through CourseRenderer."""

    def __init__(self, site: Site, **kwargs) -> None:
        super().__init__(**kwargs)
        self.site = site

    @jinja2.pass_context
    def markdown2html(self, context, source: str) -> str:
        cell = context.get("cell", {})
        page = context["resources"]["site"]["page"]
        renderer = CourseRenderer(self.site, page, escape=False,
                                  attachments=cell.get("attachments", {}),
                                  anchor_link_text=self.anchor_link_text,
                                  exclude_anchor_links=self.exclude_anchor_links)
        return MarkdownWithMath(renderer=renderer).render(source)


def anchor(href: str, text: str, *attributes: str) -> str:
    """<a href=...>text</a>, with `attributes` ('class="x"', "download") before the href."""
    return f'<a{"".join(" " + a for a in attributes)} href="{html.escape(href)}">{text}</a>'


def navigation(site: Site, page: Page, bottom: bool = False) -> str:
    """The bar above (and below) a page: home, previous and next of its kind, its companion
    (lesson <-> exercises <-> solutions), its notebook, GitHub and Binder."""
    def to(other: Page, text: str) -> str:
        return anchor(relative_url(other.path, page.path), text)

    same_kind = [p for p in site.pages if p.kind == page.kind]
    index = same_kind.index(page)
    items = [anchor(relative_url(PurePosixPath("index.html"), page.path), "minigrad course",
                    'class="course-home"')]
    if index > 0:
        items.append(to(same_kind[index - 1], f"◀ {same_kind[index - 1].number}"))
    if index + 1 < len(same_kind):
        items.append(to(same_kind[index + 1], f"{same_kind[index + 1].number} ▶"))
    for kind, text in (("lesson", "lesson"), ("exercises", "exercises"),
                       ("solutions", "solutions")):
        other = site.page(kind, page.number)
        if other is not None and other is not page:
            items.append(to(other, text))
    items.append(anchor(page.notebook.name, "notebook (.ipynb)", "download"))
    if site.repo:
        items.append(anchor(site.github_url(page), "on GitHub"))
        items.append(anchor(site.binder_url(page), "run it on Binder", 'class="course-run"'))
    where = "course-nav course-nav-bottom" if bottom else "course-nav"
    return (f'<nav class="{where}"><div class="course-nav-inner">' + "\n".join(items)
            + "</div></nav>")


def lab_styles(exporter: CourseExporter) -> list[str]:
    environment = exporter.environment
    return [environment.loader.get_source(environment, name)[0] for name in LAB_STYLES]


def share_lab_styles(body: str, styles: list[str], root: str) -> str:
    """The page with its inlined copy of JupyterLab's styles replaced by a link to the site's."""
    for n, style in enumerate(styles):
        inlined = f'<style type="text/css">\n{style}</style>'
        if body.count(inlined) != 1:
            raise RuntimeError(f"nbconvert no longer inlines {LAB_STYLES[n]} once per page: "
                               "see share_lab_styles() in scripts/build_site.py")
        link = f'<link href="{root}jupyterlab.css" rel="stylesheet"/>' if n == 0 else ""
        body = body.replace(inlined, link)
    return body


def given_cell(cell: dict) -> bool:
    """A read-only code cell of an exercise notebook that is neither an answer nor a check, nor
    the cell that grades the notebook: code the learner is given and runs as it is."""
    return (cell["cell_type"] == "code" and markers.nbgrader(cell).get("locked", False)
            and not markers.is_answer(cell) and not markers.is_check(cell)
            and GRADES_THE_NOTEBOOK not in markers.source_of(cell))


def with_given_outputs(notebook: nbformat.NotebookNode, solution: Path) -> list[str]:
    """Give each given cell of an exercise notebook the outputs the solutions notebook stored
    for the same cell holding the same code; returns the ids of the cells that got some."""
    stored = {cell.get("id"): cell for cell in nbformat.read(solution, as_version=4).cells}
    filled = []
    for cell in notebook.cells:
        twin = stored.get(cell.get("id"))
        if given_cell(cell) and twin is not None and twin.source == cell.source \
                and twin.get("outputs"):
            cell.outputs = twin.outputs
            filled.append(cell.id)
    return filled


def mark_tall_steps(notebook: nbformat.NotebookNode) -> None:
    """Add `course-steps-tall` to each step-by-step view whose frames are taller than wide."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/html")
            if text is None or not STEPS.search(text):
                continue
            frame = FRAME.search(text)
            size = frame and SVG_SIZE.search(base64.b64decode(frame.group(1)).decode())
            if size and float(size.group(2)) > float(size.group(1)):
                output.data["text/html"] = STEPS.sub(
                    '<div class="minigrad-steps course-steps-tall"', text, count=1)


def write_page(exporter: CourseExporter, site: Site, page: Page, out: Path) -> None:
    notebook = nbformat.read(page.source, as_version=4)
    if page.kind == "exercises":
        with_given_outputs(notebook, ROOT / "solutions" / page.source.name)
    mark_tall_steps(notebook)
    label = {"lesson": "", "exercises": "Exercises ", "solutions": "Solutions "}[page.kind]
    title = f"{label}{page.number} · {re.sub('`', '', page.title)} · minigrad"
    resources = {"metadata": {"name": title},
                 "site": {"page": page, "root": "../" * len(page.path.parent.parts),
                          "header": navigation(site, page),
                          "footer": navigation(site, page, bottom=True)}}
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    body = share_lab_styles(body, lab_styles(exporter), resources["site"]["root"])
    target = out / page.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(body, encoding="utf-8")
    shutil.copyfile(page.source, out / page.notebook)


def write_home(site: Site, out: Path) -> None:
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
                                     autoescape=True, keep_trailing_newline=True)
    rows = []
    for lesson in (p for p in site.pages if p.kind == "lesson"):
        companions = [(kind, site.page(kind, lesson.number))
                      for kind in ("exercises", "solutions")]
        rows.append({"number": int(lesson.number), "href": str(lesson.path),
                     "title": jinja2.filters.Markup(inline_markdown(lesson.title)),
                     "companions": [(kind, str(p.path)) for kind, p in companions if p]})
    start = site.page("lesson", "00")
    text = environment.get_template("home.html.j2").render(
        title=COURSE_TITLE, rows=rows, repo=site.repo,
        binder=site.binder_url(start) if site.repo and start else None,
        github=f"https://github.com/{site.repo}" if site.repo else None,
        solutions=any(p.kind == "solutions" for p in site.pages))
    (out / "index.html").write_text(text, encoding="utf-8")


def git_repo() -> str | None:
    """OWNER/NAME of a GitHub `origin`, if this checkout has one."""
    try:
        url = subprocess.run(["git", "remote", "get-url", "origin"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    found = re.search(r"github\.com[:/]([\w.-]+/[\w.-]+?)(?:\.git)?$", url)
    return found.group(1) if found else None


def build(out: Path, with_solutions: bool = False, repo: str | None = None,
          ref: str = "main") -> list[Page]:
    pages = course_pages(with_solutions)
    site = Site(pages, repo, ref)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    exporter = CourseExporter(site, template_name=TEMPLATE_DIR.name,
                              extra_template_basedirs=[str(TEMPLATE_DIR.parent)],
                              exclude_input_prompt=True, exclude_output_prompt=True)
    for page in pages:
        write_page(exporter, site, page, out)
    write_home(site, out)
    shutil.copyfile(TEMPLATE_DIR / "site.css", out / "site.css")
    (out / "jupyterlab.css").write_text("\n".join(lab_styles(exporter)), encoding="utf-8")
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve the files as they are
    return pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="default: _site/")
    parser.add_argument("--solutions", action="store_true",
                        help="publish the worked solutions too (default: not)")
    parser.add_argument("--repo", help="OWNER/NAME on GitHub, for the GitHub and Binder links "
                        "(default: the origin remote, if it is on GitHub)")
    parser.add_argument("--ref", default="main", help="branch or tag to link to (default: main)")
    args = parser.parse_args()
    repo = args.repo or git_repo()
    pages = build(args.out, args.solutions, repo, args.ref)
    counts = {kind: sum(p.kind == kind for p in pages) for kind in ("lesson", "exercises",
                                                                    "solutions")}
    print(f"build_site: {counts['lesson']} lessons, {counts['exercises']} exercise pages, "
          f"{counts['solutions']} solution pages in {args.out}"
          + ("" if repo else " (no GitHub repository: no Binder links; give --repo OWNER/NAME)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
