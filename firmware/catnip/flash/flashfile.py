# The table's small files on flash (the setup remembered, the players' names
# the laptop sent, the tray's calibration, the Clowder high scores) as JSON, each written all or nothing:
# beside the old file, read back, then renamed over it, so a power cut leaves
# the old file or the new, never half of one.
import json
import os

_open = open  # tests cut the power through it
MAX_BYTES = 16384  # no file of the table's is near it; a bigger one would not fit the heap
NAMES_FILE = "names.json"  # the players' names by board and station (catnip.flash.tablenames)


def read(path):
    """The JSON at `path`: OSError if it cannot be read, ValueError naming
    why it is not one of the table's files (not JSON, larger than MAX_BYTES,
    nested deeper than catnip.wire.MAX_DEPTH)."""
    from catnip import wire

    size = os.stat(path)[6]
    if size > MAX_BYTES:
        raise ValueError("%d bytes, more than the %d any of the table's files takes"
                         % (size, MAX_BYTES))
    with open(path) as f:
        text = f.read()
    try:
        return wire.loads(text)
    except (RuntimeError, MemoryError):  # nested past what the parser can hold
        raise ValueError("nested too deeply to be one of the table's files")


def load(path, default=None):
    """The JSON at `path`; `default` if it is missing or unreadable."""
    try:
        return read(path)
    except (OSError, ValueError):
        return default


def keep(path, data):
    """`data` at `path` as save() writes it, unless the file holds it
    already; whether it was written. Every write to littlefs adds to its
    folder's log, and every lookup in that folder (each import on stock
    MicroPython) reads through that log, so a file rewritten unchanged at
    each power-up slows every later power-up."""
    if load(path) == data:
        return False
    save(path, data)
    return True


def save(path, data):
    """`data` as JSON at `path`, all or nothing. OSError if the flash did not
    take it; the old file is then as it was."""
    scratch = path + ".new"
    with _open(scratch, "w") as f:
        json.dump(data, f)
    with open(scratch) as f:
        if json.load(f) != data:
            raise OSError("the flash did not keep what was written")
    try:
        os.rename(scratch, path)  # littlefs renames over a file in one step
    except OSError:  # a filesystem that will not
        os.remove(path)
        os.rename(scratch, path)
