"""Every shared test module runs again under the MicroPython unix port.

Each test function in tests/shared/test_*.py becomes one pytest item here, so a
failure names the function and interpreter. A module runs once per session.
"""

from __future__ import annotations

import ast
import functools

import pytest

import mpunix

MODULES = sorted(mpunix.SHARED_TESTS.glob("test_*.py"))


def _test_names(path):
    tree = ast.parse(path.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


@functools.cache
def _outcomes(module: str) -> dict[str, str]:
    proc = mpunix.run([str(mpunix.ROOT / "tests" / "mp_run.py"), module],
                           path=[mpunix.SHARED_TESTS])
    if "DONE" not in proc.stdout:
        raise AssertionError(f"micropython crashed running {module}:\n{proc.stdout}\n{proc.stderr}")
    outcomes = {}
    for line in proc.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL"):
            name = rest.split(":")[0].split(".", 1)[1]
            outcomes[name] = line
    return outcomes | {"_output": proc.stdout}


# One xdist group per module, so each module starts micropython once.
CASES = [
    pytest.param(m.stem, name, id=f"{m.stem}.{name}", marks=pytest.mark.xdist_group(m.stem))
    for m in MODULES
    for name in _test_names(m)
]


@pytest.mark.parametrize(("module", "name"), CASES)
def test_shared_under_micropython(module, name):
    outcomes = _outcomes(module)
    line = outcomes.get(name)
    assert line is not None, f"{module}.{name} did not run under micropython:\n{outcomes['_output']}"
    assert line.startswith("PASS"), f"{line}\n{outcomes['_output']}"
