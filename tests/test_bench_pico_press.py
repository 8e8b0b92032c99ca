"""The press-to-pixels bench's sorting of presses, on a small made-up run:
which presses count as a move in play (their act frame went out on the
line) apart from the setup pages and one-station redraws."""

from __future__ import annotations

import json

from bench import pico_press, pico_rig, pico_run
from catnip import wire


def _run(tmp_path):
    presses = [(1.0, "s0_ok"), (2.0, "s1_ok"), (3.0, "s2_down")]
    events = [{"kind": "scenario", "do": "press", "t": t, "id": b} for t, b in presses]
    writes = []
    for t in (1.0, 2.0):  # every station redrawn, the last 40 ms after the press
        for k in range(pico_rig.STATIONS):
            writes.append({"rw": "W", "to": [f"s{k}_oled"], "n": 64,
                           "t_end": t + 0.010 + 0.005 * k})
    writes.append({"rw": "W", "to": ["s2_oled"], "n": 64, "t_end": 3.012})
    writes.append({"rw": "W", "to": ["table_oled"], "n": 64, "t_end": 1.005})
    act, other = (bytes(wire.encode(kind, seq, {})).decode("latin1")
                  for kind, seq in (("act", 7), ("setup", 8)))
    serial = [{"dir": "d2h", "t": 1.025, "data": act},
              {"dir": "d2h", "t": 2.5, "data": other}]
    for name, rows in (("events", events), ("i2c", writes), ("serial", serial)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return pico_run.Run(out=tmp_path, code=0)


def test_only_the_press_that_made_a_move_counts_as_one(tmp_path):
    one, every, own, whole, moves, framed = pico_press.press_groups([_run(tmp_path)])
    assert [round(ms, 1) for ms in one] == [12.0]
    assert [round(ms, 1) for ms in every] == [40.0, 40.0]  # the move and the setup page
    assert [round(ms, 1) for ms in own] == [10.0, 15.0]
    assert [round(ms, 1) for ms in moves] == [40.0]  # the move alone
    assert [round(ms, 1) for ms in framed] == [25.0]
    assert pico_press.press_to_frame(_run(tmp_path)) == framed
