# catnip on the Pico: MicroPython runs this file at power-up.
# Hold BACK on any station while powering up to skip the app and keep the
# REPL (for a board whose app does not start, or to update it).
from catnip.start import run

run()
