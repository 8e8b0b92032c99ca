# Shared checks for the tray estimator: build scripted sessions from
# devsim.traces, play them into catnip.tray.Tray, and check what it said
# against the ground truth. Used by the dual-interpreter tests here and by
# the hypothesis properties in tests/test_tray_props.py.
from catnip.tray import Tray
from catnip.tray.calibrator import Calibrator
from devsim.sessions import Session

PER_CAT = 4300  # a 10 g cat on a 5 kg cell
REALISTIC = 86  # 2% of a cat: realistic reading noise

# Turn letters for scripted sessions.
_TURNS = {"p": "place", "c": "collapse", "r": "remove", "t": "touch"}


def session(seed, script, rate=80, cells=1, noise=REALISTIC, **kw):
    """A session that plays `script`: 'p' place, 'c' collapse, 'r' remove
    fallen cats (if any are on the tray), 't' touch; then a still pause."""
    s = Session(seed, rate_hz=rate, cells=cells, noise=noise, per_cat=PER_CAT, **kw)
    s.t = 2000000  # two still seconds for the tare
    for turn in script:
        if turn != "r" or s.loose:
            getattr(s, _TURNS[turn])()
    s.t += 2000000
    return s


def calibrate(rate=80, noise=REALISTIC, cells=1, seed="cal", cats=5, corners=False,
              gains=None):
    """Calibrate the way a maker does, on a trace: the empty base, then cats
    one at a time, pressing OK when the tray is still; with corners, then a
    cat above each corner of a four-cell tray whose cells have `gains`."""
    s = Session(seed, rate_hz=rate, cells=cells, noise=noise, per_cat=PER_CAT, gains=gains)
    cal = Calibrator(rate, cells)
    answers = s.calibrated(cal, cats, corners)
    return cal, answers


class Played:
    """What a tray said about a session: every event with the reading's time
    (us), and the tray's count at the end of each truth turn."""

    def __init__(self, s, tray):
        self.session = s
        self.tray = tray
        self.truth = s.truth
        self.events = []
        self.counts = []  # tray.cats just before each next turn starts
        self.turn_events = [[] for _ in s.truth]

    def kinds(self, turn=None):
        evs = self.events if turn is None else self.turn_events[turn]
        return [e["ev"] for _, e in evs]

    def of(self, kind):
        return [e for _, e in self.events if e["ev"] == kind]



_CAL = {}


def cal_for(rate=80, cells=1, noise=REALISTIC):
    """calibrate()'s result, made once per (rate, cells, noise) and shared."""
    key = (rate, cells, noise)
    if key not in _CAL:
        _CAL[key] = calibrate(rate, noise, cells)[0].result()
    return _CAL[key]

def play(s, cal, wedged=Session.WEDGED, tare=True, answer=None):
    """Feed the whole trace of session s into a new Tray. At the end of each
    turn answer(tray, turn_events, truth_record) plays the person at the
    table, if given."""
    tray = Tray(cal, wedged=wedged)
    if tare:
        tray.tare()
    out = Played(s, tray)
    trace = s.trace
    ends = [rec["start"] for rec in s.truth[1:]] + [s.t]
    turn = -1  # before the first turn
    k = 0
    while k * trace.period < s.t:
        t = k * trace.period
        while turn + 1 < len(s.truth) and t >= s.truth[turn + 1]["start"]:
            turn += 1
        if turn >= 0 and t >= ends[turn] - trace.period and len(out.counts) == turn:
            out.counts.append(tray.cats)
            if answer is not None:
                answer(tray, out.turn_events[turn], s.truth[turn])
        if s.cells == 1:
            raw = trace.counts_at(t)
            ev = tray.missed() if raw is None else tray.feed(raw)
        else:
            raws = trace.counts4_at(t)
            ev = tray.missed() if raws[0] is None else tray.feed4(*raws)
        if ev is not None:
            out.events.append((t, ev))
            if turn >= 0:
                out.turn_events[turn].append((t, ev))
        k += 1
    while len(out.counts) < len(s.truth):
        out.counts.append(tray.cats)
    return out


def truthful(tray, events, rec):
    """A person who counts the cats on the tray when asked."""
    for _, e in events:
        ask = e.get("ask")
        if ask and ask["ask"] == "cats" and ask["id"] in tray.pending:
            tray.confirm(ask["id"], min(ask["max"], max(ask["min"], rec["cats"])))


