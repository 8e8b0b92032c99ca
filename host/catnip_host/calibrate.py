"""`catnip calibrate`: walk a maker through calibrating the table's tray over
the link. The table does the weighing and keeps the steps (catnip.table.calibrate
in the firmware): the empty base, then cats one at a time, and with four
load cells one cat above each corner. This side says what to do next in the
table's words, asks the maker when the tray is ready, shows the figures after
each weighing, and prints every refusal as the table words it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from catnip import wire
from catnip_host.ports import Link

HELLO_TRIES = 3
ANSWER_S = 3.0  # beyond a weighing's own length: the table answers when it ends
KEYS = {"cat": "a", "corner": "c", "save": "s", "empty": "r", "abort": "q"}
LABELS = {"cat": "add a cat", "corner": "weigh the corners", "save": "save",
          "empty": "start over", "abort": "stop"}


class CalibrationError(Exception):
    """The calibration cannot go on; the message says why."""


class Refused(Exception):
    """The table refused a step; the message is its words."""


def pct(pm: int) -> str:
    return f"{pm / 10:.1f}%"


class Talk:
    """Commands and their answers on `link`: one at a time, waiting for the
    frame that answers it. What else arrives (the table's messages, stray
    REPL output) goes to `heard`."""

    def __init__(self, link: Link, heard: Callable[[str], None] = lambda text: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.heard = heard
        self.clock = clock

    def ask(self, kind: str, timeout: float, **fields) -> tuple[str, dict] | None:
        """Send a command; its answer (kind, fields), or None after `timeout` s.
        An "err" answer raises Refused."""
        cmd = self.link.send(kind, **fields)
        deadline = self.clock() + timeout
        while self.clock() < deadline:
            for item in self.link.read():
                if item[0] != "frame":
                    continue
                _, seq, answer, got, _ = item
                if answer == wire.SAY:
                    self.heard(got.get("text", ""))
                elif not seq and got.get("re") == cmd:
                    if answer == wire.ERR:
                        raise Refused(got.get("why", "the table refused it"))
                    return answer, got
        return None


@dataclass
class Walk:
    """One calibration, as the maker sees it."""

    talk: Talk
    console: Console
    prompt: Callable[[str], str]
    state: dict = field(default_factory=dict)
    rows: list[tuple[str, ...]] = field(default_factory=list)

    def hello(self) -> None:
        for _ in range(HELLO_TRIES):
            got = self.talk.ask("hello", 1.0)
            if got is not None:
                break
        else:
            raise CalibrationError("the table does not answer: is catnip running on it? "
                                   "(`catnip monitor` shows what it says)")
        hello = got[1]
        if hello.get("proto") != wire.VERSION:
            raise CalibrationError(f"the table speaks protocol {hello.get('proto')}, this "
                                   f"catnip {wire.VERSION}: update the older one")
        self.console.print(f"Table {hello.get('board')} (firmware {hello.get('fw')}).")

    def step(self, step: str) -> dict:
        """One step; the table's answer fields. Refused passes through."""
        wait = self.state.get("capture_ms", 2000) / 1000 + ANSWER_S
        got = self.talk.ask("calibrate", wait, step=step)
        if got is None:
            raise CalibrationError(f"the table did not answer the {step} step within "
                                   f"{wait:g} s: check the cable and try again")
        return got[1]

    def run(self) -> bool:
        """The whole calibration; True once saved, False if the maker stopped."""
        self.hello()
        try:
            self.state = self.step("begin")
        except Refused as e:
            raise CalibrationError(str(e)) from None
        cells = self.state["cells"]
        self.console.print(f"Calibrating a tray of {cells} load cell{'s' if cells > 1 else ''} "
                           f"at {self.state['rate_hz']} readings a second. Each weighing "
                           f"takes {self.state['capture_ms'] / 1000:g} s.")
        try:
            return self._steps()
        except (KeyboardInterrupt, EOFError):
            self._stop()
            return False

    def _steps(self) -> bool:
        while True:
            step = self._choose()
            if step == "abort":
                self._stop()
                return False
            if step != "save":
                self.console.print("Weighing: hands off the tray...")
            try:
                answer = self.step(step)
            except Refused as e:
                self.console.print(f"[red]Not taken:[/red] {e}")
                continue
            self.state.update(answer)
            if step == "save":
                self._saved(answer)
                return True
            self._show(step, answer)

    def _choose(self) -> str:
        nxt = self.state["next"]
        self.console.print(f"\n[bold]{self.state['say']}[/bold]")
        options = [f"Enter: {self._label(nxt[0])}"]
        options += [f"{KEYS[s]}: {self._label(s)}" for s in nxt[1:]]
        while True:
            answer = self.prompt("  ".join(options)).strip().lower()
            if not answer:
                return nxt[0]
            for s in nxt:
                if answer == KEYS[s]:
                    return s
            self.console.print(f"[yellow]{answer!r} is not one of the choices[/yellow]")

    def _label(self, step: str) -> str:
        s = self.state
        if step == "cat":
            return f"weigh cat {s['cats'] + 1}"
        if step == "corner":
            return f"weigh corner {s['corners'] + 1}" if s["corners"] else LABELS[step]
        if step == "empty" and s["next"][0] == "empty":
            return "weigh the empty base"
        return LABELS[step]

    def _show(self, step: str, a: dict) -> None:
        if step == "empty":
            self.rows = []
            self.console.print("[green]Empty base weighed.[/green]")
            return
        if step == "corner":
            self.console.print(f"[green]Corner {a['corners']} ({a['corner']}) weighed.[/green]")
            if "gain_pm" in a:
                self.console.print("Cell gains (of their mean): "
                                   + ", ".join(pct(g) for g in a["gain_pm"]))
            return
        if "problem" in a:
            self.console.print(f"Cat {a['cats']} added {a['added']} counts. "
                               f"[yellow]{a['problem']}[/yellow]")
            return
        differ = pct(a["sd_pm"]) if a["cats"] > 1 else "-"
        self.rows.append((str(a["cats"]), str(a["added"]), str(a["per_cat"]), differ,
                          f"{a['noise']} ({pct(a['noise_pm'])})"))
        t = Table("cat", "it added", "one cat", "cats differ", "noise", title="Counts so far")
        for row in self.rows:
            t.add_row(*row)
        self.console.print(t)

    def _saved(self, a: dict) -> None:
        # A path is never broken by an inserted newline: the terminal wraps it.
        self.console.print(f"[green]Saved on the table:[/green] {escape(a['file'])}",
                           soft_wrap=True)
        self.console.print(f"One cat is {a['per_cat']} counts; cats differ by "
                           f"{pct(a['sd_pm'])}; the "
                           f"noise is {a['noise']} counts, {pct(a['noise_pm'])} of a cat; "
                           f"measured with {a['cats']} cats.")
        if "gain_pm" in a:
            self.console.print("Cell gains: " + ", ".join(pct(g) for g in a["gain_pm"]))
        self.console.print("The next Stack O' Cats game weighs with it.")

    def _stop(self) -> None:
        try:
            self.step("abort")
        except (Refused, CalibrationError):
            pass  # stopped already (at a station), or gone: nothing was saved either way
        self.console.print("Stopped: nothing saved; the table keeps the calibration it had.")
