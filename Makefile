# Every target bootstraps .venv from nothing on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.catnip-installed

.PHONY: test sim bench clean

test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup

sim: $(STAMP)
	$(PY) -m catnip_host sim

bench: $(STAMP)
	$(PY) -m bench

$(STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
