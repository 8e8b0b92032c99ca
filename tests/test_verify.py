"""`catnip replay --verify`: a game rebuilt from its revealed seed and moves
matches what the table announced, and every kind of disagreement is named
with the first move where it happens; the exit status says which."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from catnip import rules, wire
from catnip.rules.rng import Rng
from catnip_host import verify
from catnip_host.cli import main
from playout import any_legal
from purrfect_play import sensible_action


def _move(game, rng):
    """(player, action) of a seeded player that ends games (tablebot's policy)."""
    players = game.to_act()
    if game.NAME == "purrfect":
        start = rng.below(len(players))
        for p in players[start:] + players[:start]:
            action = sensible_action(game, p, rng)
            if action is not None:
                return p, action
        return players[start], any_legal(game, players[start], rng)
    return players[0], any_legal(game, players[0], rng)


def _second(game, p, a, tries):
    """A take-back of that move now and then: a Heist card, a result corrected."""
    pub = game.public()
    if a[0] == "play" and pub["phase"] == "play" and pub["seats"][p]["committed"]:
        again = ("unlock",)
    elif game.corrector() == p and game.result() is None:
        again = ("correct",)
    else:
        return None
    tries[0] += 1
    return again if tries[0] % 3 == 1 else None


def _frames(name="heist", config=None, seed="v", pulled=True, live=True, second=False,
            named=True):
    """(kind, fields) the table sends for one game played live and then pulled,
    as App and catnip.link.remote send them (`named`: its acts and end name
    their game's commitment, as a table has since it began to)."""
    game = rules.new(name, config or {"players": 3}, seed)
    mine = {"commit": game.seed_commit[:wire.COMMIT_ID]} if named else {}
    out = []
    if live:
        out.append(("begin", {"gid": 1, "header": game.header(),
                              "seats": list(range(game.players())), "moves": 0}))
    rng = Rng(seed)
    entries = []
    tries = [0]
    while game.result() is None:
        p, a = _move(game, rng)
        while a is not None:
            events = game.act(p, a)
            entries.append(["action", p, list(a)])
            if live:
                out.append(("act", {"gid": 1, **mine, "n": len(game.log), "events": events}))
            a = _second(game, p, a, tries) if second else None
    entries.append(["end", game.result()])
    if live:
        out.append(("end", {"gid": 1, **mine, "result": game.result()}))
    if pulled:
        header = game.journal()
        del header["log"], header["finished"]
        header["seats"] = list(range(game.players()))  # as App journals it
        out.append(("game", {"gid": 1, "status": "finished", "header": header}))
        out += [("entry", {"gid": 1, "i": i, "e": e}) for i, e in enumerate(entries)]
    return json.loads(json.dumps(out))


def _check(frames):
    stored = ((0, k, f.get("gid"), wire.encode(k, 0, f)[:-1], None) for k, f in frames)
    (c,) = [verify.check(g) for g in verify.gather(stored).values()]
    return c


@pytest.mark.parametrize("name", ["heist", "stack", "purrfect"])
def test_an_honest_game_verifies_move_by_move(name):
    c = _check(_frames(name, {"players": 4} if name == "purrfect" else None))
    assert c.status == verify.VERIFIED, c.problems
    assert c.moves > 5 and c.compared == c.moves and c.unseen == 0


@pytest.mark.parametrize("name", ["heist", "stack", "purrfect"])
def test_a_game_with_second_thoughts_verifies_move_by_move(name):
    frames = _frames(name, {"players": 4} if name == "purrfect" else None, second=True)
    said = [e for k, f in frames if k == "act" for e in f["events"]]
    assert any(e.get("type", e.get("type")) in ("unlock", "correct") for e in said)
    c = _check(frames)
    assert c.status == verify.VERIFIED, c.problems


def test_an_altered_announcement_names_the_first_move_that_disagrees():
    frames = _frames()
    acts = [f for k, f in frames if k == "act" and f["events"]]
    bad = acts[3]
    bad["events"][0] = dict(bad["events"][0], player=(bad["events"][0].get("player", 0) + 1) % 3)
    c = _check(frames)
    assert c.status == verify.DISAGREES
    assert c.problems[0].startswith(f"move {bad['n']} (player ")
    assert "event 1: the table announced" in c.problems[0]


def test_a_seed_that_breaks_its_commitment_fails():
    frames = _frames()
    for kind, f in frames:
        if kind == "game":
            f["header"]["seed"] = "another"
    c = _check(frames)
    assert c.status == verify.DISAGREES and "commitment" in c.problems[0]


def test_a_move_the_rules_refuse_is_named():
    frames = _frames()
    entries = [f for k, f in frames if k == "entry"]
    entries[2]["e"][2] = ["fly"]
    c = _check(frames)
    assert c.status == verify.DISAGREES and c.problems[0].startswith("move 3 ")
    assert "refused by the rules" in c.problems[0]


def test_a_game_not_pulled_yet_cannot_be_verified_and_says_why():
    c = _check(_frames(pulled=False))
    assert c.status == verify.UNVERIFIABLE and "not been pulled" in c.problems[0]


def test_a_game_played_without_the_laptop_verifies_from_the_journal_alone():
    c = _check(_frames(live=False))
    assert c.status == verify.VERIFIED and c.compared == 0 and c.unseen == c.moves > 0


def _numbered(frames):
    """The frames as the table's line sends them: stream frames numbered
    1, 2, ..., answers with the number of the command they answer."""
    out, seq = [], 0
    for kind, f in frames:
        if wire.MESSAGES[kind][0] == wire.STREAMED:
            seq += 1
            out.append(wire.encode(kind, seq, f))
        else:
            out.append(wire.encode(kind, 0, dict(f, re=1)))
    return out


def _file(tmp_path, frames, name="session.catnip"):
    path = tmp_path / name
    path.write_bytes(b"boot banner\r\n" + b"".join(_numbered(frames)))
    return str(path)


def test_the_exit_status_says_verified_or_not(tmp_path):
    runner = CliRunner()
    good = runner.invoke(main, ["replay", _file(tmp_path, _frames()), "--verify"])
    assert good.exit_code == 0 and "verified" in good.output, good.output
    frames = _frames()
    next(f for k, f in frames if k == "act" and f["events"])["events"][0]["x"] = 1
    bad = runner.invoke(main, ["replay", _file(tmp_path, frames), "--verify"])
    assert bad.exit_code == 1 and "DOES NOT VERIFY" in bad.output
    unpulled = runner.invoke(main, ["replay", _file(tmp_path, _frames(pulled=False)), "--verify"])
    assert unpulled.exit_code == 3 and "cannot be verified yet" in unpulled.output
    record = tmp_path / "record.json"
    game = rules.new("stack", {"players": 2}, "r")
    rng = Rng("r")
    while game.result() is None:
        game.act(game.to_act()[0], any_legal(game, game.to_act()[0], rng))
    record.write_text(json.dumps(game.record()))
    assert runner.invoke(main, ["replay", str(record), "--verify"]).exit_code == 0
    junk = tmp_path / "junk.txt"
    junk.write_text("nothing here\n")
    nothing = runner.invoke(main, ["replay", str(junk), "--verify"])
    assert nothing.exit_code == 1 and "no catnip frames" in nothing.output
    from catnip_host.store import Store

    Store(tmp_path / "empty.sqlite3").close()
    missing = runner.invoke(main, ["replay", "42", "--verify", "--store",
                                   str(tmp_path / "empty.sqlite3")])
    assert missing.exit_code == 1 and "no session 42" in missing.output


def _into_store(store, session, frames, uid="t1", seq=0):
    """Frames stored as the Keeper stores them (a snapshot after each act,
    pulled frames in one transaction); returns the last seq used."""
    pulled = []
    for kind, f in frames:
        if kind in ("game", "entry"):
            pulled.append((kind, wire.encode(kind, 0, dict(f, re=1))[:-1]))
            continue
        seq += 1
        raw = wire.encode(kind, seq, f)[:-1] + b"\r"  # as a line ending in CRLF arrives
        store.frame(session, seq, kind, f.get("gid"), raw)
        if kind == "act":
            store.frame(session, 0, "snap", f["gid"], wire.encode("snap", 0, {"gid": f["gid"]})[:-1])
    if pulled:
        store.pulled_game(session, uid, 1, "c", pulled)
    return seq


def test_a_stored_game_resumed_after_a_power_cut_verifies_from_both_power_ups(tmp_path):
    from catnip_host.store import Store

    frames = _frames("purrfect", {"players": 4})
    acts = [i for i, (k, _) in enumerate(frames) if k == "act"]
    cut = acts[len(acts) // 2]
    begin = frames[0]
    resumed = ("begin", dict(begin[1], moves=frames[cut - 1][1]["n"]))
    store = Store(tmp_path / "s.sqlite3")
    first = store.session("t1", "boot-1", "direct", "0.1.0")
    second = store.session("t1", "boot-2", "direct", "0.1.0")
    _into_store(store, first, frames[:cut])
    _into_store(store, second, [resumed] + frames[cut:])
    other = store.session("t2", "boot-1", "direct", "0.1.0")  # another table's game 1
    _into_store(store, other, _frames("heist", seed="another"), uid="t2")
    (c,) = verify.from_store(store, second)
    assert c.status == verify.VERIFIED, c.problems
    assert c.moves == c.compared == len(acts) and c.unseen == 0
    assert verify.from_store(store, first)[0].status == verify.VERIFIED


def test_a_header_without_salt_is_checked_against_the_seed_alone():
    """A record from before the salt: its commitment is the seed's SHA-256,
    and a seed that does not give it is a mismatch, not a crash."""
    import hashlib

    from catnip_host.replay import seed_matches

    seed = "0123456789abcdef0123456789abcdef"
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    assert seed_matches(commitment, {"seed": seed})
    assert not seed_matches(commitment, {"seed": seed[::-1]})


def test_one_move_is_said_without_a_plural():
    from catnip_host.replay import Check

    assert "; 1 move replayed;" in Check(gid=1, name="heist", status=0, moves=1).summary()
    assert "1 of 1 move compared" in Check(gid=1, name="heist", status=0, moves=1,
                                           compared=1).summary()
