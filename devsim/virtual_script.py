# Scenario files: the steps a script plays on the virtual table, each checked
# before any is played, and what it expects to see.
import json

from catnip import wire
from devsim.virtual_table import LONG_MS, SETTLE_MS, Refused, check_station, _b64
from devsim.virtual_laptop import check_button, check_tray, crash_report

# ---- scenario files -------------------------------------------------------------
#
# A step is one object: {"station": S, "press": B} (a tap; "times": n for
# several), {"station": S, "hold": B, "ms": n} (held, then let go),
# {"station": S, "push": B} and {"station": S, "release": B} (held until
# released, to look at the screen meanwhile), {"wait": ms},
# {"tray": "place" | "remove" | "hand"}, {"tray": "collapse", "cats": k},
# {"expect": {"station": S, "text": T, "row": r, "not": T}} (row and not are
# optional), {"expect": {"standings": [line, ...]}}, {"snap": NAME, "station": S},
# {"names": [name, ...]} (the players' names by station, "" for none, sent on
# the serial line as `catnip names` sends them).
# Phone seats (docs/phones.md), as the laptop plays them on the serial line:
# {"laptop": "hello"} (a laptop speaks: setup offers phone places), {"phone": P,
# "press": B} (seat P, counted from 1, claimed first if it is not yet; "hold":
# true for the long press), {"expect": {"phone": P, "text": T, ...}} (its last view).

STEP_KINDS = ("press", "hold", "push", "release", "wait", "tray", "expect", "snap", "names",
              "laptop")


class ScriptError(Exception):
    """A step that failed: its number (from 1) and why."""

    def __init__(self, step, why):
        super().__init__("step %d: %s" % (step, why))
        self.step = step
        self.why = why


def check_step(vt, step):
    """Refused unless `step` is a step this table can do."""
    if not isinstance(step, dict):
        raise Refused("a step is an object such as {\"station\": 1, \"press\": \"ok\"}")
    kinds = [k for k in STEP_KINDS if k in step]
    if len(kinds) != 1:
        raise Refused("a step does one thing: %s" % ", ".join(STEP_KINDS))
    kind = kinds[0]
    if "phone" in step:
        if kind not in ("press", "expect") or not isinstance(step["phone"], int) or \
                isinstance(step["phone"], bool) or step["phone"] < 1:
            raise Refused("a phone seat (counted from 1) is pressed or expected: "
                          "{\"phone\": 5, \"press\": \"ok\"}")
        if kind == "press":
            check_button(step["press"])
    elif kind in ("press", "hold", "push", "release", "snap"):
        check_station(vt, step.get("station"))
    if kind in ("press", "hold", "push", "release"):
        check_button(step[kind])
    for key in ("times", "ms", "wait"):
        if key in step and not (isinstance(step[key], int) and step[key] >= 0):
            raise Refused("%s is a whole number, not %r" % (key, step[key]))
    if kind == "tray" and step["tray"] not in ("place", "remove", "collapse", "hand"):
        raise Refused("tray moves are place, remove, collapse and hand")
    if kind == "tray" and step["tray"] == "collapse" and not isinstance(step.get("cats"), int):
        raise Refused("a collapse says how many \"cats\" fell")
    if kind == "expect":
        e = step["expect"]
        if not isinstance(e, dict) or not ("standings" in e or (
                ("station" in e or "phone" in e) and ("text" in e or "not" in e))):
            raise Refused("expect {\"station\": S, \"text\": T} (or \"not\": T; or "
                          "\"phone\": P), or {\"standings\": [...]}")
        if "station" in e:
            check_station(vt, e["station"])
    if kind == "laptop" and step["laptop"] != "hello":
        raise Refused("the laptop says hello: {\"laptop\": \"hello\"}")
    if kind == "names":
        try:
            wire.check_names(step["names"], vt.stations)
        except wire.WireError as e:
            raise Refused(str(e))


