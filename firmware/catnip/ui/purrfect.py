# Purrfect on a station: the hand grouped by cat, offers made and answered
# by meow word, withdrawals and the purrfect declaration. The device makes
# every swap, so a hand is never shown anywhere but on its own station. In
# scorekeeper mode (paper cards) a station records each round instead. An
# answer asks first, and can be taken back until anyone acts next, as can a
# round recorded (unless it ends the game: that one asks first).
from catnip.keys import BACK, PRESS, REPEAT
from catnip.rules.purrfect import CATS, GOAL, cat_of
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, Cursor, Picker



class Local:
    def __init__(self):
        self.cursor = Cursor()
        self.on = None  # the key of the item under the cursor (see _key)
        self.doing = None  # the item being answered: ("offer", cat) | ("accept", offer) | ...
        self.sub = None  # its Picker or Cursor
        self.table = False  # the meow table and everyone's pawprints are shown
        self.declarer = 0  # scorekeeper: who declared,
        self.ticks = []  # and the players ticked as best hands


def meow(v, k):
    return v["meows"][k - 1][0]


def _free(v):
    """{cat: [cards]} of the player's cards in no open offer, by cat."""
    offered = []
    for oid, cards in v["offered"]:
        offered += cards
    groups = {}
    for card in v["hand"]:
        if card not in offered:
            groups.setdefault(cat_of(card), []).append(card)
    return groups


def hand_labels(v):
    groups = _free(v)
    return ["%s x%d" % (CATS[cat][0], len(groups[cat])) for cat in sorted(groups)]


def _offer_label(o):
    label = "%s %s #%d" % (draw.seat_name(o["player"]), o["meow"], o["offer"])
    return label if len(label) < draw.COLS else "%s %s" % (draw.seat_name(o["player"]), o["meow"])


def _items(v):
    """The station's list: (label, what OK does). The hand's groups and the
    declaration come first (drawn side by side: _head), then the player's
    newest open offer and the others' offers newest first, so the offers the
    table is acting on now sit just under the hand at any table size; the
    player's older offers and "Take back swap" come last."""
    if v["mode"] == "scorekeeper":
        items = [("Record round", ("score",))]
        if v.get("fix"):
            items.append(("Fix last round", ("correct",)))
        return items
    you = v["you"]
    groups = _free(v)
    items = [(label, ("offer", cat)) for label, cat in zip(hand_labels(v), sorted(groups))]
    items.append(("Purrfect!", ("declare",)))
    mine = [("mine %s x%d" % (CATS[cat_of(cards[0])][0], len(cards)), ("withdraw", oid))
            for oid, cards in v["offered"]]
    items += mine[-1:]
    for o in reversed(v["offers"]):
        if o["player"] != you:
            items.append((_offer_label(o), ("accept", o)))
    items += reversed(mine[:-1])
    if v.get("fix"):  # last: any move (an offer coming in too) takes it away first
        items.append(("Take back swap", ("correct",)))
    return items


def _head(v):
    """The hand's groups ("A3": three free cards of Ash; every cat's name
    starts with its own letter) and "Purrfect!", flowing over the rows they
    need (two at most: five groups fill one): [(row, column, label)]."""
    groups = _free(v)
    labels = ["%s%d" % (CATS[cat][0][0], len(groups[cat])) for cat in sorted(groups)]
    labels.append("Purrfect!")
    out = []
    row = col = 0
    for label in labels:
        if col and col + len(label) > draw.COLS:
            row, col = row + 1, 0
        out.append((row, col, label))
        col += len(label) + 1
    return out


def _key(what):
    """What stays the same about an item while the list around it changes."""
    return (what[0], what[1]["offer"]) if what[0] == "accept" else what


def _place(local, items):
    """Keep the cursor on the item it was on, wherever that item is now; if
    it is gone, on the row it was on, unless that is "Take back swap" (an
    answer's offer goes and the take-back comes last: a reflex OK there
    would undo the swap just made)."""
    local.cursor.resize(len(items))
    if local.on is not None:
        for i, (_, what) in enumerate(items):
            if _key(what) == local.on:
                local.cursor.at = i
                break
        else:
            if items and items[local.cursor.at][1] == ("correct",):
                local.cursor.at = max(0, local.cursor.at - 1)
    local.on = _key(items[local.cursor.at][1]) if items else None


def _paws(v):
    paws = " ".join(str(p) for p in v["pawprints"])
    return "Paws " + (paws if len(paws) <= draw.COLS - 5 else paws.replace(" ", ""))


