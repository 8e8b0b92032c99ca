# Where a station's height question starts: a height the rules make likely,
# never the most they allow, so a slip on OK scores what was likely.
from stack_checks import physical, turn

from catnip.drivers.debounce import PRESS
from catnip.keys import OK
from catnip.ui import stack as stack_ui

BASE = ["red", "orange", "yellow", "green"]


def _picked(game, choice):
    """The height a player's station starts at after choosing `choice`."""
    player = game.to_act()[0]
    v = game.view(player)
    v["you"] = player
    local = stack_ui.Local()
    labels = stack_ui._menu(v, local)
    local.cursor.resize(len(labels))
    local.cursor.at = labels.index(choice)
    assert stack_ui.press(v, local, OK, PRESS) is None
    picker = local.asking[-1]
    assert picker.label == "Height", picker.label
    return picker.value, picker.hi


def test_the_height_starts_one_above_the_highest_cat_standing():
    g = physical({"players": 2}, BASE)
    g.act(0, ("drew", "red"))
    assert _picked(g, "Placed") == (1, 4)  # a bare base: 1, not the 4 the rules allow
    g.act(0, ("place", 1, 0))
    turn(g, "blue", ("place", 2, 0))
    turn(g, "pink", ("place", 2, 0))  # a wide tower: two cats side by side
    g.act(1, ("drew", "teal"))
    assert g.public()["likely_height"] == 3 and _picked(g, "Placed") == (3, 7)
    g.act(1, ("collapse", 2, 0))  # the two on top fell: the highest left is 2
    assert _picked(g, "Placed") == (2, 5)


def test_patient_paws_starts_level_with_the_last_cat_and_never_at_the_most():
    g = physical({"players": 2, "mode": "patient"}, BASE)
    turn(g, "red", ("place", 1, 0))
    turn(g, "blue", ("place", 2, 0))
    g.act(0, ("drew", "pink"))
    assert _picked(g, "Placed") == (2, 6)
    g.act(0, ("collapse", 5, 0))  # one cat stands: it can only be 1 high
    assert g.public()["tower"] == 1 and _picked(g, "Placed") == (1, 1)


def test_the_trays_cat_asks_its_height_from_the_same_start():
    g = physical({"players": 2}, BASE)
    turn(g, "red", ("place", 1, 0))
    g.act(1, ("drew", "blue"))
    player = g.to_act()[0]
    v = g.view(player)
    v["you"] = player
    local = stack_ui.Local()
    local.proposal = {"kind": "place", "id": 1, "value": 1, "lo": 1, "hi": 1, "conf": 97}
    assert stack_ui._menu(v, local)[0] == "Tray +1 cat 97%"
    stack_ui.press(v, local, OK, PRESS)
    assert (local.asking[-1].label, local.asking[-1].value) == ("Height", 2)
    assert stack_ui.press(v, local, OK, PRESS) == ("place", 2, 0)


def test_the_trays_rows_fit_the_station():
    rows = [stack_ui.tray_label({"kind": k, "value": n, "conf": c})
            for k in ("place", "collapse") for n in (0, 1, 9, 12, 35) for c in (0, 9, 90, 100)]
    assert max(len(r) for r in rows) <= 16, [r for r in rows if len(r) > 16]
    assert stack_ui.tray_label({"kind": "collapse", "value": 2, "conf": 0}) == "Tray: 2+ fell?"
