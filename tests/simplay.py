# micropython-only: plays whole games at the virtual table by pressing
# buttons, and writes each as a scenario file (tests/scenarios/*.json) for
# `catnip sim --script FILE --headless` and tests/test_sim.py to replay.
#
# A seeded policy picks each player's action from what the rules allow (for
# Purrfect, the sensible player of tests/shared/purrfect_play.py, which
# decides from its own view), and the presses that make that player's
# station submit it are worked out from the station's screen state (cursor
# positions, pickers): only presses go into the file. Players press on
# under announcements (a press acts on the screen below); after the game's
# last move they read them out with OK, as players would. The file ends with the standings the
# rules give, as the stations must show them, and snap steps for the key
# screens (docs/screens/).
#
#   micropython tests/simplay.py OUT_DIR [NAME ...]     (MICROPYPATH as tests/mpunix.py)
import json
import os
import sys

from catnip import board as boards
from catnip.rules.rng import Rng
from catnip.ui.end import CHOICES
from catnip.ui import draw
from devsim.virtual_script import do_step
from devsim.virtual_table import SETTLE_MS, VirtualTable
from simpresses import POLICIES, PRESSES, canonical

# name: (game, options for Setup, seats as station numbers, first player,
#        scenario seed, the screens worth a picture: (when, station, name))
GAMES = {
    "heist-3p": ("heist", {}, (1, 2, 3), 1, "heist-3p",
                 (("setup", 1, "setup"), ("reveal", None, "reveal"), ("choose", 2, "choose"),
                  ("peek", None, "peek"))),
    "heist-2p": ("heist", {}, (1, 2), 0, "heist-2p", (("choose", 1, "two-cards"),)),
    "stack": ("stack", {"mode": "composure"}, (1, 2, 3), 0, "stack",
              (("report", 1, "height"), ("watch", 2, "turn"))),
    "stack-black": ("stack", {"mode": "patient", "black_cat": True}, (1, 2), 1, "stack-black",
                    ()),
    "stack-clowder": ("stack", {"mode": "clowder"}, (1, 2, 3, 4), 0, "stack-clowder",
                      (("end", 1, "high-score"),)),
    "purrfect": ("purrfect", {"mode": "stations"}, (1, 2, 3, 4), 0, "purrfect",
                 (("hand", 1, "hand"), ("offer", 2, "offer"))),
    "purrfect-paper": ("purrfect", {"mode": "scorekeeper"}, (1, 2, 3, 4), 0, "purrfect-paper",
                       (("score", 1, "score"),)),
}
BOARD = "direct"
MAX_ACTIONS = 3000


class Recorder:
    """The virtual table, and every step done on it, as a scenario's list."""

    def __init__(self, name, seed, shots):
        self.name = name
        self.shots = shots
        self.peeked = False
        root = boards.__file__.rsplit("/", 2)[0]
        with open(root + "/boards/%s.json" % BOARD) as f:
            self.board = boards.parse(json.load(f))
        self.vt = VirtualTable(self.board, ".", self._sent, seed=seed)
        self.steps = []
        self.app = self.vt.app
        self.snapped = set()

    def _sent(self, message):
        pass  # the app's serial line and the table's messages are not needed here

    def do(self, step):
        do_step(self.vt, step)
        last = self.steps[-1] if self.steps else None
        if last is not None and "press" in step and last.get("press") == step["press"] \
                and last.get("station") == step["station"]:
            last["times"] = last.get("times", 1) + 1
        else:
            self.steps.append(dict(step))

    def press(self, station, button, times=1):
        for _ in range(times):
            self.do({"station": station, "press": button})

    def expect(self, station, text, row=None):
        what = {"station": station, "text": text}
        if row is not None:
            what["row"] = row
        self.do({"expect": what})

    def shot(self, when, station):
        """A snap step for the scenario's picture taken `when` on `station`,
        the first time it comes."""
        for w, s, name in self.shots:
            if w == when and s in (None, station) and name not in self.snapped:
                self.snapped.add(name)
                self.steps.append({"snap": "%s-%s" % (self.name, name), "station": station})

    def move(self, station, at, target, n, forward_button="down"):
        """Cursor from `at` to `target` in a wrapping list of n, the short way
        (DOWN moves a list's cursor on)."""
        back_button = "up" if forward_button == "down" else "down"
        at = min(at, n - 1)
        forward = (target - at) % n
        if forward <= n - forward:
            self.press(station, forward_button, forward)
        else:
            self.press(station, back_button, n - forward)

    def pick(self, station, picker, value):
        """A Picker to `value`: UP adds one and it stops at its ends; one
        with nothing chosen takes its first value from the nearer end."""
        assert picker.lo <= value <= picker.hi, "%d is outside %s's %d-%d" % (
            value, picker.label, picker.lo, picker.hi)
        if picker.value is None:
            self.press(station, "up" if value - picker.lo <= picker.hi - value else "down")
        if picker.value != value:
            self.press(station, "up" if picker.value < value else "down",
                       abs(value - picker.value))


