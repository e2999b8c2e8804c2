"""No prediction is answered before it is asked (issue 29).

TABLE lists every prediction of the course ("<details><summary>... Click to reveal"), by
notebook and a piece of its question, with the phrases that state its answer and where the
answer first appears: in the output of the cell after it ("output"), or only in the reveal
("reveal"). The test reads each stored notebook as a learner meets it, top to bottom, and fails
when an answer phrase appears anywhere above its question: in a heading or lead-in, in the
question itself, in a code cell, in a printed output, in a diagram's text (the SVG a drawing
shows, the frames and captions of a step-by-step view) or in a plot's labels. Each phrase must
also appear where the table says the answer is, so that a phrase is the answer's own words.

Phrases are compared after normalising both texts: lower case, markdown and HTML marks
(backticks, <code>, $, emphasis, \\) dropped, whitespace collapsed."""
from __future__ import annotations

import base64
import copy
import html
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
# The learner's form: a cell that needs a build waits ("Not run"), so a prediction whose answer
# cell needs one is checked against its reveal.
NOTEBOOKS = ROOT / "notebooks"
# As scripts/build_notebooks.py tells a prediction: a reveal whose summary says "Click to reveal"
# (a build's worked answer is a <details> too, and no prediction).
PREDICTION = re.compile(r"<details>\s*<summary>((?:(?!</summary>).)*?Click\s+to\s+reveal)"
                        r"</summary>(.*?)</details>", re.DOTALL)

