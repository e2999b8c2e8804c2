"""Each lesson stays readable in one sitting: at most 1,200 words of prose (its markdown cells,
fenced code left out). A lesson that needs more cuts something rather than grows."""
from __future__ import annotations

import re
from pathlib import Path

import jupytext
import pytest

COURSE = Path(__file__).resolve().parents[2] / "course"
MOST_WORDS = 1200


def prose_words(path: Path) -> int:
    text = "\n".join(cell.source for cell in jupytext.read(path).cells
                     if cell.cell_type == "markdown")
    return len(re.sub(r"```.*?```", "", text, flags=re.DOTALL).split())


@pytest.mark.parametrize("path", sorted(COURSE.glob("[0-9][0-9]_*.py")), ids=lambda p: p.stem)
def test_a_lesson_has_at_most_1200_words_of_prose(path: Path) -> None:
    assert prose_words(path) <= MOST_WORDS, f"{path.name}: {prose_words(path)} words"
