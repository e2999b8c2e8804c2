"""Every character the course prints has a glyph in the fonts a learner's browser may fall back
on, so no mark shows as a box.

Headless Chromium (tests/browser) has only DejaVu and Liberation; a pause sign (U+23F8) that
marked waiting build cells is in neither and showed as a box in every screenshot. Beyond
Latin-1, a character may be printed only when it is in the list below, each one checked with
`fc-list ":charset=<hex>" family` to be in DejaVu Sans and DejaVu Sans Mono. Scanned: the stored
outputs of every notebook, and the strings of the code that writes messages and diagrams."""
from __future__ import annotations

import ast
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
DRAWN = set("−…▶◀○✓✗⚠ᵀ")
NOTEBOOKS = sorted([*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "solutions").rglob("*.ipynb")])
MESSAGE_CODE = sorted([*(ROOT / "minigrad_course").rglob("*.py"),
                       *(ROOT / "minigrad" / "viz").rglob("*.py")])


def undrawn(text: str) -> set[str]:
    """Characters past Latin-1 not in DRAWN; invisible controls (a report strips bidi marks,
    say) are never drawn, so they do not count."""
    return {ch for ch in text if ord(ch) > 0xFF and ch not in DRAWN
            and not unicodedata.category(ch).startswith(("C", "Z"))}


def outputs_text(path: Path) -> Iterator[str]:
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            yield output.get("text", "") + output.get("evalue", "")
            yield from (value for value in output.get("data", {}).values()
                        if isinstance(value, str))


def strings(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def described(chars: set[str]) -> str:
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in sorted(chars))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: str(path.relative_to(ROOT)))
def test_stored_outputs_print_only_drawn_characters(path: Path) -> None:
    found = set().union(*map(undrawn, outputs_text(path)))
    assert not found, f"{path.name} prints {described(found)}: not in DRAWN (see the docstring)"


def test_message_code_prints_only_drawn_characters() -> None:
    found = {path.relative_to(ROOT).as_posix(): described(chars) for path in MESSAGE_CODE
             if (chars := set().union(*map(undrawn, strings(path))))}
    assert not found, f"characters not in DRAWN (see the docstring): {found}"


def test_a_pause_sign_is_refused() -> None:
    assert undrawn("⏸ Not run") == {"⏸"} and not undrawn("○ Not run: `x` …")
