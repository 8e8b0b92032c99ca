# A sample of damaged journals (journal_damage.py; `make bench` powers up on
# over a thousand): the table never resumes into, nor offers a laptop, a game
# that was not played, and every record it lost is said, but for a cut at a
# record boundary, which a power cut between two records leaves as well and
# which the resume's "N moves in" tells.
import journal_damage
from test_journal import scratch


def test_damaged_journals_never_resume_into_a_game_not_played_and_say_what_is_lost():
    counts, by_kind = journal_damage.run(scratch(), 3 * len(journal_damage.DAMAGES) * 3)
    assert counts.get("never played", 0) == 0, by_kind
    assert counts.get("unsaid", 0) == 0, by_kind
    assert counts.get("said", 0) > counts.get("boundary", 0), counts
    lost_quietly = [k for k in by_kind if k.endswith(": boundary") and not
                    k.startswith(("boundary:", "cut:"))]
    assert lost_quietly == [], by_kind
