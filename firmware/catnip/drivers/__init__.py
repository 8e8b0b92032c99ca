# Device drivers: with parts/hardware.py, the only firmware code that talks
# to `machine`. May import only itself and keys.py (event kinds, ticks).
