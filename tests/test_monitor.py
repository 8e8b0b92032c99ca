"""The live mirror (`catnip monitor`, and beside the virtual table's stations
through a pty), and `catnip sessions list/show`."""

from __future__ import annotations

import os
import select
import threading
import time

import pytest
from click.testing import CliRunner
from rich.console import Console

from catnip import wire
from catnip_host.cli import main
from catnip_host.monitor import Mirror
from catnip_host.simlink import SimMirror
from catnip_host.store import Store
from test_link import Table
from tampering import numbered
from test_verify import _frames


def _shown(mirror: Mirror) -> str:
    console = Console(record=True, width=110)
    console.print(mirror.render())
    return console.export_text()


@pytest.mark.parametrize(("name", "words"), [
    ("heist", ["Meow Heist", "round", "safe card", "in the safe", "choosing", "shield"]),
    ("stack", ["Stack O' Cats", "tower", "in the bag", "score"]),
    ("purrfect", ["Purrfect", "pawprints", "meows", "open offers"]),
])
def test_the_mirror_shows_what_the_rules_make_public(name, words):
    from catnip import rules

    frames = _frames(name, {"players": 4} if name == "purrfect" else None)
    mirror = Mirror()
    header = frames[0][1]["header"]
    public = rules.new(name, header["config"], "v").public()
    for kind, f in frames:
        if kind in ("begin", "act"):
            mirror.apply(kind, f)
        if kind == "begin":
            mirror.apply("snap", {"gid": 1, "game": name, "public": public})
    text = _shown(mirror)
    for word in words:
        assert word in text, (word, text)
    assert "move" in text and "events" in text
    mirror.apply("end", [f for k, f in frames if k == "end"][0])
    assert "standings" in _shown(mirror)


def test_the_mirror_shows_the_trays_proposal_and_lean_in_a_stack_game():
    from catnip import rules

    frames = _frames("stack", None)
    mirror = Mirror()
    mirror.apply("begin", frames[0][1])
    public = rules.new("stack", frames[0][1]["header"]["config"], "v").public()
    mirror.apply("snap", {"gid": frames[0][1]["gid"], "game": "stack", "public": public})
    assert "tray" not in _shown(mirror)  # a table that said nothing of a tray
    mirror.apply("tray", {"proposes": "place", "value": 1, "conf": 87, "lean": [612, 433, -433],
                          "fault": None})
    assert "the tray saw 1 cat placed, 87% sure; lean 61% to the right-front" in _shown(mirror)
    mirror.apply("tray", {"proposes": "collapse", "value": 2, "conf": 0, "lean": [20, 10, 17],
                          "fault": "sensor stuck"})
    shown = _shown(mirror)
    assert "the tray asks how many fell (2 or more?); lean centred; tray: sensor stuck" in shown
    mirror.apply("tray", {"proposes": "place", "lean": "far"})  # not what a tray frame holds
    assert "malformed tray frame was skipped" in _shown(mirror)
    assert mirror.tray["fault"] == "sensor stuck"  # the last good one stays


def test_an_event_reads_as_one_line():
    mirror = Mirror()
    mirror.apply("act", {"gid": 1, "n": 3, "events": [
        {"type": "steal", "player": 2, "from": 0, "card": 4, "loot": [0, 1, 0, 0]},
        {"event": "over", "reason": "the bag is empty"}]})
    assert list(mirror.feed) == ["P3 reveals the 4 too and steals 1 yellow from P1",
                                 "The game ends: the bag is empty"]


def test_the_mirror_beside_the_virtual_table_talks_through_a_pty(tmp_path):
    """The firmware's line on one end (here under CPython), the monitor's
    Keeper and Mirror on the other, opened by path like a Pico's port."""
    sim = SimMirror(tmp_path / "s.sqlite3")
    table = Table(tmp_path)
    table.port.write = lambda data: os.write(sim.fd, data)
    stop = threading.Event()

    def firmware():
        while not stop.is_set():
            if select.select([sim.fd], [], [], 0.01)[0]:
                try:
                    table.line.feed(os.read(sim.fd, 256))
                except OSError:
                    return

    thread = threading.Thread(target=firmware, daemon=True)
    thread.start()
    sim.start()
    try:
        deadline = time.monotonic() + 10
        while "connected" not in sim.mirror.status or sim.mirror.frames == 0:
            assert time.monotonic() < deadline, sim.mirror.status
            time.sleep(0.02)
        table.say("Station 2 is back")
        while not any("Station 2 is back" in line for line in sim.mirror.feed):
            assert time.monotonic() < deadline, list(sim.mirror.feed)
            time.sleep(0.02)
        assert "virtual table on /dev/pts/" in _shown(sim.mirror)
    finally:
        stop.set()
        thread.join()
        sim.stop()
    store = Store(tmp_path / "s.sqlite3")
    kinds = [f.kind for f in store.frames(1)]
    assert kinds[:4] == ["hello", "clock", "snap", "synced"] and "say" in kinds  # clock: set on hello


