"""The tray's proposals over scripted evenings of Stack O' Cats, as players see them.

Each evening is three 4-player games played onto a load-cell trace
(devsim/sessions.py) in the rules' order: the player draws, tries, and after a
collapse the fallen cats lying on the tray are lifted off while the same
player tries again (cleanup between retries), until a cat stands. Falling
cats strike the tray and stay on it, bounce off, or fall clear (cats landing
on the tray); a hand now and then touches the tower during an attempt;
after three collapses in ten the fallen cats are lifted off before the
player reports (the try is still open then, and the tray sees more cats
leave).
Heights come from a wide tower: a cat goes on top of the highest one
standing half the time, level with a standing cat three times in ten, and
at any height up to the top otherwise.

The readings go through the tray chain the table runs: catnip.table.weigh.Weigh
(the app's glue: an attempt per try, the verdict on each settled and
collapse event, the proposal clamped to the rules and put on the active
station) on catnip.tray.Tray. This runs under CPython, not in the virtual
table (a MicroPython process stepping the app every 10 ms would take minutes
an evening); what it leaves out is the stations' drawing and buttons. The
player reads the proposal on the station when the try is over (the station's
row, catnip.ui.stack.tray_label) and reports the truth.

Per data rate and noise level it reports: proposals the player accepted
unchanged (of the tries that ended with one on the station), wrong proposals
shown at 90 % or more (the target: 0), questions (the tray asked, shown with
no percentage) and how often their starting value was right, tries with no
proposal (the manual path), cleanups proposed as a collapse, and what a
player who presses OK on everything would report that the tray did not see
(target 0: no number is pre-filled that the tray cannot know).
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import bench

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))

from catnip.keys import OK, PRESS  # noqa: E402
from catnip.rules import new  # noqa: E402
from catnip.tray.calibrator import Calibrator  # noqa: E402
from catnip.ui import stack as stack_ui  # noqa: E402
from catnip.table.weigh import Weigh  # noqa: E402
from devsim.sessions import Session  # noqa: E402

PER_CAT = 4300
OFFSET = 21000  # the empty base's reading, as on the virtual table
PLAYERS = 4
GAMES = 3  # an evening
EVENINGS = bench.sized("CATNIP_BENCH_EVENINGS", 3, 12)
SURE = 90  # a proposal shown at this percentage or more must be right
TIDY_FIRST = 30  # percent of collapses whose fallen cats are lifted off before the report


@dataclass
class Tally:
    rate: int
    noise_pct: float
    tries: int = 0
    proposed: int = 0  # tries that ended with a proposal with a percentage
    accepted: int = 0  # ... that the player took unchanged
    proposed_falls: int = 0  # ... of them collapses (the rest placements)
    sure_wrong: int = 0  # wrong, shown at SURE % or more
    wrong_sure: list[dict] = field(default_factory=list)  # the first few of those
    wrong: int = 0
    questions: int = 0  # tries that ended with a question (no percentage)
    question_right: int = 0  # ... whose starting value was the answer
    count_questions: int = 0  # "how many cats are on the tray?"
    manual: int = 0  # tries with nothing on the station
    collapses: int = 0
    cleanups: int = 0  # fallen cats lifted off while the player retried
    cleanup_collapses: int = 0  # ... that the tray called a collapse
    tidied_first: int = 0  # fallen cats lifted off before the collapse was reported
    tidied_first_collapses: int = 0  # ... called a collapse (the try is still open)
    landed: int = 0  # collapses where a cat stayed on the tray
    ok_reports: int = 0  # tries that OK alone, pressed on everything shown, reported
    ok_unseen: int = 0  # ... with a number the tray did not see (a height, a guess)
    unconfirmed: int = 0  # answers the tray refused (a bug if not 0)


class Scene:
    """The game in play, seat k at station k."""

    def __init__(self, game):
        self.game = game


class NoTray:
    tray = None

    def sleep_tray(self):  # a board without a tray: nothing to put to sleep
        pass


def calibration_file(rate: int, noise: int) -> str:
    s = Session("evening-cal", rate_hz=rate, noise=noise, per_cat=PER_CAT, offset=OFFSET,
                drift_per_min=0)
    cal = Calibrator(rate, 1)
    s.calibrated(cal, 5)
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(cal.result().to_dict(), f)
    return path


def height(r: random.Random, standing: list[int]) -> int:
    """Where a player sets the cat on a wide tower."""
    if not standing:
        return 1
    top = max(standing)
    roll = r.randrange(100)
    if roll < 50:
        return top + 1
    if roll < 80:
        return r.choice(standing)
    return 1 + r.randrange(top + 1)


def script(s: Session, r: random.Random, bag: int, touch_pct: int = 5) -> list[dict]:
    """One game onto session s: the wedged cats, then each player's tries.
    Every truth record gets a "role": setup, touch, place (with its
    "height"), collapse (with "fallen": the tower's cats that fell, the
    cat in hand not counted) or cleanup; "draw" marks a turn's first one."""
    for _ in range(Session.WEDGED):
        s.place()["role"] = "setup"
    standing: list[int] = []
    while bag > 0:
        draw = True
        while True:
            if r.randrange(100) < touch_pct:
                rec = s.touch()
                rec["role"], rec["draw"], draw = "touch", draw, False
            above = len(s.tower) - Session.WEDGED
            if above and s.rng.below(1000) < min(400, 12 * above):
                before = len(s.tower)
                rec = s.collapse()
                rec.update(role="collapse", draw=draw, fallen=before - len(s.tower),
                           tidy_first=r.randrange(100) < TIDY_FIRST)
                draw = False
                del standing[len(standing) - rec["fallen"]:]
                while s.loose:
                    s.remove(most=2)["role"] = "cleanup"
                continue
            rec = s.place()
            rec.update(role="place", draw=draw, height=height(r, standing))
            standing.append(rec["height"])
            bag -= 1
            break
    s.t += 3000000
    return s.truth