# ---- setup --------------------------------------------------------------------


def choose_game(rec, game, options, seats, start):
    setup = rec.app.scene

    def go_to(kind, key=None):
        rows = setup.rows
        target = [i for i, r in enumerate(rows) if r[0] == kind and (key is None or r[2] == key)]
        rec.move(1, setup.cursor.at, target[0], len(rows))

    while setup.game != game:
        go_to("game")
        rec.press(1, "ok")
    for key in sorted(options):
        while setup.options[key] != options[key]:
            go_to("option", key)
            rec.press(1, "ok")
    wanted = [s - 1 for s in seats]
    if setup.seats != wanted:
        go_to("seats")
        rec.press(1, "ok")
        for k in range(setup.stations):
            if (k in setup.seats) != (k in wanted):
                rec.move(1, setup.choosing_seats.at, k, setup.stations)
                rec.press(1, "ok")
        rec.press(1, "back")
    while game != "purrfect" and setup.start != start:
        go_to("start")
        rec.press(1, "ok")
    go_to("go")
    rec.press(1, "ok")
    assert rec.app.scene.kind == "play", "the game did not start: %s" % rec.vt.lines(1)


# ---- what the screens must show meanwhile ----------------------------------------

TITLES = {"heist": "Heist", "stack": "Stack", "purrfect": "R1 paws 0"}


def check_start(rec, game_name, seats):
    for s in seats:
        rec.expect(s, TITLES[game_name], 0)
        rec.expect(s, "P%d" % (seats.index(s) + 1), 0)


def check_after(rec, game_name, station, seats):
    """After an action: its announcement on another station, and for Meow
    Heist the locked card hidden (and shown only to its owner on a peek)."""
    scene = rec.app.scene
    if scene.kind != "play":
        return
    other = seats[(seats.index(station) + 1) % len(seats)]
    if scene.banner:
        showing = [s for s in seats if s != station and scene.headed(s - 1)]
        if showing:  # not on a station that pressed under it: it stepped aside there
            rec.expect(showing[0], draw.wrap(scene.banner[0])[0])
        return
    v = scene.view(station - 1)
    if game_name == "heist" and v["phase"] == "play" and v["seats"][v["you"]]["committed"]:
        rec.expect(station, "Locked in")
        if not rec.peeked:
            rec.peeked = True
            rec.do({"station": station, "push": "ok"})
            rec.expect(station, "You chose:")
            rec.shot("peek", station)
            rec.do({"expect": {"station": other, "not": "You chose"}})
            rec.do({"station": station, "release": "ok"})
            rec.expect(station, "Locked in")


# ---- a whole game ------------------------------------------------------------------


def notices(app):
    """The table-wide messages showing now (the app's notice line)."""
    return list(getattr(getattr(app, "frame", app), "notices", None) or [])


