# Board-config helpers shared by the example tests (both interpreters) and the
# Hypothesis property test (CPython).
import json

import catnip
from catnip import board

BOARDS = catnip.__file__.rsplit("/", 2)[0] + "/boards"


def shipped(name):
    """A shipped board file as plain data, a fresh copy each call."""
    with open("%s/%s.json" % (BOARDS, name)) as f:
        return json.load(f)


def problems(data):
    """The problems parse() reports ([] when the config is good). parse() may
    refuse only with BoardError, and every problem must say where it is."""
    try:
        b = board.parse(data)
    except board.BoardError as e:
        assert e.problems, "BoardError without problems"
        for p in e.problems:
            assert isinstance(p, str) and ":" in p, "a problem must name its place: %r" % p
        return e.problems
    assert inexact(b) is None, "an accepted board holds %r where an int belongs" % (inexact(b),)
    return []


def only_problem(data, *words):
    found = problems(data)
    assert len(found) == 1, "expected one problem, got %r" % (found,)
    for w in words:
        assert w in found[0], "%r not in %r" % (w, found[0])
    return found[0]


# Values a mangled config may hold where a good one has something else.
ODD_VALUES = (None, True, False, -1, 0, 1, 7, 25, 29, 64, 999, 2 ** 40, "", "GP4", "0x3C",
              "0x99", "zz", "\u0666\u0660", "6_0", " 60", [], [1], {}, {"x": 1}, 3.5, 0.0,
              1.0, 64.0, 80.0, 10.0)


def paths(data):
    """Every (container, key) position in a nested JSON value."""
    out = []
    if isinstance(data, dict):  # sorted: MicroPython's dict order differs from CPython's
        items = [(k, data[k]) for k in sorted(data)]
    else:
        items = enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        out.append((data, k))
        out.extend(paths(v))
    return out


def inexact(b):
    """The first number of an accepted Board that is not an exact int (nor
    None), else None: pins, addresses, sizes and rates are never floats."""
    numbers = []
    for bus in b.i2c.values():
        numbers += [bus["sda"], bus["scl"], bus["freq"]]
    if b.mux:
        numbers += [b.mux["bus"], b.mux["addr"], b.mux["reset"]]
    places = list(b.stations) + ([b.table] if b.table else [])
    for s in places:
        numbers += [s["bus"], s["channel"], s["oled"]["addr"], s["oled"]["height"]]
    for s in b.stations:
        buttons = s["buttons"]
        if "gpio" in buttons:
            numbers += list(buttons["gpio"].values())
        else:
            e = buttons["expander"]
            numbers += [e["addr"], e["int"]] + list(e["pins"].values())
    if b.tray:
        numbers.append(b.tray["rate"])
        for cell in b.tray["cells"]:
            numbers += [cell["dout"], cell["sck"]]
    if b.buzzer:
        numbers.append(b.buzzer["pin"])
    for n in numbers:
        if n is not None and type(n) is not int:
            return n
    return None
