# Board configs: the shipped layouts are valid, and every mistake a person
# can make in board.json is refused with a message saying where and what to do.
import json

from boardcheck import BOARDS, ODD_VALUES, only_problem, paths, problems, shipped
from catnip import board
from catnip.rules.rng import Rng
from check import message
from devsim import machine
from scratch import scratch


def test_shipped_boards_are_valid():
    direct = board.parse(shipped("direct"))
    assert direct.mux is None and len(direct.stations) == 4
    assert [(s["bus"], s["oled"]["addr"]) for s in direct.stations] == [
        (0, 0x3C), (0, 0x3D), (1, 0x3C), (1, 0x3D)]
    mux = board.parse(shipped("mux"))
    assert mux.mux["addr"] == 0x70 and len(mux.stations) == 8
    assert sorted(s["channel"] for s in mux.stations) == list(range(8))
    assert len(mux.tray["cells"]) == 4 and mux.table["oled"]["addr"] == 0x3D
    for b in (direct, mux):
        for s in b.stations:
            buttons = s["buttons"].get("gpio") or s["buttons"]["expander"]["pins"]
            assert sorted(buttons) == sorted(board.BUTTONS)


def test_two_to_seven_players_are_covered():
    direct, mux = board.parse(shipped("direct")), board.parse(shipped("mux"))
    for players in range(2, 8):
        chosen = mux.stations_for(players)
        assert len(chosen) == players and chosen == mux.stations[:players]
    assert len(direct.stations_for(4)) == 4
    text = message(board.BoardError, direct.stations_for, 5)
    assert "5-player game needs 5 stations" in text and "'direct' has 4" in text
    assert "mux" in text


def test_load_reads_a_file_and_explains_a_missing_one():
    assert board.load(BOARDS + "/mux.json").name == "mux"
    assert "copy one of firmware/boards" in message(board.BoardError, board.load, "/no/such.json")


def test_pin_used_twice():
    d = shipped("direct")
    d["buzzer"]["pin"] = 6
    only_problem(d, "GP6 is used twice", "stations[0].buttons.gpio.ok", "buzzer.pin")


def test_pin_that_cannot_carry_the_bus():
    d = shipped("direct")
    d["i2c"][0]["sda"] = 2  # an I2C1 pin
    d["buzzer"]["pin"] = 26
    d["stations"][0]["buttons"]["gpio"]["up"] = 27
    d["i2c"][1]["sda"] = 26
    d["i2c"][1]["scl"] = 28
    found = problems(d)
    assert any("i2c[0].sda: GP2 cannot carry I2C0 SDA; use one of GP0, GP4" in p for p in found)
    assert any("i2c[1].scl: GP28 cannot carry I2C1 SCL" in p for p in found)


def test_pins_not_on_the_header():
    for gp in (23, 24, 25, 29):
        d = shipped("direct")
        d["buzzer"]["pin"] = gp
        only_problem(d, "buzzer.pin: GP%d is not on the Pico's header" % gp, "GP26-GP28")
    d = shipped("direct")
    d["buzzer"]["pin"] = 30
    only_problem(d, "GP30 does not exist")


def test_duplicate_address_on_a_bus():
    d = shipped("direct")
    d["stations"][1]["oled"]["addr"] = "0x3C"
    only_problem(d, "bus 0: address 0x3C is used by stations[0].oled and stations[1].oled")


def test_duplicate_address_behind_the_mux_and_upstream():
    d = shipped("mux")
    d["stations"][5]["buttons"]["expander"]["chip"] = "pcf8574a"
    d["stations"][5]["buttons"]["expander"]["addr"] = "0x3C"
    only_problem(d, "bus 0 channel 5: address 0x3C", "stations[5].oled",
                 "stations[5].buttons.expander")
    d = shipped("mux")
    d["table"]["oled"]["addr"] = "0x3C"  # upstream: every channel sees it
    found = problems(d)
    assert len(found) == 8 and "bus 0 channel 0: address 0x3C is used by table.oled" in found[0]


