"""A number that starts a line of prose, wrapped there by chance ("notebook\n11) and ..."), is
read by Markdown as an ordered list's marker, and the lesson shows a numbered item where a
sentence was meant. A line may start with "N." or "N)" only as a list's item: 1, or one more
than an item above it in the same cell."""
from __future__ import annotations

import re
from pathlib import Path

import jupytext
import pytest

COURSE = Path(__file__).resolve().parents[2] / "course"
SOURCES = sorted([*COURSE.glob("[0-9][0-9]_*.py"), *(COURSE / "exercises").glob("ex*.py")])
MARKER = re.compile(r"^\s*(\d{1,9})[.)](\s|$)")


def stray_numbers(path: Path) -> list[str]:
    stray = []
    for cell in jupytext.read(path).cells:
        if cell.cell_type != "markdown":
            continue
        items: set[int] = set()
        for line in re.sub(r"```.*?```", "", cell.source, flags=re.DOTALL).splitlines():
            found = MARKER.match(line)
            if found:
                number = int(found.group(1))
                if number != 1 and number - 1 not in items:
                    stray.append(line.strip())
                items.add(number)
    return stray


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_no_line_of_prose_starts_with_a_stray_list_number(path: Path) -> None:
    assert stray_numbers(path) == []
