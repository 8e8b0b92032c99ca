# micropython-only: the app draws into MicroPython's built-in framebuf.
#
# The table app on a simulated table, stepped in virtual time: presses go
# into the button models, screens are read back from the panel models.
from catnip.table.app import App
from catnip.parts.hardware import Hardware
from devsim.table import AppClock, Table
from tablerig import load

STEP_MS = 10


def remove_tree(path):
    """Remove a file or a folder and all in it (MicroPython has no shutil)."""
    import os

    try:
        names = os.listdir(path)
    except OSError:
        try:
            os.remove(path)
        except OSError:
            pass
        return
    for name in names:
        remove_tree(path + "/" + name)
    os.rmdir(path)


class AppRig:
    def __init__(self, journal, board="direct", line=None, weigh=None, seed="table", table=None,
                 panel=None, room=None):
        if table is not None:
            self.board = table.board
        else:  # (tests/pico/plan.py stands its own load(name) in for load)
            self.board = load(board) if panel is None else load(board, panel=panel)
        self.table = table or Table(self.board)
        self.hw = Hardware(self.board, len(self.board.stations), clock=self.table.clock)
        self.run(30)  # the panels and buttons come up
        if weigh is not None:  # a calibration file: the app weighs the tray
            from catnip.table.weigh import Weigh

            weigh = Weigh(self.hw, weigh)
        self.app = App(self.hw, journal, line=line, weigh=weigh, clock=AppClock(self.table),
                       seeds=lambda: seed, room=room)
        self.run(100)

    def run(self, ms):
        for _ in range(ms // STEP_MS):
            self.table.advance(STEP_MS)
            now = self.table.ticks_ms()
            if getattr(self, "app", None) is None:
                self.hw.poll(now)
                self.hw.flush(now)
                while self.hw.next() is not None:
                    pass
            else:
                self.app.loop.step(now)
            self.table.clear_traffic()  # the buses and panels record every transfer

    async def live(self, ms):
        """Let `ms` pass with the app's own asyncio loop running (Loop.run):
        the buttons, the panels and the tray each on their own schedule."""
        clock = self.table.clock
        end = clock.now_us() + ms * 1000
        while clock.now_us() < end:
            self.table.update()  # the button contacts move
            self.table.clear_traffic()
            await clock.pause_ms(5)

    def tap(self, station, name, times=1):
        for _ in range(times):
            self.table.stations[station].tap(name, hold_ms=40)
            self.run(90)

    def hold(self, station, name, ms):
        self.table.stations[station].press(name)
        self.run(ms)
        self.table.stations[station].release(name)
        self.run(150)

    def lines(self, station):
        return self.table.stations[station].lines()

    def shows(self, station, text):
        return self.table.stations[station].shows(text)

    def close(self):
        self.table.close()
