"""nbgrader preprocessors that the class's configuration names (python -m
minigrad_course.nbgrader_course writes it); imported by nbgrader only, where it is installed.

ClearHiddenTestsFromFeedback is nbgrader's ClearHiddenTests as a step of generate_feedback:
nbgrader's feedback is the autograded notebook, into which autograde put every hidden test back.
(generate_feedback's HTML exporter sets every step's display_data_priority, which nbgrader's
ClearHiddenTests does not take, and would say so at every run.)

RestoreCells is nbgrader's OverwriteCells, which puts every read-only cell of a submission
back as the instructor wrote it (the checks, with their hidden tests), minus a false alarm.
nbgrader stores each cell's checksum taken with its hidden tests, and the student's copy carries
one taken without them (nbgrader issue 1961): every check cell with hidden tests is reported as
"changed" for every student, 200 warnings for 50 students and four checks, among which the
one student who did rewrite a check is lost. Here a read-only cell whose source is the stored
one less its hidden tests is put back silently; a cell the student changed is still reported,
and is put back all the same."""
from __future__ import annotations

from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, GetGrades, OverwriteCells
from traitlets import List


class ClearHiddenTestsFromFeedback(ClearHiddenTests):
    display_data_priority = List(GetGrades.class_traits()["display_data_priority"].default(),
                                 config=True)


def without_hidden_tests(source: str) -> str:
    """`source` as the students received it: nbgrader's own ClearHiddenTests applied."""
    cell = NotebookNode({"cell_type": "code", "source": source,
                         "metadata": {"nbgrader": {"grade": True}}})
    ClearHiddenTests().preprocess_cell(cell, {}, 0)
    return cell.source


class RestoreCells(OverwriteCells):
    def preprocess_cell(self, cell, resources, cell_index):
        self._as_released = False
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None and utils.is_locked(cell):
            try:
                stored = self.gradebook.find_source_cell(grade_id, self.notebook_id,
                                                         self.assignment_id)
            except MissingEntry:
                pass
            else:
                self._as_released = cell.source == without_hidden_tests(stored.source)
        return super().preprocess_cell(cell, resources, cell_index)

    def report_change(self, name, attr, old, new):
        if attr == "checksum" and self._as_released:
            return  # the hidden tests are put back; the student changed nothing
        super().report_change(name, attr, old, new)
