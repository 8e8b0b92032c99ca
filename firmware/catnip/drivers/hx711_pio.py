# HX711s clocked by an RP2040 PIO state machine instead of by the CPU.
#
# The bit-banged driver keeps each PD_SCK pulse short by masking interrupts
# for its two pin writes. Here the state machine makes every pulse exactly
# two PIO cycles (2 us at 1 MHz) whatever the CPU is doing, and samples all
# DOUTs at once with one `in pins, n`. The CPU still waits for DOUT low and
# checks the result, with the same logic as HX711Group; only the clocking
# pass moves to the PIO. The DOUT pins must be consecutive GPIOs.
#
# One pass: the CPU puts (selection pulses - 1) in the TX FIFO; the program
# clocks 24 bits, pushing a word every `per_word` bits (n bits per pulse,
# at most 30 bits a word so every word is a small int on the RP2040), then
# sends the 1-3 selection pulses, pushes an empty word to say the pass is
# over (the CPU checks DOUT and the time after it), and waits for the next
# request.
import rp2
from machine import Pin

from catnip.drivers.hx711 import A128, HX711Group

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


PIO_HZ = const(1000000)  # 1 us per cycle: PD_SCK high 2 us, low 2 us
# Cycles of the longest pass: pull, set, 24 data bits of 4, mov, 3 selection
# pulses of 4, push.
_PASS_CYCLES = const(1 + 1 + 24 * 4 + 1 + 3 * 4 + 1)


def pulses_per_word(cells):
    """Data pulses per pushed word: a divisor of 24 with cells * it <= 30."""
    for pulses in (24, 12, 8, 6, 4, 3, 2, 1):
        if cells * pulses <= 30:
            return pulses
    raise ValueError("at most 30 HX711s can share one PIO clocking pass")


def program(cells):
    """The clocking program for `cells` DOUTs starting at in_base."""
    per_word = pulses_per_word(cells)

    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopush=True, push_thresh=cells * per_word)
    def hx711_clock():
        pull(block)          .side(0)      # noqa: F821  selection pulses - 1
        set(y, 23)           .side(0)      # noqa: F821  24 data bits
        label("bit")                       # noqa: F821
        nop()                .side(1) [1]  # noqa: F821  PD_SCK high 2 cycles
        in_(pins, cells)     .side(0)      # noqa: F821  sample every DOUT, PD_SCK low
        jmp(y_dec, "bit")    .side(0)      # noqa: F821
        mov(y, osr)          .side(0)      # noqa: F821
        label("select")                    # noqa: F821
        nop()                .side(1) [1]  # noqa: F821
        jmp(y_dec, "select") .side(0) [1]  # noqa: F821
        push(block)          .side(0)      # noqa: F821  the pass is over

    return hx711_clock


class HX711PIO(HX711Group):
    """HX711Group whose clocking pass runs on PIO state machine `sm_id`.
    douts must be consecutive GPIO numbers."""

    def __init__(self, sck, douts, rate=10, input=A128, timeout_ms=None, clock=None, sm_id=0):
        douts = tuple(douts)
        for k in range(1, len(douts)):
            if douts[k] != douts[0] + k:
                raise ValueError("the PIO reads DOUTs on consecutive GPIOs; got %r"
                                 % (douts,))
        self._sm = None
        self._sm_id = sm_id
        self._program = program(len(douts))
        self._per_word = pulses_per_word(len(douts))
        super().__init__(sck, douts, rate, input, timeout_ms, clock)

    def power_down(self):
        if self._sm is not None:
            self._sm.active(0)
            self._sck.init(Pin.OUT, value=1)  # the CPU takes PD_SCK back
        super().power_down()

    def power_up(self):
        if self.powered:
            return
        super().power_up()  # PD_SCK low as a plain GPIO: the chips reset
        self._sm = rp2.StateMachine(self._sm_id, self._program, freq=PIO_HZ,
                                    sideset_base=self._sck, in_base=self._douts[0])
        self._sm.active(1)

    def _dry_pass(self):
        return super()._dry_pass() + _PASS_CYCLES * 1000000 // PIO_HZ

    def _shift(self, extra, level):
        """The pass on the state machine; level 0 (a dry run) unpacks zeros
        without asking it for pulses."""
        sm = self._sm
        acc = self._acc
        n = self._n
        per_word = self._per_word
        for i in range(n):
            acc[i] = 0
        if level:
            sm.put(extra - 1)
        for _ in range(24 // per_word):
            word = sm.get() if level else 0
            shift = per_word * n
            for _ in range(per_word):
                shift -= n
                for i in range(n):
                    acc[i] = (acc[i] << 1) | (word >> (shift + i) & 1)
        if level:
            sm.get()  # the selection pulses are over too
