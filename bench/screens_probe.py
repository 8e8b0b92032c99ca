# micropython-only: the screen census (tests/shared/test_screen_census.py and
# test_screen_census_table.py) counted rather than judged, for bench_screens.py.
# Prints one JSON line: {area: {"screens", "problems", and each kind}}.
import json

from test_screen_census import setup_census, title_census
from test_screen_census_table import calibration_census, pages_census


def counts():
    out = {}
    for area, run in (("setup", setup_census), ("pages", pages_census),
                      ("calibration", calibration_census),
                      ("heist", lambda: title_census("heist")),
                      ("stack", lambda: title_census("stack")),
                      ("purrfect", lambda: title_census("purrfect"))):
        census = run()
        row = {"screens": census.screens, "problems": census.count}
        row.update(census.kinds)
        out[area] = row
    return out


print(json.dumps(counts()))
