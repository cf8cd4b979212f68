# bangsim: `make run` plays the default experiment, `make test` runs the test suite.
# Needs only python3.11 (or python3 >= 3.11), pip and GNU make.

PY ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# numba's on-disk cache lives in the repo so `make clean` can wipe it
# (cache=True does not notice edits in other files).
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: setup run test fuzz tune bench lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[dev,ray]'
	touch $(STAMP)

run: setup
	$(BIN)/bangsim experiment default --out runs/default
	@echo "results: runs/default (manifest.json, seats/*.parquet); report: runs/default/report/index.html"

test: setup
	$(BIN)/python -m pytest -q

# the kernel fuzz tests (tests/test_fuzz.py) with FUZZ_EXAMPLES (default 3000) new random
# examples each; the statistics show how many ran and what they found
fuzz: setup
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q tests/test_fuzz.py --hypothesis-show-statistics

# iterated best responses for classic at 4-7 players from the smart field (docs/strategies.md),
# resumable; the result becomes the shipped preset `tuned` (strategies/tuned/classic.toml,
# whose header says how the shipped values were made: this run, then a re-tune per count)
tune: setup
	$(BIN)/bangsim tune --theme classic --players 4-7 --out runs/tune/classic
	cp runs/tune/classic/tuned.toml strategies/tuned/classic.toml

bench: setup
	$(BIN)/bangsim bench --json runs/bench.json

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) runs .pytest_cache .ruff_cache .numba_cache .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
