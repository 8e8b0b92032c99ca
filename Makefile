# Every target bootstraps .venv from nothing on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.catnip-installed

.PHONY: test sim bench bench-full firmware dist stl wokwi clean

test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup

sim: $(STAMP)
	$(PY) -m catnip_host sim

# Each module's rows as they are measured; about ten minutes on two cores.
bench: $(STAMP)
	$(PY) -m bench

# The long runs too (100,000 inputs a fuzz door, whole games on the emulated
# RP2040, the press bench, the catnip images built): for a release.
bench-full: $(STAMP)
	$(PY) -m bench --full

# catnip-pico.uf2 (Pico) and catnip-pico2.uf2 (Pico 2) in build/firmware/:
# MicroPython with catnip frozen in (docs/pico.md: the recipe; MICROPY_DIR to
# build in a MicroPython checkout).
firmware: $(STAMP)
	$(PY) -m catnip_host.image

# hardware/stl/: every printable part rendered from hardware/scad/ (needs OpenSCAD:
# apt-get install openscad), each checked to be a closed manifold of its stated size.
stl: $(STAMP)
	$(PY) -m catnip_host.scad --write

# The Wokwi custom chips (hardware/wokwi/chips/*.chip.c, Wokwi's chip API) as the WebAssembly
# the Wokwi projects load: clang for wasm32-wasi, as Wokwi's own chip build (Debian: clang, lld,
# wasi-libc, libclang-rt-dev-wasm32).
CHIPS      := hardware/wokwi/chips
WASM_CC    ?= clang
WASM_FLAGS := --target=wasm32-unknown-wasi -O2 -Wall -Wextra -Werror -nostartfiles \
              -Wl,--no-entry -Wl,--import-memory -Wl,--export-table

wokwi: $(CHIPS)/hx711-tray.chip.wasm $(CHIPS)/mux-stations.chip.wasm

$(CHIPS)/%.chip.wasm: $(CHIPS)/%.chip.c $(CHIPS)/wokwi-api.h
	$(WASM_CC) $(WASM_FLAGS) -o $@ $<

# dist/: the wheel and sdist, carrying both images of these sources, so an
# installed catnip flashes a Pico with no toolchain (docs/deploy.md).
dist: $(STAMP)
	$(PY) -m catnip_host.image --ship
	rm -rf dist
	$(PY) -m build --outdir dist .

$(STAMP): pyproject.toml requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info host/catnip_host/firmware \
	       $(CHIPS)/*.wasm
