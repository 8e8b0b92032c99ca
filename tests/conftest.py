import sys
from pathlib import Path

# Shared test modules import each other by bare name, as they do on MicroPython.
sys.path.insert(0, str(Path(__file__).parent / "shared"))
