"""The table signs a few hundred microseconds at a time (docs/pico.md,
"Signing"): between two yields of catnip.ed25519's signing generator there
are at most five products mod P (half a point doubling or addition, or two
bits of an inversion), so the idle turn that runs it can stop within a
fraction of a ms of its budget, and the signature is still RFC 8032's.
Counted, not timed: each `% P` goes through a counting P (CPython only: the
rp2 port's ints cannot be subclassed so)."""

from __future__ import annotations

import pytest

from catnip import ed25519

MOST_PER_PIECE = 5
SECRET = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
MESSAGE = bytes.fromhex("72")
SIGNATURE = ("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
             "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")


class CountingP(int):
    count = 0

    def __rmod__(self, other):
        CountingP.count += 1
        return int.__rmod__(self, other)


@pytest.fixture
def counted(monkeypatch):
    monkeypatch.setattr(ed25519, "P", CountingP(ed25519.P))
    monkeypatch.setattr(ed25519, "_sha512", None)  # the rp2 port's: rounds a piece at a time
    CountingP.count = 0
    return CountingP


@pytest.mark.parametrize("steps", ["signing", "public_steps"])
def test_no_piece_of_the_work_does_more_than_five_products_mod_p(counted, steps):
    work = ed25519.signing(SECRET, MESSAGE) if steps == "signing" else \
        ed25519.public_steps(SECRET)
    pieces, most, out = 0, 0, None
    while out is None:
        before = counted.count
        out = next(work)
        most = max(most, counted.count - before)
        pieces += 1
    assert most <= MOST_PER_PIECE, most
    if steps == "signing":
        assert out.hex() == SIGNATURE
    assert pieces > 900  # the work is cut up, not done in a few long pieces
