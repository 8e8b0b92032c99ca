# Stack O' Cats on a station. The active player's station drives the turn:
# draw (or report the cat drawn), then report how the attempt ended. The
# tray's proposal comes first, with how sure it is of exactly what it says
# (a cat added, the cats that fell) or a question mark when it cannot know;
# "Placed" and "Collapsed" are the manual path for a table without a tray or
# when it is wrong. A height is always asked with nothing chosen: the device
# cannot know it, and a guess a group trusts scores wrong. So is every number
# the tray is not sure of; a bound the tray knows ("2 or more fell") is the
# picker's low end, and each picker says whether the cat in hand counts. OK
# on a picker with nothing chosen is refused with why. Every number is asked
# within what the rules allow (the limits are read off the public state,
# never from the full legal() list). A report that ends the game asks first;
# any other can be taken back with BACK by its player until anyone acts next
# (v["fix"], from the rules' corrector()), and reported again.
from catnip.keys import BACK, OK, PRESS, REPEAT
from catnip.ui import draw
from catnip.ui.widgets import CANCEL, DONE, UNCHOSEN, Cursor, Picker


class Local:
    def __init__(self):
        self.cursor = Cursor()
        self.asking = None  # [Picker, ...] while entering a report
        self.report = None  # "place" or "collapse": what the pickers build
        self.confirm = None  # ("correct",), or a report that ends the game, awaiting OK


def proposal(v):
    """The tray's proposal on the active player's view (v["tray"], from
    catnip.table.weigh), or None."""
    tray = v.get("tray")
    return tray.get("proposal") if tray is not None else None


def limits(v):
    """The report's bounds, as Stack.limits() gives them, from public()."""
    return {"height": (1, max(1, v["tower"])), "black_touched": (0, v["tower_black"]),
            "fallen": (1, v["tower"])}


def black_fallen(v, fallen):
    others = v["tower"] - v["tower_black"]
    return max(0, fallen - others), min(fallen, v["tower_black"])


def _choices(v):
    """The colours a colour step may name, from the public counts."""
    counts = v["table"] if v["step"] == "take" else v["bag"]
    return [c for c in counts if counts[c]]


GAUGE_ROW = 3  # the lean, rows 3 and 4 at the right, where the place step's rows are short
SCORE_ROW = 5  # the scores take rows 5 and 6, three players a row
SCORE_STEP = 5  # columns a player's score takes: the seat lit, the points, a space


def _scores(fb, v):
    """Every player's score (up to three characters), each behind its seat
    number in a lit box, three to a row; three digits still leave a space
    before the next seat's box."""
    if v["mode"] == "clowder":
        draw.text(fb, SCORE_ROW + 1, "Team %d" % v["team"])
        return
    scores = v["scores"]
    row = SCORE_ROW + (1 if len(scores) <= 3 else 0)
    for i, s in enumerate(scores):
        r, col = row + i // 3, SCORE_STEP * (i % 3)
        draw.text(fb, r, str(i + 1), col, inverse=True)
        s = str(s)  # a space after the lit box, but for three digits: then a space before the next
        draw.text(fb, r, s, col + (1 if len(s) > 2 else 2))


def tray_label(p):
    """The tray's proposal as a menu row of at most 16 characters, always
    starting "Tray": what it saw and how sure it is, or a question."""
    if p["kind"] == "place":
        return "Tray +1 cat %d%%" % p["conf"]
    if not p["conf"]:
        return "Tray: %d+ fell?" % p["value"] if p["value"] else "Tray: fell?"
    label = "Tray %d fell %d%%" % (p["value"], p["conf"])
    return label if len(label) <= 16 else "Tray -%d %d%%" % (p["value"], p["conf"])


def _menu(v, local):
    """The place step's choices: the tray's proposal first, if any."""
    labels = []
    p = proposal(v)
    if p is not None and p["kind"] in ("place", "collapse"):
        labels.append(tray_label(p))
    labels.append("Placed")
    if v["tower"]:
        labels.append("Collapsed")
    return labels


