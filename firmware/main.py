# catnip on the Pico: MicroPython runs this file at power-up.
# Hold BACK on any station while powering up to skip the app and keep the
# REPL (for a board whose app does not start, or to update it).
from catnip.boot import main

app = main()
del main
from catnip import forget  # noqa: E402

forget("catnip.boot")  # power-up's code is done: its heap goes to the game
if app is not None:
    app.serve()
