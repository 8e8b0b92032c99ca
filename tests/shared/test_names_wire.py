# The players' names a laptop sends (catnip.wire.check_names): one per
# station, short enough to read on a station, in the stations' font, told
# apart by what a station shows of them; anything else is refused with why.
from catnip import wire


def _refused(names, stations=4):
    try:
        wire.check_names(names, stations)
    except wire.WireError as e:
        return str(e)
    raise AssertionError("%r was taken" % (names,))


def test_names_by_station_are_taken():
    assert wire.check_names(["Ana", "Bo", "", "Dee"], 4) == ["Ana", "Bo", "", "Dee"]
    assert wire.check_names([], 4) == []  # nobody named: P1, P2, ...
    assert wire.check_names(["Ana"], 4) == ["Ana"]  # the rest unnamed
    assert wire.check_names(["Mary-Jo O'Neil"[:12]], 1) == ["Mary-Jo O'Ne"]


def test_more_names_than_stations_are_refused():
    why = _refused(["A", "B", "C", "D", "E"])
    assert "at most 4" in why


def test_a_name_too_long_is_refused():
    why = _refused(["Ana", "Bartholomew-Jones"])
    assert "station 2" in why and "17 characters" in why and "12" in why


def test_control_characters_and_what_the_font_lacks_are_refused():
    for bad in ("Ana\n", "A\x1bna", "Zo\u00eb", "Ana\x00", " Ana", "Ana "):
        why = _refused([bad])
        assert "station 1" in why, (bad, why)


def test_names_a_station_would_show_alike_are_refused():
    why = _refused(["Alexander", "Bo", "alexandra"])
    assert "stations 1 and 3" in why and "first 5" in why


def test_what_is_not_a_list_of_text_is_refused():
    assert "at most 4" in _refused("Ana")
    assert "text" in _refused(["Ana", 3])
