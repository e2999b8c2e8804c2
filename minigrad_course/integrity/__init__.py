"""Integrity guards that run inside the student's own process: the notebook's kernel, nbgrader's
autograde, and the grader's sandboxed worker. They are advice, never proof: the grade is
decided by the grader's judge, outside that process (minigrad_course/grade/).

- `watch`: what a check observes while the student's function runs (backward passes, through
  the engine's pass events; forbidden and borrowed calls; recursion; frames read).
- `snapshot`: has the notebook replaced what the checks rely on?
- `canary`: a computation run beside the student's code in the worker, judged by the judge.

docs/integrity.md lists every guard of both layers, what each stops, and why this part can
only take credit away."""
