# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Phone seats at the table (catnip.table.phones, docs/phones.md): a seat with
# no station, played over the line. A `view` leaves the table only for a
# phone seat the laptop has claimed, and only that seat's; a press goes
# through the scene as a station's does; one for a station's seat or a seat
# not claimed is refused and changes nothing; a silent laptop's seats wait,
# and come back with a claim; a view lost on the way comes again. Two games
# that differ only in one seat's secret send the same bytes but that seat's
# own views.
import os

from apprig import AppRig, remove_tree
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip.rules.rng import Rng
from catnip.table.phones import SILENT_MS
from catnip.ui.frame import NOTICE_MS
from playout import any_legal
from secretpair import secret_pair
from scratch import scratch

ROOT = scratch("catnip-phones")


class Out:
    """The table's side of the line: every frame it sent, as bytes and read."""

    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data.extend(b)

    def frames(self):
        return [item for item in wire.Reader().feed(bytes(self.data)) if item[0] == "frame"]

    def kinds(self):
        return [f[2] for f in self.frames()]

    def views(self):
        return [f[3] for f in self.frames() if f[2] == "view"]


def _table(tag, seed="phones"):
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    path = "%s/%s" % (ROOT, tag)
    remove_tree(path)
    os.mkdir(path)
    os.chdir(path)
    out = Out()
    line = Line(None, out, None, boot="same")  # a line that only tells: a laptop is there
    rig = AppRig(Journal(path + "/journal"), line=line, seed=seed)
    return rig, line, out


def _ask(rig, line, word, **fields):
    line.feed(wire.encode(word, 1, fields, wire.LAPTOP))
    rig.run(30)


def _start(rig, name, options, seats):
    config = dict(options)
    config["players"] = len(seats)
    rig.app.start(name, config, seats)
    rig.run(100)


def test_a_view_leaves_only_for_a_claimed_phone_seat():
    rig, line, out = _table("claim")
    try:
        _start(rig, "purrfect", {"mode": "stations"}, [0, 1, 2, 3, 4])  # seat 4 on a phone
        begin = [f[3] for f in out.frames() if f[2] == "begin"][0]
        assert begin["phones"] == [4] and begin["seats"] == [0, 1, 2, 3, 4]
        assert "view" not in out.kinds()  # nobody holds it yet
        assert rig.shows(0, "P5 on phone")  # the stations say the seat waits for its phone
        _ask(rig, line, "claim", seat=4)
        views = out.views()
        assert [v["seat"] for v in views] == [4]  # once, at once
        mine = rig.app.game.view(4)
        assert "P5" in views[0]["rows"][0] and views[0]["lit"][0][:2] == [0, 0]
        assert len(views[0]["rows"]) == 8 and max(len(r) for r in views[0]["rows"]) <= 16
        assert not rig.shows(0, "on phone")
        rig.run(500)
        assert len(out.views()) == 1  # only when its screen changes
        hands = [str(c) for c in mine["hand"]]
        assert hands  # (its own hand: on its view only)
        _ask(rig, line, "press", seat=4, button="down", hold=False)
        assert [v["seat"] for v in out.views()] == [4, 4]
        _ask(rig, line, "release", seat=4)
        out.data = bytearray()
        _ask(rig, line, "press", seat=4, button="down", hold=False)  # not claimed: refused
        assert "view" not in out.kinds() and out.kinds()[-1] == "err"
    finally:
        rig.close()


def test_the_phone_seats_keeper_loads_only_when_a_game_seats_a_phone():
    import sys

    from catnip import forget

    forget("catnip.table.phones")
    rig, line, out = _table("keeper")
    try:
        assert rig.app.phones.offered()  # a laptop is here: setup offers phones
        _start(rig, "purrfect", {"mode": "stations"}, [0, 1, 2, 3])  # every seat at a station
        _ask(rig, line, "snapshot")
        assert rig.app.scene.kind == "play" and "catnip.table.phones" not in sys.modules
        assert "phones" not in [f[3] for f in out.frames() if f[2] == "snap"][-1]
        _start(rig, "purrfect", {"mode": "stations"}, [0, 1, 2, 3, 4])  # seat 4 on a phone
        assert "catnip.table.phones" in sys.modules
        assert [f[3] for f in out.frames() if f[2] == "begin"][-1]["phones"] == [4]
    finally:
        rig.close()


