# Paths for a test's own files, under the temporary folder the run was given
# ($TMPDIR, else /tmp): shared tests run under the MicroPython unix port too,
# which has no tempfile module.
import os


def scratch(name):
    """`name` and 12 random hex digits, under $TMPDIR (else /tmp): a path no
    other run uses."""
    root = os.getenv("TMPDIR") or "/tmp"
    while len(root) > 1 and root[-1] == "/":
        root = root[:-1]
    return "%s/%s-%s" % (root, name, "".join("%02x" % b for b in os.urandom(6)))
