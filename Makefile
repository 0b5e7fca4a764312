# Every target creates .venv when it is missing, so a fresh clone needs nothing but Python 3.10+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SHARED ?= ../shared

.PHONY: demo test bench lint docs install

$(BIN)/wmaplint: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	@touch $@

install: $(BIN)/wmaplint

# The main job: check the shipped catalog against the pinned framework schemas.
demo: install
	@if [ -d "$(SHARED)/crds" ]; then $(BIN)/wmaplint schemas pull --from $(SHARED) >/dev/null; \
	 else $(BIN)/wmaplint schemas pull >/dev/null; fi
	$(BIN)/wmaplint check catalog/

test: install
	$(BIN)/pytest

bench: install
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

lint: install
	$(BIN)/ruff check wmaplint tests benchmarks
	$(BIN)/mypy wmaplint

docs: install
	$(BIN)/python -m wmaplint.rule_docs > docs/rules.md
	$(BIN)/python -m wmaplint.definition.format