# (notebook, a piece of the question, phrases stating the answer, where it first appears)
TABLE = [
    ("00", "what will x.grad print?", ["tensor(6.)"], "output"),
    ("01", "what will y.requires_grad print?",
     ["tracked as soon as", "result does too", "remembers how it was made"], "reveal"),
    ("01", "is x * 5 a leaf?", ["records nothing", "even though it was computed"], "reveal"),
    ("01", "how many divbackward0 nodes will its graph hold?", ["nine", "records what happened"],
     "reveal"),
    ("01", "halve_until_small(w * 3).backward(), at w = 3?", ["w.grad = 0.1875", "3 / 2^4"],
     "output"),
    ("02", "which number will that ratio approach?", ["4.001", "2x"], "output"),
    ("02", "how many units will l move per unit of a?", ["18.000", "3 \\times 6", "multiply"],
     "output"),
    ("02", "what will a.grad print now, before any backward?",
     ["no derivative has been taken", "none until", "no gradient yet"], "reveal"),
    ("02", "what will z.grad print after backward?",
     ["z.grad = none", "does not even compute a gradient", "never asked"], "output"),
    ("02", "what will unused.grad print?", ["never reaches", "not tensor(0.)"], "reveal"),
    ("02", "with lr = 0.1", ["tensor(1.6000", "2.56"], "output"),
    ("02", "what will x.grad print?", ["tensor([4., 6.])"], "output"),
    ("03", "what will x.grad print after y.backward()?", ["tensor([2.])"], "output"),
    ("03", "what will x.grad print after z.backward()?",
     ["tensor([5.])", "never overwrites", "accumulates", "is added to the 2"], "output"),
    ("03", "after the fourth micro-batch", ["-127.5"], "output"),
    ("03", "what will held, copy and held is w.grad print?",
     ["tensor(-255.)", "into the tensor already there", "in place"], "output"),
    ("04", "what will x.grad print after z.backward() now?", ["tensor([3.])", "but to zero"],
     "output"),
    ("04", "both programs take held = x.grad",
     ["zero_(): tensor([3.]) true", "tensor([2.]) false", "emptied that very tensor",
      "let go of it"], "output"),
    ("04", "what will w.grad print after optimizer.zero_grad()?",
     ["after: none none", "sets each .grad to none"], "output"),
    ("04", "will either run settle on a line?",
     ["only the one that resets", "swings", "momentum with no friction"], "reveal"),
    ("05", "what happens on y.backward()?",
     ["implicitly created only for scalar outputs", "refuses"], "output"),
    ("05", "with gradient=torch.tensor([3., -1.])", ["tensor([ 6., -2.])"], "output"),
    ("05", "what will x.grad print?", ["tensor([2., 4., 6.])"], "output"),
    ("06", "what will h.grad print?",
     ["userwarning", "won't be populated", "dropped it", "warns"], "output"),
    ("06", "what will h.grad and x.grad print after y.backward()?",
     ["tensor(13.) tensor(39.)", "keeps their total"], "output"),
    ("06", "with y.retain_grad(), what will y.grad print?", ["tensor(1.)"], "output"),
    ("06", "will the gradients grow or shrink?", ["shrink, by", "fades", "vanishing"],
     "reveal"),
    ("07", "what will this print, and what will x.grad be?",
     ["third sees 30.0", "tensor(60.)"], "output"),
    ("07", "what will x.grad be now?", ["third sees 3.0", "tensor(6.)"], "output"),
    ("07", "what will w, b and their .grad be",
     ["tensor([ 1.7000, -0.6000]", "tensor(1.2000"], "output"),
    ("07", "what will w1.grad hold for them?", ["[0., 0., 0.]", "exact zeros"], "output"),
    ("07", "in which order will the five hooks below run?",
     ["['y hook', 'mulbackward0 pre-hook', 'mulbackward0 hook', 'x hook', "
      "'x post-accumulate hook']", "whatever order they were registered in"], "output"),
    ("08", "what will w += 1 do?",
     ["is being used in an in-place operation", "cannot be changed in place"], "output"),
    ("08", "what will the last line print?", ["three in-place changes"], "reveal"),
    ("08", "will exponential.sum().backward() work?",
     ["is at version 1; expected version 0", "raises an error rather than compute"], "output"),
    ("08", "which rows will say \"error\"",
     ["h * h error", "h.exp() fine error", "h.relu() fine error"], "output"),
    ("08", "does y require grad after the assignments",
     ["copyslices", "joins the graph", "[16.]"], "output"),
    ("08", "what will x.grad be?",
     ["tensor([0., 0.])", "does not share the version counter"], "output"),
    ("08", "update w, then call loss.backward()",
     ["is at version 2; expected version 1", "stale"], "output"),
    ("09", "what will the second y.backward() do?",
     ["trying to backward through the graph a second time"], "output"),
    ("09", "what will reading _saved_self print",
     ["the same error as the second backward", "still there"], "reveal"),
    ("09", "what will x.grad print after two passes?", ["tensor(12.)", "6 + 6"], "output"),
    ("09", "what will it return, and what is x.grad afterwards?",
     ["(tensor(12.),)", "x.grad: none", "writes no .grad"], "output"),
    ("09", "what will loss.backward(inputs=[a]) leave", ["tensor(3.) none", "left alone"],
     "output"),
    ("10", "without .detach(), what will w.grad be?", ["w.grad: tensor(0.)", "runs away"],
     "output"),
    ("10", "how many nodes will the graph behind total hold",
     ["401", "four per step", "adds one addbackward0"], "output"),
    ("10", "what will the three lines print?",
     ["true true none", "mulbackward0 1", "keeps its flags", "a leaf stays a leaf"], "output"),
    ("10", "after drop.eval(), will drop(x * 3) have a grad_fn?",
     ["says nothing to autograd", "the recording does not"], "reveal"),
    ("11", "what will c.grad_fn(torch.tensor(1.0)) return?",
     ["(tensor(6.), tensor(6.))"], "output"),
    ("11", "what will it leave in a.grad?",
     ["naive: tensor(36.)", "not 24", "passed on twice"], "output"),
    ("11", "in which order will backward run the four nodes?",
     ["['mulbackward0', 'cosbackward0', 'sinbackward0', 'expbackward0']",
      "the forward order, reversed"], "output"),
    ("12", "what will a.grad and b.grad be after length.backward()?",
     ["tensor(0.6000) tensor(0.8000)"], "output"),
    ("12", "what will a.grad be for hypot.apply(a, b)",
     ["tensor(nan)", "0/0", "infty \\cdot 0"], "output"),
    ("12", "what will w.grad be now?", ["tensor([1., 2., 3.])"], "reveal"),  # waits for SignSTE
    ("12", "what gradient will each give at t = 0?",
     ["clamp(min=0) tensor(1.)", "maximum(t, zero) tensor(0.5000)", "one function, three"],
     "output"),
    # the cells after these two wait for the learner's backward: their reveals answer
    ("13", "what will w.grad, b.grad and x.grad be", ["(1, -2)", "b.grad is 1", "stays none"],
     "reveal"),
    ("13", "what will w.grad hold, on your engine?",
     ["[20. 40.]", "version counter", "is at version 1; expected version 0"], "reveal"),
    ("14", "after loss.backward(), which tensors have a .grad?",
     ["grad shape (16, 2)", "the four parameters", "stays none"], "output"),
    ("14", "is that the gradient of the loss at the weights the model has now?",
     ["before the last update", "a little smaller"], "reveal"),
    ("14", "will model[0].weight move?",  # its cell waits for train_step: the reveal says it
     ["does not read requires_grad", "still holds the last step's gradient"], "reveal"),
    ("15", "what will first print, and then second?",
     ["tensor(3., grad_fn=<mulbackward0>)", "a function of x that autograd can differentiate"],
     "output"),
    ("16", "how many tensors will pack see", ["packed: [(3,), (3,)]", "mulbackward0 keeps x"],
     "output"),
    ("16", "what will pack see this time", ["packed: [(3,)]", "runs twice"], "output"),
    ("17", "how many backward passes will the jacobian of w @ t take?",
     ["from 3 backward passes", "one per row of the result"], "output"),
    # the cell after it waits for the learner's Dual: the reveal answers
    ("17", "with direction = [0., 1., 0.], what will the tangent be?",
     ["tensor([0.0000, 2.3818, 0.0000])", "column 1 of j"], "reveal"),
]


