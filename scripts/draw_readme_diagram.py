"""Draw the diagram the README shows, docs/graph_after_backward.svg, with minigrad.viz.

    python scripts/draw_readme_diagram.py           # (re)write the SVG
    python scripts/draw_readme_diagram.py --check   # exit 1 if the committed SVG is stale

The picture shows a small graph after one backward pass: leaves that require grad (their .grad
filled), a leaf that does not (.grad None), an intermediate that kept its gradient with
retain_grad(), a temporary already freed, and the output.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import minigrad as torch
from minigrad import viz

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "graph_after_backward.svg"


def diagram() -> viz.Diagram:
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    x = torch.tensor([2.0, 3.0])
    b = torch.tensor(0.1, requires_grad=True)
    h = w * x
    h.retain_grad()
    y = h.sum() + b
    y.backward()
    return viz.draw(y)  # the diagram names each box after its variable here


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    svg = diagram().svg()
    if parser.parse_args().check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != svg:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run python {sys.argv[0]}")
            return 1
        return 0
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(svg, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
