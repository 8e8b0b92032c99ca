import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The same path the MicroPython runs get (tests/mpunix.py): shared test modules
# import each other by bare name, `import machine` finds devsim's fake, and
# `import devsim.bus` works from the repo root.
for folder in (ROOT, ROOT / "devsim", ROOT / "tests" / "shared"):
    sys.path.insert(0, str(folder))