def normalised(text: str) -> str:
    text = html.unescape(re.sub(r"</?code>", "", text))
    text = re.sub(r"[`$]|\\(?=[a-z(),])|\*+(?=\w)|(?<=\w)\*+", "", text.lower())
    return " ".join(text.split())


def svg_text(svg: str) -> str:
    """What a picture shows: Graphviz's <text> elements (not the invisible ones that only
    reserve room) and the comments matplotlib writes before each text it draws as paths."""
    shown = [label for attrs, label in re.findall(r"<text([^>]*)>(.*?)</text>", svg, re.DOTALL)
             if 'fill="transparent"' not in attrs]
    return " ".join(shown + re.findall(r"<!--(.*?)-->", svg, re.DOTALL))


def output_text(output: nbformat.NotebookNode) -> str:
    """All a learner can see of one output, pictures and hidden frames included."""
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return f"{output.ename}: {output.evalue}"
    data = output.get("data", {})
    parts = [data.get("text/plain", "")]
    if "image/svg+xml" in data:
        parts.append(svg_text(data["image/svg+xml"]))
    if "text/html" in data:
        page = data["text/html"]
        for encoded in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", page):
            parts.append(svg_text(base64.b64decode(encoded).decode("utf-8")))
        parts.append(re.sub(r"<[^>]*>", " ", re.sub(r'src="[^"]*"|onclick="[^"]*"', "", page)))
    return " ".join(parts)


def predictions(notebook: nbformat.NotebookNode) -> list[tuple[int, str, str]]:
    """(cell index, question, reveal) of every prediction, in order."""
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            for match in PREDICTION.finditer(cell.source):
                question = normalised(match.group(1)).removesuffix(" click to reveal")
                found.append((index, question, match.group(2)))
    return found