def test_sessions_list_and_show(tmp_path):
    path = tmp_path / "s.sqlite3"
    runner = CliRunner()
    Store(path).close()  # an empty store (a path naming none is refused)
    empty = runner.invoke(main, ["sessions", "list", "--store", str(path)])
    assert empty.exit_code == 0 and "no sessions" in empty.output
    store = Store(path)
    sid = store.session("e6614103e7", "b00t", "direct", "0.1.0")
    for seq, kind, f in numbered(_frames()):  # as the table's line numbers them
        store.frame(sid, seq, kind, f.get("gid"), wire.encode(kind, seq, f)[:-1])
    store.gap(sid, 3, 4, "test")
    listed = runner.invoke(main, ["sessions", "list", "--store", str(path)])
    assert listed.exit_code == 0 and "direct" in listed.output, listed.output
    shown = runner.invoke(main, ["sessions", "show", str(sid), "--store", str(path)])
    assert shown.exit_code == 0 and "begin" in shown.output and "gap: frames 3-4" in shown.output
    raw = runner.invoke(main, ["sessions", "show", str(sid), "--raw", "--store", str(path)])
    assert raw.stdout_bytes.count(b"\x1e#1 ") == len(_frames()) + 1  # and the acknowledgement
    verified = runner.invoke(main, ["replay", str(sid), "--verify", "--store", str(path)])
    assert verified.exit_code == 0, verified.output
    assert runner.invoke(main, ["sessions", "show", "7", "--store", str(path)]).exit_code == 1


def test_the_monitor_says_which_build_the_table_runs_and_when_it_is_not_this_one():
    from catnip_host import bundle

    mirror = Mirror()
    mirror.table_build({"fw": bundle.VERSION, "src": bundle.digest(), "build": "image"})
    assert f"runs catnip {bundle.VERSION} from the catnip image, sources {bundle.digest()}: " \
        "the same as this catnip's" in mirror.feed[-1]
    mirror.table_build({"fw": "0.0.9", "src": "0123456789ab", "build": "files"})
    shown = mirror.feed[-1]
    assert "NOTE: the table runs catnip 0.0.9 from .mpy files on its flash, sources " \
        "0123456789ab, but this catnip is" in shown
    assert "`catnip flash` (or `catnip deploy` to keep stock MicroPython)" in shown


def test_a_monitor_logging_with_no_table_says_so_once_not_at_every_retry(monkeypatch, tmp_path):
    # `catnip monitor > log` for a minute with no Pico: it retries five times a
    # second, on a clock that only these retries move.
    from catnip_host import link, monitor, ports

    clock = [0.0]

    def sleep(seconds: float) -> None:
        clock[0] += seconds
        if clock[0] >= 60:
            raise KeyboardInterrupt  # the person stops it

    def no_pico() -> str:
        raise ports.PortError("no Pico found on USB (looking for 2E8A:0005)")

    monkeypatch.setattr(link, "time", type("Clock", (), {"sleep": staticmethod(sleep)}))
    monkeypatch.setattr(ports, "find_pico", no_pico)
    console = Console(file=open(tmp_path / "log", "w"), force_terminal=False)
    monitor.watch(None, Store(tmp_path / "s.sqlite3"), console)
    console.file.close()
    lines = (tmp_path / "log").read_text().splitlines()
    assert clock[0] >= 60 and len(lines) == 1, lines
    assert lines[0].endswith("no Pico found on USB (looking for 2E8A:0005)")


def test_standings_of_any_shape_are_drawn_as_text():
    # Found by the Keeper's fuzz door: a result bent so that a standings'
    # head was a number stopped the mirror's drawing.
    from catnip_host.monitor import Mirror

    mirror = Mirror()
    mirror.result = {"x": 1}
    mirror.standings = lambda: ("the game is over", [1.5, "[bold]seat"], [[2.5, "[red]Al"]])
    console = Console(file=open(os.devnull, "w"), width=100, record=True)
    console.print(mirror.render())
    text = console.export_text()
    assert "1.5" in text and "[bold]seat" in text and "[red]Al" in text and "2.5" in text