def draw_screen(fb, v, local):
    draw.clear(fb)
    you = v.get("you")
    if you is None or local is None:
        draw.title(fb, "Round %d" % v["round"], "table")
    else:
        # Your pawprints stay in the title: the list below scrolls at seven.
        draw.title(fb, "R%d paws %d" % (v["round"], v["pawprints"][you]), draw.seat_name(you))
    if v["winner"] is not None:
        draw.text(fb, 2, "%s wins!" % draw.seat_name(v["winner"]))
        draw.text(fb, 6, _paws(v))
        return
    if you is None or local is None or local.table:
        for k in range(1, 5):
            draw.text(fb, k, "%d %s %s" % (k, "card" if k == 1 else "cards", meow(v, k)))
        if v["mode"] != "scorekeeper" and (you is None or local is None):
            draw.text(fb, 5, draw.counted(len(v["offers"]), "offer") + " open")
        draw.text(fb, 6, _paws(v))
        if local is not None and you is not None:
            draw.hint(fb, "any key: back")
        return
    if local.doing is not None:
        _draw_doing(fb, v, local)
        return
    items = _items(v)
    _place(local, items)
    at = local.cursor.at
    if v["mode"] == "scorekeeper":
        draw.items(fb, [label for label, _ in items], at, 1, 6)
        draw.hint(fb, "OK do BACK meows")
        return
    # The hand, then the offers in the rows left: with a two-row hand, the
    # newest offer of yours and the three newest of the others fit unscrolled.
    # An announcement takes only the hint's row (say() is one line).
    head = _head(v)
    for i, (row, col, label) in enumerate(head):
        draw.text(fb, 1 + row, label, col, i == at)
    top = 2 + head[-1][0]
    draw.items(fb, [label for label, _ in items[len(head):]], at - len(head), top, 7 - top)
    draw.hint(fb, items[at][0] if at < len(head) - 1 else "OK do BACK meows")


def _draw_doing(fb, v, local):
    what = local.doing
    kind = what[0]
    if kind == "offer":
        k = local.sub.value
        draw.text(fb, 1, "Offer " + CATS[what[1]][0])
        local.sub.draw(fb, 2)
        draw.text(fb, 5, "say: " + meow(v, k), inverse=True)
    elif kind == "accept":
        draw.text(fb, 1, "%s's %s" % (draw.seat_name(what[1]["player"]), what[1]["meow"]))
        labels = [CATS[c][0] for c in _answers(v, what[1])]
        if labels:
            draw.items(fb, labels, local.sub.at, 2, 4)
        else:
            draw.paragraph(fb, "No cat of yours has that many free cards", 2, 5)
    elif kind == "withdraw":
        draw.paragraph(fb, "Take back your offer of %s?" % _mine(v, what[1]), 1, 4)
    elif kind == "declare":
        draw.paragraph(fb, "Declare a purrfect hand of nine?", 1, 4)
    elif kind == "answer":
        action, cat = what[1], what[2]
        draw.paragraph(fb, "Give %d %s for offer #%d?" % (len(action) - 2, CATS[cat][0],
                                                         action[1]), 1, 4)
    elif kind == "correct":
        draw.paragraph(fb, "Take back your last %s?" % (
            "round recorded" if v["mode"] == "scorekeeper" else "answer: the cards go back"),
            1, 4)
    elif kind == "record":
        draw.paragraph(fb, "This ends the game: %s declared, best %s?" % (
            draw.seat_name(what[1][1]), " ".join(draw.seat_name(p) for p in what[1][2:])), 1, 5)
    elif kind == "score":
        _draw_score(fb, v, local)
    draw.hint(fb, "OK yes BACK no")


def _mine(v, oid):
    """One of the player's own open offers in words: "Ash x2 (miau)"."""
    for o, cards in v["offered"]:
        if o == oid:
            return "%s x%d (%s)" % (CATS[cat_of(cards[0])][0], len(cards), meow(v, len(cards)))
    return "#%d" % oid


def _size(v, offer):
    """How many cards an offer's meow stands for."""
    for k, (word, _) in enumerate(v["meows"]):
        if word == offer["meow"]:
            return k + 1
    return 0


def _answers(v, offer):
    """Cats the player can answer `offer` with: enough free cards of one cat."""
    k = _size(v, offer)
    groups = _free(v)
    return [c for c in sorted(groups) if len(groups[c]) >= k]


def _draw_score(fb, v, local):
    n = v["players"]
    if local.sub is None or isinstance(local.sub, Picker):
        draw.text(fb, 1, "Who declared?")
        p = local.sub.value if local.sub else 0
        draw.text(fb, 2, draw.seat_name(p), 6, inverse=True)
    else:
        draw.text(fb, 1, "Best of others:")
        labels = [("[x] " if p in local.ticks else "[ ] ") + draw.seat_name(p)
                  for p in range(n) if p != local.declarer]
        labels.append("Done")
        draw.items(fb, labels, local.sub.at, 2, 4)


