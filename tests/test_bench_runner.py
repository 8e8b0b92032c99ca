"""`python -m bench`: rows printed as they are measured, a module that fails
reported while the rest run, unknown modules refused, and the two sizes."""

from __future__ import annotations

import io
import sys
import types

import pytest
from rich.console import Console

import bench
from bench.__main__ import chosen, modules, run


def _fake(monkeypatch, name: str, rows) -> None:
    module = types.ModuleType(f"bench.{name}")
    module.rows = rows
    monkeypatch.setitem(sys.modules, f"bench.{name}", module)


def test_each_row_is_printed_before_the_next_is_measured(monkeypatch):
    out = io.StringIO()
    seen_before_second = []

    def rows():
        yield ("area", "first", 1, "B", "")
        seen_before_second.append(out.getvalue())
        yield ("area", "second", 2, "B", "")

    _fake(monkeypatch, "bench_fake_rows", rows)
    failed = run(["bench_fake_rows"], Console(file=out, width=160))
    assert failed == 0
    assert "first" in seen_before_second[0] and "second" not in seen_before_second[0]
    assert "[1/1] bench_fake_rows" in out.getvalue() and "2 rows in" in out.getvalue()


def test_a_failing_module_is_reported_and_the_next_still_runs(monkeypatch):
    def broken():
        yield ("area", "before", 1, "", "")
        raise RuntimeError("the probe broke")

    _fake(monkeypatch, "bench_fake_broken", broken)
    _fake(monkeypatch, "bench_fake_after", lambda: iter([("area", "after", 3, "", "")]))
    out = io.StringIO()
    failed = run(["bench_fake_broken", "bench_fake_after"], Console(file=out, width=160))
    text = out.getvalue()
    assert failed == 1 and "the probe broke" in text and "after" in text
    assert "failed: bench_fake_broken" in text


def test_modules_are_named_with_or_without_the_prefix_and_unknown_ones_refused():
    known = modules()
    assert chosen(["tray", "bench_fuzz"], known) == ["bench_fuzz", "bench_tray"]
    assert chosen([], known) == known
    with pytest.raises(SystemExit, match="no bench module bench_nope"):
        chosen(["nope"], known)


def test_the_full_bench_and_a_modules_own_variable_set_its_size(monkeypatch):
    monkeypatch.delenv(bench.FULL, raising=False)
    monkeypatch.delenv("CATNIP_TEST_SIZE", raising=False)
    assert bench.sized("CATNIP_TEST_SIZE", 10, 1000) == 10
    monkeypatch.setenv(bench.FULL, "1")
    assert bench.sized("CATNIP_TEST_SIZE", 10, 1000) == 1000
    monkeypatch.setenv("CATNIP_TEST_SIZE", "7")
    assert bench.sized("CATNIP_TEST_SIZE", 10, 1000) == 7
