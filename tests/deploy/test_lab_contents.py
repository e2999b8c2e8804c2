"""What the course's JupyterLab keeps out of a saved notebook (minigrad_course/lab_contents.py):
a cell the file stores hidden is saved hidden again after the learner ran it; the browser test
(tests/browser/test_lab_setup.py) runs a lesson through in JupyterLab and saves it."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from minigrad_course.lab_contents import keep_hidden

ROOT = Path(__file__).resolve().parents[2]


def test_hidden_answers_stay_hidden_and_nothing_else_changes() -> None:
    stored = json.loads((ROOT / "notebooks" / "03_accumulation.ipynb").read_text())
    hidden = [cell["id"] for cell in stored["cells"] if cell["metadata"].get("jupyter")]
    assert hidden, "03 has predictions whose answers are stored hidden"
    ran = copy.deepcopy(stored)
    for cell in ran["cells"]:  # as JupyterLab leaves them after running: all shown
        cell["metadata"].pop("collapsed", None)
        cell["metadata"].pop("jupyter", None)
    ran["cells"].append({"cell_type": "code", "id": "mine", "metadata": {"collapsed": False},
                         "source": "", "outputs": [], "execution_count": None})
    keep_hidden(ran, stored)
    assert ran["cells"][:-1] == stored["cells"]
    assert ran["cells"][-1]["metadata"] == {"collapsed": False}  # the learner's own: as saved


def test_a_cell_the_file_shows_is_saved_as_the_learner_left_it() -> None:
    stored = {"cells": [{"id": "a", "metadata": {}}, {"id": "b", "metadata": {
        "jupyter": {"source_hidden": True}}}]}
    saved = {"cells": [{"id": "a", "metadata": {"collapsed": True, "jupyter": {
        "outputs_hidden": True}}}, {"id": "b", "metadata": {"jupyter": {"source_hidden": False}}}]}
    keep_hidden(saved, stored)
    assert saved == {"cells": [
        {"id": "a", "metadata": {"collapsed": True, "jupyter": {"outputs_hidden": True}}},
        {"id": "b", "metadata": {"jupyter": {"source_hidden": True}}}]}
