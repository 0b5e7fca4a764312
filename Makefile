# Every target creates .venv when it is missing, so a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint docs install vscode wheelhouse schemas controllers fuzz requirements

$(BIN)/wmaplint: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	@touch $@

install: $(BIN)/wmaplint

# Wheels of wmaplint and everything it needs to build and run, for installs without a package index (the
# pre-commit test builds the hook's environment from them).
.wheelhouse/.complete: pyproject.toml | $(BIN)/wmaplint
	$(BIN)/pip wheel --quiet --wheel-dir .wheelhouse . 'hatchling>=1.26'
	@touch $@

wheelhouse: .wheelhouse/.complete

# The main job: check the shipped catalog against the pinned framework schemas (bundled in the package).
demo: install
	$(BIN)/wmaplint check catalog/

# The suite on every core (pytest-xdist); `$(BIN)/pytest tests/DIR` runs a part in one process. The wheelhouse
# lets the pre-commit test build the hook's environment offline; a test whose outside tool is missing (nvim)
# is skipped with the reason (`pytest -rs` lists them). The order is random (pytest-randomly), from a seed
# made here so that it is printed with the command: `make test SEED=N` replays a failing order. The 25 slowest
# tests close the output, each with its time.
ifndef SEED
SEED := $(shell $(PYTHON) -c 'import random; print(random.randrange(1, 1 << 31))')
endif
test: install wheelhouse
	$(BIN)/pytest -n auto --dist loadgroup -p randomly --randomly-seed=$(SEED) --durations=25

# Peers the benchmarks compare against live in their own environment, never in the project's.
BENCH := .bench
$(BENCH)/peers/bin/check-jsonschema:
	$(PYTHON) -m venv $(BENCH)/peers
	$(BENCH)/peers/bin/pip install --quiet check-jsonschema

# Every benchmark runs even when one fails, so the table always prints; a failure fails the target after it.
bench: install wheelhouse $(BENCH)/peers/bin/check-jsonschema
	@rm -rf $(BENCH)/out && mkdir -p $(BENCH)/out
	@failed=""; for b in benchmarks/bench_*.py; do echo "== $$b"; \
	  nice $(BIN)/python $$b > $(BENCH)/out/$$(basename $$b .py).txt 2>&1 || failed="$$failed $$b"; \
	  cat $(BENCH)/out/$$(basename $$b .py).txt; done; \
	$(BIN)/python benchmarks/summary.py $(BENCH)/out; \
	if [ -n "$$failed" ]; then echo "failed:$$failed"; exit 1; fi

# The hostile-input suite at length (the test suite runs a few inputs per family on a fixed seed):
# FUZZ_COUNT inputs per family, each run bounded in time and memory; prints the counts and every failure.
FUZZ_COUNT ?= 200
FUZZ_SEED ?= 20251201
fuzz: install
	nice $(BIN)/python -m tests.hostile.fuzz --count $(FUZZ_COUNT) --seed $(FUZZ_SEED)

# lint-imports checks the layers of the package (pyproject.toml, [tool.importlinter]): an upward import fails,
# and so does a circle of imports. vulture finds code nothing uses ([tool.vulture]; vulture_whitelist.py names
# what is used in ways it cannot see, each with how).
lint: install
	$(BIN)/ruff check wmaplint tests benchmarks
	$(BIN)/mypy wmaplint benchmarks
	$(BIN)/lint-imports --no-cache
	$(BIN)/vulture

# The schema bundle shipped in the package, rebuilt from the pinned sources of schemas/lock.yaml (sha256-verified):
# downloaded, or taken from a local copy with `make schemas FROM=../shared` (no network then).
schemas: install
	$(BIN)/python -m wmaplint.schema.bundle_build build $(if $(FROM),--from $(FROM))
	$(BIN)/python -m wmaplint.controllers.compile build

# The controller model compiled from schemas/controllers/*.yaml (schemas/controllers.bin): a run reads it
# instead of the YAML files, as long as it is what they give (a test keeps it in step).
controllers: install
	$(BIN)/python -m wmaplint.controllers.compile build

# Generated docs, and the console examples of README.md and docs/ rewritten with what the commands print now.
# The action's hashed requirements (requirements/action.txt), from pyproject.toml's dependencies: pinned
# versions and the sha256 of each of their files for the runners the script names (uses the package index).
requirements: install
	$(BIN)/python requirements/update.py

docs: install
	$(BIN)/python -m wmaplint.rule_docs > docs/rules.md
	$(BIN)/python -m wmaplint.definition.format
	$(BIN)/python -m tests.console_examples --write

# The VS Code extension: dependencies from the npm registry, compile, unit tests, then the .vsix. A packager
# warning about a missing license or repository fails the target.
vscode:
	cd vscode-extension && npm ci --no-audit --no-fund && npm run compile && npm test
	cd vscode-extension && { npx vsce package --out wmaplint.vsix </dev/null >.vsce.log 2>&1; \
	  status=$$?; cat .vsce.log; exit $$status; }
	@! grep -Ei 'warning.*(license|repository)' vscode-extension/.vsce.log
