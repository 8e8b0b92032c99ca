# hardware/calibrate_tray.py, the laptop's way to calibrate the tray, run against the simulated
# table: it asks for each step, reads the HX711s the board names and saves what it measured.
import json
import os
import sys

import catnip
from boardcheck import shipped
from catnip import board as boards
from catnip.drivers.hx711 import HX711Group
from devsim.table import Table

ROOT = catnip.__file__.rsplit("/", 3)[0]
sys.path.append(ROOT + "/hardware")
import calibrate_tray  # noqa: E402

PER_CAT = 12885  # a 6 g cat on a 1 kg, 1 mV/V cell
EMPTY = 91000  # the empty base: the cell's offset plus the platform
# Files of this run's own: the CPython and MicroPython runs of this module
# may go at the same time.
TMP = "/tmp/catnip-calibrate-%s-" % "".join("%02x" % b for b in os.urandom(6))


def _board_file(name):
    path = TMP + name + ".json"
    with open(path, "w") as f:
        json.dump(shipped(name), f)
    return path


class _Maker:
    """Answers each prompt after putting the next number of cats on the tray."""

    def __init__(self, table, cells, answers=None):
        self.table = table
        self.cells = cells
        self.prompts = []
        self.answers = answers or {}

    def __call__(self, prompt):
        k = len(self.prompts)
        self.prompts.append(prompt)
        share = self.cells

        def counts(t_us):  # a little noise, the same on both interpreters
            return (EMPTY + k * PER_CAT) // share + (t_us // 1000) % 7 - 3

        self.table.counts = counts
        return self.answers.get(k, "")


def _run(name, cats, answers=None):
    b = boards.parse(shipped(name))
    pins = b.tray["cells"]
    with Table(b) as table:
        group = HX711Group(pins[0]["sck"], [c["dout"] for c in pins], clock=table.clock)
        maker = _Maker(table, len(pins), answers)
        saved = calibrate_tray.run(_board_file(name), TMP + name + "-cal.json", cats=cats,
                                   read=maker, cells=group)
        for chip in table.cells:
            assert not chip.violations, chip.violations
    return maker, saved


def test_one_cell_calibration_is_saved_with_the_weight_of_a_cat():
    maker, saved = _run("direct", cats=3)
    assert len(maker.prompts) == 4
    assert "empty base" in maker.prompts[0] and "3 cats" in maker.prompts[3]
    assert abs(saved["per_cat"] - PER_CAT) <= 3, saved
    assert saved["sign"] == [1] and saved["cats"] == 3 and saved["rate_hz"] == 10
    with open(TMP + "direct-cal.json") as f:
        assert json.load(f) == saved


def test_four_cells_are_calibrated_together():
    maker, saved = _run("mux", cats=2)
    assert len(saved["zero"]) == 4
    assert abs(saved["per_cat"] - PER_CAT) <= 8, saved


def test_q_stops_and_saves_nothing():
    maker, saved = _run("direct", cats=3, answers={2: "q"})
    assert saved is None
    assert len(maker.prompts) == 3


def test_a_board_without_a_tray_is_named():
    data = shipped("direct")
    data["tray"] = None
    path = TMP + "notray.json"
    with open(path, "w") as f:
        json.dump(data, f)
    assert calibrate_tray.run(path, TMP + "x.json", read=lambda p: "") is None
