# The table app from power-up to play; main.py imports this (the flash's
# main.py on a stock MicroPython, the frozen one in the catnip image).
# catnip.boot reads the board and builds the app, then leaves the heap: its
# code is needed only now. The app then serves until the power goes.
from catnip import forget
from catnip.boot import main

app = main()
del main
forget("catnip.boot")
if app is not None:
    app.serve()
