# Every door that takes input from outside (station menus, the serial line,
# files on flash, the laptop), driven by one case at a time and judged the
# same way on CPython and MicroPython.
#
# A case is JSON-ready data naming the door and its inputs; a game a case
# needs is rebuilt from (name, config, seed, moves): `moves` random legal
# actions chosen by catnip's own PRNG, so both interpreters reach the same
# state. run(case) gives a verdict: "ok", "refused" (the door's own error, with
# a message naming what was wrong), or "crash ..." / "broken ..." when an
# exception of any other class escaped or an invariant failed. The fuzz tests
# and the bench count verdicts; the cross-interpreter test compares them.
import json

from catnip import board, rules
from catnip.rules.rng import Rng

from boardcheck import inexact, paths, shipped

# The games a case may ask for: a short list, so they can be cached.
GAMES = (
    ("heist", {"players": 3}),
    ("heist", {"players": 2, "gems": "physical"}),
    ("stack", {"players": 2}),
    ("stack", {"players": 3, "mode": "clowder", "draw": "physical"}),
    ("purrfect", {"players": 4}),
    ("purrfect", {"players": 5, "mode": "scorekeeper"}),
)
SEEDS = ("door-a", "door-b")
MOVES = (0, 1, 2, 5, 12, 30)
FINISHED = 100000  # moves: play the game to its end
MAX_MESSAGE = 600  # characters; a message that long names nothing clearly

_cache = {}


def game_for(spec):
    """A fresh game for spec [game index, seed index, moves]. Built once,
    then copied by replaying its journal."""
    key = tuple(spec)
    journal = _cache.get(key)
    if journal is None:
        index, seed, moves = spec
        name, config = GAMES[index]
        game = rules.new(name, config, SEEDS[seed])
        if moves == FINISHED:
            _play_to_end(game)
        else:
            _play(game, moves, Rng("moves:%s" % SEEDS[seed]))
        journal = _cache[key] = game.journal()
    return rules.replay(journal)


def _play(game, moves, pick):
    for _ in range(moves):
        if game.result() is not None:
            return
        player = pick.choice(game.to_act())
        options = game.legal(player)
        game.act(player, options[pick.below(len(options))])


def _play_to_end(game):
    pick = Rng("to the end")
    steps = 0
    while game.result() is None:
        steps += 1
        assert steps < 5000, "the game did not end"
        _play(game, 1, pick)


# ---- the verdict ---------------------------------------------------------------


class Broken(Exception):
    """An invariant of a door failed: the door's answer itself is wrong."""


def run(case):
    """The verdict on one case (see the top of this file)."""
    door = _DOORS[case["door"]]
    try:
        return door(case)
    except Broken as e:
        return "broken %s: %s" % (case["door"], e)
    except (rules.RuleError, board.BoardError) as e:  # where the door had none to give
        return "broken %s: %s escaped: %s" % (case["door"], type(e).__name__, e)
    except Exception as e:  # noqa: BLE001 - counting these is the point
        return "crash %s: %s: %s" % (case["door"], type(e).__name__, e)


def _refused(error, door, words=()):
    """The verdict on a door's own error: its message must be a short text,
    and name one of `words` when the case knows what it damaged."""
    text = str(error)
    if not text or len(text) > MAX_MESSAGE:
        raise Broken("a message of %d characters: %s" % (len(text), text[:80]))
    if words and not any(w in text for w in words):
        raise Broken("%r names none of %s" % (text, ", ".join(words)))
    return "refused"


def _same(game, before, why):
    if game != before:
        raise Broken(why)


def _replays(game):
    """A game's journal rebuilds it exactly, through JSON as it travels."""
    journal = json.loads(json.dumps(game.journal()))
    if rules.replay(journal) != game:
        raise Broken("replay(journal) differs from the game")


# ---- the rules doors -------------------------------------------------------------


def _new(case):
    name, config, seed = case["name"], case["config"], case["seed"]
    try:
        game = rules.new(name, config, seed)
    except rules.RuleError as e:
        return _refused(e, "new", _new_words(name, config, seed))
    header = game.header()
    if json.loads(json.dumps(header)) != header:
        raise Broken("the header is not JSON-ready")
    _replays(game)
    return "ok"


def _player(game, case):
    """The case's player: given outright, or as "turn": i, the i-th of the
    players who may act now."""
    if "turn" not in case:
        return case["player"]
    waiting = game.to_act()
    return waiting[case["turn"] % len(waiting)] if waiting else 0


def _action(game, case, player):
    """The case's action: given outright, or as "pick" [k, bend]: the k-th
    legal action of the player (when they have one), with item bend[0]
    replaced by bend[1] when bend is given."""
    if "pick" not in case:
        return case["action"]
    k, bend = case["pick"]
    try:
        options = game.legal(player)
    except rules.RuleError:
        options = []
    action = list(options[k % len(options)]) if options else ["declare"]
    if bend:
        action[bend[0] % len(action)] = bend[1]
    return action


def _new_words(name, config, seed):
    """What a refusal of rules.new must name, when only one part is wrong."""
    if not isinstance(name, str) or name not in rules.NAMES:
        return ("game",)
    if config is not None and not isinstance(config, dict):
        return ("settings",)
    try:
        rules.new(name, config, "fine")
    except rules.RuleError:
        return ()  # the settings: each game names its own
    return ("seed",)


