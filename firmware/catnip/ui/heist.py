# Meow Heist on a station: choose a card (or, with two players, r cards),
# lock it, and the number is hidden until the reveal; hold OK to peek, BACK
# takes it back until the last player locks. A 2-player reveal asks first.
# The start player enters the gems drawn from a real bag. Only the station's own
# view() is drawn: its hand, face-down cards and shield.
from catnip.keys import BACK, OK, PRESS, RELEASE, REPEAT
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, Cursor, Picker

GEM = ("R", "Y", "B")
LOCKED = 1 << 2  # the Locked row's bit: which seats have locked their cards


class Local:
    def __init__(self):
        self.cursor = Cursor()
        self.picks = []  # positions in the hand, two-player rounds
        self.peek = False
        self.gems = None  # [Picker, ...] while entering the bag's gems
        self.confirm = None  # the gems or reveal action awaiting OK


def loot(gems):
    """Gems as "R1Y0B2", and black rocks in words: "R1Y0B2+2 rocks"."""
    s = "R%dY%dB%d" % (gems[0], gems[1], gems[2])  # GEM's letters, one format (Pico: 0.1 ms)
    return s + ("+" + draw.counted(gems[3], "rock") if len(gems) > 3 and gems[3] else "")


def _hand_row(fb, row, hand, local, lock=False):
    """The cards a space apart, the cursor's lit; more than eight take two
    rows, half on each. `lock`: a "Lock" item follows the cards, so a cursor
    past them lights none."""
    n = len(hand)
    at = _at(local, n + (1 if lock else 0))
    per_row = n if n <= 8 else (n + 1) // 2
    for i in range(n):
        r, col = row + i // per_row, 2 * (i % per_row)
        draw.text(fb, r, str(hand[i]), col, inverse=i == at)
        if i in local.picks:
            fb.hline(8 * col, r * 8 + 7, 8, 0 if i == at else 1)  # picked: underlined


def _at(local, n):
    """The cursor over n items, where press() will find it: a hand that
    shrank under it (the rightmost card played) leaves it on the last."""
    local.cursor.resize(n)
    return local.cursor.at


def draw_screen(fb, v, local):
    draw.clear(fb)
    you = v.get("you")
    draw.title(fb, "Heist %d/%d" % (v["round"], v["rounds"]),
               draw.seat_name(you) if you is not None else "table")
    if v["phase"] == "over":
        draw.paragraph(fb, "Game over", 2)
        return
    draw.text(fb, 1, "Safe %d %s" % (v["safe_card"], loot(v["safe"])))
    draw_rows(fb, v, LOCKED)
    if you is None:
        draw.text(fb, 3, "Start " + draw.seat_name(v["start"]))
        return
    shield = loot(v["shield"])
    draw.text(fb, 6, "Shield " + shield if len(shield) < 10 else shield)
    phase = v["phase"]
    if phase == "gems":
        _draw_gems(fb, v, local)
    elif phase == "reveal":
        if v["turn"] == you and local.confirm is not None:
            draw.text(fb, 3, "Reveal your %d?" % local.confirm[1])
            draw.hint(fb, "OK yes BACK no")
        elif v["turn"] == you:
            draw.text(fb, 3, "Reveal which?")
            _hand_row(fb, 4, v["face_down"], local)
            draw.hint(fb, "OK reveal")
        else:
            draw.text(fb, 3, "%s reveals" % draw.seat_name(v["turn"]))
    elif v["seats"][you]["committed"]:
        if local.peek:
            draw.text(fb, 3, "You chose:")
            draw.text(fb, 4, " ".join(str(c) for c in v["face_down"]), inverse=True)
        else:
            draw.text(fb, 3, "Locked in")
        draw.text(fb, 5, "BACK: take back")
        draw.hint(fb, "hold OK: peek")
    else:
        r = v["cards_per_round"]
        draw.text(fb, 3, "Choose a card" if r == 1 else "Choose %d cards" % r)
        _hand_row(fb, 4, v["hand"], local, r > 1)
        if r > 1:
            n = len(local.picks)
            draw.text(fb, 5, "Lock %d/%d" % (n, r), inverse=local.cursor.at == len(v["hand"]))
        draw.hint(fb, "OK lock" if r == 1 else "OK pick/lock")


def quiet(events, v):
    """The rows a move changes on every station but its player's: a card
    locked or taken back while others choose changes the Locked row alone."""
    if v["phase"] != "play":
        return 0
    for ev in events:
        if ev["type"] != "play" and ev["type"] != "unlock":
            return 0
    return LOCKED


def draw_rows(fb, v, rows):
    """The rows quiet() names, alone (as draw_screen draws them)."""
    if rows & LOCKED:
        locked = "".join(str(i + 1) if s["committed"] else "." for i, s in enumerate(v["seats"]))
        draw.text(fb, 2, "Locked " + locked)


