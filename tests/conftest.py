import sys
from pathlib import Path

# Shared test modules import each other by bare name, as they do on MicroPython.
sys.path.insert(0, str(Path(__file__).parent / "shared"))

# A shared module whose first line is "# micropython-only: <why>" needs a part
# of MicroPython that CPython lacks (e.g. the built-in framebuf); it runs only
# through tests/test_under_micropython.py.
MICROPYTHON_ONLY = "# micropython-only:"


def pytest_ignore_collect(collection_path, config):
    if collection_path.suffix == ".py" and collection_path.parent.name == "shared":
        with open(collection_path, encoding="utf-8") as source:
            return source.readline().startswith(MICROPYTHON_ONLY) or None
    return None
