# The buzzer: short tunes for what the table should hear (a reveal, a steal,
# a collapse, your turn). Each tune is a few (Hz, ms) notes played on the
# board's PWM pin without blocking: update(now) moves to the next note when
# it is due, so a tune never delays a button or a screen.
from catnip.keys import ticks_add, ticks_diff

TUNES = {
    "reveal": ((1760, 60), (0, 40), (2349, 90)),
    "steal": ((2637, 50), (1319, 50), (2637, 50), (1319, 80)),
    "collapse": ((880, 90), (659, 90), (440, 200)),
    "turn": ((2093, 70),),
    "end": ((1319, 100), (1568, 100), (2093, 220)),
    "error": ((330, 150),),
}
_LOUD = 1 << 14  # duty out of 65535: a piezo is loud enough at a quarter


class Sound:
    """Tunes on `pwm` (a machine.PWM, or None on a board without a buzzer:
    then every call does nothing)."""

    def __init__(self, pwm):
        self.pwm = pwm
        self.notes = ()
        self.i = 0
        self.until = 0

    def play(self, name, now):
        if self.pwm is None:
            return
        self.notes = TUNES[name]
        self.i = -1
        self._next(now)

    def update(self, now):
        if self.notes and ticks_diff(now, self.until) >= 0:
            self._next(now)

    def _next(self, now):
        self.i += 1
        if self.i >= len(self.notes):
            self.notes = ()
            self.pwm.duty_u16(0)
            return
        hz, ms = self.notes[self.i]
        if hz:
            self.pwm.freq(hz)
        self.pwm.duty_u16(_LOUD if hz else 0)
        self.until = ticks_add(now, ms)

    def off(self):
        """Silent for good (the app stops for the REPL): the PWM slice stops
        and its pin is the REPL's; every later call does nothing."""
        self.notes = ()
        if self.pwm is not None:
            self.pwm.duty_u16(0)
            self.pwm.deinit()
            self.pwm = None
