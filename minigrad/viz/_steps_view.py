"""How the frames of a backward pass show up in a notebook: a row of pictures that scrolls
sideways, each with its caption. Frames are plain Diagrams too: `steps[2]` shows one."""
from __future__ import annotations

import base64
import html
from collections.abc import Iterator
from pathlib import Path

from ._render import Diagram, RenderFailed, failure_html

_STRIP = ('<div style="display:flex; gap:14px; overflow-x:auto; align-items:flex-start; '
          'padding:4px 0 10px 0">')
_FRAME = '<figure style="flex:0 0 auto; margin:0; text-align:left">'
_CAPTION = ('<figcaption style="font:13px sans-serif; max-width:{width}px; '
            'margin:0 0 6px 0; white-space:normal">')


class BackwardSteps:
    """The frames of one backward pass (`len()`, indexing, iteration); shows as a strip."""

    def __init__(self, frames: list[Diagram], total_steps: int, error: str | None) -> None:
        self.frames = frames
        self.total_steps = total_steps  # nodes the engine ran (frames may leave some out)
        self.error = error  # the message of a RuntimeError raised by the backward pass

    @property
    def captions(self) -> list[str]:
        return [frame.caption or "" for frame in self.frames]

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, index: int) -> Diagram:
        return self.frames[index]

    def __iter__(self) -> Iterator[Diagram]:
        return iter(self.frames)

    def __repr__(self) -> str:
        failed = ", backward failed" if self.error else ""
        return f"<BackwardSteps: {len(self.frames)} frames{failed}>"

    def _repr_html_(self) -> str:
        parts = [_STRIP]
        for frame in self.frames:
            try:
                svg = frame.svg()
            except RenderFailed as error:  # one message and the source, then stop
                return failure_html(str(error), frame.source)
            # An <img> per frame keeps the SVGs apart (their element ids would clash inline).
            data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
            width = max(240, _width_px(svg))
            parts.append(_FRAME + _CAPTION.format(width=width) + html.escape(frame.caption or "")
                         + f'</figcaption><img src="data:image/svg+xml;base64,{data}"/></figure>')
        parts.append("</div>")
        return "".join(parts)

    def save(self, directory: str | Path) -> list[Path]:
        """Write frame_01.svg, frame_02.svg, ... into `directory`; returns their paths."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        digits = len(str(len(self.frames)))
        return [frame.save(directory / f"frame_{n:0{digits}d}.svg")
                for n, frame in enumerate(self.frames, 1)]


def _width_px(svg: str) -> int:
    """The width Graphviz wrote (in pt) as CSS pixels: 1pt = 4/3 px."""
    start = svg.find('width="')
    if start < 0:
        return 0
    value = svg[start + 7:svg.find('"', start + 7)]
    return int(float(value.rstrip("pt") or 0) * 4 / 3) if value.endswith("pt") else 0
