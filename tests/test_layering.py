"""The layering the README states, checked over every import (module-level and
lazy ones inside functions alike) of firmware/ and host/:

- every firmware module sits in a room of ROOMS, and imports only its own
  room and the rooms named beside it (and the interpreter's built-ins); the
  pure rooms (`rules/`, `tray/`, `wire.py` and its `wire_kinds.py`, `keys.py`,
  `board.py`) import only themselves and each other;
- each room that is a folder says in its opening comment what it may import;
- only `drivers/` and `parts/hardware.py` import `machine`, plus the lazy
  uses named in LAZY_MACHINE, each of which runs once and only on the Pico;
- the laptop (`host/`) imports only the pure firmware modules;
- no import cycles, in the firmware nor in the laptop tool."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
HOST = ROOT / "host"

# Pure rooms: a module here may import its own room, the rooms named beside it
# and nothing else of catnip. The board's checker keeps what the app needs of
# it in catnip.layout and words its problems as the rules do.
PURE = {
    "catnip.rules": (),
    "catnip.tray": (),
    "catnip.wire": ("catnip.wire_kinds",),
    "catnip.wire_kinds": (),
    "catnip.keys": (),
    "catnip.ed25519": (),
    "catnip.record_digest": (),
    "catnip.layout": ("catnip.rules",),
    "catnip.board": ("catnip.layout", "catnip.rules", "catnip.board_check"),
    "catnip.board_check": ("catnip.layout", "catnip.rules"),
}
# Every room of the firmware and what else of catnip it may import. The
# package itself (`catnip.forget`, which imports nothing) is everyone's.
ROOMS = dict(PURE, **{
    "catnip.version": ("catnip.release",),  # written by each build
    "catnip.drivers": ("catnip.keys",),
    "catnip.parts": ("catnip.drivers", "catnip.keys", "catnip.layout", "catnip.shipped"),
    "catnip.flash": ("catnip.rules", "catnip.wire"),
    "catnip.link": ("catnip.wire", "catnip.rules", "catnip.flash", "catnip.version"),
    # (the wire: how much of a player's name a station shows, by the rule that checks names)
    "catnip.ui": ("catnip.rules", "catnip.keys", "catnip.flash", "catnip.wire"),
    # The table decides with everything but what builds the hardware (boot
    # hands that in); the drivers only for weigh's load-cell fault, lazily.
    "catnip.table": ("catnip.rules", "catnip.tray", "catnip.ui", "catnip.flash", "catnip.link",
                     "catnip.parts.sound", "catnip.drivers.hx711", "catnip.keys", "catnip.wire",
                     "catnip.ed25519", "catnip.record_digest"),
    # Entry points: power-up reads the board and builds the rest; on stock
    # MicroPython it holds a room of heap for the first game's code.
    "catnip.boot": ("catnip",),
    "catnip.room": (),
    "catnip.start": ("catnip.boot", "catnip.room"),
})
# Outside the package: the flash's main.py and the image's, which hand over to
# catnip.start, and the image build's manifest.
OUTSIDE = ("main", "image.main", "manifest")
# Firmware modules the laptop may import: the pure ones, the package itself
# and the firmware's version.
LAPTOP_MAY = tuple(PURE) + ("catnip.version",)
# Who may import `machine`: the drivers and the hardware layer that builds them ...
MACHINE_ROOMS = ("catnip.drivers", "catnip.parts.hardware")
# ... and these lazy uses, each inside one function that runs on the Pico only
# (None: the whole module is such a use).
LAZY_MACHINE = {
    ("catnip.boot", "_show_problems"),  # a board that failed its checks: one I2C display
    ("catnip.link.line", "_uid"),  # the Pico's unique id, read once per boot
    # The first power-up's bus survey (no board.json yet): a module that boot
    # imports only then, from one function, and drops.
    ("catnip.parts.detect", None),
}


def _modules(base):
    """{dotted name: path} of every .py under `base` (a package root)."""
    found = {}
    for path in sorted(base.rglob("*.py")):
        if ".venv" in path.parts or "static" in path.parts:
            continue
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            found[".".join(parts)] = path
    return found


def _package(name, path):
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _imports(name, path, known):
    """(imported module, enclosing function or None) for each import in `path`.
    `from a import b` names module a.b when it is one, else a; relative
    imports are resolved against the module's package."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, func):
        for child in ast.iter_child_nodes(node):
            inner = func
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = func or child.name
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((alias.name, inner))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = _package(name, path).split(".")
                    pkg = pkg[:len(pkg) - child.level + 1]
                    base = ".".join(pkg + ([base] if base else []))
                found.append((base, inner))
                for alias in child.names:
                    sub = base + "." + alias.name
                    if sub in known:
                        found.append((sub, inner))
            visit(child, inner)

    visit(tree, None)
    return found


