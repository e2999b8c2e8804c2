"""Checks for the exercise notebooks, one module per notebook (`accumulation` for
exercises/ex03_accumulation.ipynb, and so on); the first cell of a notebook imports its module
as `check`.

A check takes the learner's answer, prints one line starting with ✓, or raises `CheckFailed`
(an AssertionError) saying, for each property that does not hold, what was expected and where to
look. Modules load on demand; like minigrad they need only numpy."""
