"""The Keeper keeps the session store in step with the table on a Link
(catnip_host.ports).

It stores every stream frame once and in order. When frames are missing (the
laptop was away, a frame was damaged) it asks the table to resync from the
last one it stored; frames the table no longer has come back as a gap, which
is stored and reported. It pulls every game that ended while no laptop
listened, a page at a time (a Pull), stores it in one transaction, and only
then acknowledges it, so the table frees it only once it is safe here; a game
already stored is acknowledged again but never stored twice.

One command is outstanding at a time; an answer that does not come within
RETRY_S (half a second) is asked for again, so a cable pulled mid-answer costs a retry.

Phone seats (catnip_host.phone_seats): other threads ask() for claim,
release, press and away, sent ahead of the Keeper's own queue; a press is
never asked again (a lost answer must not press twice). A seat's `view` and
the answers about phone seats go to on_frame only, never to the store.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from catnip import wire
from catnip_host import kinds, ports
from catnip_host.phone_seats import ASKABLE, PHONE_KINDS, PhoneSeats
from catnip_host.pull import Pull, from_seq
from catnip_host.ports import Disconnected, Link
from catnip_host.store import Store

RETRY_S = 0.5
_PULLED = ("game", "entry", "page")  # stored with their game, in one transaction
# Answers that only end the command they answer.
_ENDS_ONLY = ("acked", "started", "aborted", "clock")

__all__ = ["PHONE_KINDS", "RETRY_S", "Disconnected", "Keeper", "Link", "Pull", "serve"]


@dataclass
class _Request:
    kind: str
    fields: dict
    cmd: int = 0
    sent: float = 0.0
    tries: int = 0
    asked: bool = False  # by ask(): its err goes to on_frame too


class Keeper:
    """Keeps `store` in step with the table on `link`. notify(text) hears
    what a person should know (gaps, pulls, the table's errors, its stray
    output); on_frame(kind, fields) every stream frame, once, in order."""

    def __init__(self, link: Link, store: Store,
                 notify: Callable[[str], None] = lambda text: None,
                 on_frame: Callable[[str, dict], None] = lambda kind, fields: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.store = store
        self.notify = notify
        self.on_frame = on_frame
        self.clock = clock
        self.session: int | None = None
        self.hello: dict = {}
        self.last = 0  # the newest stream frame stored
        self.queue: deque[_Request] = deque()
        self.waiting: _Request | None = None
        self.pull: Pull | None = None
        self.signing: set[int] = set()  # finished games the table is still signing
        self.duplicates = 0  # stream frames that came again and were not stored again
        self.pulled: list[int] = []
        self.resyncs = 0  # times frames were asked for again
        self.phones = PhoneSeats()  # asked from other threads; the seats held
        # ask(word, **fields), from any thread: a phone-seat command (ASKABLE), sent
        # ahead of the Keeper's own once hello is answered; its answer comes to on_frame.
        self.ask = self.phones.ask

    # ---- driving ------------------------------------------------------------

    def connected(self) -> None:
        """The port is (re)opened: start again with hello."""
        self.queue.clear()
        self.waiting = None
        self.pull = None
        self.signing.clear()
        self.phones.forget()
        self.session = None
        self.request("hello")

    def request(self, kind: str, first: bool = False, **fields: object) -> None:
        """Queue a command for the table; `first`: before those queued (the
        next step of one under way)."""
        r = _Request(kind, fields)
        self.queue.appendleft(r) if first else self.queue.append(r)

    @property
    def idle(self) -> bool:
        """Hello answered, nothing asked, being pulled or still being signed
        (its "signed" frame brings the pull)."""
        return self.link.is_open and self.session is not None and self.waiting is None \
            and not self.queue and self.pull is None and not self.signing \
            and self.phones.empty()

    def step(self) -> None:
        """Read what arrived, handle it, send what is due. Disconnected
        passes through: the caller reopens and calls connected()."""
        for item in self.link.read():
            self.handle(item)
        if self.session is not None:  # asked commands first, in the order asked
            asked, beat = self.phones.due(self.clock(), self._asked("claim"))
            self.queue.extendleft(_Request(w, f, asked=True) for w, f in reversed(asked))
            if beat is not None:
                self.queue.append(_Request("claim", beat))
        self._send_due()

    def _send_due(self) -> None:
        now = self.clock()
        w = self.waiting
        if w is not None and now - w.sent > RETRY_S and w.kind == "press":
            self.waiting = None  # never pressed twice: the page may press again
            self.notify(f"no answer to a press for seat {w.fields.get('seat')}")
            self.on_frame(wire.ERR, {"why": "no answer from the table", "asked": w.kind,
                                     **w.fields})
        elif w is not None and now - w.sent > RETRY_S:
            if w.tries == 1:
                self.notify(f"no answer to {w.kind} yet: asking again")
            if w.kind == "pull" and self.pull is not None:
                w.fields["from"] = self.pull.next if self.pull.frames else 0
                if not self.pull.frames:
                    self.pull = None
            self._send(w)
        elif w is None and self.queue:
            self._send(self.queue.popleft())

    def _send(self, r: _Request) -> None:
        self.resyncs += r.kind == "resync"
        r.cmd = self.link.send(r.kind, **r.fields)
        r.sent = self.clock()
        r.tries += 1
        self.waiting = r

    # ---- what arrives ---------------------------------------------------------

    def handle(self, item: tuple) -> None:
        if item[0] == "frame":
            _, seq, kind, fields, raw = item
            why = kinds.message(seq, kind, fields)
            if why is not None:
                self._malformed(seq, fields, why, raw)
            elif kind in PHONE_KINDS:  # to on_frame alone (serve's seat page), never stored
                w, beat = self.waiting, False  # beat: the answer to a held seat's claim again
                if kind != wire.VIEW and w is not None and fields.get("re") == w.cmd:
                    self.waiting, beat = None, not w.asked
                self.phones.heard(kind, fields, self.clock())
                if self.session is not None and not beat:
                    self.on_frame(kind, fields)
            elif seq:
                self._stream(seq, kind, fields, raw)
            elif "re" not in fields:
                self._pushed(kind, fields, raw)
            else:
                self._answer(kind, fields, raw)
            return
        text = item[1] if item[0] == "noise" else f"{item[1]}: {item[2]}"
        self.store.noise(self.session, item[0], text)
        if item[0] == "bad":
            self.notify(f"a damaged frame was skipped ({item[1]})")

    def _malformed(self, seq: int, fields: dict, why: str, raw: bytes) -> None:
        """A whole frame, its CRC good, whose fields are not what its kind
        needs (catnip.wire.MESSAGES): logged as bad and skipped. A stream
        frame is stored as it came (with no game: replay --verify names it),
        so it is not asked for again; an answer to the command waiting ends
        that command."""
        self.store.noise(self.session, "bad", f"{why}: {wire._show(raw[:40])}")
        self.notify(f"a malformed frame from the table was skipped ({why})")
        if seq and self.session is not None and seq == self.last + 1:
            self.store.frame(self.session, seq, "bad", None, raw)
            self.last = seq
        w = self.waiting
        if not seq and w is not None and fields.get("re") == w.cmd:
            self.waiting = None
            if w.kind == "pull":
                self.pull = None

    def _stream(self, seq: int, kind: str, fields: dict, raw: bytes) -> None:
        if self.session is None:
            return  # before hello: resync brings it again once the session is known
        if seq <= self.last:
            self.duplicates += 1
            return
        if seq > self.last + 1:
            if not self._asked("resync"):
                self.request("resync", first=True, **from_seq(self.last))
            return
        if kind == wire.BEGIN:
            self._resumed(fields)  # before it is stored: what was heard of it until now
        self.on_frame(kind, fields)  # shown first: the store's fsync takes longer
        self.store.frame(self.session, seq, kind, gid_of(kind, fields), raw)
        self.last = seq
        if kind == wire.LOST:
            self.notify(f"game {fields['gid']} ({fields['status']}) is gone from the table's "
                        f"journal: {fields['why']}")
        # Pull a game now that it has ended, hear of what is gone; what the table
        # says may be a game ended from a station's menu (it has no end frame).
        if kind in (wire.END, wire.LOST, wire.SIGNED, wire.SAY) and not self._asked("games"):
            self.request("games")

    def _resumed(self, f: dict) -> None:
        """A game resumed after a power cut: moves announced live beyond
        where its journal resumes are lost from it, and said."""
        heard = self.store.last_move(str(self.hello.get("uid")), f["gid"],
                                     f["header"]["seed_commit"])
        if heard > f["moves"]:
            self.notify(f"game {f['gid']} resumed after move {f['moves']}, but moves "
                        f"{f['moves'] + 1}-{heard} were announced before the power cut: the "
                        "table's journal lost them")

    def _pushed(self, kind: str, fields: dict, raw: bytes) -> None:
        """A frame the table pushes outside the stream (the public state now)."""
        if self.session is not None:
            self.on_frame(kind, fields)
            self.store.frame(self.session, 0, kind, gid_of(kind, fields), raw)

    def _asked(self, kind: str) -> bool:
        return (self.waiting is not None and self.waiting.kind == kind) or \
            any(r.kind == kind for r in self.queue)

    def _answer(self, kind: str, fields: dict, raw: bytes) -> None:
        self._dispatch(kind, fields, raw)
        if kind not in _PULLED and self.session is not None:
            self.store.frame(self.session, 0, kind, gid_of(kind, fields), raw)

    def _dispatch(self, kind: str, fields: dict, raw: bytes) -> None:
        w = self.waiting
        if w is None or fields.get("re") != w.cmd:
            if kind == wire.ERR:
                self.notify(f"the table says: {fields.get('why')}")
            return  # an answer to a question asked before a retry or a reconnect
        if kind in _ENDS_ONLY:
            self.waiting = None
            return
        done = getattr(self, "_on_" + kind, None)
        if done is None:
            self.notify(f"the table answered {w.kind} with an unexpected {kind}")
            self.waiting = None
            return
        done(fields, raw)

    def _on_hello(self, f: dict, raw: bytes) -> None:
        if f.get("proto") != wire.VERSION:
            self.notify(f"the table speaks protocol {f.get('proto')}, this catnip {wire.VERSION}: "
                        "update the older one")
        self.hello = f
        session = self.store.session(str(f.get("uid")), str(f.get("boot")),
                                     str(f.get("board")), str(f.get("fw")))
        self.last = self.store.last_seq(session)
        self.waiting = None
        if f.get("last", 0) < self.last:
            self.notify(f"the table's newest frame is {f.get('last')} but {self.last} are "
                        "stored for this power-up: stored frames are kept as they are")
        elif f.get("last", 0) > self.last:
            self.request("resync", **from_seq(self.last))
        self.request("clock", time=int(time.time()))  # so the games it journals carry their date
        self.request("snapshot")
        self.request("games")
        # The session last, with its requests queued: idle() is read from
        # other threads (the virtual table's mirror) and must not see a
        # hello answered with nothing asked.
        self.session = session
        _pin_key(self, f)

    def _on_synced(self, f: dict, raw: bytes) -> None:
        self.waiting = None
        if f.get("last", 0) > self.last and not self._asked("resync"):
            self.request("resync", first=True, **from_seq(self.last))  # some were lost again

    def _on_gap(self, f: dict, raw: bytes) -> None:
        first, last = f["first"], f["last"]
        if self.session is not None and last > self.last:  # the frames after it follow in this same answer
            self.store.gap(self.session, max(first, self.last + 1), last,
                           "the table no longer had them when the laptop came back")
            self.notify(f"frames {max(first, self.last + 1)}-{last} were lost while the laptop "
                        "was away (the games' moves are still pulled from the journal)")
            self.last = last

    def _on_games(self, f: dict, raw: bytes) -> None:
        self.signing = {gid for gid, status in f["games"] if status == "signing"}
        for gid, status in f["games"]:
            if status in ("finished", "abandoned", "broken"):  # broken: what can be read
                self.request("pull", gid=gid, **from_seq(0))
            elif status == "lost":  # removed to make room: heard (and stored) now
                self.notify(f"game {gid} was removed from the table's journal to make room "
                            "before a laptop pulled it")
                self.request("ack", gid=gid)
        # Answered last, its pulls queued: idle() is read from other threads
        # (the virtual table's mirror), which must not see nothing asked.
        self.waiting = None

    def _on_game(self, f: dict, raw: bytes) -> None:
        commit = str(f["header"].get("seed_commit"))
        pull = self.pull = Pull(f["gid"], commit)
        pull.stored_already = self.store.has_pulled(str(self.hello.get("uid")), f["gid"], commit)
        pull.frames.append(("game", raw))

    def _on_entry(self, f: dict, raw: bytes) -> None:
        if self.pull is not None:
            self.pull.entry(f, raw)

    def _on_page(self, f: dict, raw: bytes) -> None:
        self.waiting = None
        pull = self.pull
        if pull is None or pull.gid != f["gid"] or self.session is None:
            return
        if pull.stored_already:
            self.pull = None
            self.request("ack", first=True, gid=pull.gid)
            return
        pull.frames.append(("page", raw))
        _pin_key(self, f)
        if not pull.whole(f):
            self.request("pull", first=True, gid=pull.gid, **from_seq(pull.next))
            return
        if f.get("damage") is not None:
            self.notify(f"game {pull.gid} is damaged on the table: its {pull.next} readable "
                        f"entries are stored, marked incomplete ({f['damage']})")
        self.store.pulled_game(self.session, str(self.hello.get("uid")), pull.gid,
                               pull.seed_commit, pull.frames)
        self.pull = None
        self.pulled.append(pull.gid)
        self.notify(f"game {pull.gid} pulled from the table's journal ({pull.next} entries)")
        self.request("ack", first=True, gid=pull.gid)

    def _on_err(self, f: dict, raw: bytes) -> None:
        w = self.waiting
        self.waiting = None
        if w is not None and w.kind == "pull":
            self.pull = None
        if w is not None and w.kind in ASKABLE:
            self.phones.refused(w.kind, w.fields)
            if w.asked:
                self.on_frame(wire.ERR, {"why": f.get("why"), "asked": w.kind, **w.fields})
        self.notify(f"the table refused {w.kind if w else 'a command'}: {f.get('why')}")

    def _on_named(self, f: dict, raw: bytes) -> None:
        self.waiting = None
        self.notify("the stations are named: " + ", ".join(n or "-" for n in f["names"]))

    def _on_bye(self, f: dict, raw: bytes) -> None:
        self.waiting = None
        self.notify("the app on the table stopped; its REPL is free (mpremote, Thonny)")


def _pin_key(keeper: Keeper, f: dict) -> None:
    # The table's key, in its hello or a signed game's last page (catnip_host.signatures).
    from catnip_host.signatures import pin

    pin(keeper.store, str(keeper.hello.get("uid")), f.get("key"), keeper.notify)


def serve(keeper: Keeper, until: Callable[[], bool],
          status: Callable[[str], None] = lambda text: None, pause: float = 0.2) -> None:
    """Keep the port open and the keeper stepping until `until()`: a port that
    goes away (unplugged, reset) is opened again as soon as it is back."""
    link = keeper.link
    while not until():
        if not link.is_open:
            try:
                link.open()
            except ports.PortError as e:
                status(str(e))
                time.sleep(pause)
                continue
            status("connected")
            keeper.connected()
        try:
            keeper.step()
        except Disconnected as e:
            status(f"the table went away ({e}); waiting for it to come back")


def gid_of(kind: str, fields: dict) -> int | None:
    """The game a frame is of: its gid where its kind carries one
    (catnip.wire.MESSAGES, which checked it); a field its kind does not
    declare (a newer table's) is kept in the frame, never read."""
    known = wire.MESSAGES.get(kind)
    return fields.get("gid") if known is not None and "gid" in known[1] else None
