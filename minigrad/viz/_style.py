"""The look of every kind of box, and the legend that explains it inside the picture.

Each kind has its own fill colour, so a test can check that the legend lists exactly the
colours a picture uses. Light fills keep dark text readable, in colour and in print."""
from __future__ import annotations

# Boxes are sized with the metrics of DejaVu Sans, which Graphviz knows without any font installed
# (same layout everywhere). It is the widest of the usual sans-serif fonts: Linux falls back to
# it for Helvetica, and text sized for Helvetica overflows its box there. Where a browser has no
# DejaVu Sans it uses one of FONT_FAMILY's narrower fallbacks, and the text still fits.
FONT = "DejaVu Sans"
FONT_FAMILY = "DejaVu Sans,Verdana,sans-serif"  # written into the SVG (see _render)
MONO = "Courier"
# The width of a notebook's output area in JupyterLab (1400 px window, file browser open), in
# CSS px. A diagram laid out wider than this is laid out top to bottom instead (layout="auto").
COLUMN_PX = 950
INK = "#333333"  # borders and text
MUTED = "#666666"  # secondary text: shapes, row titles
EDGE = "#555555"

# kind -> (fill colour, legend text). Order = order in the legend. A legend says what a box
# is, not how `.grad` behaves there: that is what the lessons ask the learner to predict.
KINDS: dict[str, tuple[str, str]] = {
    "output": ("#fdbf6f", "output: the tensor drawn"),
    "leaf": ("#a6cee3", "leaf that requires grad"),
    "constant": ("#e0e0e0", "constant: requires_grad=False"),
    "intermediate": ("#ffffff", "intermediate result"),
    "retained": ("#b2df8a", "retain_grad() called on it"),
    "freed": ("#f5f5f5", "temporary, already freed"),
    "op": ("#e6dff2", "operation, named by its grad_fn"),
    "accumulate": ("#cfe6f3", "AccumulateGrad: a leaf's node"),
    "saved": ("#fde0c5", "saved for backward"),
    "stale": ("#fb9a99", "saved, since changed in place"),
}

# The step-by-step view adds two marks of its own.
ACTIVE_FILL = "#ffd92f"  # the node running now
ACTIVE_EDGE = "#e6a800"  # border of a tensor box being written to now
FLOW = "#d62728"  # edges carrying a gradient in this step

GRAPH_ATTRS = {"fontname": FONT, "fontsize": "12", "bgcolor": "white", "nodesep": "0.12",
               "ranksep": "0.35", "pad": "0.1", "labelloc": "t", "labeljust": "l"}
NODE_ATTRS = {"fontname": FONT, "fontsize": "11", "color": INK, "fontcolor": INK,
              "penwidth": "1", "style": "filled"}
EDGE_ATTRS = {"color": EDGE, "arrowsize": "0.7", "penwidth": "1.1", "fontname": MONO,
              "fontsize": "10"}


def fill(kind: str) -> str:
    return KINDS[kind][0]


def legend_entries(kinds: set[str], steps: bool) -> list[tuple[str, str, str]]:
    """(box style, colour, meaning) for the kinds present in a picture, in the order of KINDS;
    each legend box is drawn like the boxes it explains."""
    styles = {"op": "rounded,filled", "accumulate": "rounded,filled",
              "freed": "dashed,rounded,filled"}
    entries = [(styles.get(k, "filled"), *KINDS[k]) for k in KINDS if k in kinds]
    if steps:
        entries += [("rounded,filled", ACTIVE_FILL, "running in this step"),
                    ("bold", FLOW, "gradient sent in this step")]
    return entries
