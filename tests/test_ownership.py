"""An object changes only its own fields, and a class reaches another only
through what it declares.

Code outside app.py may ask the App (its public methods) but never assigns
its fields or calls its private ones, and reads its state only where
STATE_READS says why; no module in firmware/ assigns a field
of an object it did not make, but for the few named in FOREIGN_WRITES; and a
private name a class uses is one it, or a base of its, defines."""

import ast
from pathlib import Path

CATNIP = Path(__file__).resolve().parent.parent / "firmware" / "catnip"


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


# Where a module reads the App's state (what its methods change as the table
# plays: the game, its number, the scene, ...) rather than asking it, and why.
# Its parts (what it was given or made when built: hw, journal, out, ...) any
# module may use.
STATE_READS = {
    # The laptop's commands ask after the game in play, its journal number
    # and a calibration going on, to answer and to refuse.
    "link/remote.py": {"calibration", "game", "gid", "name"},
    # The setup menu shows the players' names as the laptop last gave them
    # (App.rename), read as it draws, and asks the keeper of the seats the
    # App has (App.phoned) whether a laptop offers phone seats.
    "table/scenes.py": {"names", "phones"},
    # Setup's name picker offers the names the table knows and adds a
    # station's pick to the names by station it shows (App.rename keeps it).
    "table/naming.py": {"known", "names"},
}


def _app_state():
    """The App's state: the fields a method of it other than __init__ assigns."""
    tree = ast.parse((CATNIP / "table" / "app.py").read_text())
    app = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App")
    return {t.attr for f in app.body if isinstance(f, ast.FunctionDef) and f.name != "__init__"
            for node in ast.walk(f) for t in _assigned(node)
            if isinstance(t.value, ast.Name) and t.value.id == "self"}


def _state_reads(path, state):
    """(field, line) where module `path` reads `app.field` of the App's state."""
    return [(node.attr, node.lineno) for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Attribute) and _app_refs(node.value) and node.attr in state]


def test_the_apps_state_is_asked_not_read():
    state = _app_state()
    assert {"game", "gid", "name", "scene", "ended"} <= state and not {"hw", "out"} & state
    wrong, allowed = [], set()
    for path in sorted(CATNIP.rglob("*.py")):
        name = str(path.relative_to(CATNIP))
        if name == "table/app.py":
            continue
        for field, line in _state_reads(path, state):
            if field in STATE_READS.get(name, ()):
                allowed.add((name, field))
            else:
                wrong.append("%s:%d reads app.%s" % (name, line, field))
    assert wrong == []
    unused = {(m, f) for m, fields in STATE_READS.items() for f in fields} - allowed
    assert unused == set(), "STATE_READS names reads no longer made"


def test_the_state_check_sees_a_read_through_a_part(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f(app, session):\n    app.hw.show(app.game)\n"
                    "    return session.app.gid, app.in_play()\n")
    assert sorted(_state_reads(path, {"game", "gid"})) == [("game", 2), ("gid", 3)]


# Where a module sets fields of an object it was handed, and why (none
# today). Each entry: the module, then the names of the objects it writes
# into, with a comment saying why the object cannot do it itself.
FOREIGN_WRITES: dict[str, set[str]] = {}


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


def _classes():
    """Every class in firmware/: (module, name) -> (base names, private names
    it defines, private names it uses through self)."""
    found = {}
    for path in sorted(CATNIP.rglob("*.py")):
        for cls in ast.parse(path.read_text()).body:
            if not isinstance(cls, ast.ClassDef):
                continue
            defined, used = set(), set()
            for node in cls.body:  # class attributes: defaults its methods may change
                if isinstance(node, ast.Assign):
                    defined |= {t.id for t in node.targets if isinstance(t, ast.Name)}
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