def press(v, local, button, kind):
    you = v.get("you")
    if you is None or v["winner"] is not None or kind not in (PRESS, REPEAT):
        return None
    if local.table:
        local.table = False  # any key puts the meow table away
        return None
    if local.doing is not None:
        return _press_doing(v, local, button)
    items = _items(v)
    _place(local, items)
    result = local.cursor.press(button)
    local.on = _key(items[local.cursor.at][1]) if items else None
    if result == CANCEL:
        local.table = True
    if result != DONE:
        return None
    what = items[local.cursor.at][1]
    local.doing = what
    if what[0] == "offer":
        local.sub = Picker("How many?", 1, min(4, len(_free(v)[what[1]])), 1)
    elif what[0] == "accept":
        local.sub = Cursor(len(_answers(v, what[1])))
    elif what[0] == "score":
        local.sub = Picker("Declarer", 0, v["players"] - 1, 0)
        local.ticks = []
    return None


def _done(local):
    """Back to the list, the cursor where it was (on the same item, if it is
    still there)."""
    local.doing = local.sub = None


def _press_doing(v, local, button):
    what = local.doing
    kind = what[0]
    if kind == "score":
        return _press_score(v, local, button)
    if kind in ("withdraw", "declare", "correct"):
        _done(local)
        return what if button != BACK else None
    if kind in ("answer", "record"):  # the action asked about
        _done(local)
        if button == BACK:
            return None
        if kind == "answer":  # the answered offer goes: the cursor to the hand, not the
            local.cursor.at, local.on = 0, None  # take-back that comes last
        return what[1]
    result = local.sub.press(button)
    if result == CANCEL:
        _done(local)
        return None
    if result != DONE:
        return None
    if kind == "offer":
        cards = _free(v)[what[1]][:local.sub.value]
        _done(local)
        return ("offer",) + tuple(cards)
    offer = what[1]
    cats = _answers(v, offer)
    at = local.sub.at
    _done(local)
    if not cats:
        return None
    action = ("accept", offer["offer"]) + tuple(_free(v)[cats[at]][:_size(v, offer)])
    local.doing = ("answer", action, cats[at])  # a swap is seen at once: ask first
    return None


def _press_score(v, local, button):
    if isinstance(local.sub, Picker):
        result = local.sub.press(button)
        if result == CANCEL:
            _done(local)
        elif result == DONE:
            local.declarer = local.sub.value
            local.sub = Cursor(v["players"])  # the others, then "Done"
            local.ticks = []
        return None
    others = [p for p in range(v["players"]) if p != local.declarer]
    result = local.sub.press(button)
    if result == CANCEL:
        local.sub = Picker("Declarer", 0, v["players"] - 1, local.declarer)
    elif result == DONE:
        if local.sub.at == len(others):
            if not local.ticks:
                return None
            action = ("score", local.declarer) + tuple(sorted(local.ticks))
            _done(local)
            if _ends(v, action):  # nothing is corrected after the end: ask first
                local.doing = ("record", action)
                return None
            return action
        p = others[local.sub.at]
        if p in local.ticks:
            local.ticks.remove(p)
        else:
            local.ticks.append(p)
    return None


def _ends(v, action):
    """True if recording this round gives someone GOAL (five) pawprints."""
    paws = list(v["pawprints"])
    paws[action[1]] += 2
    for p in action[2:]:
        paws[p] += 1
    return max(paws) >= GOAL


def _line(*says):
    """The first of `says` that fits one row: an announcement on a station
    takes only the hint's row, never the hand's or the offers' (the
    shortest is last, and fits with names of SHOWN letters)."""
    for s in says:
        if len(s) <= draw.COLS:
            return s
    return says[-1]


def say(ev, v):
    t = ev.get("type")
    who = draw.seat_name(ev["player"]) if "player" in ev else ""
    if t == "offer":
        return _line("%s offers %s!" % (who, ev["meow"]), "%s: %s!" % (who, ev["meow"]))
    if t == "swap":
        by = draw.seat_name(ev["by"])
        return _line("%s took %s's offer" % (by, who), "%s took %s's" % (by, who),
                     "%s took %s" % (by, who))
    if t == "correct":
        return _line("%s takes it back" % who, "%s takes back" % who)
    if t == "false declaration":
        return _line("%s: not purrfect" % who, "%s: not nine" % who)
    if t == "round over":
        declarer = draw.seat_name(ev["declarer"])
        return _line("R%d: %s purrfect" % (ev["round"], declarer), "%s purrfect!" % declarer)
    if t == "game over":
        from catnip.ui.outcome import won  # the end's words, loaded at the end

        return won(ev["winner"], ev["reason"])
    return None


def sound(ev):
    return {"swap": "steal", "round over": "reveal"}.get(ev.get("type"))


def draw_table(fb, v):
    draw_screen(fb, v, None)

