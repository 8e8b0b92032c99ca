import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The same path the MicroPython runs get (tests/mpunix.py): shared test modules
# import each other by bare name, `import machine` finds devsim's fake, and
# `import devsim.bus` works from the repo root.
for folder in (ROOT, ROOT / "devsim", ROOT / "tests" / "shared"):
    sys.path.insert(0, str(folder))

# Every command that keeps data (the session store, the virtual table's flash
# and settings)
# keeps it in a folder of this run, never in the person's own data folder.
os.environ["XDG_DATA_HOME"] = str(Path(os.environ.get("TMPDIR", "/tmp"))
                                  / f"catnip-test-data-{os.getpid()}")
os.environ["XDG_CONFIG_HOME"] = str(Path(os.environ.get("TMPDIR", "/tmp"))
                                    / f"catnip-test-config-{os.getpid()}")


@pytest.fixture(autouse=True)
def _own_config_folder(monkeypatch, tmp_path_factory):
    """Each test its own config folder: the laptop's pinned table keys
    (catnip_host.signatures.LaptopPins) are one test's, not the next's,
    whose virtual table has the same id and another key."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))

# A shared module whose first line is "# micropython-only: <why>" needs a part
# of MicroPython that CPython lacks (e.g. the built-in framebuf); it runs only
# through tests/test_under_micropython.py.
MICROPYTHON_ONLY = "# micropython-only:"


def pytest_ignore_collect(collection_path, config):
    if collection_path.suffix == ".py" and collection_path.parent.name == "shared":
        with open(collection_path, encoding="utf-8") as source:
            return source.readline().startswith(MICROPYTHON_ONLY) or None
    return None


# CI runs the property tests on a fixed sequence of examples, so a submission
# is judged on the same cases every time; local runs keep exploring new ones
# (and hypothesis remembers any failure it finds in .hypothesis/).
if os.environ.get("CI"):
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, database=None)
    settings.load_profile("ci")
