# make run   - install into .venv and play in the terminal (you against three computer players)
# make test  - install into .venv and run every check: lint, types, tests with coverage, then the slow checks
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit slow bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cafe play

test: lint typecheck unit slow

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 -m "not reference and not sweep and not frameworks" --doctest-modules --doctest-glob=README.md src tests README.md \
		--cov=cafe --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=95

# the engine against the reference implementations, every bot at thousands of positions, and other frameworks'
# bots playing whole games (no coverage tracing)
slow: $(STAMP)
	$(BIN)/pytest -n 2 -m "reference or sweep or frameworks" tests

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/arena.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .hypothesis
