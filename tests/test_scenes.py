"""Every scene has one shape.

A scene (catnip.ui.scene.Scene) answers key(station, button, kind) and
tick(now, settled) with one of the App's COMMANDS or None, and draws with
draw(station, fb); nothing outside catnip.ui asks a scene its kind, and the
App alone changes the scene (test_ownership: who changes whose fields)."""

import ast
import inspect
from pathlib import Path

import pytest
from test_ownership import _assigned

from catnip.table.app import COMMANDS
from catnip.ui.calibrate import Screen
from catnip.ui.end import SETTLE_MS, End
from catnip.ui.play import Play
from catnip.ui.scene import Scene
from catnip.ui.setup import Setup

CATNIP = Path(__file__).resolve().parent.parent / "firmware" / "catnip"


@pytest.mark.parametrize("scene", [Setup, Play, End, Screen])
def test_every_scene_has_the_same_key_and_draw(scene):
    assert issubclass(scene, Scene)
    assert list(inspect.signature(scene.key).parameters) == ["self", "station", "button", "kind"]
    assert list(inspect.signature(scene.draw).parameters) == ["self", "station", "fb"]
    for name, method in inspect.getmembers(scene, inspect.isfunction):
        if hasattr(Scene, name) and not name.startswith("_"):  # the base's shape, overridden
            assert inspect.signature(method).parameters.keys() == \
                inspect.signature(getattr(Scene, name)).parameters.keys(), (scene, name)


def test_nothing_outside_the_screens_asks_a_scene_its_kind():
    wrong = []
    for path in sorted(CATNIP.rglob("*.py")):
        if path.parent.name == "ui":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                for side in [node.left] + node.comparators:
                    if isinstance(side, ast.Attribute) and side.attr == "kind" and \
                            "scene" in ast.unparse(side.value):
                        wrong.append("%s:%d %s" % (path.name, node.lineno, ast.unparse(node)))
    assert wrong == []


