# A game's log as the table keeps it once the journal records the game:
# how many actions there were, and the actions themselves read back from
# the journal's records when someone asks. The journal already holds every
# accepted action on flash before any screen shows it, so a second copy in
# RAM only took heap: some 5 KB by the end of a seven-player Purrfect, in
# pages that grew a few bytes at a time among what the moves kept. The table
# itself only counts moves; replay, records and tests read the actions as
# from catnip.rules.log.Log.
from catnip.rules.log import Log, entry_at


class JournalLog:
    """The log of game `gid` of `journal` (catnip.flash.journal.Journal),
    `count` actions long so far, in place of the game's own Log."""

    __slots__ = ("_journal", "_gid", "_count")

    def __init__(self, journal, gid, count=0):
        self._journal = journal
        self._gid = gid
        self._count = count

    def add(self, player, action):
        # The rules accepted it; the app journals it next (catnip.table.app).
        self._count += 1

    def append(self, entry):
        self.add(entry[0], entry[1])

    def __len__(self):
        return self._count

    def __iter__(self):
        for entry in self._journal.entries(self._gid):
            if entry[0] == "action":
                yield (entry[1], entry[2])

    def __getitem__(self, i):
        return entry_at(self, self._count, i)

    def __eq__(self, other):
        if isinstance(other, (Log, JournalLog, list, tuple)) and len(other) == self._count:
            for mine, theirs in zip(self, other):
                if mine != theirs:
                    return False
            return True
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def copy(self):
        return Log(self)

    def pack(self):
        """As Log.pack(): the actions read from the journal, packed."""
        return Log(self).pack()

    def nbytes(self):
        return Log(self).nbytes()

    def __repr__(self):
        return "Log(%r)" % list(self)
