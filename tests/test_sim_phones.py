"""`catnip sim` scripts with phone seats (devsim/virtual_script.py): the
laptop's hello, a phone seat's presses as the laptop sends them, and what
its view shows; a station's seat pressed as a phone is refused."""

from test_sim import headless, scenario


def test_a_script_plays_phone_seats_over_the_line(tmp_path):
    result = headless("--script", scenario(tmp_path, [
        {"laptop": "hello"},  # a laptop on the line: setup offers phone places
        {"station": 1, "press": "down"},  # Players, Meow Heist: 4, 3, 2, then the most
        {"station": 1, "press": "ok", "times": 3},
        {"expect": {"station": 1, "text": "Seats 4+2 phone"}},
        {"station": 1, "press": "up"},
        {"station": 1, "press": "ok"},  # Start game: seats 5 and 6 on phones
        {"expect": {"station": 1, "text": "P5 P6 on phone"}},
        {"phone": 5, "press": "ok"},  # claimed, then its card locked from the phone
        {"expect": {"phone": 5, "text": "Locked in"}},
        {"expect": {"station": 1, "text": "P6 on phone", "row": 7}},
        {"expect": {"station": 1, "not": "You chose"}},
        {"phone": 1, "press": "ok"},  # a station's seat: the table refuses it
        {"expect": {"phone": 1, "not": "Locked in"}},
    ]))
    assert result.exit_code == 0, result.output
