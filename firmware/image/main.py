# main.py of the catnip image (frozen): MicroPython runs a frozen main.py
# before looking at the flash. As on any MicroPython, a main.py on the
# Pico's flash is what runs at power-up: your own program, or an empty file
# that keeps the REPL free. Without one, the table app starts (BACK held on
# any station at power-up keeps the REPL too).
import os

try:
    os.stat("main.py")
except OSError:
    del os
    from catnip.start import run

    run()
else:
    del os
    with open("main.py") as _f:
        _own = _f.read()
    del _f
    exec(_own, {"__name__": "__main__"})
