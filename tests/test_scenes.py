"""Every scene has one shape, and only the App changes the App.

A scene answers key(station, button, kind) with one of the App's COMMANDS or
None, and draws with draw(station, fb); code outside app.py may ask the App
(its public methods) but never assigns its fields or calls its private ones."""

import ast
import inspect
from pathlib import Path

import pytest

from catnip.table.app import COMMANDS
from catnip.ui.calibrate import Screen
from catnip.ui.end import End
from catnip.ui.play import Play
from catnip.ui.setup import Setup

CATNIP = Path(__file__).resolve().parent.parent / "firmware" / "catnip"


@pytest.mark.parametrize("scene", [Setup, Play, End, Screen])
def test_every_scene_has_the_same_key_and_draw(scene):
    assert list(inspect.signature(scene.key).parameters) == ["self", "station", "button", "kind"]
    assert list(inspect.signature(scene.draw).parameters) == ["self", "station", "fb"]


def test_the_commands_are_a_small_fixed_set_of_words():
    assert COMMANDS == ("act", "answer", "start", "resume", "calibrate", "end", "over", "rematch",
                        "setup")


def test_the_standings_answer_a_command_not_a_label():
    from catnip.keys import DOWN, OK, PRESS

    end = End("Meow Heist", ["1. P1 3"], [0, 1])
    while end.rows[end.cursor.at] != "Rematch":
        assert end.key(0, DOWN, PRESS) is None
    assert end.key(0, OK, PRESS) is None  # asked once more: a game is not thrown away
    assert end.key(0, OK, PRESS) == ("rematch",)
    assert end.key(1, DOWN, PRESS) is None
    assert end.key(1, OK, PRESS) is None
    assert end.key(1, OK, PRESS) == ("setup",)


def test_the_standings_ask_before_leaving_and_back_keeps_them():
    from catnip.keys import BACK, DOWN, OK, PRESS

    end = End("Meow Heist", ["1. P1 3"], [0, 1])
    while end.rows[end.cursor.at] != "New game":
        end.key(0, DOWN, PRESS)
    assert end.key(0, OK, PRESS) is None and end.asking == 1
    assert end.key(1, BACK, PRESS) is None and end.asking is None
    assert end.rows[end.cursor.at] == "New game"  # where it was
    assert end.key(0, OK, PRESS) is None
    assert end.key(0, DOWN, PRESS) is None and end.asking is None  # any other press: no


def _app_refs(node):
    """`app` or `self.app` (the App, as the modules beside it hold it)."""
    return (isinstance(node, ast.Name) and node.id == "app") or \
        (isinstance(node, ast.Attribute) and node.attr == "app")


def test_only_the_app_assigns_its_fields_or_calls_its_private_methods():
    wrong = []
    for path in sorted(CATNIP.rglob("*.py")):
        if path.name == "app.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            while targets:
                t = targets.pop()
                if isinstance(t, (ast.Tuple, ast.List)):
                    targets += t.elts
                elif isinstance(t, ast.Attribute) and _app_refs(t.value):
                    wrong.append("%s:%d assigns app.%s" % (path.name, node.lineno, t.attr))
            if isinstance(node, ast.Attribute) and _app_refs(node.value) \
                    and node.attr.startswith("_"):
                wrong.append("%s:%d uses app.%s" % (path.name, node.lineno, node.attr))
    assert wrong == []


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
