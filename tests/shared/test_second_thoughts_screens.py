# Second thoughts on the stations, through the Play scene's key() as the
# App feeds it (button presses in, commands out), and what each screen draws,
# read as text: a Heist card taken back with BACK, a reveal, an answer and a
# game's last report asked first, a result taken back by its reporter, and
# announcements that take no press.
from catnip import rules
from catnip.keys import BACK, DOWN, OK, PRESS, RELEASE, UP
from catnip.ui.play import Play


class Text:
    """A framebuf stand-in that keeps the text drawn, row by row."""

    def __init__(self):
        self.rows = {}

    def fill(self, c):
        self.rows = {}

    def text(self, s, x, y, c=1):
        row = self.rows.setdefault(y // 8, [" "] * 16)
        for i, ch in enumerate(s):
            if 0 <= x // 8 + i < 16:
                row[x // 8 + i] = ch

    def fill_rect(self, x, y, w, h, c):
        for r in range(y // 8, (y + h + 7) // 8):
            if r in self.rows and x == 0 and w >= 128 and y <= r * 8:
                del self.rows[r]

    def rect(self, *a):
        pass

    def hline(self, *a):
        pass

    def vline(self, *a):
        pass

    def pixel(self, *a):
        pass

    def screen(self):
        return " | ".join("".join(self.rows[r]).rstrip() for r in sorted(self.rows))


def table(name, config, seed, players):
    game = rules.new(name, config, seed)
    return game, Play(name, game, list(range(players)), players)


def shows(scene, station):
    fb = Text()
    scene.draw(station, fb)
    return fb.screen()


def press(scene, station, button, kind=PRESS):
    """A press as the App carries it out: an action goes to the game."""
    out = scene.key(station, button, kind)
    if out is not None and out[0] == "act":
        events = scene.game.act(out[1], out[2])
        scene.announce(events, 0)
    return out


def test_a_heist_card_is_locked_taken_back_with_back_and_locked_again():
    game, scene = table("heist", {"players": 3}, "back", 3)
    hand = game.view(0)["hand"]
    assert press(scene, 0, OK) == ("act", 0, ("play", hand[0]))
    assert "BACK: take back" in shows(scene, 0)
    assert press(scene, 0, BACK) == ("act", 0, ("unlock",))
    assert game.view(0)["hand"] == hand and not game.public()["seats"][0]["committed"]
    press(scene, 0, DOWN)
    assert press(scene, 0, OK) == ("act", 0, ("play", hand[1]))


def test_peeking_is_still_a_hold_of_ok_and_never_unlocks():
    game, scene = table("heist", {"players": 3}, "peek", 3)
    press(scene, 1, OK)
    press(scene, 1, OK)
    assert "You chose:" in shows(scene, 1)
    press(scene, 1, OK, RELEASE)
    assert "Locked in" in shows(scene, 1) and game.public()["seats"][1]["committed"]


def test_a_two_player_reveal_asks_first():
    game, scene = table("heist", {"players": 2}, "reveal", 2)
    for seat in (0, 1):
        game.act(seat, ("play", 1))
    for seat in (0, 1):  # round 2: two cards each
        hand = game.view(seat)["hand"]
        game.act(seat, ("play", hand[0], hand[-1]))
    turn = game.public()["turn"]
    assert game.public()["phase"] == "reveal", game.public()
    cards = game.view(turn)["face_down"]
    assert press(scene, turn, OK) is None
    assert "Reveal your %d?" % cards[0] in shows(scene, turn)
    assert press(scene, turn, BACK) is None and game.view(turn)["face_down"] == cards
    press(scene, turn, OK)
    assert press(scene, turn, OK) == ("act", turn, ("reveal", cards[0]))


def _place(scene, seat):
    """Draw, then report 'Placed' at height 1 (the first UP: nothing is pre-filled)."""
    press(scene, seat, OK)  # draw
    scene.banner = []
    cursor = scene.local[seat].cursor
    labels = ["Placed"] + (["Collapsed"] if scene.game.public()["tower"] else [])
    cursor.at = labels.index("Placed")
    press(scene, seat, OK)  # Placed: the height picker
    press(scene, seat, UP)
    return press(scene, seat, OK)


def test_the_last_stack_report_is_taken_back_by_its_reporter():
    game, scene = table("stack", {"players": 3}, "report", 3)
    p = game.to_act()[0]
    q = (p + 1) % 3
    before = game.public()["scores"][p]
    out = _place(scene, p)
    assert out[2][0] == "place"
    scene.banner = []  # read: it goes over the bottom lines
    assert "BACK: fix report" in shows(scene, p)
    assert "fix" not in shows(scene, q)
    assert press(scene, p, BACK) is None
    assert "Take back your | last report" in shows(scene, p)
    assert press(scene, p, OK) == ("act", p, ("correct",))
    assert game.to_act() == [p] and game.public()["scores"][p] == before
    assert game.public()["step"] == "place"


def test_a_stack_report_that_ends_the_game_asks_first():
    game, scene = table("stack", {"players": 2, "mode": "clowder"}, "last", 2)
    while game.public()["tower"] == 0 or game.public()["step"] != "place":
        seat = game.to_act()[0]
        game.act(seat, game.legal(seat)[0])
    seat = game.to_act()[0]
    local = scene.local[seat]
    labels = ["Placed", "Collapsed"]
    local.cursor.at = labels.index("Collapsed")
    press(scene, seat, OK)
    press(scene, seat, UP)  # one fell: nothing is chosen until the player says
    assert press(scene, seat, OK) is None, "the collapse ends a Clowder: asked first"
    assert "This ends the | game" in shows(scene, seat)
    assert press(scene, seat, OK)[2][0] == "collapse"
    assert game.result() is not None


def test_a_purrfect_answer_asks_first_and_can_be_taken_back():
    game, scene = table("purrfect", {"players": 4}, "answer", 4)
    game.act(0, ("offer", game.hand(0)[0]))
    items = __import__("catnip.ui.purrfect", None, None, ["x"])._items(scene.view(1))
    at = [i for i, (_, what) in enumerate(items) if what[0] == "accept"][0]
    scene.local[1].cursor.at = at
    hand1 = game.hand(1)
    assert press(scene, 1, OK) is None  # the offer: which cat to answer with
    assert press(scene, 1, OK) is None  # that cat: asked first
    assert "Give 1" in shows(scene, 1) and game.hand(1) == hand1
    out = press(scene, 1, OK)
    assert out[2][0] == "accept" and game.hand(1) != hand1
    scene.banner = []
    assert "Take back swap" in shows(scene, 1)
    items = __import__("catnip.ui.purrfect", None, None, ["x"])._items(scene.view(1))
    assert items[scene.local[1].cursor.at][0] != "Take back swap", "no reflex OK undoes it"
    scene.local[1].cursor.at = [label for label, _ in items].index("Take back swap")
    scene.local[1].on = ("correct",)  # the player moved there
    press(scene, 1, OK)
    assert press(scene, 1, OK) == ("act", 1, ("correct",))
    assert game.hand(1) == hand1 and len(game.public()["offers"]) == 1
    assert shows(scene, 1).startswith("R1 paws 0"), "your pawprints never scroll away"


def test_after_an_answer_the_cursor_is_on_the_hand_not_on_the_take_back():
    ui = __import__("catnip.ui.purrfect", None, None, ["x"])
    game, scene = table("purrfect", {"players": 7}, "after answer", 7)
    for seat in (0, 2, 3):
        game.act(seat, ("offer", game.hand(seat)[0]))
    items = ui._items(scene.view(1))
    scene.local[1].cursor.at = max(i for i, (_, what) in enumerate(items) if what[0] == "accept")
    assert press(scene, 1, OK) is None and press(scene, 1, OK) is None
    assert press(scene, 1, OK)[2][0] == "accept"
    scene.banner = []
    shows(scene, 1)
    items = ui._items(scene.view(1))
    assert items[-1][0] == "Take back swap"
    assert items[scene.local[1].cursor.at][1][0] == "offer", "a reflex OK only asks how many"


def test_an_announcement_takes_no_press_and_each_station_keeps_its_view():
    game, scene = table("heist", {"players": 3}, "banner", 3)
    for seat in range(3):
        press(scene, seat, OK)
    assert scene.banner, "the reveals are announced"
    first = scene.banner[0]
    screens = [shows(scene, k) for k in range(3)]
    assert screens[0] != screens[1] and all(first[:10] in s for s in screens)
    at = scene.local[2].cursor.at
    press(scene, 2, DOWN)
    assert scene.local[2].cursor.at != at and scene.banner[0] == first
    out = press(scene, 1, OK)  # OK acts on the screen below: the card under the cursor
    assert out is not None and out[0] == "act" and out[1] == 1, out
    assert scene.banner[0] == first
    assert first[:10] not in shows(scene, 1), "it steps aside where a player pressed"
    assert first[:10] in shows(scene, 0)


def test_a_press_that_changes_nothing_says_why():
    game, scene = table("stack", {"players": 3}, "idle", 3)
    p = game.to_act()[0]
    q = (p + 1) % 3
    press(scene, q, UP)
    assert "Waiting for P%d" % (p + 1) in shows(scene, q)
    press(scene, p, UP)  # the draw step has nothing to choose
    assert "UP: nothing to" in shows(scene, p)
    press(scene, p, OK)
    assert "nothing" not in shows(scene, p)


def test_announcements_wait_eight_deep_and_the_one_up_stays():
    game, scene = table("heist", {"players": 3}, "deep", 3)
    events = [{"type": "take", "player": k % 3, "card": 1 + k % 6, "loot": [k, 0, 0, 0]}
              for k in range(20)]
    scene.announce(events, 0)
    assert len(scene.banner) == 8
    assert scene.banner[0].endswith("R0Y0B0") and scene.banner[-1].endswith("R19Y0B0")


def test_one_of_a_thing_is_said_without_a_plural():
    from catnip.ui import draw

    assert draw.counted(1, "move") == "1 move" and draw.counted(0, "offer") == "0 offers"
    game, scene = table("purrfect", {"players": 4}, "plural", 4)
    game.act(0, ("offer", game.hand(0)[0]))
    fb = Text()
    scene.ui.draw_table(fb, game.public())
    assert "1 offer open" in fb.screen(), fb.screen()


def test_black_rocks_are_said_in_words_on_every_heist_row():
    from catnip.ui.heist import loot

    assert loot([1, 0, 2, 1]) == "R1Y0B2+1 rock" and loot([0, 0, 0, 2]) == "R0Y0B0+2 rocks"
    assert loot([1, 0, 2, 0]) == "R1Y0B2" and loot([1, 0, 2]) == "R1Y0B2"
    from catnip.ui import draw

    game, scene = table("heist", {"players": 3}, "rocks", 3)
    draw.named(["Wwwwwwww", "Mo", "Ann"])
    public = game.public()
    public["table"] = [[0, 12, [1, 0, 2, 1]], [1, 3, [0, 0, 0, 2]]]
    fb = Text()
    scene.ui.draw_table(fb, public)
    rows = fb.screen().split(" | ")
    assert rows[-2:] == ["Mo 3", "  R0Y0B0+2 rocks"], rows  # the newest take, whole
    public["table"] = [[1, 3, [0, 0, 0, 2]], [0, 12, [1, 0, 2, 1]]]
    fb = Text()
    scene.ui.draw_table(fb, public)
    rows = fb.screen().split(" | ")
    assert rows[-2:] == ["Wwwww 12", "  R1Y0B2+1 rock"] and max(map(len, rows)) <= 16, rows
    draw.named(None)


def test_a_stack_game_over_says_why_in_words():
    game, scene = table("stack", {"players": 2}, "over", 2)
    for ended, said in (("bag empty", "Over: the bag is | empty"),
                        ("collapse", "Over: the tower | collapsed")):
        v = scene.view(0)
        v["ended"] = ended
        fb = Text()
        scene.ui.draw_screen(fb, v, scene.local[0])
        assert said in fb.screen(), fb.screen()