def draw_screen(fb, v, local):
    draw.clear(fb)
    you = v.get("you")
    draw.title(fb, "Stack " + (draw.seat_name(you) if you is not None else "table"),
               "T%d" % v["tower"])
    _scores(fb, v)
    if v["ended"] is not None:
        from catnip.ui.outcome import reason  # the end's words, loaded at the end

        draw.paragraph(fb, "Over: " + reason({"why": v["ended"]}), 1, 4)
        return
    tray = v.get("tray")
    lean = tray.get("lean") if tray is not None else None
    if you is not None and local is not None and local.confirm is not None:
        _draw_confirm(fb, local.confirm)
        return
    if you is None or v["turn"] != you:
        if lean is not None and not tray.get("fault"):
            draw.gauge(fb, GAUGE_ROW, lean, 16)
        who = draw.seat_name(v["turn"])
        draw.text(fb, 1, "%s places %s" % (who, v["hand"]) if v["hand"] else who + "'s turn")
        if v.get("fix"):
            draw.hint(fb, "BACK: fix report")
        if tray is not None and tray.get("fault"):  # the tray's trouble before the bag
            fault = "The tray: " + tray["fault"]
            draw.paragraph(fb, fault if len(draw.wrap(fault)) <= 3 else tray["fault"], 2, 4)
        else:
            draw.text(fb, 2, "Bag %d" % v["bag_left"])
        return
    step = v["step"]
    p = proposal(v)
    asks = p is not None and p["kind"] == "cats"
    if lean is not None and step == "place" and not asks:
        draw.gauge(fb, GAUGE_ROW, lean, 16)  # beside the short rows of the place step
    if local.asking:
        local.asking[-1].draw(fb, 1)
        draw.hint(fb, "OK on  BACK back")
    elif asks:
        draw.paragraph(fb, "Tray unsure: how many cats are on it?", 1, 3)
        draw.hint(fb, "OK answer")
    elif step == "draw":
        draw.text(fb, 1, "Your turn")
        draw.text(fb, 2, "Bag %d cats" % v["bag_left"])
        draw.hint(fb, "OK draw a cat")
    elif step == "place":
        draw.text(fb, 1, "Place " + v["hand"])
        draw.items(fb, _menu(v, local), local.cursor.at, 2, 3)
        draw.hint(fb, "BACK: fix report" if v.get("fix") else "OK report")
    else:
        verb = {"drew": "Cat drawn?", "take": "Take from table", "base": "Cat in base?",
                "out": "Cat set out?"}[step]
        draw.text(fb, 1, verb)
        draw.items(fb, _choices(v), local.cursor.at, 2, 3)
        draw.hint(fb, "BACK: fix report" if v.get("fix") else "OK choose")


def _draw_confirm(fb, action):
    if action[0] == "correct":
        draw.paragraph(fb, "Take back your last report and give it again?", 1, 5)
    else:
        what = "height %d" % action[1] if action[0] == "place" else "%d fell" % action[1]
        draw.paragraph(fb, "This ends the game: %s?" % what, 1, 5)
    draw.hint(fb, "OK yes BACK no")


def press(v, local, button, kind):
    you = v.get("you")
    if you is None or v["ended"] is not None or kind not in (PRESS, REPEAT):
        return None
    if local.confirm is not None:
        action, local.confirm = local.confirm, None
        return action if button == OK else None
    if button == BACK and kind == PRESS and v.get("fix") and not local.asking:
        local.confirm = ("correct",)
        return None
    if v["turn"] != you:
        return None
    if local.asking:
        return _press_asking(v, local, button)
    p = proposal(v)
    if p is not None and p["kind"] == "cats":
        local.asking = [Picker("Cats on tray", p["lo"], p["hi"], None, ("not in hand",))]
        local.report = "cats"
        return None
    step = v["step"]
    if step == "draw":
        return ("draw",) if button == OK else None
    if step == "place":
        labels = _menu(v, local)
        local.cursor.resize(len(labels))
        if local.cursor.press(button) != DONE:
            return None
        return _chosen(v, local, labels[local.cursor.at], p)
    choices = _choices(v)
    local.cursor.resize(len(choices))
    if local.cursor.press(button) == DONE and choices:
        return (step, choices[local.cursor.at])
    return None


