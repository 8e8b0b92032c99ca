"""Phone seats, the server's half: joining by a one-time link or a typed
code, a seat bound to the first browser and refused to any other until the
host releases it, tries limited, every POST from the seat's own page (CSRF
token tied to its cookie, Origin its Host), and the host's page on this
computer, or on a screen that typed the host code (once). Through starlette's TestClient, with a table that records
what it is asked."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from catnip_host.serve import phones
from catnip_host.serve.app import make_app
from catnip_host.serve.live import Hub
from catnip_host.serve.seats import ALL_TRIES, CODE_LENGTH, TRIES, Seats

BASE = "http://192.168.1.5:8000"
ORIGIN = {"origin": "http://testserver"}


class Table:
    def __init__(self) -> None:
        self.asked: list[tuple] = []

    def ask(self, word: str, **fields: object) -> None:
        self.asked.append((word, fields))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def rig(tmp_path):
    table, clock = Table(), Clock()
    seats = Seats(table, clock)
    seats.connection(True)
    seats.game(7, [1, 3])
    app = make_app(Hub(), tmp_path / "none.sqlite3", "0.0.0.0", seats=seats,
                   base=lambda: BASE)
    return seats, table, clock, app


def browser(app, client: str = "192.168.1.20") -> TestClient:
    return TestClient(app, client=(client, 40000), follow_redirects=False)


def join(b: TestClient, secret: str, headers: dict | None = None):
    return b.post("/join", json={"secret": secret}, headers=ORIGIN if headers is None else headers)


def csrf_of(b: TestClient) -> str:
    page = b.get("/seat")
    assert page.status_code == 200, page.text
    found = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page.text)
    assert found is not None
    return found.group(1)


def test_the_link_binds_the_seat_to_the_first_browser_and_refuses_another(rig):
    seats, table, _, app = rig
    token = seats.seats[1].token
    phone, other = browser(app), browser(app, "192.168.1.21")
    answer = join(phone, token)
    assert answer.status_code == 200 and answer.json() == {"go": "/seat", "seat": 1}
    cookie = answer.headers["set-cookie"]
    assert "catnip_seat=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie  # plain http here; https would add it
    assert table.asked == [("claim", {"seat": 1})]
    assert "P2's screen" in phone.get("/seat").text
    # The same browser again (the link opened twice): where it was, nothing asked.
    assert join(phone, token).json()["seat"] == 1 and len(table.asked) == 1
    # Another browser with the same link, or the seat's code: refused, nothing changed.
    for secret in (token, seats.seats[1].code):
        refused = join(other, secret)
        assert refused.status_code == 409 and "already open on another phone" in \
            refused.json()["why"] and "release" in refused.json()["why"]
        assert "set-cookie" not in refused.headers
    assert other.get("/seat").status_code == 403
    assert len(table.asked) == 1 and seats.seat_of(phone.cookies["catnip_seat"]).seat == 1


def test_the_code_is_typed_in_any_case_with_or_without_its_dash(rig):
    seats, table, _, app = rig
    code = seats.seats[3].code
    assert len(code) == CODE_LENGTH
    phone = browser(app)
    assert join(phone, f" {code[:4].lower()}-{code[4:]} ").json()["seat"] == 3
    assert table.asked == [("claim", {"seat": 3})]


def test_the_host_releases_a_seat_then_another_phone_joins_by_its_new_code(rig):
    seats, table, _, app = rig
    old_token, old_code = seats.seats[1].token, seats.seats[1].code
    phone, laptop, other = browser(app), browser(app, "127.0.0.1"), browser(app, "192.168.1.21")
    join(phone, old_token)
    host = laptop.get("/host")
    assert host.status_code == 200 and "On a phone" in host.text
    key = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', host.text).group(1)
    # Without the host page's token, or from elsewhere on the network: refused.
    assert laptop.post("/host/release", json={"seat": 1}, headers=ORIGIN).status_code == 403
    assert other.post("/host/release", json={"seat": 1},
                      headers={**ORIGIN, "x-catnip-csrf": key}).status_code == 403
    elsewhere = other.get("/host")  # asks for the host code, shows none of the seats'
    assert elsewhere.status_code == 200 and "host code" in elsewhere.text
    assert seats.seats[3].code not in elsewhere.text and "csrf" not in elsewhere.text
    assert seats.seat_of(phone.cookies["catnip_seat"]) is not None
    done = laptop.post("/host/release", json={"seat": 1}, headers={**ORIGIN, "x-catnip-csrf": key})
    assert done.status_code == 200 and table.asked[-1] == ("release", {"seat": 1})
    assert seats.seat_of(phone.cookies["catnip_seat"]) is None
    assert phone.get("/seat").status_code == 403
    # The old secrets are spent; the new ones (on the host page) let the other phone in.
    assert join(other, old_token).status_code == 404
    assert join(other, old_code).status_code == 404
    assert seats.seats[1].code in laptop.get("/host").text.replace("-", "")
    assert join(other, seats.seats[1].code).json()["seat"] == 1
    assert table.asked[-1] == ("claim", {"seat": 1})


def _host_token(b: TestClient) -> str:
    page = b.get("/host")
    assert page.status_code == 200 and "Release P2" in page.text, page.text
    return re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page.text).group(1)


def test_a_tv_that_types_the_host_code_shows_the_codes_and_releases_a_seat(rig):
    seats, table, clock, app = rig
    laptop, tv, guest = browser(app, "127.0.0.1"), browser(app), browser(app, "192.168.1.21")
    code = seats.hosts.code
    assert f"{code[:4]}-{code[4:]}" in laptop.get("/host").text  # shown on the laptop alone
    assert tv.post("/host/join", json={"code": "AAAA-AAAA"}, headers=ORIGIN).status_code == 404
    assert tv.post("/host/join", json={"code": code}).status_code == 403  # no Origin: refused
    admitted = tv.post("/host/join", json={"code": code.lower()}, headers=ORIGIN)
    assert admitted.status_code == 200 and admitted.json() == {"go": "/host"}
    cookie = admitted.headers["set-cookie"]
    assert "catnip_host=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    key = _host_token(tv)
    assert seats.seats[1].code in tv.get("/host").text.replace("-", "")
    assert "On the TV too" not in tv.get("/host").text  # the host code is the laptop's to show
    # The code is spent: another screen with it is refused, and the laptop shows a new one.
    assert guest.post("/host/join", json={"code": code}, headers=ORIGIN).status_code == 404
    assert seats.hosts.code != code and seats.hosts.code[:4] in laptop.get("/host").text
    # The TV releases a seat with its own page's token, never with another's.
    assert guest.post("/host/release", json={"seat": 1},
                      headers={**ORIGIN, "x-catnip-csrf": key}).status_code == 403
    done = tv.post("/host/release", json={"seat": 1}, headers={**ORIGIN, "x-catnip-csrf": key})
    assert done.status_code == 200 and done.json() == {"released": 1}
    # Only the laptop signs the other screens out; then the TV asks for a code again.
    assert tv.post("/host/out", json={}, headers={**ORIGIN, "x-catnip-csrf": key}
                   ).status_code == 403
    mine = _host_token(laptop)
    assert "1 other screen shows this page" in laptop.get("/host").text
    assert laptop.post("/host/out", json={}, headers=ORIGIN).status_code == 403  # no token
    assert laptop.post("/host/out", json={}, headers={**ORIGIN, "x-catnip-csrf": mine}
                       ).json() == {"out": True}
    assert "host code" in tv.get("/host").text and seats.seats[1].code not in tv.get("/host").text
    assert tv.post("/host/release", json={"seat": 3},
                   headers={**ORIGIN, "x-catnip-csrf": key}).status_code == 403


def test_host_code_tries_count_with_the_seats_codes(rig):
    seats, _, clock, app = rig
    tv = browser(app)
    for _ in range(TRIES):
        assert tv.post("/host/join", json={"code": "AAAA-AAAA"}, headers=ORIGIN
                       ).status_code == 404
    refused = tv.post("/host/join", json={"code": seats.hosts.code}, headers=ORIGIN)
    assert refused.status_code == 429 and "too many tries" in refused.json()["why"]
    assert join(tv, seats.seats[1].code).status_code == 429  # one budget for both
    clock.now += 61
    assert tv.post("/host/join", json={"code": seats.hosts.code}, headers=ORIGIN
                   ).status_code == 200


def test_the_table_releasing_a_seat_unbinds_its_browser(rig):
    seats, _, _, app = rig
    phone = browser(app)
    join(phone, seats.seats[3].token)
    seats.released(3)
    assert phone.get("/seat").status_code == 403


def test_the_next_game_keeps_a_phone_on_a_seat_still_on_phones_and_lets_the_others_go(rig):
    seats, _, _, app = rig
    phone, other = browser(app), browser(app, "192.168.1.21")
    join(phone, seats.seats[1].token)
    join(other, seats.seats[3].token)
    seats.game(7, [1, 3])  # a resync of the same game keeps them
    assert phone.get("/seat").status_code == 200
    seats.game(8, [1, 5])  # as the table keeps the claim of a seat still on a phone
    assert phone.get("/seat").status_code == 200 and other.get("/seat").status_code == 403
    assert sorted(seats.seats) == [1, 5] and seats.seats[5].binding is None
    seats.game(None, [])  # no game in play: every phone let go
    assert phone.get("/seat").status_code == 403 and seats.seats == {}


def test_tries_are_limited_per_client_and_in_all(rig):
    seats, table, clock, app = rig
    guesser = browser(app, "192.168.1.66")
    for _ in range(TRIES):
        assert join(guesser, "ABCDEFGH").status_code == 404
    refused = join(guesser, seats.seats[1].code)  # even the right code, once over the limit
    assert refused.status_code == 429 and "wait a minute" in refused.json()["why"]
    assert table.asked == [] and seats.seats[1].binding is None
    clock.now += 60
    assert join(guesser, seats.seats[1].code).status_code == 200
    # Many clients together are held to ALL_TRIES a minute.
    clock.now += 60
    tried = 0
    for n in range(ALL_TRIES):
        tried += join(browser(app, f"10.0.0.{n}"), "ABCDEFGH").status_code == 404
    assert tried == ALL_TRIES
    assert join(browser(app, "10.0.1.1"), seats.seats[3].code).status_code == 429
    # A link's secret is not held off by that flood: it cannot be guessed.
    assert join(browser(app, "10.0.1.2"), seats.seats[3].token).json()["seat"] == 3


def test_a_tap_needs_the_seats_csrf_token_and_reaches_the_table(rig):
    seats, table, _, app = rig
    phone, other = browser(app), browser(app, "192.168.1.21")
    join(phone, seats.seats[1].token)
    join(other, seats.seats[3].token)
    mine, theirs = csrf_of(phone), csrf_of(other)
    table.asked.clear()
    press = {"button": "ok", "hold": False}
    for headers in ({}, ORIGIN, {**ORIGIN, "x-catnip-csrf": theirs},
                    {**ORIGIN, "x-catnip-csrf": "0" * 64}):
        assert phone.post("/seat/press", json=press, headers=headers).status_code == 403
    # The right token from another origin (a page elsewhere): refused by the Guard.
    assert phone.post("/seat/press", json=press, headers={
        "origin": "http://evil.example", "x-catnip-csrf": mine}).status_code == 403
    assert table.asked == []
    ok = phone.post("/seat/press", json={"button": "back", "hold": True},
                    headers={**ORIGIN, "x-catnip-csrf": mine})
    assert ok.status_code == 200 and table.asked == [
        ("press", {"seat": 1, "button": "back", "hold": True})]
    for bad in ({"button": "left"}, {"button": "ok", "hold": "yes"}):
        assert phone.post("/seat/press", json=bad, headers={
            **ORIGIN, "x-catnip-csrf": mine}).status_code == 400
    seats.connection(False)
    unplugged = phone.post("/seat/press", json=press, headers={**ORIGIN, "x-catnip-csrf": mine})
    assert unplugged.status_code == 503 and "unplugged" in unplugged.json()["why"]
    assert len(table.asked) == 1


def test_a_join_needs_an_origin_of_this_server(rig):
    seats, table, _, app = rig
    phone = browser(app)
    for headers in ({}, {"origin": "http://evil.example"}, {"origin": "null"}):
        assert join(phone, seats.seats[1].token, headers).status_code == 403
    assert table.asked == [] and seats.seats[1].binding is None


def test_reconnecting_claims_every_bound_seat_again(rig):
    seats, table, _, app = rig
    join(browser(app), seats.seats[3].token)
    table.asked.clear()
    seats.connection(False)
    seats.connection(True)
    assert table.asked == [("claim", {"seat": 3})]


def test_without_bind_phone_seats_are_unavailable_and_say_why(tmp_path):
    seats = Seats(Table())
    seats.game(1, [0])
    app = make_app(Hub(), tmp_path / "none.sqlite3", seats=seats)  # base() None: loopback
    b = TestClient(app, base_url="http://127.0.0.1:8000", client=("127.0.0.1", 5))
    page = b.get("/join")
    assert page.status_code == 404 and "--bind 0.0.0.0" in page.text
    assert b.post("/join", json={"secret": seats.seats[0].code},
                  headers={"origin": "http://127.0.0.1:8000"}).status_code == 404
    assert "unavailable" in b.get("/host").text and seats.seats[0].code not in b.get("/host").text


def test_the_join_page_takes_the_secret_from_the_fragment_only(rig):
    _, _, _, app = rig
    page = browser(app).get("/join")
    assert page.status_code == 200 and "join.js" in page.text
    script = browser(app).get("/static/join.js").text
    assert "location.hash" in script and "replaceState" in script
    assert phones.join_link(BASE, 2, "abc") == f"{BASE}/join#2.abc"


def test_serve_says_at_start_who_can_reach_what(tmp_path):
    from catnip_host.serve.cli import greeting
    from catnip_host.serve.site import Site

    alone = Site("unused", tmp_path / "s.sqlite3", "127.0.0.1", 0)
    shared = Site("unused", tmp_path / "s.sqlite3", "0.0.0.0", 0)
    try:
        said = greeting(alone, "127.0.0.1")
        assert "Only this computer" in said and "Phone seats are unavailable" in said
        assert "--bind 0.0.0.0" in said and alone.base is None
        said = greeting(shared, "0.0.0.0")
        assert "anyone on this network" in said and "never a hidden card" in said
        assert f"{shared.base}/join" in said and f"{shared.base}/host," in said
        code = shared.seats.hosts.code
        assert f"{code[:4]}-{code[4:]}" in said and "{" not in said
        assert shared.base is not None and not shared.base.startswith("http://0.0.0.0")
    finally:
        alone.server.sock.close()
        shared.server.sock.close()


def test_the_terminal_shows_each_new_join_code_once(tmp_path):
    from catnip_host.serve.site import Site

    said: list[str] = []
    site = Site("unused", tmp_path / "s.sqlite3", "127.0.0.1", 0, phones=True, say=said.append)
    try:
        site._seat_frame("begin", {"gid": 3, "phones": [1]})
        code = site.seats.seats[1].code
        assert len(said) == 1 and f"{code[:4]}-{code[4:]}" in said[0] and "█" in said[0]
        assert site.seats.seats[1].token not in said[0]  # drawn as a QR code, not written
        site._seat_frame("snap", {"gid": 3, "game": "heist", "public": {}, "phones": [1]})
        assert len(said) == 1
        site.seats.release(1)
        assert len(said) == 2 and site.seats.seats[1].code[:4] in said[1]
    finally:
        site.server.sock.close()