def test_same_address_on_different_channels_is_fine():
    d = shipped("mux")
    assert problems(d) == []
    d["stations"][0]["channel"] = 1
    found = problems(d)
    assert len(found) == 2 and "bus 0 channel 1: address 0x20" in found[0]
    assert "address 0x3C is used by stations[0].oled and stations[1].oled" in found[1]


def test_shared_lines_may_be_shared_and_only_those():
    d = shipped("mux")
    assert [s["buttons"]["expander"]["int"] for s in d["stations"]] == [3] * 8
    assert problems(d) == []
    d["buzzer"]["pin"] = 3
    only_problem(d, "GP3 is used twice")
    d = shipped("mux")
    d["tray"]["cells"][1]["dout"] = 20  # the shared clock pin
    only_problem(d, "GP20 is used twice")


def test_channel_needs_a_mux_and_a_real_channel():
    d = shipped("direct")
    d["stations"][0]["channel"] = 2
    only_problem(d, "stations[0].channel: there is no \"mux\"")
    d = shipped("mux")
    d["stations"][7]["channel"] = 8
    only_problem(d, "channels 0-7, not 8")


def test_station_and_part_limits():
    d = shipped("mux")
    d["stations"].append(json.loads(json.dumps(d["stations"][0])))
    assert any("9 listed" in p for p in problems(d))
    d = shipped("direct")
    d["stations"][0]["oled"]["addr"] = "0x3E"
    only_problem(d, "stations[0].oled.addr", "0x3C-0x3D")
    d = shipped("mux")
    d["stations"][0]["buttons"]["expander"]["pins"]["ok"] = 8
    only_problem(d, "a pcf8574 has pins 0-7, not 8")
    d["stations"][0]["buttons"]["expander"]["chip"] = "mcp23017"
    assert problems(d) == []
    d["tray"]["cells"].pop()
    only_problem(d, "tray.cells: list one HX711")
    d = shipped("direct")
    d["i2c"][0]["freq"] = 1000000
    only_problem(d, "i2c[0].freq", "400 kHz")


def test_buttons_must_be_the_station_set():
    d = shipped("direct")
    del d["stations"][2]["buttons"]["gpio"]["back"]
    only_problem(d, "stations[2].buttons.gpio: no pin for back")
    d = shipped("direct")
    d["stations"][2]["buttons"]["gpio"]["left"] = 26
    only_problem(d, "unknown button left")


def test_typos_and_shapes_are_named():
    d = shipped("direct")
    d["statoins"] = d.pop("stations")
    found = problems(d)
    assert any("unknown key 'statoins'" in p for p in found)
    assert any("stations: list at least one station" in p for p in found)
    assert "JSON object" in message(board.BoardError, board.parse, [])
    d = shipped("mux")
    d["mux"]["addr"] = "seventy"
    only_problem(d, "mux.addr: 'seventy' is not an address")


def test_every_problem_is_reported_at_once():
    d = shipped("direct")
    d["buzzer"]["pin"] = 25
    d["i2c"][1]["scl"] = 4
    d["stations"][3]["oled"]["height"] = 48
    e = board.BoardError
    text = message(e, board.parse, d)
    assert text.startswith("board config has 4 problems")
    assert "GP25" in text and "I2C1 SCL" in text and "GP4 is used twice" in text and "48" in text


def test_i2c_pin_table_matches_the_fake_machine():
    assert board.I2C_SDA == machine._I2C_SDA and board.I2C_SCL == machine._I2C_SCL


def mangle_and_check(seed, rounds):
    """Random damage to a shipped config is refused with BoardError only."""
    rng = Rng(seed)
    for _ in range(rounds):
        d = shipped(rng.choice(("direct", "mux")))
        for _ in range(rng.below(3) + 1):
            container, key = rng.choice(paths(d))
            container[key] = rng.choice(ODD_VALUES)
        problems(d)


