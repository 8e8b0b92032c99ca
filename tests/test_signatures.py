"""The tables' signatures on the laptop: a signed game verifies against the
key pinned at first sight; a consistent rewrite of the store is caught
whether it is signed again with another key or left with the old signature;
a game from before the tables signed verifies as before, labelled unsigned;
a known table that speaks with another key is reported loudly."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from catnip import record_digest, wire
from catnip_host import signatures, verify
from catnip_host.cli import main
from catnip_host.store import Store
from test_verify import _frames

UID = "e6614103e7"


def _key():
    secret = Ed25519PrivateKey.generate()
    return secret, secret.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _sign(secret, frames):
    header = next(f for k, f in frames if k == "game")["header"]
    entries = [f["e"] for k, f in frames if k == "entry"]
    return secret.sign(record_digest.digest(UID, 1, "finished", header, entries)).hex()


def _store(tmp_path, frames, sig, key=None, name="s.sqlite3", page_ms=True):
    """A store of one game as the Keeper keeps it, its last page signed with
    `sig` (None: unsigned; absent "ms": pulled from a table before signing,
    or with `page_ms` false, cut off with the signature)."""
    store = Store(tmp_path / name)
    session = store.session(UID, "boot-1", "direct", "0.1.0")
    if key is not None:
        signatures.Keys(store).heard(UID, key)
    seq, pulled = 0, []
    for kind, f in frames:
        if kind in ("game", "entry"):
            pulled.append((kind, wire.encode(kind, 0, dict(f, re=1))[:-1]))
            continue
        seq += 1
        store.frame(session, seq, kind, f.get("gid"), wire.encode(kind, seq, f)[:-1])
    n = sum(1 for k, _ in frames if k == "entry")
    page = {"gid": 1, "next": n, "done": True, "re": 1}
    if key is not None:
        page.update(sig=sig, ms=5000) if page_ms else page.update(sig=sig)
    pulled.append(("page", wire.encode("page", 0, page)[:-1]))
    store.pulled_game(session, UID, 1, "c", pulled)
    return store, session


def _swap_two_moves(frames):
    """The record rewritten consistently (as a forger would, store and live
    frames alike): the game replayed with other legal moves is not easy to
    make, so the rewrite is another whole honest game of the same number."""
    return _frames(seed="forged")


def test_a_signed_game_verifies_and_says_by_whom(tmp_path):
    secret, key = _key()
    frames = _frames()
    store, session = _store(tmp_path, frames, _sign(secret, frames), key)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.VERIFIED, c.problems
    assert f"signed by table {UID} (key {signatures.fingerprint(key)})" in c.summary()


def test_a_consistent_rewrite_signed_with_another_key_is_caught(tmp_path):
    _, key = _key()
    forger, _ = _key()
    forged = _swap_two_moves(_frames())
    store, session = _store(tmp_path, forged, _sign(forger, forged), key)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.DISAGREES and "SIGNATURE DOES NOT MATCH" in c.summary()
    assert any("signed with another key" in p for p in c.problems)


def test_a_consistent_rewrite_keeping_the_old_signature_is_caught(tmp_path):
    secret, key = _key()
    honest = _frames()
    forged = _swap_two_moves(honest)
    store, session = _store(tmp_path, forged, _sign(secret, honest), key)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.DISAGREES, c.summary()


def test_a_signature_cut_off_a_signing_tables_game_is_caught(tmp_path):
    _, key = _key()
    store, session = _store(tmp_path, _frames(), None, key)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.DISAGREES and any("carries no signature" in p for p in c.problems)


@pytest.mark.parametrize("keys_left", [True, False])
def test_a_signature_cut_off_with_the_pages_ticks_is_caught_by_the_live_end(tmp_path,
                                                                             keys_left):
    """The live end said the table would sign the game: a pull without the
    signature is caught though its last page lost its `ms` too, and though
    the store's pinned keys went with it."""
    _, key = _key()
    frames = [(k, dict(f, signs=True) if k == "end" else f) for k, f in _frames()]
    store, session = _store(tmp_path, frames, None, key if keys_left else None, page_ms=False)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.DISAGREES, c.summary()
    assert any("said as it ended that it would sign it" in p for p in c.problems)
    assert "SIGNATURE DOES NOT MATCH" in c.summary()


