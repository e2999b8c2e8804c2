"""How the frames of a backward pass show up in a notebook: one frame at a time, with
Previous / Next buttons and "frame k of n" above and below it, its caption above it and the
legend once above all. Frames are plain Diagrams too: `steps[2]` shows one, under its caption.

The buttons are a few lines of JavaScript in `onclick` attributes, so they work in a stored
output with no kernel running, in a trusted notebook (JupyterLab runs no script in an
untrusted one: there the first frame shows, and the buttons do nothing). They find their own
strip from the button clicked (`closest`), so the page needs no element ids, and two strips
on one page never mix."""
from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

from ._render import CAPTION_STYLE, Diagram, RenderFailed, failure_html, svg_img

STRIP_CLASS = "minigrad-steps"
COUNT_CLASS = "minigrad-steps-count"
# Show frame k+step of the strip the clicked button is in, hide the others, update both
# counts and disable the buttons that would go past either end.
_GO = ("var s=this.closest('.{strip}'),f=s.querySelectorAll(':scope>figure'),"
       "k=Math.min(Math.max(+s.dataset.frame+({step}),1),f.length);"
       "f.forEach(function(e,i){{e.style.display=i==k-1?'':'none'}});s.dataset.frame=k;"
       "s.querySelectorAll('.{count}').forEach(function(c){{"
       "c.textContent='frame '+k+' of '+f.length}});"
       "s.querySelectorAll('button').forEach(function(b){{"
       "b.disabled=b.dataset.step<0?k==1:k==f.length}});")
_BUTTON = ('<button type="button" style="font:13px sans-serif; padding:2px 10px" '
           'data-step="{step}"{disabled} onclick="{go}">{text}</button>')


class BackwardSteps:
    """The frames of one backward pass (`len()`, indexing, iteration); shows one at a time."""

    def __init__(self, frames: list[Diagram], total_steps: int, error: str | None,
                 legend: Diagram | None = None) -> None:
        self.frames = frames
        self.total_steps = total_steps  # nodes the engine ran (frames may leave some out)
        self.error = error  # the message of a RuntimeError raised by the backward pass
        self.legend = legend  # what the colours mean, shown once above the frames

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
        pictures = [self.legend] if self.legend is not None else []
        try:
            svgs = [d.svg() for d in [*pictures, *self.frames]]
        except RenderFailed as error:  # one message and the source, then stop
            broken = next(d for d in [*pictures, *self.frames] if d._error is not None)
            return failure_html(str(error), broken.source)
        total = len(self.frames)
        parts = [f'<div class="{STRIP_CLASS}" data-frame="1">', _controls(total)]
        if self.legend is not None:
            parts.append(svg_img(svgs.pop(0), ' alt="legend" style="display:block; '
                                 'margin:6px 0"'))
        for n, (frame, svg) in enumerate(zip(self.frames, svgs), 1):
            shown = "" if n == 1 else "display:none; "
            alt = f' alt="frame {n} of {total}"'
            parts.append(f'<figure style="{shown}margin:0"><figcaption style="{CAPTION_STYLE}">'
                         f"{html.escape(frame.caption or '')}</figcaption>{svg_img(svg, alt)}"
                         "</figure>")
        parts.append(_controls(total))  # again under the frame: a tall one needs no scrolling
        parts.append("</div>")
        return "".join(parts)

    def save(self, directory: str | Path) -> list[Path]:
        """Write frame_01.svg, frame_02.svg, ... into `directory`; returns their paths."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        digits = len(str(len(self.frames)))
        return [frame.save(directory / f"frame_{n:0{digits}d}.svg")
                for n, frame in enumerate(self.frames, 1)]


def _controls(total: int) -> str:
    def button(step: int, text: str, disabled: bool) -> str:
        go = _GO.format(strip=STRIP_CLASS, count=COUNT_CLASS, step=step)
        return _BUTTON.format(go=go, step=step, text=text,
                              disabled=" disabled" if disabled else "")

    return ('<div style="display:flex; gap:10px; align-items:center; margin:0 0 6px 0">'
            + button(-1, "◀ Previous", True)
            + f'<span class="{COUNT_CLASS}" style="font:13px sans-serif">frame 1 of {total}</span>'
            + button(+1, "Next ▶", total == 1) + "</div>")
