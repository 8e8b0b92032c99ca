"""No import of an extensible built-in inside a function that runs often.

MicroPython lets a file on the path extend built-ins such as `time` or `os`,
so `from time import ticks_ms` inside a function searches the filesystem on
every call before it falls back to the built-in: some 6 ms on the Pico's
littlefs (measured on the emulated RP2040; the unix port shows the same
search at 6 us against 0.3 us for `gc`). A screen loop that asked the time
that way spent most of its passes in littlefs. Such imports belong at module
level; the functions listed here run once per boot, game or save."""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
# The built-ins MicroPython registers as extensible (MP_REGISTER_EXTENSIBLE_MODULE).
EXTENSIBLE = {"array", "binascii", "collections", "errno", "hashlib", "heapq", "io", "json",
              "os", "platform", "random", "re", "select", "socket", "struct", "time",
              "machine", "cryptolib", "zlib"}
ONCE = {
    ("catnip/table/loop.py", "__init__"),  # the Pico's clock, bound at start
    ("catnip/boot.py", "_read_board"),
    ("catnip/boot.py", "_back_held"),
    ("catnip/boot.py", "_confirmed"),  # a first power-up waits for OK
    ("catnip/boot.py", "_show_all"),
    ("catnip/boot.py", "_show_problems"),
    ("catnip/drivers/buttons.py", "__init__"),
    ("catnip/drivers/hx711_pins.py", "__init__"),  # the Pico's clock, bound once
    ("catnip/parts/hardware.py", "run"),  # before its loop
    ("catnip/flash/flashfile.py", "save"),  # a file written, read back and renamed
    ("catnip/flash/highscores.py", "_move"),
    ("catnip/link/line.py", "_boot_id"),
    ("catnip/link/line.py", "_uid"),
    ("catnip/link/remote.py", "_clock"),  # the laptop sets the clock
    ("catnip/rules/rng.py", "_random_hex"),  # a game's seed and salt
    ("catnip/rules/rng.py", "_hex"),
}


def imports_in_functions(path: Path):
    for fn in ast.walk(ast.parse(path.read_text())):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                else:
                    continue
                for name in names:
                    yield fn.name, name.split(".")[0], node.lineno


def test_no_extensible_builtin_is_imported_on_a_hot_path():
    found = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        rel = path.relative_to(FIRMWARE).as_posix()
        for function, module, line in imports_in_functions(path):
            if module in EXTENSIBLE and (rel, function) not in ONCE:
                found.append(f"{rel}:{line}: {function}() imports {module}")
    assert not found, "import these at module level (or list a run-once function):\n" + \
        "\n".join(found)


def test_the_check_sees_a_function_level_import(tmp_path):
    sample = tmp_path / "clock.py"
    sample.write_text("class Clock:\n    def ticks_ms(self):\n        from time import ticks_ms\n"
                      "        return ticks_ms()\n")
    assert list(imports_in_functions(sample)) == [("ticks_ms", "time", 3)]
