"""A phone seat's screen through the whole laptop side: the table's real line
(tests/serverig.GameTable) pushes the seat's views, the Keeper hands them to
serve, serve to the seat's own browser; none of it reaches the session
store, a log (uvicorn's access log switched on to prove it), the public
page or the join secret's way to any of them."""

from __future__ import annotations

import json
import logging
import sqlite3

from catnip.rules.rng import Rng
from phonerig import Phone, hang_up, plain, screen
from serverig import GameTable, Stream, get, serving, wait_for
from simpresses import POLICIES

PHONES = [0, 2]


class PhoneTable(GameTable):
    """The test table with phone seats: it answers claim, release, press and
    away as App.phone does, and pushes a claimed seat's screen (its rules
    view: its secrets) after every move."""

    def __init__(self, folder) -> None:
        super().__init__(folder)
        self.claimed: set[int] = set()
        self.pressed: list[tuple] = []
        self.sent_views: list[list[str]] = []

    def phone(self, word: str, fields: dict) -> str:
        seat = fields["seat"]
        if word == "claim":
            self.claimed.add(seat)
            self.view(seat)
            return "claimed"
        if word == "release":
            self.claimed.discard(seat)
            return "released"
        if word == "press":
            self.pressed.append((seat, fields["button"], fields["hold"]))
            return "pressed"
        return "claimed"  # away

    def view(self, seat: int) -> None:
        rows, lit = screen(self.game, seat, 0)
        self.sent_views.append(rows)
        self.line.send("view", seat=seat, rows=rows, lit=lit)

    def begin_phones(self, name: str, config: dict, seed: str) -> None:
        self.begin(name, config, seed, list(range(config["players"])))

    def send(self, kind: str, **fields) -> None:
        if kind in ("begin", "snap"):
            fields["phones"] = PHONES
        super().send(kind, **fields)

    def act(self, player: int, action: tuple) -> list[dict]:
        events = super().act(player, action)
        with self.lock:
            for seat in sorted(self.claimed):
                self.view(seat)
        return events


def test_a_phone_seats_screen_reaches_its_browser_and_no_store_log_or_page(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    access = logging.getLogger("uvicorn.access")
    try:
        _play_and_look(tmp_path, caplog, access)
    finally:
        access.removeHandler(caplog.handler)


def _play_and_look(tmp_path, caplog, access) -> None:
    table = PhoneTable(tmp_path)
    path = tmp_path / "s.sqlite3"
    with serving(path, table=table, phones=True) as site:
        site.server.uvicorn.config.access_log = True  # every request logged, as a proxy would
        access.setLevel(logging.INFO)
        access.addHandler(caplog.handler)
        wait_for(lambda: site.live.connected and site.follower.keeper is not None
                 and site.follower.keeper.session is not None)
        table.begin_phones("heist", {"players": 4}, "store secrecy")
        wait_for(lambda: set(site.seats.seats) == set(PHONES))
        secrets = [site.seats.seats[n].token for n in PHONES]
        codes = [site.seats.seats[n].code for n in PHONES]
        phones = [Phone(site, site.seats.seats[n].token) for n in PHONES]
        public = Stream(site)
        wait_for(lambda: table.claimed == set(PHONES))
        assert phones[0].press("ok") == 200
        wait_for(lambda: table.pressed == [(0, "ok", False)])
        rng, game = Rng("store secrecy"), table.game
        while game.result() is None:
            p = game.to_act()[rng.below(len(game.to_act()))]
            action = POLICIES["heist"](game, p, rng)
            if action is not None:
                table.act(p, action)
        for phone in phones:  # each phone got its own seat's screen, as the table drew it
            wait_for(lambda phone=phone: phone.last().get("rows") == screen(
                game, phone.seat, 0)[0])
            assert all(json.loads(e.split(b"data: ", 1)[1])["seat"] == phone.seat
                       for e in phone.events)
        wait_for(lambda: site.live.result is not None)
        pages = get(site, "/")[2] + get(site, "/state.json")[2] + b"".join(
            data for _, data in public.events)
        for phone in phones:
            hang_up(phone.conn)
        hang_up(public.conn)
    private = {row for rows in table.sent_views for row in rows if '"hand":[' in row}
    assert private, "the views carried no hand: the test would prove nothing"
    db = sqlite3.connect(path)
    stored = "\n".join(db.iterdump())
    kinds = {k for (k,) in db.execute("select kind from frames")}
    db.close()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert any("/seat/events" in line for line in logged.splitlines()), "no access log heard"
    assert "view" not in kinds and '"rows"' not in stored
    for where, text in (("the store", stored), ("the logs", logged),
                        ("the public page", pages.decode())):
        leaked = [row for row in private if row in text]
        assert not leaked, f"{where} holds a phone seat's screen: {leaked}"
        for secret in secrets + codes:
            assert secret not in text, f"{where} holds a join secret"
    assert plain(game.public())["phase"]  # the game was real to its end
