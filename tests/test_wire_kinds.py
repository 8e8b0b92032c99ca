"""The table's message kinds are named once, in catnip.wire, and both ends use
the names: a kind spelt out as a string where a frame is sent or told apart
would drift from the table MESSAGES without anything noticing."""

import ast
from pathlib import Path

from catnip import wire

ROOT = Path(__file__).resolve().parent.parent
# The code that sends or reads frames: the table's app and its line, and the
# laptop. (The screens' own menus have kinds of their own.)
FIRMWARE = ROOT / "firmware" / "catnip"
TREES = (FIRMWARE / "table", FIRMWARE / "link", ROOT / "host" / "catnip_host")
KINDS = set(wire.MESSAGES)
# The names a frame's kind goes by where it is told apart.
KIND_NAMES = {"kind", "answer"}


def test_every_message_kind_has_its_name():
    for kind in KINDS:
        assert getattr(wire, kind.upper()) == kind, kind


def test_how_a_kind_is_sent_is_what_the_table_says():
    # The line asks how() and never builds the table; the laptop checks by the table.
    for kind, (how, _) in wire.MESSAGES.items():
        assert wire.how(kind) == how, kind
    assert wire.how("no-such-kind") == wire.ANSWER


def _spelt(tree):
    """(line, kind) of each kind literal sent (`send("say", ...)`) or compared
    with a frame's kind (`kind == "say"`, `kind in ("end", "lost")`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if name == "send" and isinstance(first, ast.Constant) and first.value in KINDS:
                found.append((node.lineno, first.value))
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) \
                and node.left.id in KIND_NAMES:
            for right in node.comparators:
                items = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
                found += [(node.lineno, item.value) for item in items
                          if isinstance(item, ast.Constant) and item.value in KINDS]
    return found


def test_no_message_kind_is_spelt_out():
    wrong = []
    for tree in TREES:
        for path in sorted(tree.rglob("*.py")):
            for line, kind in _spelt(ast.parse(path.read_text(), str(path))):
                wrong.append("%s:%d %r" % (path.relative_to(ROOT), line, kind))
    assert wrong == []


def test_a_spelt_out_kind_is_found():
    tree = ast.parse('line.send("say", text="hi")\nif kind in ("end", "x"):\n    pass\n')
    assert _spelt(tree) == [(1, "say"), (2, "end")]
