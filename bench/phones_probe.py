# micropython-only: what a phone seat's view costs the table (bench_phones):
# Purrfect for seven on the simulated direct board, three seats at stations
# and four on phones that a laptop holds, played by a seeded policy through
# App.act; after each action the phone seats' screens that changed are drawn
# as text and sent (Phones.tick), timed, with the bytes of each view. Prints
# one JSON line.
import json
import time

from apprig import AppRig
from catnip.flash.journal import Journal
from catnip.link.line import Line
from catnip import wire
from catnip.rules.rng import Rng
from playout import any_legal


class Out:
    """The line's far end: counts the views and their bytes (a frame leaves
    in pieces of up to 128 bytes, its newline last)."""

    def __init__(self):
        self.views = 0
        self.bytes = 0
        self.in_view = False

    def write(self, data):
        data = bytes(data)
        if data[:2] == wire.TABLE:
            self.in_view = b" view " in data[:16]
            self.views += self.in_view
        if self.in_view:
            self.bytes += len(data)


def main():
    out = Out()
    line = Line(None, out, None, boot="bench")
    rig = AppRig(Journal("journal"), line=line, seed="phones bench")
    app = rig.app
    app.start("purrfect", {"players": 7, "mode": "stations"}, [0, 1, 2, 4, 5, 6, 7])
    for seat in (3, 4, 5, 6):
        line.feed(wire.encode("claim", seat, {"seat": seat}, wire.LAPTOP))
    game, rng = app.game, Rng("phones bench")
    ticks, sent = [], 0
    while game.result() is None and len(game.log) < 400:
        players = game.to_act()
        p = players[rng.below(len(players))]
        app.act(p, any_legal(game, p, rng))
        before = out.views
        t = time.ticks_us()
        app.phones.tick(time.ticks_ms())
        spent = time.ticks_diff(time.ticks_us(), t)
        if out.views > before:
            ticks.append(spent // (out.views - before))
            sent += out.views - before
        while app.scene.kind == "play" and app.scene.banner:
            app.scene.next_banner(None)
    ticks.sort()
    print(json.dumps({"views": sent, "actions": len(game.log),
                      "median_us": ticks[len(ticks) // 2], "p95_us": ticks[len(ticks) * 95 // 100],
                      "bytes": out.bytes // max(1, out.views)}))
    rig.close()


main()
