"""The constant tables in catnip.tray and devsim.traces are what they say."""

from __future__ import annotations

import math
from statistics import NormalDist

from catnip.tray import common as tray
from devsim import traces


def test_gauss_table_holds_normal_quantiles() -> None:
    normal = NormalDist()
    knots = []
    for band in range(15):
        for step in range(8):
            p = 1 - 2.0**-band + step / 8 * 2.0**-(band + 1)
            knots.append(normal.inv_cdf(0.5 + p / 2))
    knots.append(normal.inv_cdf(0.5 + (1 - 2.0**-15) / 2))
    knots.append(normal.inv_cdf(0.5 + (1 - 2.0**-16) / 2))
    assert [round(k * traces.GAUSS_ONE) for k in knots] == list(traces._Z)


def test_logistic_table_holds_confidences() -> None:
    expected = [round(100 / (1 + math.exp(-i / 4))) for i in range(len(tray.LOGISTIC))]
    assert list(tray.LOGISTIC) == expected
    assert round(100 / (1 + math.exp(-len(tray.LOGISTIC) / 4))) == 100  # where it stops


def test_integer_helpers_match_exact_arithmetic() -> None:
    for n in list(range(2000)) + [2**29 - 1, 2**29, 10**9]:
        assert tray.isqrt(n) == math.isqrt(n)
    for x in range(-100_000, 100_000, 997):
        for den in (7, 4300, 500_000):
            assert tray.scaled(x, 1000, den) == x * 1000 // den
