# micropython-only: the screens draw into MicroPython's built-in framebuf.
#
# What a player sees on their own station is what their next press acts on:
# the Meow Heist cursor after the rightmost card is played, and Purrfect's
# list while offers come and go.
from catnip.keys import BACK, DOWN, OK, PRESS, UP
from catnip.rules import new as new_game
from catnip.ui import purrfect as purrfect_ui
from catnip.ui.play import Play
from screencheck import Checked


def _lit(fb, *ys):
    """The strings drawn dark on a lit box at pixel rows ys: the cursor's."""
    return [r[0] for r in fb.runs if r[2] in ys and r[6] == 0 and fb._showing(r)]


def _act(scene, station, button):
    out = scene.key(station, button, PRESS)
    if out is not None:
        scene.announce(scene.game.act(out[1], out[2]), 0)
        while scene.banner:
            scene.next_banner(0)
    return out


def test_after_the_rightmost_card_the_next_round_lights_the_card_ok_plays():
    game = new_game("heist", {"players": 4}, "1")
    scene = Play("heist", game, [0, 1, 2, 3], 4)
    fb = Checked()
    _act(scene, 0, UP)  # from the first card round to the last
    scene.draw(0, fb)
    last = game.view(0)["hand"][-1]
    assert _lit(fb, 32, 40) == [str(last)]
    assert _act(scene, 0, OK) == ("act", 0, ("play", last))
    for station in (1, 2, 3):
        _act(scene, station, OK)
    while game.public()["phase"] == "reveal":
        turn = game.public()["turn"]
        _act(scene, turn, OK)
    assert game.public()["round"] == 2 and game.public()["phase"] == "play"
    fb.fill(0)
    scene.draw(0, fb)
    lit = _lit(fb, 32, 40)
    assert len(lit) == 1, "no card is lit: %r" % fb.strings()
    out = _act(scene, 0, OK)
    assert out == ("act", 0, ("play", int(lit[0])))


def test_a_four_player_heist_hand_of_ten_reads_as_ten_cards():
    game = new_game("heist", {"players": 4}, "1")
    scene = Play("heist", game, [0, 1, 2, 3], 4)
    fb = Checked()
    scene.draw(0, fb)
    assert fb.take() == []
    cards = [s for s, _, y in fb.strings() if y in (32, 40)]
    assert cards == [str(c) for c in game.view(0)["hand"]] and len(cards) == 10


def _purrfect():
    game = new_game("purrfect", {"players": 4}, "census purrfect 4")
    return game, Play("purrfect", game, [0, 1, 2, 3], 4)


def _offer(scene, station):
    """The station offers one card of its first cat."""
    local = scene.local[station]
    local.cursor.at, local.on = 0, None
    _act(scene, station, OK)
    assert _act(scene, station, OK)[2][0] == "offer"


def _item(scene, station):
    v = scene.view(station)
    items = purrfect_ui._items(v)
    purrfect_ui._place(scene.local[station], items)
    return items[scene.local[station].cursor.at]


def test_an_offer_coming_in_never_moves_the_row_under_the_cursor():
    game, scene = _purrfect()
    _offer(scene, 1)
    while _item(scene, 0)[1][0] != "accept":
        _act(scene, 0, DOWN)
    before = _item(scene, 0)
    for station in (2, 3, 1):
        _offer(scene, station)
        fb = Checked()
        scene.draw(0, fb)
        assert _item(scene, 0) == before
        assert _lit(fb, *range(8, 56, 8)) == [before[0]]
    out = _act(scene, 0, OK)  # the answer screen is for the offer that was lit
    assert out is None and scene.local[0].doing[1]["offer"] == before[1][1]["offer"]


def test_back_from_an_answer_leaves_the_cursor_where_it_was():
    game, scene = _purrfect()
    _act(scene, 0, DOWN)
    _act(scene, 0, DOWN)
    at = scene.local[0].cursor.at
    _act(scene, 0, OK)
    assert scene.local[0].doing is not None
    _act(scene, 0, BACK)
    assert scene.local[0].doing is None and scene.local[0].cursor.at == at


def test_your_own_open_offer_says_what_you_offered():
    game, scene = _purrfect()
    _offer(scene, 0)
    v = scene.view(0)
    oid, cards = v["offered"][0]
    fb = Checked()
    scene.draw(0, fb)
    cat = purrfect_ui.CATS[cards[0] // 9][0]
    assert "mine %s x%d" % (cat, len(cards)) in [s for s, _, _ in fb.strings()]


def test_back_shows_the_meow_table_and_any_key_puts_it_away():
    game, scene = _purrfect()
    _act(scene, 0, BACK)
    fb = Checked()
    scene.draw(0, fb)
    shown = [s for s, _, _ in fb.strings()]
    v = scene.view(0)
    for k in range(1, 5):
        assert any(s.endswith(" " + v["meows"][k - 1][0]) and s.startswith(str(k))
                   for s in shown), shown
    assert fb.take() == []
    _act(scene, 0, OK)  # puts it away, and does nothing else
    assert not scene.local[0].table and scene.local[0].doing is None


def test_with_four_cats_and_offers_open_the_whole_hand_stays_in_view():
    game, scene = _purrfect()
    for station in (1, 2, 3):
        _offer(scene, station)
    v = scene.view(0)
    groups = ["%s%s" % (label[0], label.split(" x")[1]) for label in purrfect_ui.hand_labels(v)]
    offers = [purrfect_ui._offer_label(o) for o in v["offers"]]
    for _ in range(12):  # down through every row, past the last
        fb = Checked()
        scene.draw(0, fb)
        shown = [s for s, _, _ in fb.strings()]
        assert all(g in shown for g in groups + offers), (groups, offers, shown)
        assert fb.take() == []
        label, what = _item(scene, 0)
        if what[0] == "offer":  # a group is its letter: the hint names it whole
            assert shown[-1] == label, shown
        _act(scene, 0, DOWN)


def test_three_digit_stack_scores_leave_a_space_before_the_next_seats_box():
    game = new_game("stack", {"players": 6}, "scores")
    scene = Play("stack", game, list(range(6)), 6)
    v = scene.view(0)
    v["scores"] = [270, 252, 234, 999, 100, 5]
    fb = Checked()
    scene.ui.draw_screen(fb, v, scene.local[0])
    assert fb.take() == []
    for row in (5, 6):  # three seats a row: boxes at columns 0, 5 and 10
        for box in (5, 10):
            x = box * 8
            dark = [all(not fb.pixel(x - d, row * 8 + y) for y in range(8)) for d in (1, 2, 3)]
            assert all(dark), "row %d: the points run into the box at column %d" % (row, box)
            assert fb.pixel(x, row * 8), "the box is lit"
