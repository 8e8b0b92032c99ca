"""Every scene has one shape, and an object changes only its own fields.

A scene (catnip.ui.scene.Scene) answers key(station, button, kind) and
tick(now) with one of the App's COMMANDS or None, and draws with
draw(station, fb); nothing outside catnip.ui asks a scene its kind. Code
outside app.py may ask the App (its public methods) but never assigns its
fields or calls its private ones; and no module assigns a field of an
object it did not make, but for the few named in FOREIGN_WRITES."""

import ast
import inspect
from pathlib import Path

import pytest

from catnip.table.app import COMMANDS
from catnip.ui.calibrate import Screen
from catnip.ui.end import End
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


# Where a module sets fields of an object it was handed, and why. Each entry:
# the module, then the names of the objects it writes into.
FOREIGN_WRITES = {
    # The records of its own Buttons (_Station, one a station), kept in a list.
    "drivers/buttons.py": {"st"},
    # The journal's bookkeeping of each game it holds (journal_files.Game).
    "flash/journal.py": {"game"},
    # The journal takes over a game's log once it records it (journal_log).
    "table/app.py": {"game"},
    # The tray estimator's stages (readings, episode, count, turn): the Tray
    # makes them and its Caller decides what each rest means, for it.
    "tray/calls.py": {"c", "r", "ep", "turn", "self.count", "self.turn"},
    "tray/estimator.py": {"ep"},
}


def _assigned(node):
    """The attributes `node` assigns or deletes (x.f = ..., x.f += ..., del x.f)."""
    if isinstance(node, ast.Assign):
        todo = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        todo = [node.target]
    elif isinstance(node, ast.Delete):
        todo = list(node.targets)
    else:
        return
    while todo:
        t = todo.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            todo += t.elts
        elif isinstance(t, ast.Attribute):
            yield t


def _own_nodes(scope):
    """The nodes of `scope`, not those of a function or class inside it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def _made_by_call(targets):
    return [t.id for t in targets if isinstance(t, ast.Name)]


def _foreign_writes(path):
    """`obj.field = ...` in module `path` where obj is not one it made: not
    self; not a name bound here to what a call returned; not a part the
    class made (self.cursor = Cursor(), and a name for it); not an object of
    a class the module defines, by its name (`local`, a screen's Local)."""
    tree = ast.parse(path.read_text())
    own = {n.name.lower().lstrip("_") for n in tree.body if isinstance(n, ast.ClassDef)}
    wrong = []

    def visit(scope, parts):
        made, aliases = set(), set()
        for node in _own_nodes(scope):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                made.update(_made_by_call(node.targets))
            elif isinstance(node, ast.Assign) and _self_part(node.value, parts):
                aliases.update(_made_by_call(node.targets))
        for node in _own_nodes(scope):
            for t in _assigned(node):
                v = t.value
                root = v.value if isinstance(v, ast.Attribute) else v
                if isinstance(v, ast.Name) and v.id in made | aliases | own | {"self"}:
                    continue
                if _self_part(v, parts) or isinstance(root, ast.Name) and root.id in own:
                    continue
                wrong.append((ast.unparse(v), node.lineno))
        for node in _own_nodes(scope):
            if isinstance(node, ast.ClassDef):
                visit(node, _parts(node))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node, parts)

    visit(tree, set())
    return wrong


def _self_part(node, parts):
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
        node.value.id == "self" and node.attr in parts


def _parts(cls):
    """The fields a class sets to what a call returns: the parts it made."""
    return {t.attr for node in ast.walk(cls) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call) for t in node.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            and t.value.id == "self"}


def test_no_module_sets_fields_of_an_object_it_did_not_make():
    wrong, allowed = [], set()
    for path in sorted(CATNIP.rglob("*.py")):
        name = str(path.relative_to(CATNIP))
        for obj, line in _foreign_writes(path):
            if obj in FOREIGN_WRITES.get(name, ()):
                allowed.add((name, obj))
            else:
                wrong.append("%s:%d sets a field of %s" % (name, line, obj))
    assert wrong == []
    unused = {(m, o) for m, objs in FOREIGN_WRITES.items() for o in objs} - allowed
    assert unused == set(), "FOREIGN_WRITES names writes no longer made"


def test_the_field_check_sees_a_write_through_another_object(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("class Cursor:\n    pass\n\n\nclass A:\n    def __init__(self, app):\n"
                    "        self.cursor = Cursor()\n        self.app = app\n\n"
                    "    def go(self, weigh, cursor):\n        self.cursor.at = 0\n"
                    "        cursor.at = 1\n        made = Cursor()\n        made.at = 2\n"
                    "        self.app.weigh.cal = None\n        weigh.problem = None\n"
                    "        w = self.app\n        w.x = 1\n")
    assert sorted(_foreign_writes(path)) == [("self.app.weigh", 15), ("w", 18), ("weigh", 16)]


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
    play.announce([{"event": "over", "reason": "the bag is empty"}], 0)
    assert play.tick(10) is None  # not over yet
    game.result = lambda: {"ranks": []}  # the game ends
    assert play.tick(BANNER_MS - 1) is None and play.headline() is not None
    epoch = play.epoch()
    assert play.tick(BANNER_MS) == ("over",) and play.epoch() == epoch + 1


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


def _classes():
    """Every class in firmware/: (module, name) -> (base names, private names
    it defines, private names it uses through self)."""
    found = {}
    for path in sorted(CATNIP.rglob("*.py")):
        for cls in ast.parse(path.read_text()).body:
            if not isinstance(cls, ast.ClassDef):
                continue
            defined, used = set(), set()
            for node in ast.walk(cls):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                        node.value.id == "self" and node.attr.startswith("_") and \
                        not node.attr.startswith("__"):
                    used.add(node.attr)
                    if isinstance(node.ctx, ast.Store):
                        defined.add(node.attr)
            bases = [b.id for b in cls.bases if isinstance(b, ast.Name)]
            found[(path.name, cls.name)] = (bases, defined, used)
    return found


def test_a_class_reaches_its_subclass_only_through_what_it_declares():
    # A base or mixin (drivers/hx711_loops.Loops) may call what its
    # subclass provides, but only through public names it documents: a
    # private name a class uses is one it, or a base of its, defines.
    classes = _classes()

    def defined(key):
        bases, names, _ = classes[key]
        out = set(names)
        for base in bases:
            found = [k for k in classes if k[1] == base]
            mine = [k for k in found if k[0] == key[0]]
            if len(mine or found) != 1:
                return None  # a base from outside firmware/, or one name for two classes
            more = defined((mine or found)[0])
            if more is None:
                return None
            out |= more
        return out

    wrong = []
    for key, (_, _, used) in classes.items():
        names = defined(key)
        if names is not None and used - names:
            wrong.append("%s %s uses %s" % (key[0], key[1], sorted(used - names)))
    assert wrong == []
