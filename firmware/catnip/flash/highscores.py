# The Colonnade of Competent Clowders on flash: the Clowder Collaboration's
# high-score table, kept across games (catnip.rules.colonnade holds the
# ranking; this module only loads and saves it).
import json

FILE = "colonnade.json"


def load(path=FILE):
    from catnip.rules.colonnade import Colonnade

    try:
        with open(path) as f:
            return Colonnade.from_json(json.load(f))
    except OSError:
        return Colonnade()
    except ValueError:
        # A damaged table is kept aside, not lost, and a new one starts.
        _move(path, path + ".bad")
        return Colonnade()


def add(names, score, path=FILE):
    """Enter a finished Clowder game; the rank it earned, or None."""
    table = load(path)
    rank = table.add(names, score)
    if rank is not None:
        save(table, path)
    return rank


def save(table, path=FILE):
    from catnip.flash import flashfile

    flashfile.save(path, table.to_json())


def lines(path=FILE):
    rows = ["%d. %s %d" % (rank, " ".join(names), score)
            for rank, names, score in load(path).ranked()]
    return rows or ["No Clowder games yet"]


def _move(src, dst):
    import os

    try:
        os.remove(dst)
    except OSError:
        pass
    os.rename(src, dst)
