"""The code's shape, over firmware/, host/, devsim/, bench/ and tests/: no
module over MAX_LINES lines
and no class over MAX_METHODS methods (properties count), so that each module
and class keeps to a job a newcomer can hold in mind. A module or class that
must be bigger is named in LONGER with the reason."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = tuple(ROOT / name for name in ("firmware", "host", "devsim", "bench", "tests"))
MAX_LINES = 400
MAX_METHODS = 25
# "path" or "path:Class" -> why it is bigger.
LONGER: dict[str, str] = {}


def _sources():
    for tree in TREES:
        for path in sorted(tree.rglob("*.py")):
            if ".venv" not in path.parts:
                yield path


def _shape():
    """(path, lines) of every module and (path:Class, methods) of every class."""
    modules, classes = [], []
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        modules.append((rel, len(text.splitlines())))
        for node in ast.walk(ast.parse(text, rel)):
            if isinstance(node, ast.ClassDef):
                n = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body)
                classes.append(("%s:%s" % (rel, node.name), n))
    return modules, classes


def test_the_trees_are_scanned():
    modules, classes = _shape()
    names = {name for name, _ in modules}
    assert "firmware/catnip/tray/estimator.py" in names and "host/catnip_host/cli.py" in names
    assert {"devsim/virtual.py", "bench/pico_rig.py", "tests/shared/test_tray.py"} <= names
    assert any(name.endswith(":Tray") for name, _ in classes)


def test_no_module_is_over_its_length():
    modules, _ = _shape()
    over = [(name, n) for name, n in modules if n > MAX_LINES and name not in LONGER]
    assert over == [], "over %d lines: %s" % (MAX_LINES, over)


def test_no_class_is_over_its_methods():
    _, classes = _shape()
    over = [(name, n) for name, n in classes if n > MAX_METHODS and name not in LONGER]
    assert over == [], "over %d methods: %s" % (MAX_METHODS, over)


def test_every_exception_is_still_needed():
    modules, classes = _shape()
    sizes = dict(modules + classes)
    for name in LONGER:
        limit = MAX_METHODS if ":" in name else MAX_LINES
        assert sizes.get(name, 0) > limit, "%s is within the limit now: drop it from LONGER" % name
