# bangsim: `make run` plays the default experiment, `make test` runs the test suite.
# Needs only python3.11 (or python3 >= 3.11), pip and GNU make.

PY ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# numba's on-disk cache lives in the repo so `make clean` can wipe it
# (cache=True does not notice edits in other files).
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: setup run test fuzz tune tune-classic learn bench check-index lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[dev,ray,learn]'
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

# every shipped tuned file (strategies/tuned/THEME.toml), regenerated the way its header
# records (docs/tuning.md, "make tune"): classic from smart, every other theme re-tuned
# from classic's values. Resumable: rerun it (or one tune-THEME) and each search resumes
# from its state under TUNE_OUT. Run it without -j: the other themes start from the
# classic file that tune-classic writes.
TUNE_OUT ?= runs/tune
TUNE_FROM_CLASSIC := classic_dodge_city star_wars walking_dead
# at most so many rounds: a count that converges sooner stops there (classic from smart settles
# after 3 or 4 rounds; the other themes from classic's values in 1 to 4, but Dodge City at 6
# players, whose Sheriff and Renegade answer each other for 5 rounds, in 8); a
# round that settles is confirmed by a second search per role with its own seed (--searches
# 2: one search's gain is a lower bound; docs/tuning.md, "--searches K")
CLASSIC_TUNE := --players 4-7 --seed 1 --rounds 8 --threshold 1.0 --searches 2
THEME_RETUNE := --players 4-7 --seed 2 --rounds 10 --threshold 1.0 --searches 2

tune: tune-classic $(addprefix tune-,$(TUNE_FROM_CLASSIC))

tune-classic: setup
	$(BIN)/bangsim tune --theme classic $(CLASSIC_TUNE) --field smart \
		--out $(TUNE_OUT)/classic-from-smart
	cp $(TUNE_OUT)/classic-from-smart/tuned.toml strategies/tuned/classic.toml

tune-%: setup
	$(BIN)/bangsim tune --theme $* $(THEME_RETUNE) --out $(TUNE_OUT)/$* \
		--field strategies/tuned/classic.toml:tuned
	cp $(TUNE_OUT)/$*/tuned.toml strategies/tuned/$*.toml

# every shipped learned field (strategies/strong/THEME_Np.toml, `--strategy strong`),
# regenerated the way its header records (docs/strong.md): LEARN_ROUNDS rounds of
# Expert Iteration from each theme's tuned values. Resumable: rerun it and each learning run
# reads back the rounds it finished under LEARN_OUT. LEARN_TABLES picks what to learn
# (THEME_Np, default: every shipped one).
LEARN_OUT ?= runs/learn
LEARN_ARGS ?= --rounds 3 --games 10000 --worlds 64 --rate 0.03 --seed 1
LEARN_TABLES ?= $(basename $(notdir $(wildcard strategies/strong/*.toml)))
# the tables learned by steps toward each round's new tables (`bangsim learn --steps`)
LEARN_STEPPED ?= star_wars_7p

learn: setup
	@for t in $(LEARN_TABLES); do \
		theme=$${t%_*p}; n=$${t##*_}; n=$${n%p}; steps=; \
		for s in $(LEARN_STEPPED); do [ $$s = $$t ] && steps="--steps 1,0.5,0.25"; done; \
		$(BIN)/bangsim learn --theme $$theme --players $$n $(LEARN_ARGS) $$steps \
			--out $(LEARN_OUT)/$$t --ship || exit 1; \
	done

bench: setup
	$(BIN)/bangsim bench --json runs/bench.json

# the same-games digests with every array index of the kernel bounds-checked (a negative one
# too: the kernel takes indices as they are, simcore/engine/jit.py); its own numba cache,
# so the first run compiles the kernel (minutes)
check-index: setup
	NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=.numba_cache_boundscheck $(BIN)/python -m pytest -q tests/test_same_games.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) runs .pytest_cache .ruff_cache .numba_cache .numba_cache_boundscheck .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