def _chosen(v, local, choice, p):
    """The place step's row `choice` taken: the pickers for its report, each
    opening with nothing chosen unless the tray is sure of it (a height it
    never is: weight cannot tell it)."""
    lim = limits(v)
    tray = choice.startswith("Tray")
    if choice == "Placed" or tray and p["kind"] == "place":
        local.report = "place"
        local.asking = [Picker("Height", lim["height"][0], lim["height"][1], None,
                               ("of your cat",))]
        return None
    local.report = "collapse"
    if tray and p["conf"]:
        if not v["black_cat"]:
            return _report(v, local, [p["value"]])
        local.asking = [_fixed(p["value"]), _black_picker(v, "collapse", p["value"])]
    elif tray and p["value"] > 1:  # a bound: so many left the tray, more may lie on it
        bound = min(lim["fallen"][1], p["value"])
        local.asking = [Picker("Fell: %d or more" % bound, bound, lim["fallen"][1], None,
                               ("incl. on tray", "not your cat"))]
    else:
        local.asking = [Picker("Cats fell", 1, lim["fallen"][1], None, ("not your cat",))]
    return None


def _fixed(value):
    return Picker("", value, value, value)


def _black_picker(v, report, value):
    if report == "place":
        return Picker("Black touched", 0, v["tower_black"], None, ("by your cat",))
    lo, hi = black_fallen(v, value)
    return Picker("Black fell", lo, hi, lo if lo == hi else None, ("of those fell",))


def _press_asking(v, local, button):
    pickers = local.asking
    result = pickers[-1].press(button)
    if result == UNCHOSEN:
        return ("why", "Choose a number first: UP or DOWN")
    if result == CANCEL:
        pickers.pop()
        while pickers and pickers[-1].lo == pickers[-1].hi and pickers[-1].label == "":
            pickers.pop()
        if not pickers:
            local.asking = None
        return None
    if result != DONE:
        return None
    values = [q.value for q in pickers]
    if local.report == "cats" or not v["black_cat"] or len(values) == 2:
        return _report(v, local, values)
    pickers.append(_black_picker(v, local.report, values[0]))
    return None


def _report(v, local, values):
    report, local.asking, local.report = local.report, None, None
    local.cursor.at = 0
    if report == "cats":
        return ("answer", values[0])  # the tray's question answered: no game action
    second = values[1] if len(values) > 1 else 0
    action = (report, values[0], second)
    if _ends(v, report):
        local.confirm = action  # nothing is corrected after the end: ask first
        return None
    return action


def _ends(v, report):
    """True if this report ends the game: the bag's last cat placed, or a
    Clowder collapse."""
    if report == "collapse":
        return v["mode"] == "clowder"
    return not v["bag_left"] and not sum(v["table"].values())


def say(ev, v):
    e = ev.get("type")
    who = draw.seat_name(ev["player"]) if "player" in ev else ""
    if e == "drew" or e == "draw":
        return "%s drew %s" % (who, ev["colour"])
    if e == "placed":
        return "%s: height %d, +%d" % (who, ev["height"], ev["points"])
    if e == "collapse":
        return "%s: collapse! %d fell" % (who, ev["fallen"])
    if e == "correct":
        return "%s reports again" % who
    if e == "over":
        from catnip.ui.outcome import reason  # the end's words, loaded at the end

        return "Game over: " + reason(ev["reason"])
    return None


def sound(ev):
    return {"collapse": "collapse", "placed": "turn"}.get(ev.get("type"))


def draw_table(fb, v):
    draw_screen(fb, v, Local())
