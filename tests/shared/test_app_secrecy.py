# micropython-only: the table app draws into MicroPython's built-in framebuf.
#
# Secrets are cut at the source: two tables where one player's secret
# differs must look the same, pixel for pixel and byte for byte on the line,
# to everyone else until the rules reveal it.
import tablebot
from apprig import AppRig
from test_app_games import _fresh

from catnip.flash.journal import Journal


class Wire:
    """Records what the app sends to the serial line."""

    def __init__(self):
        self.sent = []
        self.on_command = None
        self.boot = None  # no power-up token: the games stay undated here
        self.commands = 0  # the laptop's commands read: none, it only listens

    def listen(self, on_command):
        self.on_command = on_command

    def wants(self, kind):
        return True  # a laptop listening: every frame, the public snapshots too

    def send(self, kind, **fields):
        header = fields.get("header")
        if isinstance(header, dict) and "seed_commit" in header:
            # The commitment hides the seed behind a random salt of each
            # table's own: it differs between any two tables, secrets or not.
            fields["header"] = dict(header, seed_commit="(salted)")
        if "commit" in fields:
            fields["commit"] = "(salted)"  # the same commitment, naming the game's moves
        self.sent.append((kind, sorted(fields.items())))

    def poll(self, budget=64):
        return

    def waiting(self):
        return False  # the laptop only listens


def _table(tag, game, options, seats):
    path = _fresh(tag)
    wire = Wire()
    rig = AppRig(Journal(path + "/journal"), line=wire)
    tablebot.start(rig, game, options, seats)
    return rig, wire


def _same_for(rigs, stations):
    for k in stations:
        a, b = rigs[0].table.stations[k].screen(), rigs[1].table.stations[k].screen()
        assert bytes(a) == bytes(b), "station %d shows a secret:\n%s\n%s" % (
            k, rigs[0].lines(k), rigs[1].lines(k))


def test_a_locked_heist_card_reaches_no_other_station_or_the_line():
    options = {"variant": "standard", "gems": "digital"}
    rigs = []
    try:
        for card in (2, 5):
            rig, wire = _table("heist%d" % card, "heist", options, [0, 1, 2])
            tablebot.do(rig, 0, ("play", 1))
            tablebot.do(rig, 1, ("play", card))
            rig.hold(1, "ok", 300)  # its own player peeks: the others see nothing of it
            rigs.append((rig, wire))
        _same_for([r for r, _ in rigs], (0, 2))
        assert rigs[0][1].sent == rigs[1][1].sent
    finally:
        for rig, _ in rigs:
            rig.close()


def test_a_purrfect_offer_shows_only_its_meow():
    rigs = []
    try:
        for pick in (0, 1):
            rig, wire = _table("purr%d" % pick, "purrfect", {"mode": "stations"}, [0, 1, 2, 3])
            hand = rig.app.game.view(0)["hand"]
            cats = []
            for card in hand:
                if card // 9 not in cats:
                    cats.append(card // 9)
            # one card of the first or the second cat the player holds: the same meow
            card = [c for c in hand if c // 9 == cats[pick]][0]
            tablebot.do(rig, 0, ("offer", card))
            rig.run(300)
            rigs.append((rig, wire))
        _same_for([r for r, _ in rigs], (1, 2, 3))
        assert rigs[0][1].sent == rigs[1][1].sent
    finally:
        for rig, _ in rigs:
            rig.close()
