# The kinds of frame on the serial wire (catnip.wire has the frame format):
# the commands a laptop may send and the messages the table sends, each with
# the fields it carries. Data only; catnip.wire takes these names in, and
# checks every frame against them, at both ends.
#
# PURE: imports nothing.

MAX_SEQ = (1 << 30) - 1  # a small int on the Pico
MAX_TIME = 1 << 33  # seconds since 1970: a one-off big int, past the year 2200
COMMIT_ID = 16  # hex digits of a game's seed_commit that name it in its act and end
PHONES = 8  # places for phone seats, numbered after a board's stations (docs/phones.md)

# What each end may send, by kind: one table for both ends. A field's value
# is a type code ("n" a number 0-MAX_SEQ, "t" seconds since 1970 up to
# MAX_TIME, "s" text, "d" an object, "l" a list, "b" true/false, "a" any;
# "?" after it: or null), an object's own fields as a dict, or a list of
# one spec that each item meets, ("n", "s") each item such a pair.
#
# What the table sends, and how: STREAMED (numbered, kept for resync),
# PUSHED (seq 0, no "re": the state now) or an ANSWER (seq 0, "re" = the
# command's number). A newer table may add fields; the laptop reads these.
STREAMED, PUSHED, ANSWER = 1, 2, 3
# The kinds by name, for both ends to send and compare.
BEGIN, ACT, END, SAY, LOST, SNAP, TRAY = "begin", "act", "end", "say", "lost", "snap", "tray"
SIGNED = "signed"
# A phone seat's screen (docs/phones.md), and the answers about phone seats.
VIEW, CLAIMED, RELEASED, PRESSED = "view", "claimed", "released", "pressed"
HELLO, SYNCED, GAP, GAMES, GAME, ENTRY, PAGE = (
    "hello", "synced", "gap", "games", "game", "entry", "page")
ACKED, STARTED, ABORTED, CALIB, CLOCK, NAMED, BYE, ERR = (
    "acked", "started", "aborted", "calib", "clock", "named", "bye", "err")
_STREAMED_KINDS = (BEGIN, ACT, END, SAY, LOST, SIGNED)
_PUSHED_KINDS = (SNAP, TRAY, VIEW)


def how(kind):
    """How the table sends a `kind` frame: STREAMED, PUSHED or ANSWER (any
    kind not named above is an answer)."""
    if kind in _STREAMED_KINDS:
        return STREAMED
    return PUSHED if kind in _PUSHED_KINDS else ANSWER


def commands():
    # Commands a laptop may send; any other field is refused.
    return {
        "hello": {},  # who are you: protocol, firmware, board, boot, last seq
        "resync": {"from": "n"},  # every stream frame after this seq
        "snapshot": {},  # the public state now, as a stream frame
        "games": {},  # the journal's games and their status
        "pull": {"gid": "n", "from": "n"},  # a finished game's entries, a page at a time
        "ack": {"gid": "n"},  # the laptop has stored that game: the table may free it
        "start": {"game": "s", "config": "d", "seats": "l"},  # begin a game
        "abort": {},  # end the game in play without a result
        "calibrate": {"step": "s"},  # a tray calibration step
        "clock": {"time": "t"},  # set the clock: seconds since 1970-01-01 UTC
        "names": {"names": ["s"]},  # the players' names by station ("": none), see check_names
        "stop": {},  # stop the app and hand back the REPL
        # Phone seats (docs/phones.md): a seat of the game in play with no station,
        # played from a browser the laptop binds to it.
        # claim: the laptop takes that phone seat: its views follow. Claimed again
        # (every 2 s), `seen` is the number of the last view that reached it: an
        # older one than the table's last brings the view again (one was lost).
        "claim": {"seat": "n", "seen": "n?"},
        "release": {"seat": "n"},  # no more views for it
        "press": {"seat": "n", "button": "s", "hold": "b"},  # up/down/ok/back; hold: long
        "away": {"seat": "n", "away": "b"},  # its browser went away, or came back
    }


