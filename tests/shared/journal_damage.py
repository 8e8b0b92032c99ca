# Damaged journals, by the hundred: a recorded game (in play, or ended and
# not pulled) gets one kind of damage, the table powers up on it, and the
# verdict says whether what it did is sound:
#   never played  it resumes or reads entries that are not a prefix of the
#                 game as played (must never happen)
#   unsaid        records were lost, and nothing says so: no problem at
#                 power-up (which the app says on every station and the line)
#   boundary      records were lost at a record boundary, which a power cut
#                 between two records leaves too: only the resume says where
#                 it carries on ("Resumed ..., N moves in", stations and line)
#   said          records were lost or the game set aside, and a problem
#                 names the game
#   whole         nothing was lost
# Runs under CPython and the MicroPython unix port (test_journal_damage.py;
# bench/bench_journal_damage.py runs over a thousand).
from test_journal import actions, folder_of, read, record_game, remove_tree, write

from catnip.flash.journal import Journal, JournalError
from catnip.rules.rng import Rng

DAMAGES = ("flip", "flip header", "cut", "boundary", "no tail", "no log", "drop", "repeat",
           "swap", "zero", "log cut", "junk after", "flip crc", "two flips")


def _records(written, start, end):
    # The byte ends of the whole records between start and end.
    return [size for _, size in written if start < size <= end]


def recorded(root, moves, ended):
    """(the game's files by name, its truth, record ends, status)."""
    end = {"ranks": [1, 2, 3]} if ended else None
    j, gid, written, starts = record_game(root, actions(moves), notes_every=11, end=end)
    folder = folder_of(root, gid)
    files = {}
    import os

    for name in os.listdir(folder):
        files[name] = read(folder + "/" + name)
    truth = [e for e, _ in written[1:]]
    return gid, files, truth, [size for _, size in written], folder.split("/")[-1]


def damage(files, ends, kind, rng):
    """The files after one damage of `kind`, and whether the damage can
    leave no record lost (a flip the CRC sees may still be repaired by
    nothing, so only 'junk after' and the like)."""
    files = dict(files)
    tail = [n for n in files if n.isdigit()][0]
    start = int(tail)
    data = files.get("log", b"") + files[tail]
    cut_to = None
    if kind in ("flip", "two flips"):
        for _ in range(2 if kind == "two flips" else 1):
            at = rng.below(len(data))
            data = data[:at] + bytes([data[at] ^ (1 << rng.below(8))]) + data[at + 1:]
    elif kind == "flip header":
        at = rng.below(max(1, ends[0]))
        data = data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1:]
    elif kind == "flip crc":
        k = rng.below(len(ends) - 1) + 1
        at = ends[k] - 1 - rng.below(4)
        data = data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]
    elif kind == "cut":
        cut_to = rng.below(len(data))
    elif kind == "boundary":
        cut_to = ends[rng.below(len(ends))]
    elif kind == "log cut" and start:
        files["log"] = files["log"][:rng.below(start)]
        return files
    elif kind == "no tail":
        del files[tail]
        return files
    elif kind == "no log" and start:
        del files["log"]
        return files
    elif kind in ("drop", "repeat", "swap") and len(ends) > 3:
        k = rng.below(len(ends) - 2) + 1  # a record after the header
        a, b = ends[k - 1], ends[k]
        c = ends[k + 1]
        if kind == "drop":
            data = data[:a] + data[b:]
        elif kind == "repeat":
            data = data[:b] + data[a:b] + data[b:]
        else:
            data = data[:a] + data[b:c] + data[a:b] + data[c:]
    elif kind == "zero":
        at = rng.below(len(data))
        data = data[:at] + bytes(min(8, len(data) - at)) + data[at + 8:]
    elif kind == "junk after":
        data = data + bytes([0x61, 0x05, 0x00])
    if cut_to is not None:
        data = data[:cut_to]
    if start > len(data):
        files["log"] = data
        files.pop(tail)
        files[str(len(data))] = b""
    else:
        files["log"] = data[:start]
        files[tail] = data[start:]
    if not files.get("log"):
        files.pop("log", None)
    return files


def lay(root, folder, files):
    import os

    remove_tree(root)
    os.mkdir(root)
    os.mkdir(root + "/" + folder)
    for name in files:
        write(root + "/" + folder + "/" + name, files[name])


def judge(root, gid, truth):
    """The verdict on powering up on the damaged journal at `root`."""
    j = Journal(root)
    said = bool(j.problems)
    status = dict(j.games()).get(gid)
    found = j.resumable()
    got = []
    try:
        for entry in j.entries(gid) if status is not None else ():
            got.append(entry)
    except JournalError:
        said = True
    if got != truth[:len(got)]:
        return "never played"
    if found is not None and found[0] == gid and found[2] != len(
            [e for e in got if e[0] == "action"]):
        return "never played"
    if len(got) == len(truth) and status in ("playing", "finished"):
        return "whole"
    if said:
        return "said"
    if found is not None and found[0] == gid:
        return "boundary"
    return "unsaid"


def run(root, cases, seed="damage"):
    """Verdicts of `cases` damaged journals, counted by verdict and damage."""
    rng = Rng(seed)
    counts = {}
    by_kind = {}
    games = []
    for k, (moves, ended) in enumerate(((25, False), (70, False), (60, True))):
        games.append(recorded("%s/whole%d" % (root, k), moves, ended))
    for i in range(cases):
        gid, files, truth, ends, folder = games[i % len(games)]
        kind = DAMAGES[(i // len(games)) % len(DAMAGES)]
        lay(root + "/hurt", folder, damage(files, ends, kind, rng))
        verdict = judge(root + "/hurt", gid, truth)
        counts[verdict] = counts.get(verdict, 0) + 1
        key = kind + ": " + verdict
        by_kind[key] = by_kind.get(key, 0) + 1
    return counts, by_kind
