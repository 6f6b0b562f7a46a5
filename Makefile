# The two commands of safetile.  Both create .venv if it is missing and
# install exactly what they need (pinned in pyproject.toml).
#   make run    run the examples (on the GPU if there is one, else on the CPU)
#   make test        lit (FileCheck) tests, then pytest; non-zero on any failure (what CI runs)
#   make test-full   the same, with the expensive toolchain checks (pytest -m full: every
#                    example variant through tileiras, the whole GPU cubin-cache build)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What the install builds from: a change to any of them reinstalls (and rebuilds the C launch call).
BUILT_FROM := pyproject.toml setup.py runtime/cuda/_launch.c
STAMP  := $(VENV)/.installed-$(shell cat $(BUILT_FROM) | cksum | cut -d' ' -f1)

.PHONY: run test test-full install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BUILT_FROM) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	$(BIN)/python -m pip install --quiet -e '.[test,toolchain,cuda,bench]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

run: install
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python examples/run_all.py

# lit and pytest run at once, each with a worker per core (pytest-xdist; a test file
# stays on one worker, in order): lit's report is printed when both are done; the
# status is non-zero if either failed.  The suite starts dozens of interpreters: they
# keep the bytecode they compile (__pycache__, pytest's rewritten tests too) even where
# the environment says not to (PYTHONDONTWRITEBYTECODE), which saves ~3 CPU-s each.
define run_tests
	export PATH="$(CURDIR)/$(BIN):$$PATH"; unset PYTHONDONTWRITEBYTECODE; \
	$(BIN)/lit -v test/lit > $(VENV)/lit.log 2>&1 & lit=$$!; \
	$(BIN)/python -m pytest -q -n auto --dist loadfile $(1); status=$$?; \
	wait $$lit || status=1; \
	cat $(VENV)/lit.log; exit $$status
endef

test: install
	@$(call run_tests,)

test-full: install
	@$(call run_tests,-m 'not gpu')

clean:
	rm -rf $(VENV) build *.egg-info
