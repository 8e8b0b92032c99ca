# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Secrecy on the wire, tested by changing the secrets: two tables play the
# same public game, but at a random point one player makes a different
# secret choice (Meow Heist: which card is locked while others still choose;
# Purrfect: which cat is offered, same number of cards). Every byte the app
# sends on its serial line must be the same at both tables. And over random
# games of every title the seed never appears before the game is over, and
# two seeds give begin frames that differ only in the commitment; every
# frame fits catnip.wire.MESSAGES, the table both ends check frames by.
# (The laptop's store keeps exactly these bytes: tests/test_link_e2e.py.)
import os

from apprig import AppRig, remove_tree
from catnip import wire
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip.rules.rng import Rng
from playout import any_legal
from secretpair import secret_pair
from scratch import scratch

# A folder of its own: runs of this module on one machine never share flash.
ROOT = scratch("catnip-secrecy")
TITLES = (
    ("heist", {"variant": "standard", "gems": "digital"}, [0, 1, 2]),
    ("heist", {"variant": "original", "gems": "digital"}, [0, 1, 2]),
    ("heist", {"variant": "standard", "gems": "digital"}, [0, 1]),
    ("purrfect", {"mode": "stations"}, [0, 1, 2, 3]),
    ("stack", {"mode": "composure", "black_cat": True, "draw": "digital"}, [0, 1, 2]),
)
TRIALS = 6


class Out:
    """The app's serial output: kept (`data`), or with `look` given, read
    frame by frame as it comes and not kept (a whole game would not fit)."""

    def __init__(self, look=None):
        self.data = bytearray()
        self.look = look
        self.reader = wire.Reader()

    def write(self, b):
        if self.look is None:
            self.data.extend(b)
            return
        for item in self.reader.feed(b):
            assert item[0] == "frame", item
            self.look(item)


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass


def _table(tag, seed, look=None):
    _mkdir(ROOT)
    path = "%s/%s" % (ROOT, tag)
    remove_tree(path)
    _mkdir(path)
    os.chdir(path)
    out = Out(look)
    rig = AppRig(Journal(path + "/journal"), line=Line(None, out, None, boot="same"), seed=seed)
    return rig, out


def _start(rig, out, name, options, seats):
    config = dict(options)
    config["players"] = len(seats)
    rig.app.start(name, config, seats)


def _sealed(data):
    # The frames without their CRCs, which cover the commitment too.
    return [line[:-9] for line in bytes(data).split(b"\n")]


def test_a_different_secret_choice_sends_the_same_bytes():
    tested = {}
    for name, options, seats in TITLES:
        if name == "stack":
            continue  # nothing in it is secret but the seed (below)
        a_rig, a_out = _table("a", "one")
        b_rig, b_out = _table("b", "one")
        try:
            for trial in range(TRIALS):
                rng = Rng("secrecy %s %d" % (name, trial))
                for rig, out in ((a_rig, a_out), (b_rig, b_out)):
                    _start(rig, out, name, options, seats)
                game = a_rig.app.game
                stop = rng.below(40)
                for _ in range(stop):
                    if game.result() is not None:
                        break
                    p = game.to_act()[rng.below(len(game.to_act()))]
                    action = any_legal(game, p, rng)
                    a_rig.app.act(p, action)
                    b_rig.app.act(p, action)
                pair = None
                while game.result() is None:
                    pair = secret_pair(game, name, rng)
                    if pair is not None:
                        break
                    p = game.to_act()[rng.below(len(game.to_act()))]
                    action = any_legal(game, p, rng)
                    a_rig.app.act(p, action)
                    b_rig.app.act(p, action)
                if pair is None:
                    continue
                p, a, b = pair
                a_out.data, b_out.data = bytearray(), bytearray()
                a_rig.app.act(p, a)
                b_rig.app.act(p, b)
                assert a_rig.app.game.public() == b_rig.app.game.public(), (name, a, b)
                # Each table names its game by its own (salted, public) commitment.
                b_sent = bytes(b_out.data).replace(b_rig.app.commit.encode(),
                                                   a_rig.app.commit.encode())
                assert _sealed(a_out.data) == _sealed(b_sent), (name, a, b, bytes(a_out.data))
                assert a_rig.app.game.state() != b_rig.app.game.state()  # the secret differs
                tested[name] = tested.get(name, 0) + 1
        finally:
            a_rig.close()
            b_rig.close()
            remove_tree(ROOT)
    assert tested.get("heist", 0) >= 3 and tested.get("purrfect", 0) >= 2, tested


def test_the_seed_stays_off_the_wire_until_the_game_is_over():
    for name, options, seats in TITLES:
        begins = []
        for k in range(2):
            seed = "seed-%s-%d" % (name, k)
            seen = {"begin": None, "over": False, "frames": 0}

            def look(item, seed=seed, seen=seen):
                seen["frames"] += 1
                # every frame fits the one table both ends read (wire.MESSAGES)
                assert wire.message(item[1], item[2], item[3]) is None, item[4]
                if not seen["over"]:
                    assert seed.encode() not in item[4], (item[2], item[4])
                if item[2] == "begin":
                    seen["begin"] = item[3]
                if item[2] == "end":
                    seen["over"] = True

            rig, out = _table("s%d" % k, seed, look)
            try:
                _start(rig, out, name, options, seats)
                rng = Rng(seed)
                game = rig.app.game
                while game.result() is None and len(game.log) < 400:
                    p = game.to_act()[0]
                    rig.app.act(p, any_legal(game, p, rng))
                assert seen["frames"] > 3
                begin = seen["begin"]
                assert begin["header"]["seed_commit"] == game.seed_commit
                begin["header"]["seed_commit"] = "?"
                begins.append(begin)
            finally:
                rig.close()
        assert begins[0] == begins[1], name
    remove_tree(ROOT)
