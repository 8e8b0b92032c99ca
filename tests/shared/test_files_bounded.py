# The table's own files (its calibration, its remembered setup) and the
# laptop's deploy files are read with a bound: a file far too large or nested
# past any real one is named as such, never a MemoryError or RecursionError
# that stops power-up.
import os

from catnip import wire
from catnip.flash import flashfile
from scratch import scratch

# A folder of this run's own: MicroPython's os has no getpid, and two runs
# sharing one would read each other's half-written files.
FOLDER = scratch("catnip-files")


def _write(name, data):
    try:
        os.mkdir(FOLDER)
    except OSError:
        pass
    path = FOLDER + "/" + name
    with open(path, "w") as f:
        f.write(data)
    return path


class _NoTray:
    tray = None

    def sleep_tray(self):  # a board without a tray: nothing to put to sleep
        pass


def test_an_800_kb_nested_calibration_is_named_at_power_up():
    from catnip.table.weigh import Weigh

    path = _write("calibration.json", "[" * 400000 + "]" * 400000)
    w = Weigh(_NoTray(), path)
    assert w.cal is None and "calibration unreadable" in w.problem, w.problem
    assert "16384" in w.problem, w.problem
    os.remove(path)


def test_deep_but_small_files_are_named_too():
    path = _write("setup.json", '{"a":' * 200 + "1" + "}" * 200)
    try:
        flashfile.read(path)
    except ValueError as e:
        assert "nested" in str(e), e
    else:
        raise AssertionError("read a file nested 200 deep")
    assert flashfile.load(path, "default") == "default"
    path = _write("fine.json", '{"options": {"stack": [1, 2, {"x": "[[[["}]}}')
    assert flashfile.read(path)["options"]["stack"][2]["x"] == "[[[["
    os.remove(path)


def test_nesting_counts_only_outside_strings():
    assert wire.nesting(b"[" * 40 + b"]" * 40) == 40
    assert wire.nesting('"' + "[" * 40 + '"') == 0
    assert wire.nesting(b'["\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]') == 1
