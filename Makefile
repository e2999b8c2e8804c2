# The one way in: `make lab` opens the course, `make test` runs every test.
# Both create the local environment in .venv when it is missing or stale.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lab bench golden clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
		|| { echo "minigrad needs Python 3.10 or newer; '$(PYTHON)' is older." >&2; exit 1; }
	@$(PYTHON) -m venv --help >/dev/null 2>&1 \
		|| { echo "'$(PYTHON) -m venv' is missing (on Debian: apt-get install python3-venv)." >&2; exit 1; }
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[course,test]'
	@touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n auto

lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

golden: $(STAMP)
	$(BIN)/python scripts/record_golden.py

clean:
	rm -rf $(VENV) build *.egg-info
