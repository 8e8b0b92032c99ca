"""Plays out of the store, in three formats (catnip export):

- JSON Lines: one whole game per line (its public header, the revealed seed
  and salt, every action, the public events each caused, the result), enough
  for anyone to replay it with catnip.rules and check it;
- BG Stats: the app's import file (games, players, locations, plays with
  playerScores), so a group's plays appear where it already keeps them;
- BGG-style CSV: one row per play (date, game, length, players, scores,
  winners) for logging plays on BoardGameGeek.

Every value comes from records.Play, that is from the rules' replay.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterable, Iterator

from catnip_host import records
from catnip_host.records import Play

FORMATS = ("jsonl", "bgstats", "csv")
CSV_FIELDS = ("date", "game", "length", "players", "scores", "winners")
JOIN = "; "  # between names and scores in one CSV cell (names never hold ';')
_UUIDS = uuid.UUID("6b1f4c4e-3c55-4c36-9d7e-6361746e6970")  # catnip's namespace


def write(fmt: str, plays: list[Play], out: io.TextIOBase, location: str) -> None:
    if fmt == "jsonl":
        out.writelines(line + "\n" for line in jsonl(plays))
    elif fmt == "bgstats":
        out.write(json.dumps(bgstats(plays, location), indent=1, ensure_ascii=False) + "\n")
    else:
        out.write(bgg_csv(plays))


def jsonl(plays: Iterable[Play]) -> Iterator[str]:
    for play in plays:
        r = play.record
        events = [e for _, _, e, _ in records.steps(play)]
        yield json.dumps({
            "table": play.table, "session": play.session, "gid": play.gid,
            "date": play.date.isoformat(timespec="seconds"), "minutes": play.minutes,
            "players": list(play.players),
            "header": {"game": r["game"], "config": r["config"], "seed_commit": r["seed_commit"]},
            "seed": r["seed"], "salt": r["salt"], "actions": r["log"], "events": events,
            "result": play.result, "finished": play.finished,
        }, ensure_ascii=False, separators=(",", ":"))


def record_of(line: dict) -> dict:
    """The rules' record in one JSON Lines game (for rules.replay)."""
    h = line["header"]
    return {"game": h["game"], "config": h["config"], "seed_commit": h["seed_commit"],
            "seed": line["seed"], "salt": line["salt"], "log": line["actions"],
            "finished": line["finished"]}


def bgstats(plays: Iterable[Play], location: str) -> dict:
    plays = [p for p in plays if p.finished]
    games = _ids(p.title for p in plays)
    people = _ids(name for p in plays for name in p.players)
    stamp = _stamp(plays[-1]) if plays else ""
    return {
        "about": "Plays recorded by a catnip table (catnip export --format bgstats)",
        "games": [{"id": i, "uuid": _uuid("game", title), "name": title, "bggId": 0,
                   "highestWins": not _lower_wins(title, plays), "noPoints": False,
                   "cooperative": title.endswith(records.MODES["clowder"]),
                   "usesTeams": False, "modificationDate": stamp}
                  for title, i in games.items()],
        "players": [{"id": i, "uuid": _uuid("player", name), "name": name,
                     "isAnonymous": False, "modificationDate": stamp}
                    for name, i in people.items()],
        "locations": [{"id": 1, "uuid": _uuid("location", location), "name": location,
                       "modificationDate": stamp}],
        "plays": [_bgstats_play(p, games, people) for p in plays],
    }


def _bgstats_play(p: Play, games: dict[str, int], people: dict[str, int]) -> dict:
    winners, scores = p.winners(), p.scores()
    return {
        "uuid": _uuid("play", f"{p.table}/{p.gid}/{p.record['seed_commit']}"),
        "gameRefId": games[p.title], "locationRefId": 1,
        "playDate": _stamp(p), "entryDate": _stamp(p), "modificationDate": _stamp(p),
        "durationMin": p.minutes or 0, "ignored": False, "manualWinner": True,
        "usesTeams": False, "comments": f"catnip table {p.table}, game {p.gid}",
        "playerScores": [{"playerRefId": people[name], "score": str(scores[seat]),
                          "winner": seat in winners, "startPlayer": seat == p.start_player,
                          "seatOrder": seat + 1, "rank": p.result["ranks"][seat],
                          "newPlayer": False}
                         for seat, name in enumerate(p.players)],
    }


def bgg_csv(plays: Iterable[Play]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for p in plays:
        if not p.finished:
            continue
        w.writerow([p.date.date().isoformat(), p.title, "" if p.minutes is None else p.minutes,
                    JOIN.join(p.players), JOIN.join(map(str, p.scores())),
                    JOIN.join(p.players[s] for s in p.winners())])
    return out.getvalue()


def _ids(keys: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in keys:
        out.setdefault(k, len(out) + 1)
    return out


def _lower_wins(title: str, plays: list[Play]) -> bool:
    return any(p.lower_wins for p in plays if p.title == title)


def _stamp(p: Play) -> str:
    return p.date.strftime("%Y-%m-%d %H:%M:%S")


def _uuid(kind: str, key: str) -> str:
    """The same play, player or game gets the same uuid in every export, so
    importing twice does not count a play twice."""
    return str(uuid.uuid5(_UUIDS, f"{kind}:{key}"))
