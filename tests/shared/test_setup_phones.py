# Setup and phone seats (catnip.ui.setup): with a laptop on the line, the
# places after the stations can seat players (on phones); without one the
# setup offers none and says why when a group wants more players than the
# stations seat.
from catnip.keys import BACK, DOWN, OK, PRESS
from catnip.ui import draw
from catnip.ui.recorder import Recorder
from catnip.ui.setup import Setup
from catnip.wire import PHONES


def _setup(laptop, stations=4, remembered=None):
    return Setup(stations, lambda: list(range(stations)), remembered,
                 phones=lambda: laptop[0])


def _press(setup, *buttons):
    for b in buttons:
        setup.key(0, b, PRESS)


def _to(setup, kind):
    while setup.rows[setup.cursor.at][0] != kind:
        _press(setup, DOWN)


def _screen(setup):
    r = Recorder()
    setup.draw(0, r)
    return r.rows()


def test_without_a_laptop_there_are_no_phone_places_and_setup_says_why():
    setup = _setup([False], remembered={"game": "purrfect"})
    assert setup.seats == [0, 1, 2, 3]
    _to(setup, "players")
    _press(setup, OK)  # at the fewest, OK goes back to the most the table seats: still 4
    assert setup.seats == [0, 1, 2, 3]
    assert "phones" in " ".join(_screen(setup)) and "laptop" in " ".join(_screen(setup))
    _to(setup, "seats")
    _press(setup, OK)
    assert setup.choosing_seats.n == 4  # the stations alone
    _press(setup, BACK)
    setup.seats = [0, 1, 2]  # a station is off
    _to(setup, "go")
    _press(setup, OK)
    assert setup.problem == "Purrfect: 4-7 players. 3 stations here; a laptop adds phones"
    assert len(draw.wrap(setup.problem)) <= 5  # the rows it has


def test_with_a_laptop_the_group_plays_on_phones_past_the_stations():
    laptop = [True]
    setup = _setup(laptop, remembered={"game": "purrfect"})
    assert setup.seats == [0, 1, 2, 3]  # the stations first, phones only when asked
    _to(setup, "players")
    _press(setup, OK)  # from the fewest back to the most: three phones join
    assert setup.seats == [0, 1, 2, 3, 4, 5, 6]
    assert "Seats 4+3 phone" in _screen(setup)
    assert ("start", "purrfect", {"players": 7}, [0, 1, 2, 3, 4, 5, 6]) == \
        _go(setup)


def test_any_seat_can_be_put_on_a_phone():
    setup = _setup([True], remembered={"game": "heist"})
    _to(setup, "seats")
    _press(setup, OK)
    assert setup.choosing_seats.n == 4 + PHONES
    _press(setup, DOWN, OK)  # station 2 leaves
    _press(setup, DOWN, DOWN, DOWN, OK)  # the first phone place joins
    assert [row for row in _screen(setup) if row.startswith("[x] Phone 1")]
    _press(setup, BACK)
    assert setup.seats == [0, 2, 3, 4]
    assert setup.remembered()["seats"] == [0, 2, 3, 4]


def test_remembered_phone_places_need_a_laptop():
    kept = {"game": "heist", "seats": [0, 1, 4]}
    assert _setup([True], remembered=kept).seats == [0, 1, 4]
    assert _setup([False], remembered=kept).seats == [0, 1, 2, 3]  # not this table's: ignored


def _go(setup):
    _to(setup, "go")
    setup.key(0, OK, PRESS)
    return ("start", setup.game, {"players": len(setup.seats)}, setup.seats) if \
        setup.problem is None else setup.problem


def test_with_no_station_answering_yet_every_title_draws_its_menu():
    # A power-up whose stations have not answered yet (or whose cable is
    # loose): no seat yet, and the first player's row has nobody to name.
    for game in ("heist", "stack", "purrfect"):
        setup = Setup(4, lambda: [], {"game": game})
        assert setup.seats == []
        assert _screen(setup)[0]  # drawn, its title bar and rows
        assert setup.who(0) == draw.seat_name(0)
