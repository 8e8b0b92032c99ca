# Meow Heist's checks, made before anything changes: why an action does not
# fit the phase, whether the gems entered, the cards played or a card revealed
# can be so, and the gem counts a station may offer. Plain functions over the
# game (catnip.rules.heist); each check raises RuleError saying what to do.
from catnip.rules.engine import RuleError
from catnip.rules.heist_box import BAG, COLOURS, GEMS, ONE_EACH, PLAY, REVEAL


def wrong_action(g, name):
    if name not in (GEMS, PLAY, REVEAL):
        return ("unknown action %r; Meow Heist takes ('play', card, ...), ('reveal', card) "
                "and ('gems', red, yellow, blue)" % (name,))
    if name == GEMS and g.config["gems"] == "digital":
        return "catnip draws the gems itself in this game (gems: 'digital'); nothing to enter"
    if g.phase == GEMS:
        return ("the safe is still empty: player %d enters the gems drawn from the bag, "
                "e.g. ('gems', 1, 3, 8)" % g.start_player())
    if g.phase == PLAY:
        return "cards are being played face down now: ('play', card, ...)"
    return "cards are being revealed now: player %d reveals with ('reveal', card)" % g.turn


def check_gems(g, action):
    need = g.safe_shown[-1]
    if len(action) != 4 or not all(type(k) is int and k >= 0 for k in action[1:]):
        raise RuleError("enter the gems drawn as three counts, red, yellow and blue, "
                        "e.g. ('gems', 1, 3, 8)")
    got = action[1] + action[2] + action[3]
    if got != need:
        raise RuleError("the safe card says %d gems but %d red + %d yellow + %d blue make %d; "
                        "count the gems again" % (need, action[1], action[2], action[3], got))
    for c in range(3):
        if action[1 + c] > g.bag[c]:
            raise RuleError("the bag holds only %d %s gems now (%d came out before); "
                            "count the %s gems again"
                            % (g.bag[c], COLOURS[c], BAG[c] - g.bag[c], COLOURS[c]))


def gem_entries(g):
    need = g.safe_shown[-1]
    bag = g.bag
    entries = []
    for r in range(min(need, bag[0]) + 1):
        for y in range(min(need - r, bag[1]) + 1):
            if need - r - y <= bag[2]:
                entries.append(("gems", r, y, need - r - y))
    return entries


def check_play(g, player, cards):
    k = g.cards_per_round()
    example = "('play', 3)" if k == 1 else "('play', %s)" % ", ".join(str(v) for v in ONE_EACH[:k])
    if len(cards) != k:
        raise RuleError("round %d: play %d card%s face down, e.g. %s"
                        % (g.round, k, "" if k == 1 else "s", example))
    for card in cards:
        if type(card) is not int:
            raise RuleError("a card is its number, e.g. %s, not %r" % (example, card))
    for i in range(1, k):
        if cards[i] < cards[i - 1]:
            raise RuleError("list the cards in ascending order, e.g. %s" % example)
    hand = g.hands[player]
    for card in cards:
        if not 1 <= card <= 6:
            raise RuleError("there is no cat card %d: they are numbered 1 to 6" % card)
        if cards.count(card) > hand.count(card):
            if card in g.used[player]:
                why = "was used in an earlier round and is set aside for the rest of the game"
            else:
                why = "is in your hand only once"
            raise RuleError("your %d %s; choose among your available cards" % (card, why))


def check_reveal(g, player, action):
    if len(action) != 2 or type(action[1]) is not int:
        raise RuleError("reveal one face-down card by its number, e.g. ('reveal', 3)")
    if action[1] not in g.face_down[player]:
        raise RuleError("%r is not among your face-down cards; reveal one of them" % (action[1],))
