# The station's report pickers propose only what the table knows: the height
# question opens with nothing chosen (weight cannot tell a height), OK on it
# asks for a choice, a bound the tray knows is the low end of "how many
# fell", each picker says whether the cat in hand counts, and pickers stop
# at their ends.
from stack_checks import physical, turn

from catnip.drivers.debounce import PRESS
from catnip.keys import BACK, DOWN, OK, UP
from catnip.ui import stack as stack_ui
from catnip.ui.widgets import CANCEL, DONE, UNCHOSEN, Picker

BASE = ["red", "orange", "yellow", "green"]


def _station(game, proposal=None):
    player = game.to_act()[0]
    v = game.view(player)
    v["you"] = player
    if proposal is not None:
        v["tray"] = {"fault": None, "lean": None, "proposal": proposal}
    return v, stack_ui.Local()


def _open(game, choice, proposal=None):
    """The picker a player's station opens on choosing `choice`."""
    v, local = _station(game, proposal)
    labels = stack_ui._menu(v, local)
    local.cursor.resize(len(labels))
    local.cursor.at = labels.index(choice)
    assert stack_ui.press(v, local, OK, PRESS) is None
    return v, local


def test_the_height_opens_with_nothing_chosen_and_ok_asks_for_a_choice():
    g = physical({"players": 2}, BASE)
    turn(g, "red", ("place", 1, 0))
    turn(g, "blue", ("place", 2, 0))
    g.act(0, ("drew", "pink"))
    v, local = _open(g, "Placed")
    picker = local.asking[-1]
    assert (picker.label, picker.value, picker.note) == ("Height", None, ("of your cat",))
    for _ in range(3):  # a group pressing OK-OK scores nothing
        why = stack_ui.press(v, local, OK, PRESS)
        assert why is not None and why[0] == "why", why
        assert local.asking and g.public()["tower"] == 6
    assert stack_ui.press(v, local, UP, PRESS) is None and picker.value == 1
    assert stack_ui.press(v, local, OK, PRESS) == ("place", 1, 0)


def test_the_trays_cat_asks_its_height_with_nothing_chosen():
    g = physical({"players": 2}, BASE)
    turn(g, "red", ("place", 1, 0))
    g.act(1, ("drew", "blue"))
    p = {"kind": "place", "id": 1, "value": 1, "lo": 1, "hi": 1, "conf": 97}
    v, local = _open(g, "Tray +1 cat 97%", p)
    assert (local.asking[-1].label, local.asking[-1].value) == ("Height", None)
    assert stack_ui.press(v, local, OK, PRESS)[0] == "why"
    stack_ui.press(v, local, DOWN, PRESS)  # the first DOWN: the most the rules allow
    assert local.asking[-1].value == 5
    assert stack_ui.press(v, local, OK, PRESS) == ("place", 5, 0)


def test_a_bound_from_the_tray_is_the_low_end_and_the_picker_says_so():
    g = physical({"players": 2}, BASE)
    turn(g, "red", ("place", 1, 0))
    turn(g, "blue", ("place", 2, 0))
    g.act(0, ("drew", "pink"))
    p = {"kind": "collapse", "id": 4, "value": 2, "lo": 2, "hi": 6, "conf": 0}
    v, local = _open(g, "Tray: 2+ fell?", p)
    picker = local.asking[-1]
    assert picker.label == "Fell: 2 or more" and (picker.lo, picker.hi) == (2, 6)
    assert picker.value is None  # not 2: cats that landed on the tray count too
    assert picker.note == ("incl. on tray", "not your cat")
    assert stack_ui.press(v, local, OK, PRESS)[0] == "why"
    for _ in range(2):
        stack_ui.press(v, local, UP, PRESS)
    assert stack_ui.press(v, local, OK, PRESS) == ("collapse", 3, 0)


def test_the_manual_collapse_says_the_cat_in_hand_does_not_count():
    g = physical({"players": 2}, BASE)
    g.act(0, ("drew", "red"))
    v, local = _open(g, "Collapsed")
    picker = local.asking[-1]
    assert (picker.label, picker.value, picker.note) == ("Cats fell", None, ("not your cat",))


def test_the_trays_question_of_the_cats_on_it_opens_with_nothing_chosen():
    g = physical({"players": 2}, BASE)
    g.act(0, ("drew", "red"))
    p = {"kind": "cats", "id": 2, "value": 5, "lo": 0, "hi": 30, "conf": 0}
    v, local = _station(g, p)
    assert stack_ui.press(v, local, OK, PRESS) is None
    assert local.asking[-1].value is None and local.asking[-1].note == ("not in hand",)
    assert stack_ui.press(v, local, OK, PRESS)[0] == "why"


def test_pickers_stop_at_their_ends():
    p = Picker("Height", 1, 4, None)
    assert p.press(OK) == UNCHOSEN and p.value is None
    p.press(DOWN)
    assert p.value == 4
    p.press(UP)
    assert p.value == 4  # no wrap to 1
    for _ in range(5):
        p.press(DOWN)
    assert p.value == 1  # no wrap to the most
    assert p.press(OK) == DONE and p.press(BACK) == CANCEL
    assert Picker("n", 0, 3, 2).value == 2  # a value the table knows stays given


def test_the_trays_rows_fit_the_station():
    rows = [stack_ui.tray_label({"kind": k, "value": n, "conf": c})
            for k in ("place", "collapse") for n in (0, 1, 9, 12, 35) for c in (0, 9, 90, 100)]
    assert max(len(r) for r in rows) <= 16, [r for r in rows if len(r) > 16]
    assert stack_ui.tray_label({"kind": "collapse", "value": 2, "conf": 0}) == "Tray: 2+ fell?"
