"""Plays out of the store, in four formats (catnip export):

- JSON Lines: one whole game per line (its public header, the revealed seed
  and salt, every action, the public events each caused, the result), enough
  for anyone to replay it with catnip.rules and check it;
- BG Stats: the app's import file (a .bgsplay: games, players, locations,
  plays with playerScores), so a group's plays appear where it already keeps
  them, and from there on BoardGameGeek;
- a BG Stats link: the app's documented "push a play from another app" URL,
  for one game;
- BGG-style CSV: one row per play (date, game, variant, length, players,
  scores, winners), RFC 4180 (CRLF), cells a spreadsheet would run as a
  formula made plain text.

Every value comes from records.Play, that is from the rules' replay. Every
format is written as UTF-8 bytes, whatever the console's encoding.
"""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
import uuid
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from catnip.rules import TITLES
from catnip_host import records
from catnip_host.records import Play
from catnip_host.words import Words

FORMATS = ("jsonl", "bgstats", "bgstats-link", "csv")
CSV_FIELDS = ("date", "game", "variant", "length", "players", "scores", "winners",
              "date_note", "ended")
JOIN = "; "  # between names and scores in one CSV cell (names never hold ';')
ANONYMOUS = "Anonymous player"  # BG Stats' own name for a player nobody named
SOURCE = "catnip"  # the app the BG Stats link says the play comes from
LINK = "https://app.bgstatsapp.com/createPlay.html?data="
FORMULA = tuple("=+-@\t\r")  # what makes a spreadsheet read a cell as a formula
_UUIDS = uuid.UUID("6b1f4c4e-3c55-4c36-9d7e-6361746e6970")  # catnip's namespace


def write(fmt: str, plays: list[Play], out: BinaryIO, location: str,
          bgg_ids: dict[str, int] | None = None, bom: bool = False) -> None:
    """The plays in `fmt`, as UTF-8 (with a byte order mark if `bom`)."""
    bgg_ids = bgg_ids or {}
    if fmt == "jsonl":
        text = "".join(line + "\n" for line in jsonl(plays))
    elif fmt == "bgstats":
        text = json.dumps(bgstats(plays, location, bgg_ids), indent=1, ensure_ascii=False) + "\n"
    elif fmt == "bgstats-link":
        text = bgstats_link(plays[0], location, bgg_ids) + "\n"
    else:
        text = bgg_csv(plays)
    out.write(("\ufeff" if bom else "").encode() + text.encode("utf-8"))


def jsonl(plays: Iterable[Play]) -> Iterator[str]:
    for play in plays:
        r = play.record
        events = [e for _, _, e, _ in records.steps(play)]
        yield json.dumps({
            "table": play.table, "session": play.session, "gid": play.gid,
            "date": play.date and play.date.isoformat(timespec="seconds"),
            "dated": play.dated, "date_note": play.approximate,
            "ended": play.end and play.end.isoformat(timespec="seconds"),
            "minutes": play.minutes, "players": list(play.players),
            "header": {"game": r["game"], "config": r["config"], "seed_commit": r["seed_commit"]},
            "seed": r["seed"], "salt": r["salt"], "actions": r["log"], "events": events,
            "result": play.result, "finished": play.finished, "virtual": play.virtual,
        }, ensure_ascii=False, separators=(",", ":"))


def record_of(line: dict) -> dict:
    """The rules' record in one JSON Lines game (for rules.replay)."""
    h = line["header"]
    return {"game": h["game"], "config": h["config"], "seed_commit": h["seed_commit"],
            "seed": line["seed"], "salt": line["salt"], "log": line["actions"],
            "finished": line["finished"]}


# ---- BG Stats -----------------------------------------------------------------------


def bgstats(plays: Iterable[Play], location: str, bgg_ids: dict[str, int]) -> dict:
    """BG Stats' import file: one game per published game (Stack O' Cats'
    mode is the play's board), named people as players, unnamed seats as
    BG Stats' anonymous player."""
    plays = [p for p in plays if p.finished]
    games = _ids(p.name for p in plays)
    people = _ids(_person(p, seat) for p in plays for seat in range(len(p.players)))
    stamp = max((_stamp(p) for p in plays if p.began is not None), default="")
    return {
        "about": "Plays recorded by a catnip table (catnip export --format bgstats). Open "
                 "this .bgsplay file with Board Game Stats to import them.",
        "games": [_bgstats_game(name, i, bgg_ids, stamp) for name, i in games.items()],
        "players": [{"id": i, "uuid": _uuid("player", name), "name": name,
                     "isAnonymous": name == ANONYMOUS, "modificationDate": stamp}
                    for name, i in people.items()],
        "locations": [{"id": 1, "uuid": _uuid("location", location), "name": location,
                       "modificationDate": stamp}],
        "plays": [_bgstats_play(p, games, people) for p in plays],
    }


