"""The virtual table on the laptop: the unmodified firmware runs on simulated
hardware (devsim/virtual.py), and this module drives it, either interactively in the terminal or headless from a
scenario file.

The two sides speak one line per message: commands in (``tap 1 ok``,
``tray place``, ``wait 500``, ``quit``), JSON out (screens, the app's serial
line, the tray, standings). See devsim/virtual.py for the whole vocabulary.

The firmware runs on the MicroPython unix port where it is installed, else on
CPython (paths.interpreter says which, and `catnip sim` says it too).

The package is split by job: paths (boards, the flash folder, the
interpreter, the command line; catnip deploy reads boards from it), process
(the table's process), state (what the table said), terminal and keyboard (the picture
and the keys), settings (the view `v` chose, where `S` saves), scenario
(headless runs), record (a hand-played session as a scenario), mirror (the laptop
beside the table) and play (the interactive table).
"""

from catnip_host.sim.keyboard import Keyboard, parse_keys
from catnip_host.sim.mirror import keep_records, laptop_mirror
from catnip_host.sim.paths import (VIRTUAL, Interpreter, SimError, board_file, command,
                                   environment, interpreter, journal_dir, micropython)
from catnip_host.sim.play import interactive
from catnip_host.sim.process import Table
from catnip_host.sim.record import Recorder
from catnip_host.sim.scenario import Outcome, load_scenario, report, run_script
from catnip_host.sim.settings import Settings, settings_file, snapshots_dir
from catnip_host.sim.state import Screen, TableState, describe
from catnip_host.sim.terminal import (Terminal, braille, capacity, cell_text, half_blocks,
                                      pick_view, view_size)

__all__ = ["VIRTUAL", "Interpreter", "Keyboard", "Outcome", "Recorder", "Screen", "Settings", "SimError",
           "Table", "TableState", "settings_file", "snapshots_dir",
           "Terminal", "board_file", "braille", "capacity", "cell_text", "command", "describe",
           "environment", "half_blocks", "interactive", "interpreter", "journal_dir",
           "keep_records", "laptop_mirror", "load_scenario", "micropython", "parse_keys", "pick_view", "report",
           "run_script", "view_size"]
