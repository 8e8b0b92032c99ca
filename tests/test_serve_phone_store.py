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
from phonerig import PHONES, Phone, PhoneTable, hang_up, plain, screen
from serverig import Stream, get, serving, wait_for
from simpresses import POLICIES

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