def test_a_phone_command_with_no_phone_seat_is_refused_and_loads_the_keeper_to_say_why():
    rig, line, out = _table("no-phones")
    try:
        _start(rig, "purrfect", {"mode": "stations"}, [0, 1, 2, 3])
        before = rig.app.game.journal()
        _ask(rig, line, "claim", seat=1)
        assert out.frames()[-1][2] == "err" and "no phone seats" in out.frames()[-1][3]["why"]
        assert rig.app.game.journal() == before and rig.app.phones.listed() == []
    finally:
        rig.close()


def test_a_press_for_a_station_seat_or_no_claim_is_refused_and_changes_nothing():
    rig, line, out = _table("refuse")
    try:
        _start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 4, 5])
        _ask(rig, line, "claim", seat=2)
        scene = rig.app.scene
        before = (len(rig.app.game.log), [bytes(rig.table.stations[k].screen()) for k in range(4)],
                  [scene.local[k].__dict__.copy() for k in range(6)])
        for fields in ({"seat": 0, "button": "ok", "hold": False},  # a station's seat
                       {"seat": 1, "button": "ok", "hold": False},  # a phone seat not claimed
                       {"seat": 7, "button": "ok", "hold": False}):  # no such seat
            out.data = bytearray()
            _ask(rig, line, "press", **fields)
            frames = out.frames()
            assert [f[2] for f in frames] == ["err"], frames
        out.data = bytearray()
        _ask(rig, line, "press", seat=2, button="sideways", hold=False)  # claimed, no such button
        assert [f[2] for f in out.frames()] == ["err"] and "button" in out.frames()[0][3]["why"]
        after = (len(rig.app.game.log), [bytes(rig.table.stations[k].screen()) for k in range(4)],
                 [scene.local[k].__dict__.copy() for k in range(6)])
        assert after == before
        out.data = bytearray()
        _ask(rig, line, "claim", seat=0)
        assert out.frames()[-1][3]["why"] == "claim: seat 0 plays at station 1, not on a phone"
    finally:
        rig.close()


def test_a_phone_press_plays_as_a_station_press():
    rig, line, out = _table("press")
    try:
        _start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 4])
        _ask(rig, line, "claim", seat=2)
        game = rig.app.game
        hand = game.view(2)["hand"]
        _ask(rig, line, "press", seat=2, button="ok", hold=False)  # the card under the cursor
        assert game.log[-1] == (2, ("play", hand[0]))
        assert out.kinds().count("act") == 1 and out.kinds()[-1] in ("view", "snap")
        out.data = bytearray()
        _ask(rig, line, "press", seat=2, button="ok", hold=True)  # held: the peek
        assert any("You chose" in " ".join(v["rows"]) for v in out.views())
        _ask(rig, line, "press", seat=2, button="down", hold=False)  # its next press lets go
        assert "You chose" not in " ".join(out.views()[-1]["rows"])
        assert "You chose" not in " ".join(rig.lines(0)) + " ".join(rig.lines(1))
    finally:
        rig.close()


def test_a_moves_snapshot_follows_the_stations_and_the_phones_view():
    # Building and sending a snapshot takes the Pico tens of ms: it goes once
    # every screen shows the move, not ahead of them.
    rig, line, out = _table("snap")
    try:
        _start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 4])
        _ask(rig, line, "claim", seat=2)
        out.data = bytearray()
        line.feed(wire.encode("press", 1, {"seat": 2, "button": "ok", "hold": False},
                              wire.LAPTOP))
        seen = []  # per loop step: (snapshot sent, both stations show the lock)
        for _ in range(6):
            rig.run(10)
            seen.append(("snap" in out.kinds(),
                         rig.shows(0, "Locked ..3") and rig.shows(1, "Locked ..3")))
        kinds = out.kinds()
        assert kinds.count("act") == 1 and kinds.count("snap") == 1, kinds
        assert kinds.index("view") < kinds.index("snap")  # the phone's own screen first
        assert seen[-1] == (True, True)
        assert all(shown for snap, shown in seen if snap), seen  # never ahead of them
    finally:
        rig.close()