def check_counts(played):
    """Every turn ends with the tray's count equal to the truth."""
    for i, rec in enumerate(played.truth):
        assert played.counts[i] == rec["cats"], (
            "turn %d (%s at %d ms): tray says %d cats, truth %d; events %r"
            % (i, rec["kind"], rec["start"] // 1000, played.counts[i], rec["cats"],
               played.turn_events[i]))


def check_no_phantoms(played):
    """Placed events only on placement turns (or just before a collapse in
    the same turn), removals only where cats left, collapses only where the
    tower fell."""
    for i, rec in enumerate(played.truth):
        kinds = played.kinds(i)
        if rec["kind"] in ("touch", "fault"):
            assert "placed" not in kinds and "removed" not in kinds, (i, rec, kinds)
        if rec["kind"] != "collapse":
            assert "collapse" not in kinds, (i, rec, kinds)
        if rec["kind"] == "placed":
            assert kinds.count("placed") == 1, (i, rec, kinds)


def check_small_ints(tray):
    """Everything the per-reading path keeps stays a small int on the Pico."""
    r, ep, c = tray.readings, tray.episode, tray.count
    for name, v in (("level", r.level), ("before", ep.before), ("sum", r._sum),
                    ("top", ep.top), ("bottom", ep.bottom), ("jolt", ep.jolt),
                    ("mass", c.mass), ("anchor", c.anchor), ("verdict_level", r.verdict_level),
                    ("samples", tray.samples)):
        assert -(1 << 30) < v < 1 << 30, (name, v)
    for arr in (r.ring, r.cell_ring, r.cell_level, r.cell_mass, r._cell_sum):
        for v in arr:
            assert -(1 << 30) < v < 1 << 30, v


ATTEMPTS = ("placed", "collapse")


def check_answer_shape(ask, in_play):
    """A question the table can answer: whole numbers with min <= default
    <= max, inside what the game has in play."""
    for k in ("default", "min", "max", "conf", "id"):
        assert type(ask[k]) is int, (k, ask)
    assert 0 <= ask["min"] <= ask["default"] <= ask["max"] <= in_play, ask
    assert 0 <= ask["conf"] <= 100, ask


def check_state(tray, in_play):
    """Cats on the tray and on the tower never negative, never above what
    the game has in play, the tower never more than the tray holds."""
    assert 0 <= tray.tower <= tray.cats <= in_play, (tray.tower, tray.cats, in_play)
    for ask in tray.pending.values():
        check_answer_shape(ask, in_play)


def check_event(ev, tray, in_play):
    if "cats" in ev:
        assert 0 <= ev["cats"] <= in_play, ev
    if "ask" in ev:
        check_answer_shape(ev["ask"], in_play)
    check_state(tray, in_play)


def play_checked(s, cal, in_play, wedged=Session.WEDGED, tare=True):
    """Feed session s into a Tray the way the app drives it (an attempt per
    placement or collapse, its verdict when the next turn starts), checking
    every invariant after every event, and answering every question with
    its default, which confirm() must accept. Returns the events."""
    tray = Tray(cal, wedged=wedged, in_play=in_play)
    if tare:
        tray.tare()
    trace, truth = s.trace, s.truth
    events = []
    turn = -1
    k = 0
    while k * trace.period < s.t:
        t = k * trace.period
        while turn + 1 < len(truth) and t >= truth[turn + 1]["start"]:
            if turn >= 0:
                close_attempt(tray, in_play)
            turn += 1
            if truth[turn]["kind"] in ATTEMPTS:
                tray.begin_attempt()
        if s.cells == 1:
            raw = trace.counts_at(t)
            ev = tray.missed() if raw is None else tray.feed(raw)
        else:
            raws = trace.counts4_at(t)
            ev = tray.missed() if raws[0] is None else tray.feed4(*raws)
        if ev is not None:
            events.append((t, ev))
            check_event(ev, tray, in_play)
            ask = ev.get("ask")
            if ask is not None and ask["ask"] == "cats" and ask["id"] in tray.pending:
                accept(tray, ask, in_play)
        k += 1
    close_attempt(tray, in_play)
    return tray, events


def close_attempt(tray, in_play):
    if not tray.turn.attempt:
        return
    v = tray.verdict()
    if v is None:
        return  # still moving: the attempt goes on
    assert v["kind"] in ("placed", "collapse", "ask", "none"), v
    check_answer_shape(v, in_play)
    accept(tray, v, in_play)
    assert not tray.turn.attempt


def accept(tray, ask, in_play):
    record = tray.confirm(ask["id"], ask["default"])
    assert record["value"] == ask["default"] and ask["id"] not in tray.pending, record
    check_state(tray, in_play)
