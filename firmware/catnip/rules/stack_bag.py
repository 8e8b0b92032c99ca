# Stack O' Cats' bag and the cats set out before play: the setup steps
# nobody needs to report, a cat drawn at random, a set-up cat put in its
# place, and which colours a report may name. Plain functions over the game
# (catnip.rules.stack) and its colour counts, indexed like game.colours with
# black last.


def advance_setup(g):
    """Carry out the setup steps nobody needs to report; in digital mode
    that is all of them. Returns their public events."""
    events = []
    digital = g.config["draw"] == "digital"
    while g.steps:
        step = g.steps[0]
        if step == "join":
            n = g.box[g.black]
            g.bag[g.black] += n
            g.box[g.black] = 0
            events.append({"type": "join", "black_cats": n})
        elif step == "table":
            for i in (g.black, g.colours.index(g.config["table_colour"])):
                g.table[i] += g.bag[i] + g.box[i]
                g.bag[i] = g.box[i] = 0
            events.append({"type": "table", "cats": sum(g.table)})
        elif digital:
            set_up_cat(g, step, random_cat(g, step == "out_nonblack"))
        else:
            return events
        g.steps.pop(0)
    return events


def random_cat(g, nonblack):
    """A cat drawn uniformly from the bag, by colour index."""
    kinds = g.black if nonblack else g.black + 1
    r = g.rng.below(sum(g.bag[:kinds]))
    i = 0
    while r >= g.bag[i]:
        r -= g.bag[i]
        i += 1
    return i


def set_up_cat(g, step, i):
    """Cat `i` leaves the bag for the base or out of play."""
    g.bag[i] -= 1
    if step == "base":
        g.base[i] += 1
        g.tower += 1
        if i == g.black and g.counts_black:
            g.tower_black += 1
    else:
        g.removed[i] += 1


def choosable(g, step):
    """Colour indexes the player may report for a setup, take or drew step."""
    counts = g.table if step == "take" else g.bag
    kinds = g.black if g.steps and g.steps[0] == "out_nonblack" else g.black + 1
    return [i for i in range(kinds) if counts[i]]
