# micropython-only: the screen census (tests/shared/test_screen_census.py)
# counted rather than judged, for bench_screens.py. Prints one JSON line.
import json

import test_screen_census

print(json.dumps(test_screen_census.counts()))
