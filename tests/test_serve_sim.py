"""`catnip sim --serve`: the virtual table in the terminal, and the same
table live in the browser's page, followed through its pty as a Pico is."""

from __future__ import annotations

import json
import urllib.request

from catnip_host.serve.app import listen
from serverig import wait_for
from test_sim import Pty, needs_a_terminal


def _state(port: int) -> dict:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/state.json", timeout=5) as r:
            return json.loads(r.read())
    except OSError:
        return {}


@needs_a_terminal
def test_the_virtual_table_is_served_live_while_it_is_played(tmp_path):
    probe = listen("127.0.0.1", 0)
    port = probe.getsockname()[1]
    probe.close()
    store = tmp_path / "games.sqlite3"
    term = Pty("--journal", str(tmp_path), "--store", str(store), "--serve", str(port))
    try:
        term.read_until(b"catnip setup")
        wait_for(lambda: _state(port).get("connected"), 30, "the page never saw the table")
        term.type(b"\r")  # OK on station 1: Meow Heist with every station
        term.read_until(b"Choose a card")
        wait_for(lambda: _state(port).get("game") == "heist", 30, "the page never saw the game")
        term.type(b"\r")  # station 1 locks a card
        wait_for(lambda: (s := _state(port)).get("moves") == 1  # the move, then its state
                 and s["public"]["seats"][0]["committed"], 30, "the page never saw the lock")
    finally:
        assert term.quit() == 0
    assert b"Traceback" not in term.seen
    assert store.exists()  # the page's evening reads the store the games go to


@needs_a_terminal
def test_a_port_in_use_stops_the_virtual_table_with_the_reason(tmp_path):
    taken = listen("127.0.0.1", 0)
    try:
        term = Pty("--journal", str(tmp_path), "--serve", str(taken.getsockname()[1]))
        term.read_until(b"is in use")
        assert term.proc.wait(timeout=20) == 1
    finally:
        taken.close()


@needs_a_terminal
def test_serve_takes_every_other_option_of_a_session_played_by_hand(tmp_path):
    """--serve with --names (sent through the page's own link to the table),
    --board, --stations, --journal, --seed, --store, --record and
    --snapshots: each does its part, none drops another."""
    probe = listen("127.0.0.1", 0)
    port = probe.getsockname()[1]
    probe.close()
    store, out = tmp_path / "games.sqlite3", tmp_path / "evening.json"
    flash = tmp_path / "flash"
    flash.mkdir()
    term = Pty("--board", "mux", "--stations", "5", "--journal", str(flash), "--seed", "all1",
               "--store", str(store), "--record", str(out), "--snapshots", str(tmp_path / "png"),
               "--names", "Ana,Bo,-,Dee,Eve", "--serve", str(port))
    try:
        term.read_until(b"catnip setup")
        term.read_until(b"recording to")
        wait_for(lambda: _state(port).get("connected"), 30, "the page never saw the table")
        term.read_until(b"the stations are named: Ana, Bo, -, Dee, Eve")
        term.read_until(b"You: Ana")
        term.type(b"S")  # a snapshot of the focused station
        term.read_until(b"saved")
    finally:
        assert term.quit() == 0
    assert b"Traceback" not in term.seen
    assert json.loads((flash / "names.json").read_text())["boards"]["mux"] == \
        ["Ana", "Bo", "", "Dee", "Eve"]
    recorded = json.loads(out.read_text())
    assert recorded["board"] == "mux" and recorded["seed"] == "all1"
    assert {"names": ["Ana", "Bo", "", "Dee", "Eve"]} in recorded["steps"]
    assert list((tmp_path / "png").glob("*.png"))
