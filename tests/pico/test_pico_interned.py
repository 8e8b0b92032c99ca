"""The catnip image interns nothing on the heap when the table imports its
modules or indexes a text: MicroPython interns a module's name as it is
imported and a one-character string as a text is indexed or iterated, and a
new pool of its table of interned strings wants hundreds of bytes in one
piece, which a table deep in a game may not have (docs/pico.md). The image
freezes every such name (catnip_host.bundle.interned), so the table finds
them in flash.

The names reach the Pico in a file, read at run time: a name in the script
itself is interned when the Pico compiles the script, before the count."""

from __future__ import annotations

import re

from bench import pico_flash, pico_rig, pico_run

SCRIPT = """
import micropython


def count():
    names = open("names.txt").read().split()
    characters = open("characters.txt").read()
    micropython.qstr_info(1)
    print("BEFORE")
    for name in names:
        __import__(name)
    for ch in characters:
        pass
    micropython.qstr_info(1)


count()
"""


def module_names() -> list[str]:
    """Every catnip module's dotted name, from the sources, and asyncio's."""
    root = pico_rig.ROOT / "firmware"
    names = [".".join(p.relative_to(root).with_suffix("").parts)
             for p in sorted((root / "catnip").rglob("*.py"))]
    return [n.removesuffix(".__init__") for n in names] + ["catnip.release", "catnip.shipped",
                                                           "asyncio.event", "asyncio.funcs"]


def interned(text: str) -> list[str]:
    """The strings `micropython.qstr_info(1)` lists as interned at run time."""
    return re.findall(r"^Q\((.*)\)$", text, re.M)


def test_importing_every_module_and_indexing_ascii_interns_nothing(pico, tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    (files / "names.txt").write_text("\n".join(module_names()))
    (files / "characters.txt").write_text("".join(chr(c) for c in range(0x20, 0x7F)))
    script = tmp_path / "interned.py"
    script.write_text(SCRIPT)
    run = pico_run.run(pico_flash.repl_free(pico, tmp_path / "free.img"), tmp_path / "out", 0,
                       script=script, files=files)
    out = run.stdout
    before, _, after = out.partition("\nBEFORE\n")
    assert "Traceback" not in out and "qstr pool" in after, out[-2000:]
    added = sorted(set(interned(after)) - set(interned(before)))
    assert added == [], added
