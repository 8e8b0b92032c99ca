# Meow Heist test helpers and invariants, shared by the scenario tests, the
# seeded MicroPython run and the hypothesis properties. Invariants are read
# through the game's own doors (public(), view(), events, record()) wherever
# possible, so they check what the stations and the laptop actually see.
import json

from check import raises

from catnip.rules.engine import RuleError, replay
from catnip.rules.heist import Heist

# The rulebook's bag: 10 red, 30 yellow, 60 blue.
GEMS_IN_GAME = [10, 30, 60]


def rigged(safe, seed="scenario", **config):
    """A game whose safe cards come up in the order given (a scenario's
    table), otherwise exactly Meow Heist."""
    class Table(Heist):
        def deal_safe_cards(self):
            return list(reversed(safe))

    return Table(config, seed)


def refused(game, player, action, *words):
    """Assert the action is refused with a message containing every word and
    that the refusal changed nothing. Returns the message."""
    before = game.state()
    msg = str(raises(RuleError, game.act, player, action))
    assert game.state() == before, "refused %r changed the game" % (action,)
    for w in words:
        assert w in msg, "%r not in message %r" % (w, msg)
    return msg


def play_round(game, cards, gems=None):
    """Enter the gems (physical games) and play one card per seat."""
    if gems is not None:
        game.act(game.public()["start"], ("gems",) + tuple(gems))
    events = []
    for seat, card in enumerate(cards):
        events += game.act(seat, ("play", card))
    return events


def loot_of(events, kind):
    return [(e["player"], e["card"], e["loot"]) for e in events if e["type"] == kind]


# ---- invariants ---------------------------------------------------------------


def gem_totals(game):
    """Every gem, per colour: bag, safe, removed, on revealed cards, behind
    each shield (from each player's own view)."""
    pub = game.public()
    total = [pub["bag"][c] + pub["safe"][c] + pub["removed"][c] for c in range(3)]
    for _, _, loot in pub["table"]:
        for c in range(3):
            total[c] += loot[c]
    for p in range(game.players()):
        shield = game.view(p)["shield"]
        for c in range(3):
            total[c] += shield[c]
    return total


def rocks_held(game):
    pub = game.public()
    return (sum(loot[3] for _, _, loot in pub["table"])
            + sum(game.view(p)["shield"][3] for p in range(game.players())))


class Watch:
    """Checks every invariant after each action of a game; pass it as
    play_randomly's `each`. `secrecy_every` spaces out the (costly) secrecy
    check, which replays the game."""

    def __init__(self, game, secrecy_every=1):
        self.sets = [game.view(p)["hand"] for p in range(game.players())]
        self.events = []  # events of each act, aligned with game.log
        self.shortages = 0
        self.revealed = [[] for _ in range(game.players())]
        self.secrecy_every = secrecy_every
        self.secrecy_checks = 0
        self.check(game)

    def __call__(self, game, player, action, events):
        self.events.append(events)
        for e in events:
            if e["type"] == "take":
                self.shortages += e["loot"][3]
            if e["type"] in ("take", "steal"):
                self.revealed[e["player"]].append(e["card"])
        self.check(game)
        if len(game.log) % self.secrecy_every == 0 or game.result() is not None:
            check_secrets(game, self.events)
            self.secrecy_checks += 1
        if game.result() is not None:
            self.finish(game)

    def check(self, game):
        assert gem_totals(game) == GEMS_IN_GAME, gem_totals(game)
        assert rocks_held(game) == self.shortages
        self.check_cards(game)
        check_hidden_shields(game)

    def check_cards(self, game):
        """No card is played twice: every card is in the hand, face down, on
        the table or set aside, and reveals never exceed a player's set."""
        pub = game.public()
        returning = game.players() == 2 or game.config["variant"] == "original"
        for p in range(game.players()):
            v = game.view(p)
            on_table = [card for seat, card, _ in pub["table"] if seat == p]
            assert sorted(v["hand"] + v["used"] + v["face_down"] + on_table) == self.sets[p]
            if returning:
                assert v["used"] == []
            else:
                assert sorted(v["used"] + on_table) == sorted(self.revealed[p])
                for card in self.revealed[p]:
                    assert self.revealed[p].count(card) <= self.sets[p].count(card)

    def finish(self, game):
        result = game.result()
        n = game.players()
        rounds = game.public()["rounds"]
        per_seat = rounds * (rounds + 1) // 2 if n == 2 else rounds
        assert [len(r) for r in self.revealed] == [per_seat] * n
        check_ranks(result)
        check_replay(game)


def check_ranks(result):
    """Ranks follow score, then fewer rocks, then sharing."""
    scores, rocks, ranks = result["scores"], result["rocks"], result["ranks"]
    n = len(scores)
    for p in range(n):
        for q in range(n):
            key_p, key_q = (-scores[p], rocks[p]), (-scores[q], rocks[q])
            assert (ranks[p] < ranks[q]) == (key_p < key_q)
            assert (ranks[p] == ranks[q]) == (key_p == key_q)
    assert result["winners"] == [p for p in range(n) if ranks[p] == 1]
    for p in range(n):
        s = result["shields"][p]
        assert scores[p] == 3 * s[0] + 2 * s[1] + s[2] - s[3] and rocks[p] == s[3]


