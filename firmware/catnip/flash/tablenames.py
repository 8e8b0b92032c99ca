# The players' names the table keeps (names.json): for each board it has
# been wired as, one name per station ("" for none), as a laptop sent them
# or a station picked them at setup; and every name it has seen, newest
# first, which a station's name picker offers. A board's names never hide
# another's: the same flash moved from the mux board (eight stations) to the
# direct one (four) shows the direct board's names there, and the mux
# board's again when it goes back.
from catnip import wire
from catnip.flash import flashfile

FILE = flashfile.NAMES_FILE
MAX_KNOWN = 16  # names a picker offers: a list scrolled in a few presses
MAX_BOARDS = 4  # boards whose names are kept (the oldest goes beyond)


def _read():
    """(names by board, names known) as on flash; a table's older file (one
    list, for whichever board it was) counts as known names only."""
    data = flashfile.load(FILE)
    if isinstance(data, list):
        return {}, _known(data)
    if not isinstance(data, dict) or not isinstance(data.get("boards"), dict):
        return {}, []
    return data["boards"], _known(data.get("known"))


def _known(names):
    out = []
    for name in names if isinstance(names, list) else ():
        if name and len(out) < MAX_KNOWN and name not in out and _fine(name):
            out.append(name)
    return out


def _fine(name):
    try:
        wire.check_names([name], 1)
        return True
    except wire.WireError:
        return False


def load(board, stations):
    """(the names by station kept for `board`, which has `stations`; the
    names the table knows). Names it cannot take are none."""
    boards, known = _read()
    try:
        return wire.check_names(boards.get(board, []), stations), known
    except wire.WireError:
        return [], known


def save(board, stations, names):
    """Keep `names` (by station) for `board`, beside every other board's, and
    put them first among the names known; returns those. WireError says why
    names are refused, OSError that the flash did not keep them: either way
    the file is as it was."""
    wire.check_names(names, stations)
    boards, known = _read()
    kept = {board: names}
    for other in list(boards)[:MAX_BOARDS - 1]:
        if other != board:
            kept[other] = boards[other]
    known = _known([n for n in names if n] + known)
    flashfile.save(FILE, {"boards": kept, "known": known})
    return known


def with_name(names, station, name):
    """`names` (by station) with `station`'s set to `name`."""
    names = list(names) + [""] * (station + 1 - len(names))
    names[station] = name
    return names