def _bgstats_game(name: str, i: int, bgg_ids: dict[str, int], stamp: str) -> dict:
    game = {"id": i, "uuid": _uuid("game", TITLES[name]), "name": TITLES[name]}
    if name in bgg_ids:
        game["bggId"] = bgg_ids[name]
    return dict(game, highestWins=True, noPoints=False, cooperative=False, usesTeams=False,
                modificationDate=stamp)


def _bgstats_play(p: Play, games: dict[str, int], people: dict[str, int]) -> dict:
    stamp = _stamp(p) if p.began is not None else ""
    play = {
        "uuid": _play_uuid(p), "gameRefId": games[p.name], "locationRefId": 1,
        "playDate": stamp, "entryDate": stamp, "modificationDate": stamp,
        "durationMin": p.minutes or 0, "ignored": False, "manualWinner": True,
        "usesTeams": False, "board": p.variant, "comments": _comments(p),
        "playerScores": [{"playerRefId": people[_person(p, s["seatOrder"] - 1)], **s}
                         for s in _seats(p)],
    }
    if not stamp:
        del play["playDate"], play["entryDate"], play["modificationDate"]
    return play


def bgstats_link(p: Play, location: str, bgg_ids: dict[str, int]) -> str:
    """BG Stats' link that opens one play in the app (its "push plays from
    other apps" format), ready to match and save."""
    game = {"name": p.game, "highestWins": True, "noPoints": False, "sourceGameId": p.name}
    if p.name in bgg_ids:
        game["bggId"] = bgg_ids[p.name]
    data = {"sourceName": SOURCE, "sourcePlayId": _play_uuid(p), "game": game,
            "location": location, "board": p.variant, "durationMin": p.minutes or 0,
            "comments": _comments(p),
            "players": [dict(_link_player(p, s["seatOrder"] - 1), score=s["score"],
                             winner=s["winner"], rank=s["rank"], startPlayer=s["startPlayer"],
                             role="") for s in _seats(p)]}
    if p.began is not None:
        data["playDate"] = _stamp(p)
    return LINK + urllib.parse.quote(json.dumps(data, ensure_ascii=False,
                                                separators=(",", ":")), safe="")


def _link_player(p: Play, seat: int) -> dict:
    name = _person(p, seat)
    return {"name": name} if name == ANONYMOUS else {"name": name,
                                                     "sourcePlayerId": _uuid("player", name)}


def _seats(p: Play) -> list[dict]:
    """Each seat's result for BG Stats. The Clowder is one team that the rules
    congratulate however the tower ends, its score going to the Colonnade:
    every seat shares that score, rank 1 and the win."""
    scores, winners = p.scores(), p.winners()
    ranks = p.final()["ranks"]
    return [{"score": str(scores[seat]),
             "winner": p.clowder or seat in winners, "rank": 1 if p.clowder else ranks[seat],
             "startPlayer": seat == p.start_player, "seatOrder": seat + 1, "newPlayer": False}
            for seat in range(len(p.players))]


def _comments(p: Play) -> str:
    """How the play ended, in its players' names (ties and how they fell),
    then where it was played and anything doubtful about its date."""
    said = f"{Words(p.players).end(p.name, p.final())}; catnip " \
           f"{'virtual table' if p.virtual else 'table'} {p.table}, game {p.gid}"
    if p.clowder:
        said = "Clowder (cooperative): " + said
    if p.began is None:
        said += "; played while the table had no clock: the date is not known"
    elif p.approximate:
        said += "; date " + p.approximate
    return said


def _person(p: Play, seat: int) -> str:
    return ANONYMOUS if p.anonymous(seat) else p.players[seat]


def _play_uuid(p: Play) -> str:
    return _uuid("play", f"{p.table}/{p.gid}/{p.record['seed_commit']}")


# ---- CSV ----------------------------------------------------------------------------


def bgg_csv(plays: Iterable[Play]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_FIELDS)
    for p in plays:
        if not p.finished:
            continue
        row = [p.date.date().isoformat() if p.date else "", p.game, p.variant,
               "" if p.minutes is None else p.minutes, JOIN.join(p.players),
               JOIN.join(map(str, p.scores())), JOIN.join(p.players[s] for s in p.winners()),
               p.approximate or "", Words(p.players).end(p.name, p.final())]
        w.writerow([plain(cell) for cell in row])
    return out.getvalue()


def plain(cell) -> str | int:
    """A cell a spreadsheet shows as the text it is: one that would start a
    formula (=, +, -, @, tab, CR) gets a leading apostrophe, the mark
    spreadsheets read as "text"; numbers stay numbers."""
    if isinstance(cell, int) or not str(cell).startswith(FORMULA) or _number(cell):
        return cell
    return "'" + cell


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# ---- shared -------------------------------------------------------------------------


def _ids(keys: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in keys:
        out.setdefault(k, len(out) + 1)
    return out


def _stamp(p: Play) -> str:
    return p.date.strftime("%Y-%m-%d %H:%M:%S") if p.date is not None else ""


def _uuid(kind: str, key: str) -> str:
    """The same play, player or game gets the same uuid in every export, so
    importing twice does not count a play twice."""
    return str(uuid.uuid5(_UUIDS, f"{kind}:{key}"))
