# How a game ended, in the stations' words: the reasons a result() or an
# end event carries (codes with seats, catnip.rules.engine.Game.result) as
# text naming seats P1, P2, ... Imported when a game ends, not before: the
# words are in RAM only then. The laptop words the same codes its own way
# (catnip_host.words).
from catnip.ui.draw import seat_name


def seats(ps):
    """Seats as the players number them: "P1 and P3", "P1, P2 and P4"."""
    said = [seat_name(p) for p in ps]
    if len(said) < 2:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]


def reason(r):
    """One reason in a line; one from a newer table is said as its code."""
    why = r.get("why")
    if why == "bag empty":
        return "the bag is empty"
    if why == "collapse":
        return "the tower collapsed"
    if why == "first":
        return "first to %d pawprints" % r["goal"]
    if why == "most":
        return "most pawprints (%d) of those with %d" % (r["pawprints"], r["goal"])
    if why == "tie":
        return tie(r)
    return str(why)


def tie(r):
    tied, by = seats(r["seats"]), r.get("by")
    if by == "declarer":
        return "%s tied at %d pawprints; %s declared" % (tied, r["pawprints"],
                                                         seat_name(r["declarer"]))
    if by == "rocks":
        return "%s tied on %d points; fewer black rocks first (%s)" % (
            tied, r["points"], ", ".join("%s %d" % (seat_name(p), n)
                                          for p, n in zip(r["seats"], r["rocks"])))
    rocks = " and %d rocks" % r["rocks"] if "rocks" in r else ""
    return "%s share rank %d on %d points%s" % (tied, r["rank"], r["points"], rocks)


def won(winner, r):
    """The banner when a game ends with a winner: short, it is one line."""
    if r.get("why") == "tie" and r.get("by") == "declarer":
        return "%s wins: %s tied, %s declared" % (
            seat_name(winner), " ".join(seat_name(p) for p in r["seats"]),
            seat_name(r["declarer"]))
    return "%s wins: %s" % (seat_name(winner), reason(r))
