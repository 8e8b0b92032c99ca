"""The fake `machine` offers nothing the Pico's lacks.

Every public name, class, method and constant of devsim/machine.py must exist
in the rp2 stubs for MicroPython (micropython-rp2-rpi-pico-stubs, pinned in
requirements-dev.txt) with a signature that accepts the same calls, so code
that runs on the fake runs on the board.

Call shapes checked for each function: its required arguments alone, then
each optional argument added (with whatever the stub overload that names it
requires alongside, e.g. I2C's scl with sda). Every shape must be accepted by
some stub overload. MicroPython cannot declare positional-only parameters, so
where the stub has them only their position is compared, not their name.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
from dataclasses import dataclass
from pathlib import Path

import pytest

from devsim import machine

STUB_PACKAGE = "micropython-rp2-rpi-pico-stubs"


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "posonly", "pos" or "kwonly"
    required: bool


@dataclass(frozen=True)
class Sig:
    params: tuple[Param, ...]
    varargs: bool = False
    varkw: bool = False

    def positional(self) -> list[Param]:
        return [p for p in self.params if p.kind != "kwonly"]

    def accepts(self, npos: int, keywords: frozenset[str]) -> bool:
        pos = self.positional()
        if npos > len(pos) and not self.varargs:
            return False
        for i, p in enumerate(pos):
            if i >= npos and p.required and (p.kind == "posonly" or p.name not in keywords):
                return False
        for name in keywords:
            hit = [p for i, p in enumerate(pos) if p.name == name and p.kind == "pos" and i >= npos]
            hit += [p for p in self.params if p.kind == "kwonly" and p.name == name]
            if not hit and not self.varkw:
                return False
        return all(p.name in keywords for p in self.params if p.kind == "kwonly" and p.required)


def _stub_sig(fn: ast.FunctionDef, method: bool) -> Sig:
    a = fn.args
    posonly = [(x.arg, "posonly") for x in a.posonlyargs]
    pos = [(x.arg, "pos") for x in a.args]
    both = posonly + pos
    first_default = len(both) - len(a.defaults)
    params = [Param(n, k, i < first_default) for i, (n, k) in enumerate(both)]
    params += [Param(x.arg, "kwonly", d is None) for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    if method:
        params = params[1:]
    return Sig(tuple(params), a.vararg is not None, a.kwarg is not None)


def _fake_sig(fn, method: bool) -> Sig:
    kinds = {inspect.Parameter.POSITIONAL_ONLY: "posonly",
             inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos",
             inspect.Parameter.KEYWORD_ONLY: "kwonly"}
    params, varargs, varkw = [], False, False
    for p in list(inspect.signature(fn).parameters.values())[1 if method else 0:]:
        if p.kind == inspect.Parameter.VAR_POSITIONAL:
            varargs = True
        elif p.kind == inspect.Parameter.VAR_KEYWORD:
            varkw = True
        else:
            params.append(Param(p.name, kinds[p.kind], p.default is inspect.Parameter.empty))
    return Sig(tuple(params), varargs, varkw)


def _shapes(fake: Sig, stubs: list[Sig]):
    """(description, positional count, keyword names) calls the fake accepts."""
    pos = fake.positional()
    required_pos = sum(1 for p in pos if p.required)
    required_kw = frozenset(p.name for p in fake.params if p.kind == "kwonly" and p.required)
    yield "required arguments only", required_pos, required_kw
    for i, p in enumerate(pos):
        if not p.required:
            yield f"positional {p.name!r}", i + 1, required_kw
    optional_kw = {p.name for p in fake.params if p.kind == "kwonly" and not p.required}
    for name in sorted(optional_kw):
        together = {name}
        for stub in stubs:  # what the stub demands alongside this keyword
            if any(q.name == name for q in stub.params):
                together |= {q.name for q in stub.params
                             if q.required and q.kind != "posonly" and q.name in optional_kw}
        yield f"keyword {name!r}", required_pos, required_kw | together


def _stub_module() -> ast.Module:
    dist = importlib.metadata.distribution(STUB_PACKAGE)
    return ast.parse(Path(dist.locate_file("machine.pyi")).read_text())


STUB = _stub_module()
STUB_CLASSES = {n.name: n for n in STUB.body if isinstance(n, ast.ClassDef)}


def _stub_functions(body) -> dict[str, list[ast.FunctionDef]]:
    found: dict[str, list[ast.FunctionDef]] = {}
    for n in body:
        if isinstance(n, ast.FunctionDef):
            found.setdefault(n.name, []).append(n)
    return found


def _stub_constants(body) -> dict[str, object]:
    found: dict[str, object] = {}
    for n in body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            found[n.target.id] = n.value.value if isinstance(n.value, ast.Constant) else ...
    return found


def _class_members(name: str) -> tuple[dict[str, list[ast.FunctionDef]], dict[str, object]]:
    """Methods and constants of a stub class, its stub base classes included."""
    cls = STUB_CLASSES[name]
    methods, constants = {}, {}
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id in STUB_CLASSES:
            methods, constants = _class_members(base.id)
    return methods | _stub_functions(cls.body), constants | _stub_constants(cls.body)


def _public(obj) -> list[str]:
    return [n for n in dir(obj) if not n.startswith("_") or n in ("__init__", "__call__")]


FAKE_NAMES = [n for n in vars(machine) if not n.startswith("_") and n != "annotations"]


def _check_callable(where: str, fake_fn, stub_defs: list[ast.FunctionDef], method: bool):
    stubs = [_stub_sig(d, method) for d in stub_defs]
    fake = _fake_sig(fake_fn, method)
    for what, npos, keywords in _shapes(fake, stubs):
        assert any(s.accepts(npos, keywords) for s in stubs), (
            f"{where}: a call with {what} ({npos} positional, keywords {sorted(keywords)}) "
            f"works on the fake but no rp2 signature accepts it: "
            f"{[ast.unparse(d.args) for d in stub_defs]}")
    for i, p in enumerate(fake.positional()):
        for s in stubs:
            theirs = s.positional()
            if i < len(theirs) and theirs[i].kind == "pos":
                assert theirs[i].name == p.name, (
                    f"{where}: argument {i} is {p.name!r} here but {theirs[i].name!r} on rp2")


@pytest.mark.parametrize("name", FAKE_NAMES)
def test_every_public_name_exists_on_rp2(name):
    obj = getattr(machine, name)
    if inspect.ismodule(obj):
        pytest.fail(f"machine.{name} is a module; import it under a private name")
    if inspect.isclass(obj):
        assert name in STUB_CLASSES, f"machine.{name}: rp2's machine has no such class"
        methods, constants = _class_members(name)
        for member in _public(obj):
            value = getattr(obj, member)
            if callable(value):
                assert member in methods, f"machine.{name}.{member}: not on rp2"
                _check_callable(f"machine.{name}.{member}", value, methods[member], method=True)
            else:
                assert member in constants, f"machine.{name}.{member}: not on rp2"
                want = constants[member]
                assert want is ... or want == value, f"machine.{name}.{member} is {value}, rp2 has {want}"
        return
    functions, constants = _stub_functions(STUB.body), _stub_constants(STUB.body)
    if callable(obj):
        assert name in functions, f"machine.{name}(): rp2's machine has no such function"
        _check_callable(f"machine.{name}", obj, functions[name], method=False)
    else:
        assert name in constants, f"machine.{name}: rp2's machine has no such constant"
        want = constants[name]
        assert want is ... or want == obj, f"machine.{name} is {obj}, rp2 has {want}"


def test_the_fake_covers_what_the_firmware_uses():
    wanted = {"Pin", "I2C", "SoftI2C", "PWM", "Timer", "WDT", "unique_id", "freq", "disable_irq",
              "enable_irq", "reset_cause", "reset", "soft_reset", "idle", "lightsleep",
              "deepsleep", "PWRON_RESET", "WDT_RESET"}
    assert wanted <= set(FAKE_NAMES)


def test_the_checker_catches_an_incompatible_signature():
    stub = ast.parse("def f(self, a, /, b=1, *, c): ...").body[0]
    good = Sig((Param("a", "pos", True), Param("b", "pos", False), Param("c", "kwonly", True)))
    assert all(any(s.accepts(n, k) for s in [_stub_sig(stub, True)])
               for _, n, k in _shapes(good, [_stub_sig(stub, True)]))

    def extra(self, a, b=1, d=2, *, c): ...

    with pytest.raises(AssertionError, match="no rp2 signature"):
        _check_callable("f", extra, [stub], method=True)

    def optional_c(self, a, b=1, *, c=3): ...

    with pytest.raises(AssertionError, match="no rp2 signature"):
        _check_callable("f", optional_c, [stub], method=True)

    def renamed(self, a, x=1, *, c): ...

    with pytest.raises(AssertionError, match="'x' here but 'b'"):
        _check_callable("f", renamed, [stub], method=True)
