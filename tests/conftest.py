import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Shared test modules import each other by bare name, as they do on MicroPython.
sys.path.insert(0, str(Path(__file__).parent / "shared"))
# As on MicroPython's path: devsim's fake `machine` module, and the repo root
# for `import devsim...`.
sys.path.insert(1, str(ROOT / "devsim"))
sys.path.insert(2, str(ROOT))