def play_game(name):
    game_name, options, seats, start, seed, shots = GAMES[name]
    rec = Recorder(name, seed, shots)
    rec.shot("setup", 1)
    choose_game(rec, game_name, options, seats, start)
    check_start(rec, game_name, list(seats))
    rng = Rng("policy:" + name)
    policy, presses = POLICIES[game_name], PRESSES[game_name]
    for _ in range(MAX_ACTIONS):
        scene = rec.app.scene
        if scene.kind != "play":
            break
        if scene.banner and game_name == "heist" and "robs" in scene.banner[0]:
            showing = [s for s in seats if scene.headed(s - 1)]
            if showing:
                rec.shot("reveal", showing[0])
        if scene.banner and scene.game.result() is not None:
            rec.press(1, "ok")  # read: after the game, OK moves the announcements on
            continue
        game = scene.game
        players = game.to_act()
        seat = players[rng.below(len(players))]
        action = policy(game, seat, rng)
        if action is None:
            rec.do({"wait": SETTLE_MS})  # that player thinks; time passes
            continue
        station = scene.seats[seat] + 1
        if game_name == "stack":
            watcher = [s for s in seats if s != station][0]
            rec.shot("watch", watcher)
        before = len(game.log)
        presses(rec, station, seat, action)
        assert len(game.log) == before + 1 and game.log[-1] == (seat, canonical(action)), \
            "%s: the presses for %s on station %d submitted %s: %s" % (
                name, action, station, list(game.log)[before:], rec.vt.lines(station))
        check_after(rec, game_name, station, list(seats))
    assert rec.app.scene.kind == "end", "%s did not end within %d actions" % (
        name, MAX_ACTIONS)
    said = notices(rec.app)
    if said:  # e.g. a Clowder's place on the high-score table
        rec.expect(1, draw.wrap(said[0])[0])
        rec.shot("end", 1)
        while notices(rec.app):  # a notice covers the list's last rows until it goes
            rec.do({"wait": 500})
    rows = [r for r in rec.app.scene.rows if r not in CHOICES]
    rec.steps.append({"snap": name + "-standings", "station": 1})  # every game's end
    rec.steps.append({"expect": {"standings": rows}})
    return {"about": "A whole game of %s on the %s board, played with button presses only "
                     "(tests/simplay.py wrote it)." % (name, BOARD),
            "board": BOARD, "seed": seed, "standings": rows, "steps": rec.steps,
            "actions": len(rec.app.game.log)}


def presses(scenario):
    return sum(s.get("times", 1) for s in scenario["steps"] if "press" in s)


def write(path, scenario):
    with open(path, "w") as f:
        f.write("{\n")
        for key in ("about", "board", "seed", "standings"):
            f.write('  "%s": %s,\n' % (key, json.dumps(scenario[key])))
        f.write('  "steps": [\n')
        steps = scenario["steps"]
        for i, step in enumerate(steps):
            f.write("    %s%s\n" % (json.dumps(step, separators=(", ", ": ")),
                                   "," if i < len(steps) - 1 else ""))
        f.write("  ]\n}\n")


def clear(folder):
    """Everything in `folder` removed (the table's flash between games)."""
    for name, kind, *_ in os.ilistdir(folder):
        path = folder + "/" + name
        if kind == 0x4000:  # a folder
            clear(path)
            os.rmdir(path)
        else:
            os.remove(path)


def main(argv):
    out = argv[0]
    names = argv[1:] or sorted(GAMES)
    flash = out + "/.flash"
    try:
        os.mkdir(flash)
    except OSError:
        pass
    here = os.getcwd()
    for name in names:
        clear(flash)  # a fresh table: no setup.json, high scores or journal
        os.chdir(flash)
        scenario = play_game(name)
        os.chdir(here)
        write("%s/%s.json" % (out, name), scenario)
        print("%s: %d steps, %d presses, %d actions; %s" % (
            name, len(scenario["steps"]), presses(scenario), scenario["actions"],
            " / ".join(scenario["standings"])))
    clear(flash)
    os.rmdir(flash)


if __name__ == "__main__":
    main(sys.argv[1:])