def _seat_words(game, player):
    """A player that is no seat must be named as a player."""
    if type(player) is not int or not 0 <= player < game.players():
        return ("no player",)
    return ()


def _act(case):
    game = game_for(case["game"])
    before = game_for(case["game"])
    player = _player(game, case)
    action = _action(game, case, player)
    try:
        game.act(player, action)
    except rules.RuleError as e:
        _same(game, before, "a refused action changed the game")
        _replays(game)
        return _refused(e, "act", _seat_words(game, player))
    _replays(game)
    return "ok"


def _view(case):
    game = game_for(case["game"])
    player = _player(game, case)
    try:
        v = game.view(player)
    except rules.RuleError as e:
        return _refused(e, "view", _seat_words(game, player) or ("player",))
    if json.loads(json.dumps(v)) != v:
        raise Broken("a view is not JSON-ready")
    return "ok"


def _legal(case):
    game = game_for(case["game"])
    player = _player(game, case)
    try:
        options = game.legal(player)
    except rules.RuleError as e:
        return _refused(e, "legal", _seat_words(game, player) or ("player",))
    for i in sorted(set((0, len(options) // 2, len(options) - 1))) if options else ():
        probe = game_for(case["game"])
        probe.act(player, options[i])  # a listed action is accepted
    return "ok"


def _check(case):
    game = game_for(case["game"])
    if game.NAME != "purrfect":
        raise Broken("check() is Purrfect's; case names %s" % game.NAME)
    before = game_for(case["game"])
    player = _player(game, case)
    action = _action(game, case, player)
    try:
        vetted = game.check(player, action)
    except rules.RuleError as e:
        _same(game, before, "check() changed the game")
        # act() refuses exactly what check() refuses.
        try:
            game.act(player, action)
        except rules.RuleError:
            return _refused(e, "check", _seat_words(game, player))
        raise Broken("check() refused an action act() accepts: %s" % e)
    _same(game, before, "check() changed the game")
    if game.check(player, vetted) != vetted:
        raise Broken("check() of its own answer gives another")
    game.act(player, action)  # a RuleError here escapes: check() was wrong
    _replays(game)
    return "ok"


# A record's damage: (kind, where, value) steps applied in order.
#   drop F / set F v / extra F v   a field of the record
#   entry i v / item i j v / cut n the log, as a list of [player, action]
#   packed F v                     a field of the packed log
# What a refusal may name for a damaged field: another game or config can
# also surface as the first log entry it refuses.
_NAMES = {"game": ("game", "config", "log", "finished"), "config": ("config", "log", "finished")}


def _damaged(record, damage):
    words = []
    for kind, where, value in damage:
        if kind == "drop":
            record.pop(where, None)
            words.append(where)
        elif kind == "set":
            record[where] = value
            words.extend(_NAMES.get(where, (where,)))
        elif kind == "extra":
            record[where] = value
            words.append("unknown field")
            words.append(where)
        elif kind == "packed":
            if isinstance(record.get("log"), dict):
                record["log"][where] = value
            words.append("log")
        else:
            log = _as_list(record)
            words.append("log")
            if not isinstance(log, list):
                continue
            if kind == "cut":
                del log[max(0, len(log) - where):]
            elif log:
                i = where % len(log)
                if kind == "entry":
                    log[i] = value
                elif _is_entry(log[i]):
                    action = log[i][1]
                    action[value[0] % len(action)] = value[1]
    return words


def _is_entry(entry):
    return (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)
            and entry[1])


def _as_list(record):
    log = record.get("log")
    if isinstance(log, dict):
        from catnip.rules.log import Log

        try:
            log = record["log"] = [[p, list(a)] for p, a in Log.unpack(log)]
        except ValueError:  # damaged already: leave it so
            pass
    return log


def _replay(case):
    game = game_for(case["game"])
    record = json.loads(json.dumps(game.journal()))
    words = _damaged(record, case["damage"])
    shown = json.loads(json.dumps(record)) if case.get("json", True) else record
    try:
        again = rules.replay(shown)
    except rules.RuleError as e:
        return _refused(e, "replay", words)
    if shown.get("finished") and again.result() is None:
        raise Broken("a record that says it is finished replayed to an unfinished game")
    _replays(again)
    return "ok"


# ---- the board file --------------------------------------------------------------


def _board(case):
    data = case.get("data")
    if "base" in case:
        data = shipped(case["base"])
        spots = paths(data)  # of the shipped file: an inserted value may nest deep
        for where, value in case["edits"]:
            container, key = spots[where % len(spots)]
            container[key] = value
    try:
        b = board.parse(data)
    except board.BoardError as e:
        for p in e.problems:
            if not isinstance(p, str) or ":" not in p or len(p) > MAX_MESSAGE:
                raise Broken("a problem that names no place: %r" % (p,))
        return "refused"
    bad = inexact(b)
    if bad is not None:
        raise Broken("an accepted board holds %r where an int belongs" % (bad,))
    return "ok"


_DOORS = {
    "new": _new,
    "act": _act,
    "view": _view,
    "legal": _legal,
    "check": _check,
    "replay": _replay,
    "board": _board,
}
DOORS = tuple(sorted(_DOORS))
