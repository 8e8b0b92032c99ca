"""The Wokwi tray chip (hardware/wokwi/chips/hx711-tray.chip.c) built to WebAssembly and run
without Wokwi (tests/wokwi_chip.py stands in for Wokwi's runtime): catnip's own HX711 driver
clocks it bit by bit through devsim's pins in virtual time, and its readings go through
catnip's real calibration and tray. So what a person sees in Wokwi, catnip sees here: the counts
of the parts list's cell, cats counted when the slider moves, a sensor that is never taken for
stuck, and the chip's protocol (gain, power-down, settling) as the HX711 datasheet gives it."""

from __future__ import annotations

import json
import statistics

import pytest

from catnip.drivers.hx711 import A64, B32, HX711, HX711Group
from catnip.tray import Calibration, Tray, TrayFeed
from catnip.tray.calibrator import Calibrator
from catnip.tray.sensor import Sensor
from devsim.timing import VirtualClock
import wokwi_clang

wokwi_clang.require()

from wokwi_chip import API, CHIPS, WokwiChip, build  # noqa: E402 (wasmtime only with clang)

pytestmark = pytest.mark.xdist_group("wokwi_chip")  # one worker builds the chip

SCK, DOUTS = 21, (20, 16, 17, 18)
PER_GRAM = 1 / 1000 * 128 * 2 ** 24 / 1000  # 1 mV/V, 1,000 g cell, gain 128 (hardware/tray.md)
EXACT = {"cellSpread": 0, "catSpread": 0}  # every cell and cat at the nominal figures


@pytest.fixture(scope="module")
def wasm():
    return build()


def _chip(wasm, clock, cells=1, **attrs):
    wiring = {"SCK": SCK} | {f"DT{k + 1}": DOUTS[k] for k in range(cells)}
    return WokwiChip(wasm, clock, wiring, {"cells": cells} | attrs)


def _reads(hx, n):
    return [hx.read() for _ in range(n)]


# ---- the chip as Wokwi loads it ------------------------------------------

def test_the_chip_uses_only_wokwi_api_and_exports_its_entry(wasm):
    import wasmtime

    module = wasmtime.Module.from_file(wasmtime.Engine(), str(wasm))
    imports = {(i.module, i.name) for i in module.imports}
    assert imports - {("env", "memory")} <= {("env", name) for name in API}
    assert {e.name for e in module.exports} >= {"chipInit", "__indirect_function_table",
                                                "__wokwi_api_version_1"}


def test_chip_json_names_the_pins_and_controls_the_chip_reads(wasm):
    spec = json.loads((CHIPS / "hx711-tray.chip.json").read_text())
    assert spec["pins"] == ["VCC", "GND", "SCK", "DT1", "DT2", "DT3", "DT4"]
    with VirtualClock() as clock:
        chip = _chip(wasm, clock, cells=4)
    for control in spec["controls"]:
        assert control["id"] in chip.names, control
        assert control["type"] == "range" and control["min"] < control["max"]
    assert set(chip.pin_names) == set(spec["pins"]) - {"VCC", "GND"}


def test_a_misspelt_attribute_is_an_error_here(wasm):
    with VirtualClock() as clock, pytest.raises(ValueError, match="no attribute catz"):
        _chip(wasm, clock, catz=1)


# ---- counts, noise and drift ---------------------------------------------

def test_counts_are_the_parts_list_cell_and_a_cat_is_about_12900(wasm):
    with VirtualClock() as clock:
        chip = _chip(wasm, clock, offset=20000, deadLoad=140, **EXACT)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        empty = statistics.mean(_reads(hx, 30))
        chip.set("cats", 3)
        three = statistics.mean(_reads(hx, 30))
    assert abs(empty - (20000 + 140 * PER_GRAM)) < 300  # noise and drift: tens of counts
    per_cat = (three - empty) / 3
    assert abs(per_cat - 6 * PER_GRAM) < 100, per_cat  # 12,885


def test_noise_is_as_set_and_catnip_never_calls_the_sensor_stuck(wasm):
    with VirtualClock() as clock:
        _chip(wasm, clock, noise=40, drift=0)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        readings = _reads(hx, 300)
    sd = statistics.stdev(readings)
    assert 30 < sd < 50, sd
    sensor = Sensor(1, 10)
    assert not any(sensor.judge(0, r) for r in readings)
    assert sensor.why is None


def test_without_noise_or_drift_catnip_calls_it_stuck_as_with_wokwis_own_part(wasm):
    # Wokwi's wokwi-hx711 gives one number until its slider moves: this is what catnip
    # makes of that, and why the chip has noise.
    with VirtualClock() as clock:
        _chip(wasm, clock, noise=0, drift=0)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        readings = _reads(hx, 10)
    sensor = Sensor(1, 10)
    assert any(sensor.judge(0, r) for r in readings)
    assert sensor.why == "stuck"


