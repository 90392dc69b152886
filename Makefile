# make run   - install into .venv and open the online café (http://127.0.0.1:8000/; `cafe play` plays in the terminal)
# make screenshots - the café's main screens in four languages, desktop and phone, as PNGs in screenshots/
# make test  - install into .venv and run every check: lint, types, tests with coverage, the slow checks, the package
# make check - while editing: lint, then the quick tests (make check TESTS=tests/test_stores.py: only those), to the first failure
# make reference - the engine against the reference implementations on all 1,000 games of each edition (make test: a sample)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test check lint typecheck unit compiled slow reference package bench catalogs screenshots clean

# the tests quick enough for every edit; the slow checks are marked (pyproject.toml) and run in `make slow`
QUICK := "not reference and not sweep and not frameworks and not browser and not cluster and not training and not puzzles and not tournament"
TESTS ?= tests

# the browser tests drive Debian's Chromium (never a test tool's own browser download)
$(CHROMIUM):
	$(SUDO) apt-get update -q
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium

# axe-core for the accessibility checks of the browser tests (npm's registry, pinned in tests/a11y)
AXE := tests/a11y/node_modules/axe-core/axe.min.js
$(AXE): tests/a11y/package.json tests/a11y/package-lock.json
	npm ci --prefix tests/a11y --no-audit --no-fund --loglevel=error
	touch $(AXE)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# the engine compiled with mypyc, in place, whenever its source changed (pure Python where no C compiler is)
ENGINE := $(shell $(PYTHON) scripts/compile.py --list)
COMPILED := .venv/.compiled
$(COMPILED): $(STAMP) $(ENGINE) scripts/compile.py
	$(BIN)/python scripts/compile.py
	touch $(COMPILED)

run: $(STAMP) $(COMPILED)
	$(BIN)/cafe serve

test: lint typecheck unit compiled slow package

check: $(STAMP)
	$(BIN)/ruff check src tests bench examples scripts
	scripts/with-services.sh $(BIN)/pytest -n 2 -x -q -p no:cacheprovider -m $(QUICK) $(TESTS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples scripts
	$(BIN)/ruff format --check src tests bench examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy

# the tests with coverage (of the source: pure Python), beside a throw-away PostgreSQL and Redis
# (scripts/with-services.sh installs and starts them)
unit: $(STAMP)
	CAFE_PURE=1 scripts/with-services.sh $(BIN)/pytest -n 2 -m $(QUICK) --doctest-modules --doctest-glob=README.md src tests README.md \
		--cov=cafe --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=95

# the same tests against the compiled engine, but for the café's server and stores: they run in `unit`, and the
# browser tests play through them on the compiled engine (those that feed the engine bad input run here too);
# and a sample of the reference checks against pure Python
CAFE_SERVER_TESTS := $(filter-out tests/test_server_hardening.py tests/test_server_refusals.py,\
	$(wildcard tests/test_server*.py tests/test_scale*.py tests/test_store*.py tests/test_database*.py tests/test_broker*.py))
compiled: $(COMPILED)
	$(BIN)/python scripts/compile.py --check
	scripts/with-services.sh $(BIN)/pytest -n 2 -q -m $(QUICK) \
		-p no:cacheprovider $(addprefix --ignore=,$(CAFE_SERVER_TESTS)) tests
	CAFE_PURE=1 CAFE_REFERENCE_GAMES=200 $(BIN)/pytest -n 2 -q -m reference tests

# the engine against the reference implementations (on a sample of REFERENCE_GAMES games of each edition; all
# 1,000 in `make reference`), every bot at thousands of positions, other frameworks'
# bots playing whole games, the browser client in Chromium, `cafe train` end to end, a tournament through real
# server and bot processes; then the arena and self-play on a Ray cluster the
# tests start, alone (its 2 CPUs would starve the browser's game) (no coverage tracing; the compiled engine)
REFERENCE_GAMES ?= 400
slow: $(COMPILED) $(CHROMIUM) $(AXE)
	CAFE_REFERENCE_GAMES=$(REFERENCE_GAMES) $(BIN)/pytest -n 2 \
		-m "reference or sweep or frameworks or browser or training or puzzles or tournament" tests
	$(BIN)/pytest -m cluster tests

# every step of 1,000 random games of each edition, the compiled engine against the reference implementations
reference: $(COMPILED)
	CAFE_REFERENCE_GAMES=1000 $(BIN)/pytest -n 2 -q -m reference tests

# the sdist and the wheel built, the wheel installed into fresh environments (the core only, then [all]),
# and every command run from there
package: $(STAMP)
	scripts/smoke-install.sh $(PYTHON)

# after changing a message or a translation: the .po files updated, the .mo files and the browser's JSON made anew
catalogs: $(STAMP)
	$(BIN)/python scripts/catalogs.py

# the café's main screens (lobby, options, play, a refusal, game over, replay, analysis, player page) to look at
screenshots: $(COMPILED) $(CHROMIUM)
	$(BIN)/python scripts/screenshots.py screenshots

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/arena.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage .hypothesis
	$(PYTHON) scripts/compile.py --clean