def messages():
    """What the table sends, by kind: how (STREAMED, PUSHED, ANSWER) and the fields."""
    header = {"game": "s", "config": "d", "seed_commit": "s"}
    return {
        BEGIN: (STREAMED, {"gid": "n", "header": header, "seats": ["n"], "moves": "n",
                           "names": "l?", "phones": "l?"}),  # names: a name per seat, "" for none;
        # phones: the seats (numbers from 0) played from phones, none when absent
        # commit: the first COMMIT_ID hex digits of the game's seed_commit, so
        # a move or an end is its game's even where its begin is not at hand.
        ACT: (STREAMED, {"gid": "n", "commit": "s?", "n": "n", "events": ["d"]}),
        # signs: the table will sign this game (it has its key, and room to sign):
        # pulled without a signature, it was cut off.
        END: (STREAMED, {"gid": "n", "commit": "s?", "result": "d", "signs": "b?"}),
        SAY: (STREAMED, {"text": "s"}),
        LOST: (STREAMED, {"gid": "n", "game": "s", "status": "s", "why": "s"}),
        # A finished game's signature is on the table's flash: pull it now.
        SIGNED: (STREAMED, {"gid": "n"}),
        SNAP: (PUSHED, {"gid": "n?", "game": "s?", "public": "d?", "phones": "l?"}),
        # A claimed phone seat's screen as its station would show it: 8 rows of
        # up to 16 characters, and the lit (inverse) spans [row, col, length];
        # n numbers the seat's views as they are sent, from 1.
        VIEW: (PUSHED, {"seat": "n", "n": "n", "rows": ["s"], "lit": [("n", "n", "n")]}),
        # The Stack O' Cats tray as the stations show it: what it proposes to the active
        # player ("place", "collapse" or "cats"; conf 0: it asks), the lean
        # [r, x, y] of four cells (catnip.tray.lean), what keeps it from weighing.
        TRAY: (PUSHED, {"proposes": "s?", "value": "n?", "conf": "n?", "lean": "l?",
                        "fault": "s?"}),
        HELLO: (ANSWER, {"proto": "n", "fw": "s", "board": "s", "uid": "s", "boot": "s",
                         "last": "n", "stations": "n", "game": "s?", "gid": "n?",
                         "src": "s?", "build": "s?",  # build: "image", "files" or "source"
                         "key": "s?"}),  # the table's public key (hex), once it has made one
        SYNCED: (ANSWER, {"last": "n"}),
        GAP: (ANSWER, {"first": "n", "last": "n"}),
        GAMES: (ANSWER, {"games": [("n", "s")]}),
        GAME: (ANSWER, {"gid": "n", "status": "s", "header": header}),
        ENTRY: (ANSWER, {"gid": "n", "i": "n", "e": "l"}),
        # The last page carries a signed game's signature and the table's public key
        # (hex), and the table's ticks now with its boot token (ms, boot: a game it
        # journaled undated in this power-up is dated from them).
        PAGE: (ANSWER, {"gid": "n", "next": "n", "done": "b", "damage": "s?", "sig": "s?",
                        "key": "s?", "ms": "n?", "boot": "s?"}),
        ACKED: (ANSWER, {"gid": "n"}),
        STARTED: (ANSWER, {"gid": "n"}),
        ABORTED: (ANSWER, {"gid": "n?"}),
        CALIB: (ANSWER, {"step": "s"}),
        CLOCK: (ANSWER, {"time": "t"}),
        NAMED: (ANSWER, {"names": ["s"]}),
        BYE: (ANSWER, {"why": "s"}),
        ERR: (ANSWER, {"why": "s"}),
        # re 0: the table released the seat by itself (a new game without it).
        CLAIMED: (ANSWER, {"seat": "n"}),
        RELEASED: (ANSWER, {"seat": "n"}),
        PRESSED: (ANSWER, {"seat": "n"}),
    }