def check_replay(game):
    """The record, through JSON and back, rebuilds the identical game."""
    record = json.loads(json.dumps(game.record()))
    again = replay(type(game), record)
    assert again == game
    assert again.public() == game.public()


def check_hidden_shields(game):
    """Shields stay hidden in public() until the game ends."""
    text = json.dumps(game.public())
    over = game.result() is not None
    assert ("shields" in text) == over


def _rerun(game, log):
    """The same config and seed with another log: the game and each act's events."""
    again = type(game)(game.config, game.seed)
    events = [again.act(p, a) for p, a in log]
    return again, events


def _other_choice(game, player):
    """A legal play `player` could have made this round instead, differing only
    in a card still face down; None if the hand leaves no other choice."""
    index = max(i for i, (p, a) in enumerate(game.log) if p == player and a[0] == "play")
    played = list(game.log[index][1][1:])
    view = game.view(player)
    for hidden in view["face_down"]:
        for other in view["hand"]:
            if other != hidden:
                cards = list(played)
                cards.remove(hidden)
                cards.append(other)
                return index, ("play",) + tuple(sorted(cards))
    return None


def check_secrets(game, events):
    """Nothing secret reaches public(), public events or another player's view:
    change each kind of secret in a copy and nothing others see may change."""
    n = game.players()
    seen = [game.public()] + [game.view(p) for p in range(n)] + events
    # Real seeds are 32 hex digits; a short one could match any digits.
    if len(game.seed) >= 8:
        assert game.seed not in json.dumps(seen), "the seed leaked"
    if game.result() is not None:
        return
    holders = [p for p in range(n) if game.view(p)["face_down"]]
    # One face-down player per check, rotating, keeps the replays affordable.
    player = holders[len(game.log) % len(holders)] if holders else None
    choice = _other_choice(game, player) if player is not None else None
    log = list(game.log)
    if choice is not None:
        log[choice[0]] = (player, choice[1])
    copy, copy_events = _rerun(game, log)
    if choice is not None:
        assert copy.view(player)["face_down"] != game.view(player)["face_down"]
    assert copy_events == events, "an event depends on a face-down card"
    others = [q for q in range(n) if q != player]
    _same_to_others(game, copy, others, "a face-down card")
    # The order of the safe cards still face down.
    if len(copy.safe_deck) > 1 and copy.safe_deck[0] != copy.safe_deck[-1]:
        copy.safe_deck.reverse()
        _same_to_others(game, copy, others, "the safe card order")
    # What is behind two players' shields.
    a, b = 0, 1
    if copy.shields[a] != copy.shields[b]:
        copy.shields[a], copy.shields[b] = copy.shields[b], copy.shields[a]
        _same_to_others(game, copy, [q for q in others if q not in (a, b)], "a shield")


def _same_to_others(game, copy, seats, secret):
    assert copy.public() == game.public(), "public() shows %s" % secret
    for q in seats:
        assert copy.view(q) == game.view(q), "player %d's view shows %s" % (q, secret)


# ---- refusals -------------------------------------------------------------------


def near_misses(game, player):
    """Actions close to legal ones: wrong counts, cards, colours and phases."""
    out = [("steal", 1), ("play",), ("reveal",), ("gems",), ("play", "3"), ("reveal", 2.0)]
    k = game.public()["cards_per_round"]
    for v in range(0, 8):
        out.append(("play", v))
        out.append(("reveal", v))
        out.append(("play",) + tuple(range(v, v + k)))
        out.append(("play",) + tuple(range(v + k - 1, v - 1, -1)))
        out.append(("play",) + (v,) * k)
    need = game.public()["safe_card"]
    bag = game.public()["bag"]
    for r in (0, 1, bag[0], bag[0] + 1):
        for y in (0, need - r - 1, need - r, need - r + 1, bag[1] + 1):
            out.append(("gems", r, y, need - r - y))
            out.append(("gems", r, y, need - r - y + 1))
    out.append(("gems", -1, 1, need))
    return out


def check_refusals(game):
    """legal() is exact on the near misses: anything outside it is refused,
    naming the problem, and the game stays as it was."""
    acting = game.to_act()
    for player in range(game.players()):
        legal = game.legal(player)
        if player not in acting:
            assert legal == []
            if legal == [] and acting:
                refused(game, player, ("play", 1), "cannot act now")
            continue
        before = game.state()
        for action in near_misses(game, player):
            if action not in legal:
                msg = str(raises(RuleError, game.act, player, action))
                assert len(msg) > 20, msg
        assert game.state() == before, "a refused action changed the game"
