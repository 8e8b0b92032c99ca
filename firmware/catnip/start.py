# The table app from power-up to play; main.py calls run() (the flash's
# main.py on a stock MicroPython, the frozen one in the catnip image).
from catnip import forget


def run():
    """catnip.boot reads the board and builds the app, then leaves the heap
    (its code is needed only now); the app serves until the power goes."""
    from catnip.boot import main

    app = main()
    del main
    forget("catnip.boot")
    if app is not None:
        app.loop.serve()
