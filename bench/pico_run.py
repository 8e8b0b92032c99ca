"""Runs of the firmware on the emulated Pico (bench/pico_rig.py): a boot with
presses scripted in the bench's scenario format, what the panels showed and
when, and a whole game played by buttons over as many boots as it takes."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


from bench.pico_flash import read_flash, read_text, repl_free
from bench.pico_rig import (BOOT_PRESSES, BOOTED_S, HOLD_MS, LINK_EXTRA_S, MAIN, PANELS, PLAN,
                            PRESS_EVERY_S, RAW_OK, READY, READY_AFTER_S, RESUME_PER_MOVE_S,
                            RESUME_S, ROOT, SETTLE_S, STATIONS, STOCK, STOCK_PRESS_EVERY_S, WORLD,
                            BenchError, _node, _stop, _tagged, _wait_for, _wait_for_output,
                            said)

import mpunix  # noqa: E402  (tests/, which pico_rig puts on the path)

# ---- running --------------------------------------------------------------


@dataclass
class Run:
    """What one bench run left in its output folder."""

    out: Path
    code: int
    summary: dict = field(default_factory=dict)
    resumed_ms: float | None = None  # from the press that resumed a game to its screens

    def panel(self, panel: str) -> dict:
        return json.loads((self.out / f"ssd1306_{panel}.json").read_text())

    def screens(self) -> dict[str, list[str]]:
        """The text on every panel, as a player reads it (devsim.glyphs)."""
        return read_text({p: self.panel(p) for p in PANELS})

    def hx711(self, cell: str) -> dict:
        return json.loads((self.out / f"hx711_{cell}.json").read_text())

    def events(self) -> list[dict]:
        with open(self.out / "events.jsonl") as f:
            return [json.loads(line) for line in f]

    def i2c(self) -> list[dict]:
        with open(self.out / "i2c.jsonl") as f:
            return [json.loads(line) for line in f]

    def said(self) -> list[str]:
        """The app's messages for the room ("say" frames on its USB serial)."""
        from catnip import wire

        out = []
        for line in (self.out / "serial.txt").read_bytes().split(b"\n"):
            at = line.find(wire.TABLE)
            if at < 0:
                continue
            try:
                _, kind, fields = wire.decode(line[at:])
            except wire.WireError:
                continue
            if kind == "say":
                out.append(fields["text"])
        return out

    def ready_s(self) -> float | None:
        """When (simulated s, on the scenario's time base) the app said it
        reads the buttons (READY), or None if it did not."""
        path = self.out / "serial.jsonl"
        if not path.exists():
            return None
        heard = b""
        with open(path) as f:
            for line in f:
                chunk = json.loads(line)
                if chunk.get("dir") != "d2h":
                    continue
                heard = heard[-len(READY):] + chunk["data"].encode("utf-8", "surrogateescape")
                if READY in heard:
                    return chunk["t"]
        return None

    @property
    def stdout(self) -> str:
        path = self.out / "run_stdout.txt"
        return path.read_text() if path.exists() else ""


Linked = Callable[[str, Callable[[], bool]], None]


def run(flash: Path, out: Path, until: float, scenario: list[dict] | None = None,
        script: Path | None = None, world: Path | dict = WORLD, files: Path | None = None,
        timeout: float = 1800, linked: Linked | None = None, uf2: Path | None = None,
        repl: Linked | None = None) -> Run:
    """Power the Pico on from `flash` (saved back at the end) in `world` for
    `until` simulated seconds (or, with `script`, until that local script ends
    at the REPL), with the scenario timed from power-on. `files` are copied onto
    the Pico's filesystem first.

    With `linked`, the Pico's USB serial is served to a laptop:
    linked(url, running) is called with its socket:// URL once the bench
    serves it, and the bench is stopped when it returns (`running()` says
    whether the bench still runs). The bench serves only once the REPL prompt
    is up, so the app is started from there: a main.py that keeps the REPL
    free goes onto the flash image (left so), firmware/main.py is sent
    through the raw REPL, and the
    scenario and `until` are timed from that moment. `uf2`: the firmware
    (default: the catnip image).

    With `repl`, the app starts at power-up as at a table, and once a Ctrl-C
    in the scenario has stopped it and the REPL's prompt shows, the bench
    serves the USB serial: repl(url, running) is called as `linked` is."""
    if linked is not None and script is not None:
        raise ValueError("a linked run starts the app through the raw REPL: it takes no script")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    if isinstance(world, dict):
        (out.parent / f"{out.name}.world.json").write_text(json.dumps(world))
        world = out.parent / f"{out.name}.world.json"
    args = _node(uf2) + ["--world", str(world), "--flash-image", str(flash), "--out", str(out),
                         "--timeout", str(int(timeout)), "--quiet"]
    if repl is not None:
        args += ["--port", "0", "--t0", "reset"]
    elif linked is None:
        args += ["--no-bridge", "--t0", "reset"]
    else:
        repl_free(flash, flash)
        args += ["--port", "0", "--run", str(MAIN), "--t0", "run"]
    if scenario:
        path = out.parent / f"{out.name}.scenario.json"
        path.write_text(json.dumps(scenario))
        args += ["--scenario", str(path)]
    if files is not None:
        args += ["--files", str(files)]
    if script is not None:
        args += ["--run", str(script)]
    else:
        args += ["--until", f"{until:.6f}"]
    if repl is not None:
        code, stderr = _served(args, out, repl, started=None)
    elif linked is None:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout + 60)
        code, stderr = proc.returncode, proc.stderr
    else:
        code, stderr = _served(args, out, linked)
    if code == 2 or code == 3:
        raise BenchError(f"bench exit {code}: {stderr.strip()[-800:]}")
    summary = json.loads((out / "summary.json").read_text())
    return Run(out, code, summary)