def test_a_game_whose_table_said_it_would_not_sign_verifies_unsigned(tmp_path):
    frames = [(k, dict(f, signs=False) if k == "end" else f) for k, f in _frames()]
    store, session = _store(tmp_path, frames, None)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.VERIFIED and "unsigned" in c.summary(), c.summary()


def test_a_game_from_before_tables_signed_verifies_labelled_unsigned(tmp_path):
    store, session = _store(tmp_path, _frames(), None)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.VERIFIED and "unsigned" in c.summary()
    result = CliRunner().invoke(main, ["replay", str(session), "--verify", "--store",
                                       str(tmp_path / "s.sqlite3")])
    assert result.exit_code == 0 and "unsigned" in result.output, result.output


def test_replay_verify_exits_1_for_a_forged_signature(tmp_path):
    _, key = _key()
    forger, _ = _key()
    frames = _frames()
    _, session = _store(tmp_path, frames, _sign(forger, frames), key)
    result = CliRunner().invoke(main, ["replay", str(session), "--verify", "--store",
                                       str(tmp_path / "s.sqlite3")])
    assert result.exit_code == 1 and "SIGNATURE DOES NOT MATCH" in result.output


def test_the_first_key_heard_is_pinned_and_a_new_one_is_reported(tmp_path):
    store = Store(tmp_path / "k.sqlite3")
    _, first = _key()
    _, second = _key()
    assert signatures.heard(store, UID, first) is None
    assert signatures.heard(store, UID, first) is None  # seen again: quiet
    warning = signatures.heard(store, UID, second)
    assert warning.startswith("WARNING") and signatures.fingerprint(first) in warning \
        and signatures.fingerprint(second) in warning
    assert signatures.Keys(store).pinned(UID) == first  # the new key never takes the pinned one's place
    assert "not one" in signatures.heard(store, "t2", "00" * 31)
    assert signatures.Keys(store).pinned("t2") is None


def test_catnip_tables_lists_keys_and_fingerprints(tmp_path):
    path = tmp_path / "k.sqlite3"
    store = Store(path)
    _, first = _key()
    _, second = _key()
    signatures.heard(store, UID, first)
    signatures.heard(store, UID, second)
    store.close()
    result = CliRunner().invoke(main, ["tables", "--store", str(path)])
    assert result.exit_code == 0, result.output
    assert UID in result.output and signatures.fingerprint(first) in result.output
    assert "CHANGED" in result.output and signatures.fingerprint(second) in result.output


@pytest.mark.parametrize("field", ["header", "entry", "gid"])
def test_every_part_of_the_record_is_covered(field):
    secret, key = _key()
    frames = _frames()
    header = next(f for k, f in frames if k == "game")["header"]
    entries = [f["e"] for k, f in frames if k == "entry"]
    sig = bytes.fromhex(_sign(secret, frames))
    gid = 1
    if field == "header":
        header = dict(header, salt="00" * 16)
    elif field == "entry":
        entries = entries[:-1]
    else:
        gid = 2
    digest = record_digest.digest(UID, gid, "finished", header, entries)
    from cryptography.exceptions import InvalidSignature

    with pytest.raises(InvalidSignature):
        secret.public_key().verify(sig, digest)


def test_the_keeper_pins_the_hellos_key_and_says_loudly_when_it_changes(tmp_path):
    from types import SimpleNamespace

    from test_link import Table, _keeper, _settle

    table = Table(tmp_path)
    _, first = _key()
    table.seal = SimpleNamespace(public=bytes.fromhex(first), todo=[])
    store = Store(tmp_path / "s.sqlite3")
    notes: list[str] = []
    _settle(_keeper(table, store, notes))
    assert signatures.Keys(store).pinned(_uid_of(store)) == first
    assert not any("WARNING" in n for n in notes)
    _, second = _key()
    table.seal.public = bytes.fromhex(second)  # its flash erased, or another Pico
    _settle(_keeper(table, store, notes))
    assert any(n.startswith("WARNING") and signatures.fingerprint(second) in n for n in notes)
    assert signatures.Keys(store).pinned(_uid_of(store)) == first


