# The Colonnade of Competent Clowders: the Clowder Collaboration's high-score
# table, kept from game to game. Pure data: it turns into and out of a
# JSON-ready dict, and whoever owns storage (the device's flash) keeps that.
#
# Entries are sorted by score, best first. Equal scores share a rank, and the
# clowder that reached a score first keeps the higher row: a newcomer goes
# below its equals, and a full table does not let it push out an equal score.

DEFAULT_SIZE = 10
MAX_SIZE = 100


class Colonnade:
    def __init__(self, size=DEFAULT_SIZE):
        if type(size) is not int or not 1 <= size <= MAX_SIZE:
            raise ValueError("the colonnade holds 1 to %d rows; got %r" % (MAX_SIZE, size))
        self.size = size
        self.entries = []  # [names list, score], best first

    def qualifies(self, score):
        """Would `score` earn a row?"""
        _check_score(score)
        return len(self.entries) < self.size or score > self.entries[-1][1]

    def add(self, names, score):
        """Record a clowder's score. Returns its 1-based rank, or None when the
        table is full of better or equal scores."""
        names = _check_names(names)
        if not self.qualifies(score):
            return None
        row = 0
        while row < len(self.entries) and self.entries[row][1] >= score:
            row += 1
        self.entries.insert(row, [names, score])
        del self.entries[self.size:]
        return self._rank(row)

    def _rank(self, row):
        score = self.entries[row][1]
        while row and self.entries[row - 1][1] == score:
            row -= 1
        return row + 1

    def ranked(self):
        """[(rank, names, score)] best first; equal scores share a rank."""
        return [(self._rank(i), list(e[0]), e[1]) for i, e in enumerate(self.entries)]

    def to_json(self):
        return {
            "size": self.size,
            "entries": [{"names": list(e[0]), "score": e[1]} for e in self.entries],
        }

    @classmethod
    def from_json(cls, data):
        """Rebuild a colonnade from to_json()'s dict, checking every field."""
        if not isinstance(data, dict) or "entries" not in data:
            raise ValueError("a colonnade is a dict with 'size' and 'entries'; got %r" % (data,))
        table = cls(data.get("size", DEFAULT_SIZE))
        entries = data["entries"]
        if not isinstance(entries, list):
            raise ValueError("colonnade entries must be a list; got %r" % (entries,))
        rows = []
        for e in entries:
            if not isinstance(e, dict) or "names" not in e or "score" not in e:
                raise ValueError("each entry needs 'names' and 'score'; got %r" % (e,))
            _check_score(e["score"])
            rows.append((_check_names(e["names"]), e["score"]))
        # Re-adding in stored order keeps the earlier row first among equals.
        for names, score in rows:
            table.add(names, score)
        return table

    def __eq__(self, other):
        return isinstance(other, Colonnade) and self.to_json() == other.to_json()


def _check_score(score):
    if type(score) is not int or score < 0:
        raise ValueError("a clowder's score is a whole number of cats, 0 or more; got %r"
                         % (score,))


def _check_names(names):
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)) or not names:
        raise ValueError("name at least one cat in the clowder; got %r" % (names,))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError("every name must be some text; got %r" % (name,))
    return list(names)