def above(notebook: nbformat.NotebookNode, index: int) -> list[tuple[str, str]]:
    """(where, normalised text) of everything a learner has seen before answering the
    prediction in cell `index`: every earlier cell, its outputs, the text of that cell up to
    and including the question, and the code of the answer cell (shown before it is run)."""
    seen = []
    for number, cell in enumerate(notebook.cells[:index]):
        seen.append((f"cell {number}", normalised(cell.source)))
        for output in cell.get("outputs", []):
            seen.append((f"the output of cell {number}", normalised(output_text(output))))
    own = notebook.cells[index].source
    seen.append((f"cell {index}, above its reveal",
                 normalised(own[: own.index("</summary>")])))
    answer = notebook.cells[index + 1] if index + 1 < len(notebook.cells) else None
    if answer is not None and answer.cell_type == "code":
        seen.append((f"the code of cell {index + 1}", normalised(answer.source)))
    return seen


def after(notebook: nbformat.NotebookNode, index: int) -> str:
    """The outputs of the code cells right after the prediction in cell `index`."""
    texts = []
    for cell in notebook.cells[index + 1:]:
        if cell.cell_type != "code":
            break
        texts += [output_text(output) for output in cell.outputs]
    return normalised(" ".join(texts))


def leaks(notebook: nbformat.NotebookNode, index: int, phrases: list[str]) -> list[str]:
    return [f"{phrase!r} in {where}" for phrase in phrases for where, text in
            above(notebook, index) if normalised(phrase) in text]


def load(number: str) -> nbformat.NotebookNode:
    (path,) = NOTEBOOKS.glob(f"{number}_*.ipynb")
    return nbformat.read(path, as_version=4)


def find(notebook: nbformat.NotebookNode, question: str) -> tuple[int, str, str]:
    """The prediction asking exactly `question`, else the one whose question contains it."""
    found = predictions(notebook)
    matches = [p for p in found if p[1] == question] or [p for p in found if question in p[1]]
    assert len(matches) == 1, f"{question!r} matches {len(matches)} predictions"
    return matches[0]


def test_the_table_lists_every_prediction_once() -> None:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        rows = [row for row in TABLE if path.name.startswith(row[0] + "_")]
        found = {index: question for index, question, _ in predictions(notebook)}
        claimed = [find(notebook, question)[0] for _, question, _, _ in rows]
        assert sorted(claimed) == sorted(found), (
            f"{path.name}: predictions not in TABLE: "
            f"{[found[i] for i in found if i not in claimed]}")


@pytest.mark.parametrize(("number", "question", "phrases", "where"), TABLE,
                         ids=[f"{row[0]} {row[1][:40]}" for row in TABLE])
def test_no_answer_above_its_question(number: str, question: str, phrases: list[str],
                                      where: str) -> None:
    notebook = load(number)
    index, _, reveal = find(notebook, question)
    found = leaks(notebook, index, phrases)
    assert not found, f"answered before it is asked: {found}"
    shown = {"reveal": normalised(reveal), "output": after(notebook, index)}
    assert normalised(phrases[0]) in shown[where], (
        f"{phrases[0]!r} is not in the {where} of {question!r}")
    missing = [p for p in phrases if normalised(p) not in shown["reveal"] + shown["output"]]
    assert not missing, f"not the answer's words (in neither reveal nor output): {missing}"


def prose_between_question_and_answer(notebook: nbformat.NotebookNode) -> list[str]:
    """Text a learner reads after a prediction's question and before its answer cell: the rest
    of its markdown after the reveal, and any markdown cell before the next code cell."""
    found = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        matches = list(PREDICTION.finditer(cell.source))
        ends = [match.start() for match in matches[1:]] + [len(cell.source)]
        for match, end in zip(matches, ends):
            question = normalised(match.group(1))[:40]
            if cell.source[match.end():end].strip():
                found.append(f"cell {index} ({question}): text after its reveal")
            following = notebook.cells[index + 1] if index + 1 < len(notebook.cells) else None
            if following is None or following.cell_type != "code":
                found.append(f"cell {index} ({question}): no code cell right after it")
    return found


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_a_prediction_is_answered_by_the_cell_right_after_it(path: Path) -> None:
    """Prose between a question and its answer cell is read before the learner has answered
    (lesson 06 explained how it would catch "the warning" reading h.grad raises there)."""
    found = prose_between_question_and_answer(nbformat.read(path, as_version=4))
    assert not found, found


