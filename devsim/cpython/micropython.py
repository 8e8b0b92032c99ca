# micropython for CPython: what the firmware asks of MicroPython's own module,
# so the virtual table runs the same firmware under CPython
# (devsim/cpython/run.py). const() is the value itself; a viper or native
# function runs as plain Python, its ptr8/ptr16/ptr32 views and uint() made
# builtins here, as viper makes them: a ptr32 reads and writes the buffer's
# 32-bit words (the machine's byte order, little-endian on every laptop the
# virtual table runs on), uint() keeps a value's low 32 bits.
import builtins


def const(value):
    return value


def viper(function):
    return function


def native(function):
    return function


def kbd_intr(char):
    """Ctrl-C belongs to the laptop's `catnip sim`, which stops the table itself."""


def _view(code):
    def view(buffer):
        if isinstance(buffer, int):
            raise TypeError("a viper pointer to a machine address works only on the Pico")
        return memoryview(buffer).cast("B").cast(code)
    return view


def uint(value):
    return value & 0xFFFFFFFF


# New builtins, as MicroPython's compiler knows them (setattr: CPython's
# builtins module declares no such names).
for name, value in (("ptr8", _view("B")), ("ptr16", _view("H")), ("ptr32", _view("I")),
                    ("uint", uint)):
    setattr(builtins, name, value)
