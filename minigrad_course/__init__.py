"""The course's tooling, kept out of `minigrad` (the engine learners read):

- `checks`: one module of check functions per exercise notebook
  (`from minigrad_course.checks import accumulation as check`);
- `grade`: the grader (`python -m minigrad_course.grade exercises/`, or the last cell of each
  exercise notebook);
- `generate`: writes exercises/ from solutions/ (`python -m minigrad_course.generate`);
- `builds`: a lesson's build cells in the kernel (`%load_ext minigrad_course.builds`): a stub
  says it is not answered yet and the cells that need it wait;
- `lab_contents`: how the course's JupyterLab reads and saves notebooks.

The tools that need the course's notebooks find them with `course.find_course` (from the current
folder upwards) or take them as an argument, so that they work from an installed copy too.
`import minigrad` never imports this package."""