def test_prose_after_a_question_is_found() -> None:
    notebook = load("06")
    assert not prose_between_question_and_answer(notebook)
    index, _, _ = find(notebook, "what will h.grad print?")
    planted = copy.deepcopy(notebook)
    planted.cells[index].source += "\n\nThe next cell catches the warning this raises."
    assert len(prose_between_question_and_answer(planted)) == 1
    planted = copy.deepcopy(notebook)
    planted.cells.insert(index + 1, nbformat.v4.new_markdown_cell("It warns."))
    assert len(prose_between_question_and_answer(planted)) == 1

def test_a_leak_is_found_in_a_heading_an_output_and_a_diagram() -> None:
    """The detector itself: an answer planted above its question, in each kind of place a
    learner reads, is found."""
    notebook = load("03")
    index, _, _ = find(notebook, "after the fourth micro-batch")
    assert not leaks(notebook, index, ["-127.5"])
    planted = copy.deepcopy(notebook)
    planted.cells[1].source += "\n## The gradient is `-127.5` either way"
    assert leaks(planted, index, ["-127.5"]) == ["'-127.5' in cell 1"]
    printed = copy.deepcopy(notebook)
    code = next(i for i in range(index) if printed.cells[i].cell_type == "code"
                and printed.cells[i].outputs)
    printed.cells[code].outputs.append(nbformat.v4.new_output(
        "stream", name="stdout", text="full batch: tensor(-127.5000)\n"))
    assert leaks(printed, index, ["-127.5"]) == [f"'-127.5' in the output of cell {code}"]
    drawn = copy.deepcopy(notebook)
    svg = '<svg><text fill="transparent">-127.5</text><text x="1">grad -127.5</text></svg>'
    drawn.cells[code].outputs.append(nbformat.v4.new_output(
        "display_data", data={"text/html": '<img src="data:image/svg+xml;base64,'
                              + base64.b64encode(svg.encode()).decode() + '"/>'}))
    assert leaks(drawn, index, ["-127.5"]) == [f"'-127.5' in the output of cell {code}"]
    commented = copy.deepcopy(notebook)  # the answer cell's code is read before it runs
    commented.cells[index + 1].source += "  # -127.5, as the whole batch"
    assert leaks(commented, index, ["-127.5"]) == [f"'-127.5' in the code of cell {index + 1}"]
    hidden = copy.deepcopy(notebook)  # text that only reserves room is not shown
    hidden.cells[code].outputs.append(nbformat.v4.new_output(
        "display_data", data={"image/svg+xml": '<svg><text fill="transparent">-127.5</text></svg>'}))
    assert not leaks(hidden, index, ["-127.5"])


@pytest.mark.parametrize("number", ["02", "03"])
def test_lessons_02_and_03_step_through_backward_asking_first(number: str) -> None:
    """Each step-by-step view of 02 and 03 asks what a node sends before it shows it."""
    strips = [output.data["text/html"] for cell in load(number).cells
              if cell.cell_type == "code" and "backward_steps" in cell.source
              for output in cell.outputs if "text/html" in output.get("data", {})]
    assert strips
    for page in strips:
        captions = [html.unescape(c) for c in re.findall(r"<figcaption[^>]*>(.*?)</figcaption>",
                                                         page)]
        assert captions[0].startswith("Predict:") and not captions[1].startswith("Predict:")
        assert captions[-1].startswith("done")
        assert all(q.startswith("Predict:") for q in captions[0:-1:2])
