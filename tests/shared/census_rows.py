# micropython-only: read from the screen census's checking canvas.
#
# What the screen census (test_screen_census) checks a Purrfect station
# shows, beyond fitting: the rows its player acts on.


def purrfect_rows(scene, station, fb):
    """Purrfect readable at any table size: a seated player's pawprints, hand
    (by cat letter and count), newest open offer and the three newest of the
    others' are all showing, announcement or not, while the cursor is on one
    of them; and the row under the cursor always shows."""
    from catnip.rules.purrfect import CATS
    from catnip.ui import purrfect as ui

    v = scene.view(station)
    local = scene.local[station]
    if v["mode"] != "stations" or v["winner"] is not None or local.doing is not None \
            or local.table:
        return []
    shown = [s for s, _, _ in fb.strings()]
    where = "seat %d of %d%s" % (v["you"], v["players"], ", announcement up" if scene.banner else "")
    problems = []
    if not shown or "paws %d" % v["pawprints"][v["you"]] not in shown[0]:
        problems.append("rows: own pawprints not shown (%s)" % where)
    groups = ui._free(v)
    hand = ["%s%d" % (CATS[c][0][0], len(groups[c])) for c in sorted(groups)]
    mine = v["offered"][-1:]
    mine = ["mine %s x%d" % (CATS[ui.cat_of(cards[0])][0], len(cards)) for _, cards in mine]
    others = [o for o in v["offers"] if o["player"] != v["you"]][-3:]
    wanted = hand + ["Purrfect!"] + mine + [ui._offer_label(o) for o in others]
    items = ui._items(v)
    ui._place(local, items)
    at = local.cursor.at
    what = items[at][1]
    label = hand[at] if what[0] == "offer" else items[at][0]
    if label not in shown:
        problems.append("rows: the row under the cursor, %r, not shown (%s)" % (label, where))
    keys = [("offer", c) for c in sorted(groups)] + [("declare",)] + \
        [("withdraw", oid) for oid, _ in v["offered"][-1:]] + [("accept", o["offer"]) for o in others]
    if ui._key(what) in keys:
        missing = [w for w in wanted if w not in shown]
        if missing:
            problems.append("rows: %s not shown (%s)" % (", ".join(missing), where))
    return problems
