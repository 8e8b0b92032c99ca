"""The electrical sanity check: I2C rise times against the I2C specification, pull-up strength,
the 3V3 budget and the HX711 notes, from a board file; and its command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from catnip import board
from catnip_host import board_parts
from catnip_host import check_board as cb
from catnip_host.cli import main as catnip
from catnip_host.wiring import BOARDS


def _data(name: str) -> dict:
    return json.loads((BOARDS / f"{name}.json").read_text())


def _board(name: str, edit=None) -> board.Board:
    data = _data(name)
    if edit:
        edit(data)
    return board.parse(data)


def _by_topic(findings: list[cb.Finding]) -> dict[str, cb.Finding]:
    return {f.topic: f for f in findings}


def test_rise_time_is_the_rc_30_to_70_percent_time():
    # ln(0.7/0.3) R C: 1 kohm and 100 pF rise in 84.7 ns.
    assert cb.rise_ns(1000, 100) == pytest.approx(84.73, abs=0.01)


def _no_fitted_pullups(data):
    for bus in data["i2c"]:
        del bus["pullup_ohm"]


def test_two_direct_stations_on_1_m_cables_are_just_too_slow_and_get_a_resistor():
    found = _by_topic(cb.check(_board("direct", _no_fitted_pullups), cable_m=1.0))
    bus = found["I2C0"]
    assert bus.level == "warn"
    assert "2,350 ohm" in bus.text and "160 pF" in bus.text and "319 ns" in bus.text
    assert "6.8 kohm" in bus.text and "TCA9548A" in bus.text and "100000" in bus.text
    seg = cb.segments(_board("direct", _no_fitted_pullups), 4)[0]
    extra = cb.extra_pullup_ohm(seg, 1.0, cb.CABLE_PF_PER_M)
    both = 1 / (1 / seg.pullup_ohm() + 1 / extra)
    assert cb.rise_ns(both, 160) <= cb.MARGIN * 300  # fixed, with margin
    assert both >= (3.3 - 0.4) / 3.0 * 1000  # and not too strong


def test_short_cables_or_a_slow_bus_pass():
    assert _by_topic(cb.check(_board("direct", _no_fitted_pullups),
                              cable_m=0.5))["I2C0"].level == "ok"

    def slow(data):
        _no_fitted_pullups(data)
        for bus in data["i2c"]:
            bus["freq"] = 100000

    found = _by_topic(cb.check(_board("direct", slow), cable_m=1.0))["I2C0"]
    assert found.level == "ok" and "limit 1000 ns at 100 kHz" in found.text


def test_behind_the_mux_each_channel_sees_one_cable():
    b = _board("mux")
    segments = cb.segments(b, 8)
    assert [s.name for s in segments] == [f"I2C0 mux channel {ch}" for ch in range(8)]
    assert all(s.cables == 1 and len(s.modules) == 4 for s in segments)  # mux, table, OLED, PCF
    found = _by_topic(cb.check(b, cable_m=2.0))
    assert found["I2C0 mux channels 0-7"].level == "ok"  # alike channels said once
    assert cb.longest_cable_m(segments[0], cb.CABLE_PF_PER_M) == pytest.approx(2.4, abs=0.05)
    three = _by_topic(cb.check(b, cable_m=3.0))["I2C0 mux channels 0-7"]
    assert three.level == "warn" and "keep the cables under 2.4 m" in three.text
    assert "TCA9548A so each" not in three.text  # it already has one


def test_a_channel_unlike_the_others_is_named_on_its_own():
    def table_on_channel_2(data):
        data["table"]["channel"] = 2

    topics = [f.topic for f in cb.check(_board("mux", table_on_channel_2), stations=5)
              if f.topic.startswith("I2C0 mux")]
    assert topics == ["I2C0 mux channels 0-1", "I2C0 mux channel 2", "I2C0 mux channels 3-4"]

    def table_on_channel_7(data):
        data["table"]["channel"] = 7

    topics = [f.topic for f in cb.check(_board("mux", table_on_channel_7), stations=3)
              if f.topic.startswith("I2C0 mux")]
    assert topics == ["I2C0 mux channels 0-2", "I2C0 mux channel 7"]  # the table's own


def test_too_many_pull_ups_on_one_segment_are_refused():
    seg = cb.Segment("I2C0", 400_000, (board_parts.OLED,) * 5, 0)  # five 4.7 kohm: 940 ohm
    found = cb.check_segment(seg, 1.0, cb.CABLE_PF_PER_M, has_mux=False)
    assert found.level == "warn" and "too strong" in found.text and "967 ohm" in found.text
    bare = cb.Segment("I2C1", 400_000, (board_parts.Module(None, 10, 1),), 1)
    assert "no pull-up" in cb.check_segment(bare, 1.0, 60, has_mux=False).text


def test_the_3v3_budget_counts_every_module():
    found = _by_topic(cb.check(_board("mux")))["power"]
    # RP2040, 9 OLEDs, 8 PCF8574s, the mux, 4 HX711s with their bridges.
    want = 25 + 9 * 25 + 8 * 2.5 + 1.5 + 4 * 4.7
    assert found.text.startswith(f"{want:.0f} mA of the 300 mA")
    assert found.level == "note"  # within 80-100 %
    assert _by_topic(cb.check(_board("direct")))["power"].level == "ok"
    over = _by_topic(cb.check(_board("mux"), oled_ma=35))["power"]
    assert over.level == "warn" and "VBUS" in over.text
    fewer = _by_topic(cb.check(_board("mux"), stations=3))["power"]
    assert "4 x SSD1306" in fewer.text  # three stations and the table display


def test_the_hx711_rate_note_follows_the_board():
    assert _by_topic(cb.check(_board("direct")))["HX711 RATE"].level == "ok"

    def fast(data):
        data["tray"]["rate"] = 80

    note = _by_topic(cb.check(_board("direct", fast)))["HX711 RATE"]
    assert "tied to its DVDD" in note.text and "WRONG_RATE" in note.text
    assert "HX711 clock" in _by_topic(cb.check(_board("mux")))
    assert "HX711 clock" not in _by_topic(cb.check(_board("direct")))


def test_the_command_exits_by_what_it_found(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(catnip, ["check-board", str(BOARDS / "mux.json")])
    assert ok.exit_code == 0, ok.output
    assert "0 warnings" in ok.output and "ok   I2C0 mux channels 0-7" in ok.output
    warn = runner.invoke(catnip, ["check-board", str(BOARDS / "direct.json"), "--cable", "2"])
    assert warn.exit_code == 1 and "WARN I2C0" in warn.output and "2 warnings" in warn.output
    assert runner.invoke(cb.main, [str(BOARDS / "direct.json"), "--cable", "0.5"]).exit_code == 0
    broken = tmp_path / "board.json"
    data = _data("direct")
    data["statoins"] = data.pop("stations")
    broken.write_text(json.dumps(data))
    bad = runner.invoke(cb.main, [str(broken)])
    assert bad.exit_code == 2 and "unknown key 'statoins'" in bad.output
    many = runner.invoke(cb.main, [str(BOARDS / "direct.json"), "--stations", "6"])
    assert many.exit_code == 2 and "lists 4 stations, not 6" in many.output


# ---- what board.json states: fitted pull-ups, module pull-ups, the parts' ratings ----------


def test_the_shipped_direct_board_with_the_parts_lists_pull_ups_checks_clean():
    out = CliRunner().invoke(catnip, ["check-board", "direct"])  # a shipped board by name
    assert out.exit_code == 0 and "0 warnings" in out.output, out.output
    assert "with the fitted 6.8 kohm" in out.output
    assert _data("direct")["i2c"][0]["pullup_ohm"] == 6800  # the parts list's resistors


def test_stated_module_pull_ups_replace_the_assumed_ones():
    def bare_oleds(data):
        for s in data["stations"]:
            s["oled"]["pullup_ohm"] = None  # the maker took them off
        _no_fitted_pullups(data)

    assert "no pull-up" in _by_topic(cb.check(_board("direct", bare_oleds)))["I2C0"].text

    def stronger(data):
        for s in data["stations"]:
            s["oled"]["pullup_ohm"] = 2200

    seg = cb.segments(_board("direct", stronger), 4)[0]
    assert seg.pullup_ohm() == pytest.approx(1 / (2 / 2200 + 1 / 6800))


def test_a_pcf8574_is_100_khz_unless_the_board_says_which_it_is():
    def unknown_maker(data):
        for s in data["stations"]:
            del s["buttons"]["expander"]["max_hz"]

    found = _by_topic(cb.check(_board("mux", unknown_maker)))["I2C0 speed"]
    assert found.level == "warn" and "faster than PCF8574 is rated for" in found.text
    assert "TI's PCF8574 (rated 400 kHz; NXP's is 100 kHz" in found.text
    assert "freq to 100000" in found.text

    def slow(data):
        unknown_maker(data)
        data["i2c"][0]["freq"] = 100000

    ok = _by_topic(cb.check(_board("mux", slow)))["I2C0 speed"]
    assert ok.level == "ok" and "PCF8574 100 kHz" in ok.text and "TCA9548A 400 kHz" in ok.text
    stated = _by_topic(cb.check(_board("mux")))["I2C0 speed"]
    assert stated.level == "ok" and "PCF8574 400 kHz (as board.json states)" in stated.text


@pytest.mark.parametrize(("edit", "why"), [
    (lambda d: d["i2c"][0].update(pullup_ohm=50), "i2c[0].pullup_ohm: the pull-up on SDA"),
    (lambda d: d["i2c"][0].update(pullup_ohm="6k8"), "i2c[0].pullup_ohm"),
    (lambda d: d["stations"][0]["oled"].update(pullup_ohm=True), "stations[0].oled.pullup_ohm"),
    (lambda d: d["stations"][0]["buttons"]["expander"].update(max_hz=1000000),
     "stations[0].buttons.expander.max_hz: the bus speed the chip is rated for"),
])
def test_stated_pull_ups_and_ratings_must_be_real_values(edit, why):
    data = _data("mux")
    edit(data)
    with pytest.raises(board.BoardError) as e:
        board.parse(data)
    assert any(p.startswith(why) for p in e.value.problems), e.value.problems


def test_a_fitted_clock_module_counts_on_its_bus():
    def with_rtc(data):
        data["rtc"] = {"bus": 0}

    b = _board("direct", with_rtc)
    assert b.rtc == {"bus": 0, "channel": None}
    seg = cb.segments(b, 4)[0]
    assert "DS3231" in [m.part for m in seg.modules]
    found = _by_topic(cb.check(b))
    assert "DS3231 400 kHz" in found["I2C0 speed"].text
    assert "1 x DS3231 module" in found["power"].text

    def without_its_pullups(data):
        data["rtc"] = {"bus": 0, "pullup_ohm": None}

    bare = cb.segments(_board("direct", without_its_pullups), 4)[0]
    assert bare.pullup_ohm() == cb.segments(_board("direct"), 4)[0].pullup_ohm()

    def behind_the_mux(data):
        data["rtc"] = {"bus": 0, "channel": 3}

    segs = {s.name: s for s in cb.segments(_board("mux", behind_the_mux), 8)}
    assert "DS3231" in [m.part for m in segs["I2C0 mux channel 3"].modules]
    assert "DS3231" not in [m.part for m in segs["I2C0 mux channel 2"].modules]


def test_sh1106_modules_are_counted_with_their_own_current():
    def three_sh1106(data):
        for s in data["stations"][:3]:
            s["oled"]["panel"] = "sh1106"

    found = _by_topic(cb.check(_board("mux", three_sh1106)))
    power = found["power"].text
    assert "3 x SH1106 modules, every pixel lit 30 mA" in power
    assert "6 x SSD1306 modules, every pixel lit 25 mA" in power
    want = 25 + 6 * 25 + 3 * 30 + 8 * 2.5 + 1.5 + 4 * 4.7
    assert power.startswith(f"{want:.0f} mA of the 300 mA")
    assert "SH1106 400 kHz" in found["I2C0 speed"].text
    given = _by_topic(cb.check(_board("mux", three_sh1106), oled_ma=20))["power"].text
    assert "3 x SH1106 modules, every pixel lit 20 mA" in given
