"""Playing at the virtual table in this terminal."""

from __future__ import annotations

import json
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from catnip import wire

from catnip_host.sim.keyboard import Keyboard
from catnip_host.sim.mirror import _site, laptop_mirror
from catnip_host.sim.paths import SimError, board_file, command, interpreter, journal_dir
from catnip_host.sim.process import Table
from catnip_host.sim.record import Recorder
from catnip_host.sim.scenario import load_scenario
from catnip_host.sim.settings import Settings
from catnip_host.sim.state import TableState
from catnip_host.sim.terminal import Terminal


def interactive(board: str | None = None, journal: Path | None = None, seed: str | None = None,
                stations: int | None = None, script: Path | None = None,
                store: Path | Literal[False] | None = None, serve_port: int | None = None,
                snapshots: Path | None = None, record: Path | None = None,
                names: list[str] | None = None) -> None:
    """Play at the virtual table in this terminal until q or Ctrl-C; with a
    scenario, watch it play in real time first (from a fresh flash folder
    unless `journal` is given), then play on. With `serve_port`, the
    laptop's mirror is `catnip serve`'s too, on that port of this computer.
    `S` saves a screen in `snapshots` (default: the per-user snapshots
    folder). With `record`, the session is written there as a scenario when
    it ends: played from a fresh flash folder (unless `journal` is given)
    with a seed (a new one unless `seed` is given), so --script plays it
    again. `names` go to the table as `catnip names` sends them, once the
    laptop's side is connected."""
    from rich.console import Console
    from rich.live import Live

    console = Console()
    if not console.is_terminal:
        raise SimError("the virtual table needs a terminal; for a script use --script FILE "
                       "--headless")
    if record is not None and script is not None:
        raise SimError("--record writes down a session played by hand; leave out --script")
    if record is not None and seed is None:
        seed = secrets.token_hex(8)  # the scenario deals the same cards again
    from_fresh = (script is not None or record is not None) and not journal
    fresh = tempfile.TemporaryDirectory(prefix="catnip-sim-") if from_fresh else None
    flash = journal or (Path(fresh.name) if fresh else journal_dir())
    named = load_scenario(script).get("board") if script is not None else None
    mirror = laptop_mirror(store)
    site = _site(mirror, serve_port) if serve_port is not None else None
    recorder: Recorder | None = None
    table = Table(command(board_file(board or named or "direct"), flash, "live", seed, stations,
                          script.resolve() if script else None,
                          mirror.fd if mirror is not None else None),
                  detach=True, pass_fds=(mirror.fd,) if mirror is not None else ())
    state = TableState()
    state.feed.append(f"the firmware runs on {interpreter().name}")
    try:
        table.wait_ready(state)
        if names is not None:
            try:
                wire.check_names(names, state.stations)
            except wire.WireError as e:
                raise SimError(f"--names: {e}") from None
        if site is not None:
            site.say = state.feed.append  # the phone seats' links, as a game with them begins
            site.start()
            state.feed.append(f"catnip serve: the table live at {site.url}/, phone seats at "
                              f"{site.url}/join")
        elif mirror is not None:
            mirror.start()
        # Who has the table's line: catnip serve's follower, else the mirror's own thread.
        laptop = site.follower if site is not None else mirror
        send: Callable[[str], None] = table.send
        if record is not None:
            recorder = Recorder(record, board or "direct", seed or "", stations)
            send = recorder.wrap(table.send)
            state.feed.append(f"recording to {record}: q saves it")
        ui = Terminal(state, send, lambda: tuple(console.size), mirror, Settings.load(),
                      snapshots)
        with Keyboard() as keyboard, Live(ui, console=console, screen=True,
                                          auto_refresh=False) as live:
            playing = True
            size = console.size
            while playing:
                changed = console.size != size  # a resized terminal is drawn again
                if ui.laptop and mirror.mirror.changed:
                    changed = True
                size = console.size
                for m in table.drain():
                    state.apply(m)
                    changed = True
                if names is not None and (laptop is None or laptop.idle):
                    _send_names(table, laptop, names)
                    if recorder is not None:
                        recorder.names(names)
                    names = None
                if table.proc.poll() is not None:
                    break
                try:
                    keys = keyboard.read(0.03)
                except KeyboardInterrupt:
                    keys = ["ctrl-c"]
                for key in keys:
                    playing = playing and ui.key(key)
                    changed = True
                if changed:
                    live.refresh()
    except KeyboardInterrupt:
        pass
    finally:
        table.close()
        if recorder is not None:
            recorder.save()
        if site is not None:
            site.stop()
        if mirror is not None:
            mirror.stop()
        if fresh is not None:
            fresh.cleanup()
    if state.crash is not None:
        raise SimError("the table app stopped with an error:\n" + state.crash)
    if table.proc.returncode not in (0, None):
        raise SimError("the virtual table stopped: " + table.errors())


def _send_names(table: Table, laptop, names: list[str]) -> None:
    """The players' names on the table's serial line: through the laptop's
    side (the mirror, or catnip serve's follower) when it has the line, else
    the table's own input."""
    if laptop is not None and laptop.keeper is not None:
        laptop.keeper.request("names", names=names)
    else:
        table.send("serial names " + json.dumps({"names": names}))