def test_a_silent_laptop_leaves_its_seats_waiting_and_a_claim_brings_them_back():
    rig, line, out = _table("silent")
    try:
        _start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 4])
        _ask(rig, line, "claim", seat=2)
        _ask(rig, line, "away", seat=2, away=True)
        assert rig.shows(0, "Seat 3 is away") and rig.shows(1, "Seat 3 is away")  # a notice
        rig.run(NOTICE_MS + 100)  # then a line of its own, until it is back
        assert rig.shows(0, "P3 away") and rig.shows(1, "P3 away")
        _ask(rig, line, "away", seat=2, away=False)
        assert not rig.shows(0, "P3 away")
        log = len(rig.app.game.log)
        rig.run(SILENT_MS + 200)
        said = [f[3]["text"] for f in out.frames() if f[2] == "say"]
        assert "Seat 3 plays on a phone: waiting for the laptop" in said
        rig.run(NOTICE_MS)
        assert rig.shows(0, "P3: no laptop") and rig.shows(1, "P3: no laptop")
        out.data = bytearray()
        rig.run(1000)
        assert "view" not in out.kinds()  # nobody holds it now
        _ask(rig, line, "press", seat=2, button="ok", hold=False)
        assert len(rig.app.game.log) == log and out.kinds() == ["err"]
        _ask(rig, line, "claim", seat=2)  # the laptop is back
        assert not rig.shows(0, "no laptop") and out.kinds()[-1] == "view"
        _ask(rig, line, "press", seat=2, button="ok", hold=False)
        assert len(rig.app.game.log) == log + 1  # the game goes on where it was
    finally:
        rig.close()


def test_a_view_lost_on_the_way_comes_again_with_the_next_claim():
    rig, line, out = _table("lost")
    try:
        _start(rig, "heist", {"variant": "standard", "gems": "digital"}, [0, 1, 4])
        _ask(rig, line, "claim", seat=2)
        first = out.views()
        assert [v["n"] for v in first] == [1]
        _ask(rig, line, "claim", seat=2, seen=1)  # the laptop has seen the last: nothing
        assert len(out.views()) == 1
        _ask(rig, line, "press", seat=2, button="down", hold=False)
        assert [v["n"] for v in out.views()] == [1, 2]
        _ask(rig, line, "claim", seat=2, seen=1)  # view 2 was damaged on the way
        again = out.views()
        assert [v["n"] for v in again] == [1, 2, 3]
        assert again[2]["rows"] == again[1]["rows"] and again[2]["lit"] == again[1]["lit"]
        assert out.kinds()[-2:] == ["claimed", "view"]
        _ask(rig, line, "claim", seat=2, seen=3)
        rig.run(500)
        assert len(out.views()) == 3
    finally:
        rig.close()


def _others(out, seat):
    # The frames, without their CRCs (which cover the commitment), but the
    # views of `seat`, which are its own to differ.
    kept = []
    for item in wire.Reader().feed(bytes(out.data)):
        if item[0] == "frame" and item[2] == "view" and item[3]["seat"] == seat:
            continue
        kept.append(item[4][:-9])
    return kept


def test_games_that_differ_in_one_seat_s_secret_differ_only_in_its_own_views():
    tested = {}
    for name, options, seats in (
            ("heist", {"variant": "standard", "gems": "digital"}, [0, 4, 5]),
            ("purrfect", {"mode": "stations"}, [0, 1, 4, 5])):
        for trial in range(3):
            tables = [_table("%s%d%s" % (name, trial, tag)) for tag in "ab"]
            try:
                for rig, line, out in tables:
                    _start(rig, name, options, seats)
                    for seat in range(len(seats)):
                        if seats[seat] >= 4:
                            _ask(rig, line, "claim", seat=seat)
                rng = Rng("phones %s %d" % (name, trial))
                game = tables[0][0].app.game
                pair = None
                for _ in range(rng.below(30) + 200):
                    if game.result() is not None:
                        break
                    pair = secret_pair(game, name, rng)
                    if pair is not None and rng.below(3) == 0:
                        break
                    pair = None
                    p = game.to_act()[rng.below(len(game.to_act()))]
                    action = any_legal(game, p, rng)
                    for rig, _, _ in tables:
                        rig.app.act(p, action)
                        rig.run(30)
                if pair is None:
                    continue
                p, a, b = pair
                for (rig, _, out), action in zip(tables, (a, b)):
                    out.data = bytearray()
                    rig.app.act(p, action)
                    rig.run(300)
                a_rig, b_rig = tables[0][0], tables[1][0]
                assert a_rig.app.game.state() != b_rig.app.game.state()  # the secret differs
                a_sent = _others(tables[0][2], p)
                b_sent = [f.replace(b_rig.app.commit.encode(), a_rig.app.commit.encode())
                          for f in _others(tables[1][2], p)]
                assert a_sent == b_sent, (name, p, a, b)
                tested[name] = tested.get(name, 0) + 1
            finally:
                for rig, _, _ in tables:
                    rig.close()
    remove_tree(ROOT)
    assert tested.get("heist", 0) >= 1 and tested.get("purrfect", 0) >= 1, tested