def _served(args: list[str], out: Path, linked: Linked,
            started: bytes | None = RAW_OK) -> tuple[int, str]:
    """Run the bench with its USB serial served while `linked` talks to it,
    once the Pico has said `started` (None: at once); (exit code, stderr)."""
    bench = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # The bench serves once the REPL prompt shows: at once for a linked
        # run, once the app has stopped for a `repl` run (up to 300 s).
        port = _wait_for(out / "port", bench, 120 if started else 330)
        # Until the raw REPL has taken main.py, what the laptop sends would be
        # read as part of it; from then on it is the app's input, as on a board.
        if started is not None:
            _wait_for_output(out / "serial.txt", started, bench, 120)
        linked(f"socket://127.0.0.1:{port}", lambda: bench.poll() is None)
    finally:
        _stop(bench)
    return bench.returncode, said(bench)


def boot(flash: Path, out: Path, until: float, scenario: list[dict],
         linked: Linked | None = None, uf2: Path | None = None,
         repl: Linked | None = None) -> tuple[Run, float]:
    """run() a power-up with `scenario`'s presses, checking that the first
    came once the app read the buttons (READY_AFTER_S after READY): a press
    before then is lost, and every later one would land a step off. If it
    came too early, the boot is run again from the flash it started from with
    the scenario and `until` later by as much as that takes. (run, how many
    seconds later it all was: 0.0 if in time.) A linked boot (a laptop's
    session) is not run twice: a press too early is a BenchError then."""
    before = out.parent / f"{out.name}.flash-before"
    shutil.copy(flash, before)
    shift = 0.0
    for _ in range(3):
        moved = [dict(a, t=round(a["t"] + shift, 3)) for a in scenario]
        r = run(flash, out, until + shift, moved, linked=linked, uf2=uf2, repl=repl)
        ready = r.ready_s()
        if ready is None:
            raise BenchError(f"{out.name}: the app never said it reads the buttons "
                             f"({READY.decode()!r}) within {until + shift:.2f} s")
        late = round(ready + READY_AFTER_S - moved[0]["t"], 3) if moved else 0.0
        if late <= 0:
            before.unlink()
            return r, shift
        if linked is not None:
            raise BenchError(f"{out.name}: the first press came at {moved[0]['t']} s, before "
                             f"the app read the buttons at {ready:.3f} s")
        shutil.copy(before, flash)
        shift = round(shift + late + 0.05, 3)  # 50 ms more: two boots differ a little
    raise BenchError(f"{out.name}: the app read the buttons later at every boot "
                     f"({ready:.3f} s at the last)")


def first_pixels(run: Run, after: float) -> float | None:
    """ms from `after` (simulated s) to the first frame data on a station panel."""
    for d in run.i2c():
        if d["t"] > after and d.get("to") and d["to"][0].startswith("st") and d.get("n", 0) > 2:
            return round((d["t"] - after) * 1000, 1)
    return None


def pace(uf2: Path | None) -> float:
    """Seconds from a press to the next on the firmware `uf2`."""
    return STOCK_PRESS_EVERY_S if uf2 == STOCK else PRESS_EVERY_S


def presses(plan: list[list], start: float, every: float = PRESS_EVERY_S,
            first_takes: float = 0.0) -> list[dict]:
    """A plan's [station, button] presses as scenario actions from `start`;
    the second comes `first_takes` seconds later than the rest would."""
    return [{"t": round(start + i * every + (first_takes if i else 0), 3), "do": "press",
             "id": f"st{st}_{button}", "hold_ms": HOLD_MS} for i, (st, button) in enumerate(plan)]


def resume_takes(moves: int) -> float:
    """How long to leave the Pico after the press that resumes a game of
    `moves` moves. The app reads no button while it rebuilds the game (it
    imports the game's modules and replays every move), so a press meanwhile
    would be lost; players wait for their screens too."""
    return RESUME_S + RESUME_PER_MOVE_S * moves




