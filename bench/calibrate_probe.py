# Runs under the MicroPython unix port (the app draws into framebuf), with
# tests/shared and bench on MICROPYPATH and the firmware precompiled first
# (bench/bench_calibrate.py sets it up). Prints one JSON line: the heap the
# app holds before a tray calibration, the most it holds while one runs
# (the four-cell mux board calibrated over the line: the empty base, two
# cats, the four corners, saved), and after it ends; and the modules it
# loaded that stayed. What it leaves on purpose: the new calibration, which
# the next game weighs with.
import gc
import json
import sys

from calibrig import Maker, session


def _held():
    gc.collect()
    return gc.mem_alloc()


def main():
    s = session(4, 10, "bench")
    marks = s.calibrate(2, corners=True)
    maker = Maker("bench", board="mux", trace=s.trace)
    try:
        maker.command("hello")  # the line's own code (catnip.link.remote) loads first
        maker.out.take()
        maker.rig.table.clear_traffic()
        before_modules = set(sys.modules)
        before = _held()
        most = 0
        maker.calibrate("begin")
        for mark in marks:
            maker.until(mark[0])
            maker.calibrate("corner" if len(mark) == 3 else "empty" if mark[1] == 0 else "cat")
            most = max(most, _held())
            kind, fields = maker.answer()
            assert kind == "calib", fields
            most = max(most, _held())
        maker.calibrate("save")
        assert maker.app.calibration is None
        maker.out.take()
        maker.rig.run(6000)  # the notice "Tray calibrated" has come and gone
        maker.rig.table.clear_traffic()
        after = _held()
        stayed = sorted(m for m in sys.modules if m not in before_modules)
        print(json.dumps({"before": before, "most": most, "after": after, "stayed": stayed}))
    finally:
        maker.close()