def test_the_zero_drifts_slowly(wasm):
    with VirtualClock() as clock:
        _chip(wasm, clock, noise=0, drift=150)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        readings = _reads(hx, 600)  # a minute
    steps = [abs(b - a) for a, b in zip(readings, readings[1:])]
    # From one reading to the next a few counts (150 * sqrt(2 * 0.1 s / 60 s) = 9 typical),
    # below the 40 counts of noise a reading has; over a minute more than the noise.
    assert statistics.mean(steps) < 12 and max(steps) < 60
    assert max(readings) - min(readings) > 100


def test_each_cat_weighs_its_own(wasm):
    with VirtualClock() as clock:
        chip = _chip(wasm, clock, noise=0, drift=0, cellSpread=0, catSpread=3)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        levels = []
        for n in range(6):
            chip.set("cats", n)
            levels.append(_reads(hx, 6)[-1])
    cats = [b - a for a, b in zip(levels, levels[1:])]
    assert len(set(cats)) == len(cats)
    assert all(abs(c - 6 * PER_GRAM) < 0.2 * 6 * PER_GRAM for c in cats), cats


# ---- the protocol ---------------------------------------------------------

def test_gain_64_reads_half_and_channel_b_its_own_input(wasm):
    with VirtualClock() as clock:
        _chip(wasm, clock, noise=0, drift=0, channelB=-1234, **EXACT)
        hx = HX711(SCK, DOUTS[0], clock=clock)
        a128 = hx.read()
        hx.select(A64)
        a64 = hx.read()
        hx.select(B32)
        b32 = hx.read()
    assert abs(a64 - a128 / 2) <= 1
    assert b32 == -1234


def test_rate_80_converts_every_12_5_ms(wasm):
    with VirtualClock() as clock:
        _chip(wasm, clock, rate=80)
        hx = HX711(SCK, DOUTS[0], rate=80, clock=clock)
        hx.read()
        start = clock.now_us()
        _reads(hx, 80)
        assert 990_000 <= clock.now_us() - start <= 1_010_000


class Bits:
    """PD_SCK and DOUT driven by hand, as the Pico's pins: pulses 1 us high, 1 us low."""

    def __init__(self, clock):
        from devsim import pins

        self.board, self.clock = pins.board, clock

    def dout(self):
        return self.board.pin(DOUTS[0]).level()

    def sck(self, level, hold_us=1):
        self.board.set_firmware(SCK, level)
        self.clock.advance(hold_us)

    def wait_ready(self, limit_us=1_000_000):
        start = self.clock.now_us()
        while self.dout():
            self.clock.advance(10)
            assert self.clock.now_us() - start < limit_us, "DOUT never went low"

    def word(self, pulses=25):
        self.wait_ready()
        value = 0
        for _ in range(24):
            self.sck(1)
            value = value << 1 | self.dout()
            self.sck(0)
        for _ in range(pulses - 24):
            self.sck(1)
            self.sck(0)
        return value - (1 << 24) if value & 0x800000 else value


def test_power_down_holds_dout_high_and_wake_up_resets_to_gain_128(wasm):
    with VirtualClock() as clock:
        _chip(wasm, clock, noise=0, drift=0, offset=0, deadLoad=400, **EXACT)
        pins = Bits(clock)
        target = round(400 * PER_GRAM)
        for _ in range(5):
            pins.word(27)  # gain 64 from the next conversion; settled after four
        assert abs(pins.word(27) - target / 2) <= 1
        pins.sck(1, hold_us=61)  # high over 60 us: powered down
        for _ in range(40):  # half a second: no conversion, DOUT high throughout
            assert pins.dout() == 1
            clock.advance(12_500)
        pins.sck(0)  # wakes up: reset, channel A gain 128, four conversions to settle
        start = clock.now_us()
        first = pins.word()
        assert 99_000 <= clock.now_us() - start <= 101_000
        words = [first] + [pins.word() for _ in range(4)]
    assert [round(w / target * 4) for w in words[:3]] == [1, 2, 3]
    assert abs(words[3] - target) <= 1 and abs(words[4] - target) <= 1


def test_a_short_pulse_does_not_power_down_and_saturation_holds_the_rail(wasm):
    with VirtualClock() as clock:
        chip = _chip(wasm, clock, noise=0, drift=0, **EXACT)
        pins = Bits(clock)
        pins.word()
        pins.sck(1, hold_us=50)
        pins.sck(0)
        pins.wait_ready(limit_us=101_000)  # still converting
        chip.set("grams", 4000)  # four times the cell's rating: past full scale
        words = [pins.word() for _ in range(5)]
    assert words[-1] == 0x7FFFFF


# ---- catnip's tray on the chip -------------------------------------------

