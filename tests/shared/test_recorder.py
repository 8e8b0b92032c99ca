# A phone seat's screen as text (catnip.ui.recorder): what catnip.ui.draw
# puts on a station, in rows and lit spans, drawn without allocating.
from catnip.ui import draw
from catnip.ui.recorder import Recorder


def test_rows_and_lit_spans_are_what_a_station_shows():
    r = Recorder()
    draw.title(r, "Heist R1", "P3")
    draw.items(r, ["Card 1", "Card 2", "Card 3"], 1, 1, 5)
    draw.hint(r, "OK pick")
    rows = r.rows()
    assert rows[0] == "Heist R1      P3" and rows[1:4] == ["Card 1", "Card 2", "Card 3"]
    assert rows[7] == "OK pick" and rows[4:7] == ["", "", ""]
    assert r.lit() == [[0, 0, 16], [2, 0, 6]]  # the title bar, the cursor's item


def test_an_announcement_covers_the_rows_under_it_and_only_those():
    r = Recorder()
    draw.title(r, "Purrfect")
    draw.paragraph(r, "one two three four five six seven eight nine ten eleven twelve", 1, 6)
    top = draw.banner(r, "P2 offers two Mrrp")  # a pixel rim above its first row
    rows = r.rows()
    assert top == 6 and rows[6:] == ["P2 offers two", "Mrrp"]
    assert rows[5] != "" and [5, 0, 16] not in r.lit()  # the rim lights no row of text
    assert [6, 0, 16] in r.lit() and [7, 0, 16] in r.lit()


def test_scroll_marks_read_as_arrows_and_a_fill_clears_everything():
    r = Recorder()
    labels = ["Item %d" % i for i in range(10)]
    draw.items(r, labels, 5, 1, 4)  # a list longer than its rows, scrolled
    rows = r.rows()
    assert rows[1].endswith("^") and rows[4].endswith("v")
    r.fill(0)
    assert r.rows() == [""] * 8 and r.lit() == []
    r.fill(1)
    assert r.lit() == [[k, 0, 16] for k in range(8)]


def test_the_same_picture_is_told_apart_from_another():
    a, b = Recorder(), Recorder()
    draw.title(a, "Stack")
    draw.title(b, "Stack")
    shown = a.digest()
    assert b.digest() == shown
    draw.text(b, 3, "x")
    assert b.digest() != shown
    b.fill(0)
    draw.title(b, "Stack")
    assert b.digest() == shown  # cleared and drawn again: the same picture


def test_a_character_past_ascii_takes_a_cell_per_byte_as_on_the_panel():
    # The panel's framebuf draws a string byte by byte, each byte past ASCII
    # as a box: "Zoë" is four cells there, and four here.
    r = Recorder()
    draw.text(r, 2, "Zo\u00eb!")
    assert r.rows()[2] == "Zo??!"
