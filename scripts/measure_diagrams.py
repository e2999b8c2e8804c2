"""Measure the diagrams stored in the course notebooks: does each fit the notebook column, and
how small is its smallest text once it is made to fit?

    python scripts/measure_diagrams.py            # one line per notebook
    python scripts/measure_diagrams.py --all      # one line per diagram
    python scripts/measure_diagrams.py solutions  # other folders (default: notebooks solutions)

A diagram is an `image/svg+xml` output, or an SVG inside a `text/html` output as a
`data:image/svg+xml;base64` image (the frames of `viz.backward_steps`). Graphviz writes sizes
in pt; a browser shows 1pt as 4/3 CSS px. A diagram wider than the column would have to be
shrunk to fit (or scrolled sideways): its text is measured at the shrunk size.
tests/course/test_diagram_fit.py runs the same measurement over the stored notebooks."""
from __future__ import annotations

import argparse
import base64
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The width of a notebook's output area in JupyterLab at a 1400 px wide window, file browser
# open (measured in Chromium by tests/browser/test_diagrams.py, which checks it is still so).
COLUMN_PX = 950
MIN_TEXT_PX = 8.0
PX_PER_PT = 4 / 3

_IMAGE = re.compile(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')
_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)pt"[^>]*?\sheight="([\d.]+)pt"[^>]*?'
                   r'\sviewBox="[\d.-]+ [\d.-]+ ([\d.]+) [\d.]+"', re.DOTALL)
_SCALE = re.compile(r'<g id="graph0" class="graph" transform="scale\(([\d.]+) ')
_FONT = re.compile(r'font-size="([\d.]+)"')


@dataclass
class Measure:
    where: str  # notebook, cell index, and the diagram's number in that cell
    width_px: float
    height_px: float
    smallest_text_px: float  # at the natural size

    @property
    def shown_scale(self) -> float:
        """How much the diagram is shrunk to fit the column (1 = not at all)."""
        return min(1.0, COLUMN_PX / self.width_px)

    @property
    def smallest_shown_text_px(self) -> float:
        return self.smallest_text_px * self.shown_scale

    @property
    def fits(self) -> bool:
        return self.width_px <= COLUMN_PX and self.smallest_shown_text_px >= MIN_TEXT_PX


def measure_svg(svg: str, where: str) -> Measure:
    size = _SIZE.search(svg)
    if size is None:
        raise ValueError(f"{where}: no width/height in pt and viewBox in this SVG")
    width_pt, height_pt, view_width = (float(v) for v in size.groups())
    scale = _SCALE.search(svg)
    units_to_px = width_pt * PX_PER_PT / view_width * (float(scale.group(1)) if scale else 1.0)
    fonts = [float(f) for f in _FONT.findall(svg)]
    smallest = min(fonts) * units_to_px if fonts else float("inf")
    return Measure(where, width_pt * PX_PER_PT, height_pt * PX_PER_PT, smallest)


def stored_svgs(notebook: Path) -> list[tuple[str, str]]:
    """(where, svg text) of every diagram stored in `notebook`'s outputs, in order."""
    found = []
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            svgs = []
            if "image/svg+xml" in data:
                svgs.append("".join(data["image/svg+xml"]))
            html = "".join(data.get("text/html", ""))
            svgs += [base64.b64decode(b).decode("utf-8") for b in _IMAGE.findall(html)]
            for n, svg in enumerate(svgs, 1):
                label = f" #{n}" if len(svgs) > 1 else ""
                found.append((f"{notebook.parent.name}/{notebook.name} cell {index}{label}", svg))
    return found


def measure_notebook(notebook: Path) -> list[Measure]:
    return [measure_svg(svg, where) for where, svg in stored_svgs(notebook)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=["notebooks", "solutions"])
    parser.add_argument("--all", action="store_true", help="one line per diagram")
    args = parser.parse_args()
    print(f"column {COLUMN_PX} px, smallest text wanted {MIN_TEXT_PX:g} px (CSS px)")
    print(f"{'':44} {'diagrams':>8} {'too wide':>8} {'widest px':>9} {'tallest px':>10} "
          f"{'smallest text shown px':>22}")
    bad = 0
    for folder in args.folders:
        for notebook in sorted((ROOT / folder).glob("*.ipynb")):
            measures = measure_notebook(notebook)
            if not measures:
                continue
            rows = measures if args.all else [None]
            for m in rows:
                group = [m] if m else measures
                name = m.where if m else f"{folder}/{notebook.name}"
                wide = sum(x.width_px > COLUMN_PX for x in group)
                print(f"{name:44} {len(group):8} {wide:8} {max(x.width_px for x in group):9.0f} "
                      f"{max(x.height_px for x in group):10.0f} "
                      f"{min(x.smallest_shown_text_px for x in group):22.1f}")
            bad += sum(not x.fits for x in measures)
    print(f"{bad} diagram(s) do not fit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