def test_the_table_changes_scene_in_one_place():
    # Only App.change assigns the App's scene (and Frame.show the frame's).
    wrong = []
    for path in sorted(CATNIP.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                for t in _assigned(node):
                    if t.attr == "scene" and func.name != "__init__" and \
                            (path.name, func.name) not in (("app.py", "change"), ("frame.py", "show")):
                        wrong.append("%s:%d %s" % (path.name, node.lineno, func.name))
    assert wrong == []


def test_the_commands_are_a_small_fixed_set_of_words():
    assert COMMANDS == ("act", "answer", "start", "resume", "calibrate", "end", "over", "rematch",
                        "setup")


def shown(title: str, lines: list[str], seats: list[int]) -> End:
    """The standings as every screen has shown them for SETTLE_MS."""
    end = End(title, lines, seats)
    end.tick(5000, True)
    end.tick(5000 + SETTLE_MS, True)
    return end


def test_ok_before_the_standings_settle_is_not_a_choice():
    from catnip.keys import DOWN, OK, PRESS, UP

    end = End("Meow Heist", ["1. P1 3"], [0, 1])
    end.key(0, UP, PRESS)  # the standings scroll at once
    assert end.rows[end.cursor.at] == "1. P1 3"
    end.key(0, DOWN, PRESS)
    assert end.key(0, OK, PRESS) is None and end.asking is None  # not yet on every screen
    end.tick(5000, False)
    assert end.key(0, OK, PRESS) is None
    end.tick(5100, True)
    end.tick(5100 + SETTLE_MS - 1, True)
    assert end.key(0, OK, PRESS) is None and end.asking is None  # meant for an announcement
    end.tick(5100 + SETTLE_MS, True)
    assert end.key(0, OK, PRESS) is None and end.asking == 0  # Rematch, asked once more
    assert end.key(0, OK, PRESS) == ("rematch",)


def test_the_standings_answer_a_command_not_a_label():
    from catnip.keys import DOWN, OK, PRESS

    end = shown("Meow Heist", ["1. P1 3"], [0, 1])
    while end.rows[end.cursor.at] != "Rematch":
        assert end.key(0, DOWN, PRESS) is None
    assert end.key(0, OK, PRESS) is None  # asked once more: a game is not thrown away
    assert end.key(0, OK, PRESS) == ("rematch",)
    assert end.key(1, DOWN, PRESS) is None
    assert end.key(1, OK, PRESS) is None
    assert end.key(1, OK, PRESS) == ("setup",)


def test_the_standings_open_on_rematch_with_new_game_one_down():
    from catnip.keys import DOWN, PRESS, UP

    lines = ["1. P%d %d" % (p + 1, 9 - p) for p in range(7)] + ["first to 5"]
    end = shown("Purrfect", lines, list(range(7)))
    assert end.rows[end.cursor.at] == "Rematch"
    end.key(0, DOWN, PRESS)
    assert end.rows[end.cursor.at] == "New game"
    end.key(0, UP, PRESS)
    end.key(0, UP, PRESS)  # back through the standings, from their last line
    assert end.rows[end.cursor.at] == "first to 5"


def test_the_standings_ask_before_leaving_and_back_keeps_them():
    from catnip.keys import BACK, DOWN, OK, PRESS

    end = shown("Meow Heist", ["1. P1 3"], [0, 1])
    while end.rows[end.cursor.at] != "New game":
        end.key(0, DOWN, PRESS)
    assert end.key(0, OK, PRESS) is None and end.asking == 1
    assert end.key(1, BACK, PRESS) is None and end.asking is None
    assert end.rows[end.cursor.at] == "New game"  # where it was
    assert end.key(0, OK, PRESS) is None
    assert end.key(0, DOWN, PRESS) is None and end.asking is None  # any other press: no


def test_the_trays_question_is_answered_with_its_own_command():
    from catnip import rules
    from catnip.keys import DOWN, OK, PRESS

    class Side:  # the tray asks seat 0, as catnip.table.weigh.Weigh.view() says
        def view(self, seat):
            asked = {"kind": "cats", "id": 1, "value": 5, "lo": 0, "hi": 9, "conf": 0}
            return {"tray": {"fault": None, "lean": None, "proposal": asked if seat == 0 else None}}

    game = rules.new("stack", {"players": 2}, "answer")
    play = Play("stack", game, [0, 1], 2, Side())
    assert play.key(0, OK, PRESS) is None  # the question's picker opens with nothing chosen
    assert play.key(0, OK, PRESS) is None and play.error[0].startswith("Choose a number")
    assert play.key(0, DOWN, PRESS) is None  # the first DOWN: the most, 9
    assert play.key(0, OK, PRESS) == ("answer", 0, 9)
    assert len(game.log) == 0


class _Session:
    """What the calibration's screen asks of catnip.table.calibrate.Session."""

    def __init__(self, station):
        self.station = station
        self.measuring = None
        self.weighed, self.cats, self.corners = True, 0, 0
        self.answers, self.answer = 0, None

    def next_steps(self):
        return ["cat", "empty", "abort"]

    def say(self):
        return "Put one cat on the base. Let go."


def test_the_calibration_screen_answers_commands_and_drives_nothing_itself():
    from catnip.keys import BACK, DOWN, OK, PRESS

    session = _Session(0)
    screen = Screen(session)
    assert screen.key(0, OK, PRESS) == ("calibrate", "cat")
    assert screen.key(1, DOWN, PRESS) is None
    assert screen.key(1, OK, PRESS) == ("calibrate", "empty")
    screen.refused(1, "Still weighing")
    assert screen.page == ("Not now", "Still weighing")
    assert screen.key(1, OK, PRESS) is None and screen.page is None  # OK puts it away
    laptop = Screen(_Session(None))
    assert laptop.key(2, OK, PRESS) is None
    assert laptop.key(2, BACK, PRESS) == ("calibrate", "abort")  # a station may only stop it


def test_the_calibration_screen_asks_its_session_for_each_weighing_that_ended():
    session = _Session(0)
    screen = Screen(session)
    session.answers, session.answer = 1, ("cat", "The tray moved: weigh again.", None)
    assert screen.page is None  # nothing pushed into it
    screen.draw(0, _Canvas())
    assert screen.page == ("Not taken", "The tray moved: weigh again.")


class _Canvas:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def test_play_hands_its_standings_to_the_app_once_the_last_announcement_is_gone():
    from catnip import rules
    from catnip.ui.play import BANNER_MS

    game = rules.new("stack", {"players": 2}, "over")
    play = Play("stack", game, [0, 1], 2)
    play.announce([{"type": "over", "reason": {"why": "bag empty", "seats": []}}], 0)
    assert play.tick(10, True) is None  # not over yet
    game.result = lambda: {"ranks": []}  # the game ends
    assert play.tick(BANNER_MS - 1, True) is None and play.headline() is not None
    epoch = play.epoch()
    assert play.tick(BANNER_MS, True) == ("over",) and play.epoch() == epoch + 1


def test_a_scene_that_leaves_takes_its_code_from_the_heap():
    import sys
    import types

    for name in ("catnip.ui.fake", "catnip.ui.fakegame"):
        sys.modules[name] = types.ModuleType(name)

    class Fake(Scene):
        kind = "fake"

        def modules(self):
            return ("catnip.ui.fake", "catnip.ui.fakegame")

    Fake().leave()
    assert "catnip.ui.fake" not in sys.modules and "catnip.ui.fakegame" not in sys.modules


def test_the_trays_proposal_is_in_the_view_of_the_seat_it_asks_only(tmp_path):
    from catnip import rules
    from catnip.table.weigh import Weigh

    class Hw:
        tray = None

        def sleep_tray(self):  # no tray: nothing to put to sleep
            pass

    weigh = Weigh(Hw(), str(tmp_path / "none.json"))
    assert weigh.view(0) is None  # no game: nothing to add
    game = rules.new("stack", {"players": 2}, "tray")
    weigh.begin(game, lambda: None)
    assert weigh.view(None) == {"tray": {"fault": "not calibrated", "lean": None}}
    asked = {"kind": "cats", "id": 1, "value": 5, "lo": 0, "hi": 9, "conf": 0}
    weigh.verdict, weigh.asked = asked, 1
    assert weigh.view(1)["tray"]["proposal"] is asked
    assert "proposal" not in weigh.view(0)["tray"] and "proposal" not in weigh.view(None)["tray"]
    weigh.stop()
    assert weigh.view(1) is None