def _uid_of(store):
    (uid,) = store.tables()
    return uid


def test_a_finished_game_waiting_for_its_signature_is_pulled_once_signed(tmp_path):
    from types import SimpleNamespace

    from test_link import Table, _keeper, _settle

    table = Table(tmp_path)
    table.play(seed="one")
    waiting = {1}
    table.seal = SimpleNamespace(public=None, todo=None, waits=lambda gid: gid in waiting)
    store = Store(tmp_path / "s.sqlite3")
    keeper = _keeper(table, store)
    _settle(keeper)
    assert keeper.pulled == [] and dict(table.journal.games()) == {1: "finished"}
    waiting.clear()  # signed: the table says so with a "signed" frame
    table.line.heard = True
    table.line.send(wire.SIGNED, gid=1)
    _settle(keeper)
    assert keeper.pulled == [1] and dict(table.journal.games()) == {1: "pulled"}


@pytest.mark.parametrize("game", ["purrfect", "stack", "heist"])
def test_an_older_table_s_signed_game_with_sentences_still_verifies(tmp_path, game):
    """Signed as stored: a game whose result gave its reasons in sentences
    (and Stack O' Cats' events keyed "event") verifies, signed, against the
    table's key; a sentence changed in the store breaks the signature, though
    the reasons are worked out again from the numbers."""
    import json

    from test_results_shape import SENTENCES, _old_frames

    line = next(g for g in SENTENCES if g["record"]["game"] == game
                and len(g["result"]["reasons"]) > 1 - (game == "purrfect"))
    secret, key = _key()
    frames = _old_frames(line)
    store, session = _store(tmp_path, frames, _sign(secret, frames), key)
    (c,) = verify.from_store(store, session)
    assert c.status == verify.VERIFIED, c.problems
    assert "signed by table" in c.summary()
    altered = json.loads(json.dumps(frames))
    (end,) = [f["e"] for k, f in altered if k == "entry" and f["e"][0] == "end"]
    end[1]["reasons"][0] = end[1]["reasons"][0].replace(" ", ", ", 1)  # a sentence retouched
    store, session = _store(tmp_path, altered, _sign(secret, frames), key, name="t.sqlite3")
    (c,) = verify.from_store(store, session)
    assert c.status != verify.VERIFIED


def test_a_store_swapped_in_with_its_own_pins_is_checked_against_the_laptops(tmp_path):
    """Whoever holds the store rewrote a game, signed it with a key of their
    own and pinned that key in the store: the laptop's own pin (outside the
    store) still names the table's real key, so the game does not verify."""
    _, real = _key()
    signatures.heard(Store(tmp_path / "heard.sqlite3"), UID, real)  # the table's hello, once
    assert signatures.LaptopPins().all() == {UID: real}
    forger, forged_key = _key()
    forged = _swap_two_moves(_frames())
    store, session = _store(tmp_path, forged, _sign(forger, forged), forged_key)
    checks = verify.from_store(store, session)
    assert verify.exit_status(checks) == verify.DISAGREES
    said = " ".join(p for c in checks for p in c.problems)
    assert f"this laptop pinned {signatures.fingerprint(real)}" in said, said
    assert "SIGNATURE DOES NOT MATCH" in checks[-1].summary()
    store.close()
    result = CliRunner().invoke(main, ["tables", "--store", str(tmp_path / "s.sqlite3")])
    assert f"but this laptop pinned {signatures.fingerprint(real)}" in result.output, \
        result.output


def test_the_laptops_pins_keep_the_first_key_and_survive_a_damaged_file(tmp_path):
    pins = signatures.LaptopPins(tmp_path / "pins.json")
    _, first = _key()
    _, second = _key()
    assert pins.pin(UID, first) == first and pins.pin(UID, second) == first
    assert pins.all() == {UID: first}
    (tmp_path / "pins.json").write_text("{not json")
    assert pins.pin("t2", second) == second and pins.all() == {}
    assert (tmp_path / "pins.json").read_text() == "{not json"  # never written over