def _draw_gems(fb, v, local):
    you = v["you"]
    if v["start"] != you:
        draw.text(fb, 3, "%s: bag gems" % draw.seat_name(v["start"]))
        return
    if local.confirm is not None:
        draw.text(fb, 3, "Drew " + loot(local.confirm[1:]))
        draw.hint(fb, "OK send BACK fix")
        return
    pickers = local.gems or _first_picker(v)  # drawing changes nothing
    got = [p.value for p in pickers]
    at = len(got) - 1
    draw.text(fb, 3, "Drew %d gems:" % v["safe_card"])
    draw.text(fb, 4, " ".join("%s%s" % (GEM[i], got[i] if i <= at else "?") for i in range(3)))
    draw.text(fb, 5, "bag " + loot(v["bag"]))
    draw.hint(fb, "%s: up/down OK" % GEM[at])


def _first_picker(v):
    return [Picker("R", 0, min(v["bag"][0], v["safe_card"]), 0)]


def _pickers(v, local):
    if local.gems is None:
        local.gems = _first_picker(v)
    return local.gems


def press(v, local, button, kind):
    """A button on this player's station: the action to submit, or None."""
    you = v.get("you")
    if you is None or v["phase"] == "over":
        return None
    if v["phase"] == "play" and v["seats"][you]["committed"]:
        if button == OK:
            local.peek = kind != RELEASE
        elif button == BACK and kind == PRESS:
            local.peek = False
            return ("unlock",)  # the cards come back to the hand, the cursor where it was
        return None
    if kind not in (PRESS, REPEAT):
        return None
    phase = v["phase"]
    if phase == "gems" and v["start"] == you:
        return _press_gems(v, local, button)
    if phase == "reveal" and v["turn"] == you:
        if local.confirm is not None:  # a card once shown stays up: ask first
            action, local.confirm = local.confirm, None
            return action if button == OK else None
        local.cursor.resize(len(v["face_down"]))
        if local.cursor.press(button) == DONE:
            local.confirm = ("reveal", v["face_down"][local.cursor.at])
        return None
    if phase != "play":
        return None
    hand, r = v["hand"], v["cards_per_round"]
    local.cursor.resize(len(hand) + (1 if r > 1 else 0))  # then "Lock" follows the cards
    if local.cursor.press(button) != DONE:
        return None
    if r == 1:
        return ("play", hand[local.cursor.at])
    at = local.cursor.at
    if at == len(hand):
        if len(local.picks) != r:
            return None
        cards = sorted(hand[i] for i in local.picks)
        local.picks = []
        local.cursor.at = 0
        return ("play",) + tuple(cards)
    if at in local.picks:
        local.picks.remove(at)
    elif len(local.picks) < r:
        local.picks.append(at)
    return None


def _press_gems(v, local, button):
    if local.confirm is not None:
        action, local.confirm = local.confirm, None
        if button == OK:
            local.gems = None
            return action
        return None
    pickers = _pickers(v, local)
    result = pickers[-1].press(button)
    if result == CANCEL and len(pickers) > 1:
        pickers.pop()
    elif result == DONE:
        got = [p.value for p in pickers]
        left = v["safe_card"] - sum(got)
        if len(got) == 1:
            lo = max(0, left - v["bag"][2])
            pickers.append(Picker("Y", lo, min(v["bag"][1], left), lo))
        else:
            local.confirm = ("gems", got[0], got[1], left)
    return None


def say(ev, v):
    """A public event as one line for every station, or None for the quiet ones."""
    t = ev.get("type")
    if t == "safe":
        return "Round %d: safe %d, %s starts" % (ev["round"], ev["card"],
                                                 draw.seat_name(ev["start"]))
    if t == "take":
        return "%s's %d takes %s" % (draw.seat_name(ev["player"]), ev["card"], loot(ev["loot"]))
    if t == "steal":
        return "%s's %d robs %s of %s" % (draw.seat_name(ev["player"]), ev["card"],
                                         draw.seat_name(ev["from"]), loot(ev["loot"]))
    if t == "collect" and sum(ev["removed"]):
        return "Left in the safe: " + loot(ev["removed"])
    return None


def sound(ev):
    return {"take": "reveal", "steal": "steal"}.get(ev.get("type"))


def draw_table(fb, v):
    draw_screen(fb, v, None)
    lines = []  # the newest takes that fit rows 4-6, whole (one with rocks may take two)
    for c in reversed(v["table"]):
        who = "%s %d" % (draw.seat_name(c[0]), c[1])
        take = [who + " " + loot(c[2])]
        if len(take[0]) > draw.COLS:
            take = [who, "  " + loot(c[2])]
        if len(lines) + len(take) > 3:
            break
        lines = take + lines
    for i, line in enumerate(lines):
        draw.text(fb, 4 + i, line)