def plan(game: str, options: dict, seats: list[int], state: Path, stage: str) -> dict:
    """tests/pico/plan.py on the simulated table: the presses that play `stage`
    from what the Pico's flash holds (copied to `state`)."""
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "request.json"
        req.write_text(json.dumps({"game": game, "options": options, "seats": seats,
                                   "stations": STATIONS, "dir": str(state), "stage": stage}))
        proc = mpunix.run([str(PLAN), str(req)], path=[ROOT / "tests" / "shared"], timeout=600)
    return _tagged(proc, "PLAN")




# ---- a whole game by buttons ------------------------------------------------------


@dataclass
class Played:
    """A game played on the emulated Pico: what the simulated table says it
    must come to (`expected`: the plan with the Pico's own seed, uninterrupted)
    and what the Pico did (`runs`, the final panel text, the journal)."""

    expected: dict
    runs: list[Run]
    screens: dict[str, list[str]]
    journal: Path
    cuts: list[dict]


def start(flash: Path, work: Path, game: str, options: dict, seats: list[int],
          uf2: Path | None = None) -> Run:
    """Power up the Pico on `flash` and press through the setup menu until
    `game` starts: the Pico draws its seed and journals the game's header."""
    state = read_flash(flash, work / "state-setup")
    setup = plan(game, options, seats, state, "setup")
    step = pace(uf2)
    return boot(flash, work / "run-setup", BOOTED_S + len(setup["presses"]) * step + SETTLE_S,
                presses(setup["presses"], BOOTED_S, step), uf2=uf2)[0]


def finish(flash: Path, work: Path, game: str, options: dict, seats: list[int],
           cut_at=None, linked: Linked | None = None, uf2: Path | None = None) -> Played:
    """Play the game the Pico on `flash` has started to its standings by
    pressing buttons. `cut_at(plan, scenario)` may give a time (simulated
    seconds after power-on) to cut the power in the boot about to play `plan`
    with `scenario`, or None to
    let it play out: the next boot resumes from the journal, and the presses
    are worked out again from what the flash kept. A boot with more than
    BOOT_PRESSES presses left ends after that many, settled, and the next boot
    resumes the same way (not a cut). With `linked`, every boot has a laptop
    on its USB serial (see run())."""
    state = read_flash(flash, work / "state0")
    expected = plan(game, options, seats, state, "game")
    todo = expected
    runs: list[Run] = []
    cuts: list[dict] = []
    start_s = BOOTED_S  # the last boot's app read its buttons in time for this
    step = pace(uf2)
    most = round(BOOT_PRESSES * PRESS_EVERY_S / step)  # 20 s of table time a boot
    while True:
        scenario = presses(todo["presses"], start_s, step,
                           first_takes=resume_takes(todo.get("moves_before") or 0))
        (work / f"run{len(runs)}.plan.json").write_text(json.dumps(todo))
        cut = cut_at(todo, scenario) if cut_at is not None else None
        # Unplugged after `most` presses, unless the game's last move is made
        # by then: the presses after it only read the end, which a resumed
        # game would not show again.
        unplugged = cut is None and linked is None and len(scenario) > most \
            and todo["moves_after"][most - 1] < todo["moves_after"][-1]
        if unplugged:
            scenario = scenario[:most]
            cut = scenario[-1]["t"] + SETTLE_S
        until = scenario[-1]["t"] + SETTLE_S if cut is None else cut
        if linked is not None and cut is None:
            until += LINK_EXTRA_S
        booted, shift = boot(flash, work / f"run{len(runs)}", until, scenario, linked=linked,
                             uf2=uf2)
        runs.append(booted)
        if shift:  # the app was ready later: so was everything, the cut too
            scenario = [dict(a, t=round(a["t"] + shift, 3)) for a in scenario]
            cut = None if cut is None else cut + shift
            start_s += shift
        runs[-1].resumed_ms = first_pixels(runs[-1], scenario[0]["t"])
        if cut is None:
            break
        state = read_flash(flash, work / f"state{len(runs)}")
        done = [a for a in scenario if a["t"] <= cut]
        before = todo
        todo = plan(game, options, seats, state, "game")
        if unplugged:
            continue
        cuts.append({"at_s": cut, "presses_before_cut": len(done),
                     "since_last_press_ms": round((cut - done[-1]["t"]) * 1000) if done else None,
                     "moves_at_boot": before["moves_before"],
                     "moves_pressed": before["moves_after"][len(done) - 1] if done else None,
                     "moves_kept": todo["moves_before"]})
    journal = read_flash(flash, work / "final")
    return Played(expected, runs, runs[-1].screens(), journal, cuts)
