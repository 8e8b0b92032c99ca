# Simulated hardware for catnip: a fake `machine` module and chip models that
# decode the real bus traffic. Runs under CPython and the MicroPython unix port;
# tests and the virtual table put this folder ahead of the firmware on the path.
