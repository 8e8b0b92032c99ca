# A finished game's signature on flash: 64 bytes in the game's own folder
# (journal/7.finished/sig), so it goes when the game is rotated out. The
# journal's readers pass over it (a name that is neither `log` nor a tail's
# number). Written beside, then renamed over: all or nothing.
import os

from catnip.flash.journal_files import size

SIG = "sig"
SIG_BYTES = 64


def save(journal, gid, sig):
    """Keep `sig` for game `gid`; OSError if the flash did not take it."""
    path = journal.file(gid, SIG)
    with open(path + ".new", "wb") as f:
        f.write(sig)
    os.rename(path + ".new", path)


def load(journal, gid):
    """Game `gid`'s signature, or None when it has none (yet)."""
    path = journal.file(gid, SIG)
    if size(path) != SIG_BYTES:
        return None
    with open(path, "rb") as f:
        return f.read()


def unsigned(journal):
    """The finished games with no signature yet, oldest first."""
    return [gid for gid, status in journal.games()
            if status == "finished" and load(journal, gid) is None]