class Table:
    """The tray in Wokwi as catnip runs it: the chip, catnip's driver, a calibration made
    with the sliders the way a maker does it from a station, then catnip's tray."""

    def __init__(self, wasm, clock, cells=1, **attrs):
        self.chip = _chip(wasm, clock, cells, **attrs)
        self.cells = cells
        self.hx = HX711Group(SCK, DOUTS[:cells], rate=10, clock=clock)
        self.events: list[dict] = []
        self.feed = None

    def calibrate(self, cats=5) -> Calibration:
        cal = Calibrator(10, self.cells)
        for n in range(cats + 1):
            self.chip.set("cats", n)
            self.run(20)  # hands off for two seconds
            cal.capture(n)
            done = None
            while done is None:
                counts = self.hx.read()
                done = cal.feed(counts[0]) if self.cells == 1 else cal.feed4(*counts)
            assert done["ok"], done
        self.chip.set("cats", 0)
        return cal.result()

    def play(self, calibration: Calibration) -> Tray:
        tray = Tray(calibration, in_play=40)
        self.feed = TrayFeed(tray, self.events.append)
        self.run(30)
        return tray

    def run(self, readings: int) -> None:
        for _ in range(readings):
            counts = self.hx.read()
            if self.feed is not None:
                self.feed.counts(counts)

    def turn(self, tray: Tray, cats: int) -> dict:
        """A player's attempt: the slider goes to `cats`; the tray's verdict, confirmed."""
        tray.begin_attempt()
        self.chip.set("cats", cats)
        self.run(40)
        verdict = tray.verdict()
        assert verdict is not None, self.events
        tray.confirm(verdict["id"], verdict["default"])
        return verdict


@pytest.mark.parametrize("cells", [1, 4])
def test_catnip_calibrates_with_the_sliders_and_counts_cats(wasm, cells):
    with VirtualClock() as clock:
        table = Table(wasm, clock, cells, capacity=1000 if cells == 1 else 500)
        calibration = table.calibrate()
        per_cat = 6 * PER_GRAM * (1 if cells == 1 else 2)  # four 500 g cells: twice the counts
        assert abs(calibration.per_cat - per_cat) < 0.08 * per_cat, calibration.per_cat
        assert calibration.noise < 0.01 * per_cat
        tray = table.play(calibration)
        one = table.turn(tray, 1)
        two = table.turn(tray, 3)
    assert (one["kind"], one["n"], one["ask"]) == ("placed", 1, "added"), one
    # Two cats at once: the tray proposes the count on it, for a person to confirm.
    assert (two["kind"], two["n"], two["ask"], two["default"]) == ("placed", 2, "cats", 3), two
    assert tray.cats == 3
    assert not [e for e in table.events if e["ev"] == "fault"], table.events


def test_a_tower_knocked_down_is_a_collapse(wasm):
    with VirtualClock() as clock:
        table = Table(wasm, clock)
        tray = table.play(table.calibrate())
        table.turn(tray, 4)
        tray.begin_attempt()
        table.chip.set("cats", 1)  # three cats off the tray
        table.run(60)
        verdict = tray.verdict()
    assert verdict["kind"] == "collapse", verdict
    assert verdict["n"] == -3, verdict


# ---- the committed Wokwi projects ------------------------------------------

@pytest.mark.parametrize("name", ["direct", "mux"])
def test_each_projects_tray_reads_cats_as_its_board_expects(wasm, name):
    """The tray part of the project's diagram.json, with its attributes and wires as Wokwi
    would load them, read by catnip's driver on the board file's pins: an empty base and a
    cat as many counts apart as the parts list's cells give (hardware/tray.md)."""
    from catnip import board as boards
    from catnip_host.loadcell import Tower, choose_capacity, counts_per_gram
    from catnip_host.wiring import BOARDS, ROOT

    b = boards.load(str(BOARDS / f"{name}.json"))
    diagram = json.loads((ROOT / "hardware" / "wokwi" / name / "diagram.json").read_text())
    [part] = [p for p in diagram["parts"] if p["type"] == "chip-hx711-tray"]
    wiring = {}
    for a, z, *_ in diagram["connections"]:
        for end, other in ((a, z), (z, a)):
            if end.startswith("tray:") and other.startswith("pico:GP"):
                wiring[end[5:]] = int(other[7:])
    attrs = {k: float(v) for k, v in part["attrs"].items()}
    cells = b.tray["cells"]
    # Each cell carries its share of the cat; their counts add up.
    expected = counts_per_gram(choose_capacity(Tower(), len(cells))) * Tower().cat_g
    with VirtualClock() as clock:
        chip = WokwiChip(wasm, clock, wiring, attrs)
        hx = HX711Group(cells[0]["sck"], [c["dout"] for c in cells], rate=10, clock=clock)
        empty = [sum(hx.read()) for _ in range(10)]
        chip.set("cats", 1)
        one = [sum(hx.read()) for _ in range(10)]
    step = statistics.mean(one[2:]) - statistics.mean(empty[2:])
    # Cells and cats differ by a few percent from the nominal, as real ones do.
    assert abs(step - expected) < 0.1 * expected, (step, expected)
