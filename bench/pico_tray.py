# Runs on the emulated Pico (bench/bench_pico.py): the tray's four HX711s read
# through Hardware.weigh() for RUN_S while the hardware's own task polls the
# buttons and flushes the screens, as during a Stack O' Cats game. Prints each
# reading as "READING [counts]" and the window as "SECONDS [start, end]" in
# seconds since power-on (the bench's time base).
import asyncio
import json
import time

from catnip import board as boards  # noqa: E402
from catnip.parts.hardware import Hardware  # noqa: E402

RUN_S = 20
board = boards.load("board.json")
hw = Hardware(board, len(board.stations))
readings = []
faults = []


def on_counts(counts):
    readings.append(list(counts))


def on_fault(e):
    faults.append(str(e))


async def main():
    asyncio.create_task(hw.run())
    asyncio.create_task(hw.weigh(on_counts, on_fault))
    await asyncio.sleep_ms(1000)  # the cells settle after their power-up
    readings.clear()
    start = time.ticks_us()
    await asyncio.sleep_ms(RUN_S * 1000)
    end = time.ticks_us()
    return start / 1e6, end / 1e6


span = asyncio.run(main())
for r in readings:
    print("READING", json.dumps(r))
print("FAULTS", json.dumps(faults))
print("SECONDS", json.dumps(span))
