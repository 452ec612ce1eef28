# Entry points: `make demo` runs the bundled example, `make test` runs the whole suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo demo-preludes demo-agent test test-fast lint typecheck pytest wheel-check docs bench clean

# pytest-xdist workers: one per core by default (`make test JOBS=1` runs serially)
JOBS ?= auto

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/ptc run examples/orders.clj --data examples/orders.json --tools examples/tools.py

# Compile the example prelude library to artifacts, then run a program against them.
demo-preludes: $(STAMP)
	$(BIN)/ptc compile examples/preludes -o build/preludes
	$(BIN)/ptc run examples/prelude_report.clj --prelude build/preludes \
		--data examples/orders.json --tools examples/tools.py

# The agent library: a recorded 3-turn model run (replay fixture) over example tools.
demo-agent: $(STAMP)
	$(BIN)/ptc agent run examples/agent/agent.json -v

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS)

# The quick subset (under 2 minutes on 2 cores, no Clojure): the runtime builtins, signatures,
# tools, reader, analyzer, lowering, end-to-end programs, CLI, REPL and packaging tests.
FAST_TESTS := tests/runtime tests/signatures tests/tools tests/test_reader.py \
	tests/test_analyzer.py tests/test_lowering.py tests/test_end_to_end.py \
	tests/test_cli.py tests/test_repl.py tests/test_packaging.py
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) $(FAST_TESTS)

# The API reference from the docstrings; --strict: any warning fails the build.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir build/site

# Build the wheel, install it into a clean venv outside the repo, run a program from it.
wheel-check: $(STAMP)
	bash .ci/wheel-check

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache

# The fuzz campaigns of this checkout (docs/fuzzing.md). `make fuzz-corpus` compares the
# signature error corpus; `make fuzz-corpus-write` regenerates it (review the diff);
# `make fuzz-scaling` measures 1 job against 2 on every campaign (a quarter of an hour).
.PHONY: fuzz-corpus fuzz-corpus-write fuzz-scaling
fuzz-corpus: $(STAMP)
	$(BIN)/python -m fuzz signature-corpus

fuzz-corpus-write: $(STAMP)
	$(BIN)/python -m fuzz signature-corpus --write

fuzz-scaling: $(STAMP)
	$(BIN)/python -m fuzz.scaling --repeat 3 --jobs 2