def _in(name, rooms):
    return any(name == room or name.startswith(room + ".") for room in rooms)


FIRM = _modules(FIRMWARE)
LAPTOP = _modules(HOST)


def _graph(modules):
    """{module: {imported module of the same tree}}, lazy imports included."""
    graph = {}
    for name, path in modules.items():
        graph[name] = {mod for mod, _ in _imports(name, path, modules)
                       if mod in modules and mod != name}
    return graph


def _cycles(graph):
    """Each import cycle once, as the list of its modules (Tarjan's SCCs)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_the_trees_are_found():
    assert "catnip.table.app" in FIRM and "catnip.rules.engine" in FIRM
    assert "catnip_host.cli" in LAPTOP


def _room(name):
    return next((r for r in ROOMS if _in(name, (r,))), None)


def test_every_firmware_module_has_a_room():
    """A new module at the top of catnip/ is given a room (and its rules) here."""
    homeless = [name for name in FIRM
                if name != "catnip" and name not in OUTSIDE and _room(name) is None]
    assert homeless == []


def _breaches(rooms):
    wrong = []
    for name, path in FIRM.items():
        room = _room(name)
        if room is None or room not in rooms:
            continue
        may = (room,) + rooms[room]
        for mod, _func in _imports(name, path, FIRM):
            if mod.startswith("catnip.") and not _in(mod, may):
                wrong.append("%s imports %s" % (name, mod))
    return wrong


def test_pure_modules_import_only_themselves():
    assert _breaches(PURE) == []


def test_each_room_imports_only_what_it_may():
    assert _breaches(ROOMS) == []


def test_a_breach_is_found():
    """The room check itself: the flash store may not reach for the screens."""
    rooms = dict(ROOMS, **{"catnip.flash": ("catnip.rules",)})
    assert "catnip.flash.flashfile imports catnip.wire" in _breaches(rooms)


def test_each_room_says_what_it_may_import():
    """A newcomer opening a room's folder reads what it holds and its rules."""
    quiet = []
    for room in ROOMS:
        init = FIRMWARE / Path(*room.split(".")) / "__init__.py"
        if not init.exists():
            continue  # a module of its own, not a folder
        opening = []
        for line in init.read_text().splitlines():
            if not line.startswith("#"):
                break
            opening.append(line.lstrip("#").strip())
        if "may import" not in " ".join(opening).lower():
            quiet.append(room)
    assert quiet == []


def test_only_the_drivers_and_hardware_import_machine():
    wrong = []
    for name, path in list(FIRM.items()):
        if _in(name, MACHINE_ROOMS):
            continue
        for mod, func in _imports(name, path, FIRM):
            if mod == "machine" and (name, func) not in LAZY_MACHINE:
                wrong.append("%s imports machine (in %s)" % (name, func or "the module"))
    assert wrong == []


def test_the_lazy_machine_uses_are_still_there():
    """A name left on the list after its use went would let a new one in."""
    uses = {(name, func) for name, path in FIRM.items()
            for mod, func in _imports(name, path, FIRM) if mod == "machine"}
    assert LAZY_MACHINE <= uses


def test_the_laptop_imports_only_pure_firmware():
    wrong = []
    for name, path in LAPTOP.items():
        for mod, func in _imports(name, path, LAPTOP):
            if mod.startswith("catnip.") and not _in(mod, LAPTOP_MAY):
                wrong.append("%s imports %s" % (name, mod))
    assert wrong == []


def test_no_import_cycles_in_the_firmware():
    assert _cycles(_graph(FIRM)) == []


def test_no_import_cycles_on_the_laptop():
    assert _cycles(_graph(LAPTOP)) == []


def test_a_cycle_is_found():
    """The cycle finder itself: two modules that import each other."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _closure(name, modules):
    """Every module `name` brings in as it is imported (module-level imports,
    followed through the tree; a package's __init__ comes with its modules)."""
    seen, todo = set(), [name]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        if mod not in modules:
            continue
        parent = mod.rpartition(".")[0]
        if parent:
            todo.append(parent)
        todo.extend(m for m, func in _imports(mod, modules[mod], modules) if func is None)
    return seen


def test_the_app_and_the_screens_do_not_bring_in_machine():
    """The app and the scenes decide and draw from what they are handed: the
    hardware (and `machine` behind it) reaches them as an argument."""
    wrong = {}
    for name in FIRM:
        if name == "catnip.table.app" or _in(name, ("catnip.ui",)):
            reached = _closure(name, FIRM)
            bad = sorted(m for m in reached if m == "machine" or _in(m, MACHINE_ROOMS))
            if bad:
                wrong[name] = bad
    assert wrong == {}
