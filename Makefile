# uno-sim: the whole set-up lives here.  `make demo`, `make test`.
#
# The virtual environment .venv is created on first use and the project installed into it
# (editable, with the test, parquet, cluster and rl extras); the stamp file makes it re-install when
# pyproject.toml changes.  numba's compile cache goes to a project-local folder.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.uno-sim-installed
UNO    := $(BIN)/uno-sim
BENCH_GAMES ?= 1000000
DEMO_GAMES ?= 1000000
TEST_WORKERS ?= 2
DEMO_OUT ?= reports/demo

export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: all demo test test-fast bench bench-vs rulebook docs wheel clean distclean
.DEFAULT_GOAL := all

all: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[test,parquet,cluster,rl]'
	touch $(STAMP)

# Stacking against the official no-stacking rule: the same 1,000,000 deals each (seed 0);
# table on the terminal, CSV and charts in reports/demo/. `make demo DEMO_GAMES=100000` for a
# quicker look. The folder is the demo's own: --force replaces the files an earlier demo wrote
# there (those listed in its .uno-sim-files), and nothing else.
demo: $(STAMP)
	$(UNO) compare stacking nostacking --games $(DEMO_GAMES) --out $(DEMO_OUT) --force

# Two workers, a test file at a time (pytest-xdist); tests/conftest.py compiles the engine and
# starts the wheel's build before they start. `make test TEST_WORKERS=1` for one process.
test: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The tests without those marked slow (wheel build, clusters, browser, cold compile, big runs).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not slow"

# Throughput (games/s) of fixed cases, median of 3 whole runs each, beside the previous
# figures (benchmarks.json) and the targets; rewrites BENCHMARKS.md.
bench: $(STAMP)
	$(UNO) bench --games $(BENCH_GAMES) --repeats 3 --write BENCHMARKS.md

# This tree against the commit BASE, in alternating pairs on the same machine in the same
# minutes (the figures above come from other runs: they cannot show a speed change; this can).
# The baseline's tree is kept under .bench/BASE (compiled there once). `make bench-vs
# BASE=7104022 PAIRS=6 BENCH_CASES="standard/4p/random/2w house/4p/random/2w"`.
PAIRS ?= 4
BENCH_CASES ?=
bench-vs: $(STAMP)
	@test -n "$(BASE)" || { echo "make bench-vs needs BASE=<commit>" >&2; exit 2; }
	$(UNO) bench --vs $(BASE) --pairs $(PAIRS) --games $(BENCH_GAMES) $(foreach c,$(BENCH_CASES),--case $(c)) --write BENCHMARKS.md

# Regenerate the knob reference of docs/RULES.md from the knob table (uno_sim/knobs.py).
rulebook: $(STAMP)
	$(BIN)/python -m uno_sim.game.rulebook docs/RULES.md

# The generated parts of the docs: the rulebook's knob section, the knob -> engine index and
# the metric table of docs/METRICS.md (from uno_sim/game/metrics.py).
docs: rulebook
	$(BIN)/python tools/knob_index.py docs/ARCHITECTURE.md
	$(BIN)/python -m uno_sim.game.metrics_doc docs/METRICS.md

# The wheel, with the engine compiled for a generic CPU of this platform inside (dist/): installed
# with pip, its first run loads the engine instead of compiling it (tools/build_wheel.py; a few
# minutes: it compiles every kernel once).
wheel: $(STAMP)
	$(BIN)/python tools/build_wheel.py --out dist

clean:
	rm -rf .numba_cache .pytest_cache .hypothesis build dist .bench *.egg-info
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -path ./$(VENV) -prune -o \( -name '*.nbi' -o -name '*.nbc' \) -type f -exec rm -f {} +

distclean: clean
	rm -rf $(VENV)
	find reports -mindepth 1 -maxdepth 1 ! -name .gitkeep -exec rm -rf {} +
