# A finished game's signature on flash: 64 bytes in the game's own folder
# (journal/7.finished/sig), so it goes when the game is rotated out. The
# journal's readers pass over it (a name that is neither `log` nor a tail's
# number). Written in one go, no copy beside it renamed over (a rename is a
# commit more, 5-7 ms on the Pico): littlefs keeps a file this small in its
# folder's metadata and commits its bytes at the close, all or nothing, so
# a cut leaves no file or an empty one, which reads as no signature.
from catnip.flash.journal_files import size

SIG = "sig"
SIG_BYTES = 64


def save(journal, gid, sig):
    """Keep `sig` for game `gid`; OSError if the flash did not take it."""
    with open(journal.file(gid, SIG), "wb") as f:
        f.write(sig)


def kept(journal, gid):
    """Whether game `gid` has its signature on flash: its size tells, and no
    file is opened (1.1 KB of heap in one piece)."""
    return size(journal.file(gid, SIG)) == SIG_BYTES


def load(journal, gid):
    """Game `gid`'s signature, or None when it has none (yet)."""
    if not kept(journal, gid):
        return None
    with open(journal.file(gid, SIG), "rb") as f:
        return f.read()


def unsigned(journal):
    """The finished games with no signature yet, oldest first."""
    return [gid for gid, status in journal.games()
            if status == "finished" and not kept(journal, gid)]
