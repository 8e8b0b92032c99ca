"""Every `make bench` module imports and offers rows(), so the bench cannot rot
unnoticed between runs. (The figures themselves are measured by `make bench`.)"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import bench

MODULES = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))


def test_there_are_bench_modules():
    assert len(MODULES) >= 6


@pytest.mark.parametrize("name", MODULES)
def test_bench_module_offers_rows(name):
    module = importlib.import_module(f"bench.{name}")
    assert inspect.isgeneratorfunction(module.rows), f"bench.{name}.rows() must yield table rows"