def test_mangled_configs_are_refused_cleanly():
    mangle_and_check("board mangling", 150)


def test_tray_cells_share_one_clock_and_a_real_rate():
    d = shipped("mux")
    d["tray"]["cells"][3]["sck"] = 21
    only_problem(d, "must share one PD_SCK pin, not GP20, GP21")
    d = shipped("direct")
    d["tray"]["rate"] = 40
    only_problem(d, "tray.rate: 10 or 80")
    d["tray"]["rate"] = 80
    assert problems(d) == [] and board.parse(d).tray["rate"] == 80
    # Most HX711 modules come with RATE tied low.
    assert board.parse(shipped("direct")).tray["rate"] == 10


def test_a_number_written_as_a_float_or_bool_is_refused_everywhere():
    # A careless writer turns 64 into 64.0 or 1 into true: wherever a shipped
    # file holds an int, each such twin must be refused, never kept as a pin.
    for name in ("direct", "mux"):
        spots = [(c, k) for c, k in paths(shipped(name)) if type(c[k]) is int]
        assert len(spots) > 30, len(spots)
        for i in range(len(spots)):
            for twin in (float, lambda n: n != 0):
                d = shipped(name)
                container, key = [(c, k) for c, k in paths(d) if type(c[k]) is int][i]
                container[key] = twin(container[key])
                assert problems(d), (name, key, container[key])


def test_addresses_are_read_alike_on_both_interpreters():
    # CPython's int() takes other scripts' digits and underscores; MicroPython's
    # does not. catnip reads ASCII digits only, so both refuse these alike.
    for text in ("\u0666\u0660", "6_0", "0x3_C", " 60", "60 ", "+60", "0x", "0x3c3c3", "\uff16\uff10"):
        d = shipped("direct")
        d["stations"][0]["oled"]["addr"] = text
        only_problem(d, "stations[0].oled.addr", "is not an address")
    for text, value in (("0x3C", 0x3C), ("0X3c", 0x3C), ("60", 60), ("0x003C", 0x3C)):
        d = shipped("direct")
        d["stations"][0]["oled"]["addr"] = text
        assert board.parse(d).stations[0]["oled"]["addr"] == value


def test_a_deeply_nested_file_is_refused_by_name():
    deep = 0
    for _ in range(5000):
        deep = [deep]
    d = shipped("direct")
    d["tray"] = deep
    assert problems(d)
    # A file of this run's own: both interpreters' runs may go at once.
    path = scratch("catnip-deep-board") + ".json"
    with open(path, "w") as f:
        f.write("[" * 3000 + "]" * 3000)
    found = message(board.BoardError, board.load, path)
    assert path in found or "board: a board config is a JSON object" in found


def test_each_station_names_its_panel():
    d = shipped("mux")
    d["stations"][2]["oled"]["panel"] = "sh1106"
    d["table"]["oled"]["panel"] = "sh1106"
    b = board.parse(d)
    assert [s["oled"]["panel"] for s in b.stations[:4]] == ["ssd1306", "ssd1306", "sh1106", "ssd1306"]
    assert b.table["oled"]["panel"] == "sh1106"
    for odd in ("ssd1315", "SH1106", 1106, None, ["sh1106"]):
        d = shipped("mux")
        d["stations"][1]["oled"]["panel"] = odd
        only_problem(d, "stations[1].oled.panel", "\"ssd1306\"", "\"sh1106\"", "1.3 in")
    d = shipped("mux")
    d["stations"][0]["oled"].update(panel="sh1106", height=32)
    only_problem(d, "stations[0].oled.height", "SH1106 panel is 64 rows", "32")
    d["stations"][0]["oled"].update(panel="ssd1306")
    assert board.parse(d).stations[0]["oled"]["height"] == 32
