"""The installed package carries no worked answers (issue 35): a check computes what it compares
with by another route than the exercise's (numpy with the calculus written out, minigrad's
engine where the exercise rebuilds it and refuses it in answers, a property checked instead of
an order computed, a pictured graph as data). Here: no function of minigrad_course, every file
of which goes into the wheel, holds most of the statements of a worked answer, however renamed.
minigrad itself is what learners use, and is not searched.

A statement is compared by its shape: names replaced by N (attributes and keywords kept),
numbers by 1, strings by S, so that a copy with other names or constants is found too. Run on the
package before the checks were rewritten, it names 7 of the 11 worked answers they held (04's
fit, 11's order, 13's paths, 14's loop, 01's walk and formula...); the 4 it misses were one or
two lines of formula (05, 06, 08, 10), too short to tell by shape from any other code."""
from __future__ import annotations

import ast
import io
import json
import keyword
import re
import tokenize
from pathlib import Path

from answers import TABLES
from answers.feedback_words import PASS
from minigrad_course.checks import markers

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "minigrad_course"
MIN_TOKENS = 6  # a shorter statement (return x, n = len(x)) says too little
ANSWER_SHARE = 0.6  # the share of an answer's statements that one function may not hold


def shape(code: str) -> str:
    out, after_dot = [], False
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                          tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        text = token.string
        if token.type == tokenize.NAME and not (after_dot or keyword.iskeyword(text)):
            text = "N"
        out.append({tokenize.NUMBER: "1", tokenize.STRING: "S"}.get(token.type, text))
        after_dot = token.string == "."
    return " ".join(out)


def statements(body: list[ast.stmt]) -> set[str]:
    """The shapes of the statements in `body`, nested ones included (a compound statement by
    its first line), less the functions and classes defined there (each is looked at alone)."""
    found = set()
    for node in body:
        for statement in ast.walk(node):
            if isinstance(statement, ast.stmt) and not isinstance(
                    statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                text = shape(ast.unparse(statement).split("\n")[0])
                if len(text.split()) >= MIN_TOKENS:
                    found.add(text)
    return found


def functions(folder: Path) -> list[tuple[str, set[str]]]:
    return [(f"{path.relative_to(folder.parent)}:{node.name}", statements(node.body))
            for path in sorted(folder.rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def answer_sources() -> dict[str, str]:
    """Every answer to an exercise that defines a function or a class: the worked ones of
    solutions/ and the right answers written otherwise of tests/course/answers/ (not those of
    the lessons' builds, whose worked answers the lessons show)."""
    answers, exercise_checks = {}, set()
    for path in sorted((ROOT / "solutions").glob("ex*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        module = re.search(r"from minigrad_course\.checks import (\w+) as check",
                           markers.source_of(cells[next(i for i, cell in enumerate(cells)
                                                        if cell["cell_type"] == "code")]))[1]
        for cell in cells:
            if markers.is_answer(cell):
                answers[markers.grade_id(cell)] = markers.keep_solution(markers.source_of(cell))
            elif markers.is_check(cell):
                exercise_checks |= {f"{module}.{name}" for name in
                                    re.findall(r"^check\.(\w+)\(", markers.source_of(cell),
                                               re.MULTILINE)}
    for table, rows in TABLES.items():
        for index, (checks, source, verdict) in enumerate(rows):
            module, names = checks.split(".")
            if verdict is PASS and f"{module}.{names.split('+')[0]}" in exercise_checks:
                answers[f"{table} row {index} ({checks})"] = source
    return {name: source for name, source in answers.items()
            if any(isinstance(node, (ast.FunctionDef, ast.ClassDef))
                   for node in ast.parse(source).body)}


def most_held(answer: str, among: list[tuple[str, set[str]]]) -> tuple[float, str]:
    """The largest share of the answer's statements that one of the functions holds, and
    which function that is."""
    shapes = statements(ast.parse(answer).body)
    return max(((len(shapes & theirs) / len(shapes) if shapes else 0.0, function)
                for function, theirs in among), default=(0.0, ""))


def test_no_function_of_the_package_holds_a_worked_answer() -> None:
    package = functions(PACKAGE)
    answers = answer_sources()
    assert len(answers) > 40, sorted(answers)
    found = [f"{name}: {share:.0%} of its statements in {where}"
             for name, source in answers.items()
             for share, where in [most_held(source, package)] if share >= ANSWER_SHARE]
    assert not found, "worked answers in the installed package:\n" + "\n".join(found)


def test_a_worked_answer_renamed_in_a_check_is_found(tmp_path: Path) -> None:
    """The test above can fail: exercise 04's worked fit, its names and constants changed and
    put in a check module as the check's own helper, is found whole."""
    source = answer_sources()["04-fit"]
    renamed = (source.replace("losses", "values").replace("lr", "rate").replace("0.1", "0.25")
               .replace("def fit(", "def _expected_losses("))
    assert renamed != source
    checks = tmp_path / "minigrad_course" / "checks"
    checks.mkdir(parents=True)
    (checks / "resetting_gradients.py").write_text(renamed, encoding="utf-8")
    share, where = most_held(source, functions(tmp_path / "minigrad_course"))
    assert share == 1.0 and where.endswith(":_expected_losses"), (share, where)
