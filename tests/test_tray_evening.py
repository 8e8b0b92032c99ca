"""One scripted evening through the tray chain (bench/bench_tray_evening.py):
cleanup between retries, cats landing on the tray and wide towers, and not
one wrong proposal shown at 90 % or more. The full figures are `make bench`'s."""

from __future__ import annotations

import pytest

from bench import bench_tray_evening as evening


@pytest.mark.parametrize("rate", [10, 80])
def test_an_evening_shows_no_sure_proposal_that_is_wrong(rate: int) -> None:
    t = evening.evaluate(rate, 2.0, evenings=1)
    assert t.cleanups >= 3 and t.landed >= 3 and t.collapses >= 8, t
    assert t.ok_unseen == 0 and t.ok_reports < t.collapses, t  # OK alone: no guessed number
    assert t.sure_wrong == 0, t.wrong_sure
    assert t.cleanup_collapses == 0 and t.unconfirmed == 0, t
    assert t.proposed > 0.8 * t.tries and t.accepted == t.proposed, t
