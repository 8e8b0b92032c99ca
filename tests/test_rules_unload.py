"""Between games the table forgets the last game's rules by the prefix
`catnip.rules.<name>` (catnip.table.app). That only frees the heap if every
module a game's rules bring in is named with its prefix or is shared by all
games; this checks it for each game, each in a fresh interpreter."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
SHARED = {"catnip", "catnip.rules", "catnip.rules.about", "catnip.rules.engine",
          "catnip.rules.log", "catnip.rules.rng", "catnip.rules.vet"}
PROBE = """
import json, sys
import catnip.rules
before = set(sys.modules)
catnip.rules.new(sys.argv[1], seed="1")
new = sorted(m for m in sys.modules if m.startswith("catnip") and m not in before)
from catnip.table.loop import unload
unload("catnip.rules." + sys.argv[1])
left = sorted(m for m in new if m in sys.modules)
print(json.dumps([new, left]))
"""


@pytest.mark.parametrize("name", ["heist", "stack", "purrfect"])
def test_a_games_rules_go_with_its_prefix(name):
    out = subprocess.run([sys.executable, "-c", PROBE, name], cwd=FIRMWARE, check=True,
                         capture_output=True, text=True).stdout
    new, left = json.loads(out)
    own = [m for m in new if m.startswith("catnip.rules." + name)]
    assert own, new
    assert [m for m in new if m not in own and m not in SHARED] == []
    assert [m for m in left if m not in SHARED] == []