def play_game(tally: Tally, cal_path: str, seed: str, noise: int, mode: str) -> None:
    s = Session(seed, rate_hz=tally.rate, noise=noise, per_cat=PER_CAT, offset=OFFSET)
    s.t = 2000000
    game = new("stack", {"players": PLAYERS, "mode": mode, "draw": "digital"}, seed)
    truth = script(s, random.Random(seed), game.public()["bag_left"])
    scene = Scene(game)
    weigh = Weigh(NoTray(), cal_path)
    weigh.begin(game, lambda: None)
    trace, feed = s.trace, weigh.feed
    role, retry = "setup", False

    def heard(ev):
        if ev["ev"] == "collapse" and role == "cleanup":
            tally.cleanup_collapses += retry
            tally.tidied_first_collapses += not retry
        weigh.on_tray(ev)

    feed.on_event = heard
    due = None  # the try just over: reported when the next record starts
    k = i = 0
    while k * trace.period < s.t:
        t = k * trace.period
        while i < len(truth) and t >= truth[i]["start"]:
            rec = truth[i]
            role = rec["role"]
            if due is not None and not (role == "cleanup" and due.get("tidy_first")):
                report(tally, weigh, scene, due)
                due = None
            if rec.get("draw"):
                act(weigh, scene, ("draw",))
            if role in ("place", "collapse"):
                due = rec
            retry = due is None  # the collapse was reported: the player tries again
            if role == "cleanup":
                tally.cleanups += retry
                tally.tidied_first += not retry
            i += 1
        feed.counts((trace.counts_at(t),))
        k += 1
    if due is not None:
        report(tally, weigh, scene, due)


def act(weigh: Weigh, scene: Scene, action: tuple) -> bool:
    """The report, as the app makes it; False if the tray refused the answer
    (the journal then says "unconfirmed")."""
    game = scene.game
    seat = game.public()["turn"]
    game.act(seat, action)
    record = weigh.acted(seat, action)
    return record is None or record.get("ev") != "unconfirmed"


def report(tally: Tally, weigh: Weigh, scene: Scene, rec: dict) -> None:
    """The player looks at the station when the try is over and reports the truth."""
    game = scene.game
    v = game.public()
    p = stack_ui.proposal(weigh.view(v["turn"]))  # what the active station shows
    tally.tries += 1
    if rec["role"] == "collapse":
        tally.collapses += 1
        tally.landed += rec["stayed"] > 0
        truth = ("collapse", rec["fallen"], 0)
    else:
        truth = ("place", rec["height"], 0)
    _press_ok_only(tally, v, p)
    if p is not None and p["kind"] == "cats":
        tally.count_questions += 1
        weigh.answer(rec["cats"])  # the station asked; the player counts
        p = None
    if p is None:
        tally.manual += 1
    elif not p["conf"]:
        tally.questions += 1
        tally.question_right += p["kind"] == truth[0] and p["value"] == truth[1]
    else:
        tally.proposed += 1
        tally.proposed_falls += p["kind"] == "collapse"
        right = p["kind"] == truth[0] and (p["kind"] == "place" or p["value"] == truth[1])
        tally.accepted += right
        if not right:
            tally.wrong += 1
            tally.sure_wrong += p["conf"] >= SURE
            if p["conf"] >= SURE and len(tally.wrong_sure) < 10:
                tally.wrong_sure.append({"proposal": p, "truth": rec,
                                         "label": stack_ui.tray_label(p)})
    tally.unconfirmed += not act(weigh, scene, truth)


