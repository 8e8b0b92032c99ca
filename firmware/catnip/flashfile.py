# The table's small files on flash (the setup remembered, the tray's
# calibration, the Clowder high scores) as JSON, each written all or nothing:
# beside the old file, read back, then renamed over it, so a power cut leaves
# the old file or the new, never half of one.
import json

_open = open  # tests cut the power through it


def load(path, default=None):
    """The JSON at `path`; `default` if it is missing or unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def save(path, data):
    """`data` as JSON at `path`, all or nothing. OSError if the flash did not
    take it; the old file is then as it was."""
    import os

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
