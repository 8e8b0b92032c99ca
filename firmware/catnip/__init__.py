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