def do_step(vt, step):
    s = step.get("station")
    if "phone" in step:
        vt.phone_press(step["phone"] - 1, step["press"], step.get("hold") is True)
        vt.run(SETTLE_MS)
    elif "laptop" in step:
        vt.serial_in.feed("hello")
        vt.run(SETTLE_MS)
    elif "press" in step:
        for _ in range(step.get("times", 1)):
            vt.tap(s, step["press"])
            vt.run(SETTLE_MS)
    elif "hold" in step:
        vt.tap(s, step["hold"], step.get("ms", LONG_MS))
        vt.run(step.get("ms", LONG_MS) + SETTLE_MS)
    elif "push" in step:
        vt.press(s, step["push"])
        vt.run(SETTLE_MS)
    elif "release" in step:
        vt.release(s, step["release"])
        vt.run(SETTLE_MS)
    elif "wait" in step:
        vt.run(step["wait"])
    elif "tray" in step:
        check_tray(vt, step["tray"], step.get("cats"))
        vt.tray(step["tray"], step.get("cats"))
        vt.run(SETTLE_MS)
    elif "expect" in step:
        expect(vt, step["expect"])
    elif "names" in step:
        vt.serial_in.feed("names " + json.dumps({"names": step["names"]}))
        vt.run(SETTLE_MS)
    else:
        vt.send({"k": "snap", "name": step["snap"], "s": s, "h": vt.height(s),
                 "img": _b64(bytes(vt.image(s)))})


def expect(vt, what):
    if "standings" in what:
        got = vt.standings()
        if got != what["standings"]:
            raise Refused("standings are %s, expected %s" % (
                json.dumps(got), json.dumps(what["standings"])))
        return
    if "phone" in what:
        s = what["phone"]
        rows = vt.phone_rows(s - 1)
        who = "phone seat %d" % s
    else:
        s = what["station"]
        rows = vt.lines(s)
        who = "station %d" % s
    if "text" in what:
        where = [rows[what["row"]]] if "row" in what and what["row"] < len(rows) else rows
        if not any(what["text"] in row for row in where):
            raise Refused("%s does not show %r%s; it shows %s" % (
                who, what["text"], " on row %d" % what["row"] if "row" in what else "",
                json.dumps(rows)))
    if "not" in what and any(what["not"] in row for row in rows):
        raise Refused("%s shows %r; it shows %s" % (who, what["not"], json.dumps(rows)))


def check_steps(vt, steps):
    """Refused naming the first step that is not one this table can do."""
    for i, step in enumerate(steps):
        try:
            check_step(vt, step)
        except Refused as e:
            raise Refused("scenario step %d %s: %s" % (i + 1, json.dumps(step), e))


def play(vt, steps):
    """Play checked steps; ScriptError at the first that fails (an expect
    not met, a tray move the tower cannot make, or the app crashing)."""
    for i, step in enumerate(steps):
        try:
            do_step(vt, step)
        except Refused as e:
            raise ScriptError(i + 1, str(e))
        except Exception as e:
            raise ScriptError(i + 1, "the app crashed at %s:\n%s" % (json.dumps(step),
                                                                   crash_report(e)))


def run_script(vt, steps):
    """Play a scenario; the standings go out and the exit status is 0, or
    the failed step goes out and it is 1."""
    screens = lambda: [vt.lines(s) for s in range(1, vt.stations + 1)]  # noqa: E731
    try:
        play(vt, steps)
    except ScriptError as e:
        vt.send({"k": "fail", "step": e.step, "why": e.why, "screens": screens()})
        return 1
    vt.send({"k": "standings", "lines": vt.standings(), "screens": screens()})
    return 0


def load_script(path):
    """(seed, steps) of a scenario file: a list of steps, or {"seed": ...,
    "steps": [...]} (other keys are for people and tools)."""
    with open(path) as f:
        try:
            data = json.load(f)
        except ValueError:
            raise Refused("scenario %s is not JSON" % path)
    if isinstance(data, list):
        return None, data
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        raise Refused("scenario %s: write a list of steps, or an object with \"steps\"" % path)
    return data.get("seed"), data["steps"]