def _press_ok_only(tally: Tally, v: dict, p: dict | None) -> None:
    """A player who trusts every default presses OK on whatever the station
    shows: what it would report, and whether the tray saw that number."""
    v = dict(v, you=v["turn"], tray={"fault": None, "lean": None, "proposal": p})
    local = stack_ui.Local()
    for _ in range(6):
        action = stack_ui.press(v, local, OK, PRESS)
        if action is not None and action[0] in ("place", "collapse"):
            tally.ok_reports += 1
            seen = action[0] == "collapse" and p is not None and p["kind"] == "collapse" \
                and p["conf"] > 0 and action[1] == p["value"]
            tally.ok_unseen += not seen
            return


def evaluate(rate: int, noise_pct: float, evenings: int = EVENINGS) -> Tally:
    noise = round(PER_CAT * noise_pct / 100)
    tally = Tally(rate, noise_pct)
    path = calibration_file(rate, noise)
    try:
        for e in range(evenings):
            for g in range(GAMES):
                mode = "patient" if g == 1 else "composure"
                play_game(tally, path, f"evening-{rate}-{noise_pct:g}-{e}-{g}", noise, mode)
    finally:
        os.unlink(path)
    return tally


def pct(a: int, b: int) -> str:
    return f"{100 * a / max(1, b):.1f}"


def rows():
    started = time.perf_counter()
    for rate in (10, 80):
        for noise_pct in (0.5, 2.0, 5.0):
            t = evaluate(rate, noise_pct)
            where = f"{rate}/s, noise {noise_pct:g}%"
            yield ("tray evenings", f"proposals accepted unchanged, {where}",
                   pct(t.accepted, t.proposed), "%",
                   f"{t.accepted:,} of {t.proposed:,} proposals shown with a percentage "
                   f"({t.proposed_falls} of them collapses), over "
                   f"{t.tries:,} tries in {EVENINGS * GAMES} games ({t.collapses:,} collapses, "
                   f"{t.landed:,} with cats landing on the tray; {t.cleanups:,} cleanups between "
                   f"retries); {t.wrong} wrong; {t.accepted + t.question_right:,} of {t.tries:,} "
                   f"tries needed no change to what the station offered")
            yield ("tray evenings", f"wrong proposals shown at {SURE}% or more, {where}",
                   t.sure_wrong, "", "target 0; " + "; ".join(
                       f"{w['label']!r} for a {w['truth']['role']}" for w in t.wrong_sure[:3]))
            yield ("tray evenings", f"questions, {where}", t.questions, "",
                   f"the tray asked (no percentage, nothing chosen); its own guess right in "
                   f"{pct(t.question_right, t.questions)}%; {t.count_questions} 'how many cats "
                   f"are on the tray?'; {t.manual} tries with nothing proposed")
            yield ("tray evenings", f"cleanups between retries called a collapse, {where}",
                   t.cleanup_collapses, "",
                   f"of {t.cleanups:,} liftings of fallen cats while the player retried; "
                   f"{t.tidied_first_collapses} of {t.tidied_first} made before the collapse "
                   f"was reported (its try still open: the tray asks how many fell)")
            yield ("tray evenings", f"OK-only reports with a number the tray did not see, "
                   f"{where}", t.ok_unseen, "",
                   f"target 0: a player pressing OK on everything shown reported "
                   f"{t.ok_reports:,} of {t.tries:,} tries, each a collapse the tray was sure "
                   f"of; no height is ever pre-filled")
            yield ("tray evenings", f"truthful answers the tray refused, {where}", t.unconfirmed,
                   "", "reports outside the range the tray allowed (journaled 'unconfirmed')")
    yield ("tray evenings", "benchmark wall time, CPython", time.perf_counter() - started, "s",
           f"{EVENINGS} evenings of {GAMES} games per row")
