# catnip: a table companion for three cat games on a Raspberry Pi Pico.


def forget(name):
    """Drop module `name` (a dotted name) so the heap can take back its code:
    on the Pico, code imported from the filesystem lives in RAM. Whatever
    still refers to one of its functions or classes keeps it alive; the next
    import loads it again."""
    import sys

    sys.modules.pop(name, None)
    parent, _, leaf = name.rpartition(".")
    parent = sys.modules.get(parent)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)


def room_for_modules(most=96):
    """Grow the table of loaded modules now, at power-up, to hold `most`:
    grown as modules load, it is moved to a larger piece (584 bytes for 70
    modules) while a game's code loads, when a long session's heap may have
    no piece that size. A dict reuses the slots of deleted keys and grows
    only when full, so it never moves again. Does nothing where more are
    loaded already (the laptop)."""
    import sys

    modules = sys.modules
    names = ["-%d" % i for i in range(most - len(modules))]  # never a module's name
    for name in names:
        modules[name] = None
    for name in names:
        del modules[name]


def ctrl_c(interrupts):
    """Whether a Ctrl-C (0x03) on the USB serial interrupts whatever runs
    (MicroPython's way, `interrupts` True) or arrives as a byte: the app's
    line reads it between two commands and stops there for the REPL
    (catnip.link.line), so no press is half carried out and no journal write
    is cut. Nothing where there is no MicroPython (the laptop)."""
    try:
        from micropython import kbd_intr
    except ImportError:
        return
    kbd_intr(3 if interrupts else -1)
