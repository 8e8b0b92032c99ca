# An HX711 load-cell ADC, clocked bit by bit through devsim's pin board.
#
# Behaviour follows the Avia Semiconductor HX711 datasheet:
# - a conversion completes every 100 ms (RATE low, 10 SPS) or 12.5 ms (RATE
#   high, 80 SPS); DOUT then goes low until the word is read;
# - each rising edge of PD_SCK puts the next bit on DOUT, MSB first, 24 bits
#   of two's complement; the 25th edge pulls DOUT high again;
# - 25, 26 or 27 pulses choose channel A x128, B x32 or A x64 for the NEXT
#   conversion; fewer or more is a serial error, and so is a read whose pulses
#   do not all fall within one conversion period (datasheet p4: "PD_SCK clock
#   pulses should not be less than 25 or more than 27 within one conversion
#   period");
# - outside -0x800000..0x7FFFFF the output saturates at those codes;
# - PD_SCK high for more than 60 us powers the chip down; PD_SCK low again
#   resets it (channel A x128) and restarts conversions;
# - after a reset or an input change the output takes 4 conversions to
#   settle (datasheet p3: 400 ms at 10 SPS, 50 ms at 80 SPS). The first three
#   step a quarter of the way each from the previous output to the new input,
#   the way the chip's digital filter fills.
#
# Two things the datasheet leaves out, taken from measurements and from the
# safe side:
# - Each conversion reloads the output register: DOUT goes high for about
#   75 us, then low with the new word, whether or not the last word was read
#   (oscilloscope measurement on the internal oscillator, olkal/HX711_ADC
#   issue #81; the same measurement found periods of 85.6 ms and 10.7 ms, so
#   a real chip may run well off the nominal rate: see `period_us`).
# - What a reload does to a word being clocked out is not specified. The
#   model assumes the worst a driver could not notice: the word is lost, the
#   rest of the pulses shift out the new word, and the read is recorded as a
#   violation. A pulse during the reload itself is a violation too.
#
# Every breach of the protocol is recorded in `violations`, above all a clock
# pulse held high past 60 us in the middle of a word, which would power the
# real chip down mid-read and lose the data.
from devsim import pins

A128 = 1  # pulses after the 24 data bits that select each input
B32 = 2
A64 = 3

POWER_DOWN_US = 60  # PD_SCK high longer than this powers the chip down
RELOAD_US = 75  # DOUT high while a conversion reloads the output register
SETTLING_CONVERSIONS = 4
MAX_CODE = 0x7FFFFF
MIN_CODE = -0x800000

# Faults a test can put on the chip.
DEAD = "dead"  # no conversions: DOUT held high
DISCONNECTED = "disconnected"  # DOUT wire open: the line floats to its pull
SHORTED = "shorted"  # DOUT wire shorted to ground


def constant(counts):
    """A source that always reads `counts`."""
    return lambda t_us: counts


class HX711Model:
    """One HX711 on board pins `sck` (PD_SCK, input) and `dout` (output).

    counts_at(t_us) -> int is the bridge signal as a signed count on channel A
    at gain 128; gain 64 reads half of it. None means the chip gives no data
    for that conversion: DOUT stays high (a load-cell trace's silent sensor). channel_b(t_us) -> int is channel B
    at gain 32, a separate input (0 if not given). phase_us delays the first
    conversion; period_us overrides the rate's period (oscillator spread): the
    time from one word being ready to the next. first_us: when the first word
    after a power-up or reset is ready (default one period); a chip that holds
    DOUT high through its whole settling gives the first word only then (four
    periods: rp2emu's HX711 does so).
    """

    def __init__(self, clock, sck, dout, counts_at, rate=10, channel_b=None,
                 phase_us=0, period_us=None, first_us=None):
        if rate not in (10, 80):
            raise ValueError("rate must be 10 or 80 samples/s (the RATE pin), not %r" % (rate,))
        self.clock = clock
        self.board = pins.board
        self.sck = sck
        self.dout = dout
        self.counts_at = counts_at
        self.channel_b = channel_b or constant(0)
        self.period_us = period_us or (100000 if rate == 10 else 12500)
        self.first_us = first_us or self.period_us
        self.fault = None
        # What happened, for tests and benchmarks.
        self.violations = []  # (t_us, what)
        self.conversions = 0  # conversions completed
        self.words_read = 0  # words clocked out completely (24 bits)
        self.power_downs = 0
        self.longest_pulse_us = 0  # longest clock pulse that was part of a read
        self._dout_level = None
        self._epoch = 0  # bumped by every reset and power-down: stale timers see it
        self._suspect_us = None  # when a power-down cut bit 1, maybe of a read
        self._suspect_width = 0  # how long PD_SCK was high then
        self._down_at_pulse = 0
        self.board.watch(sck, self._on_sck)
        self._reset(clock.now_us() + phase_us)

    # -- state --------------------------------------------------------------

    def _reset(self, t_us):
        """Power-on or wake-up: channel A x128, nothing ready, filter empty."""
        self.powered = True
        self.input = A128
        self.word = 0  # 24-bit code being shifted out
        self.ready = False
        self.pulses = 0  # rising edges since the word became ready
        self.settle_step = 0  # conversions since the input last changed
        self._settle_from = 0  # output the filter is moving away from
        self._output = 0  # last converted value, signed
        self.reloading = False  # DOUT high while a conversion reloads the output
        self._rise_us = None
        self._counted = False
        self._epoch += 1
        self._drive(1)
        self._next_conversion(t_us + self.first_us)

    def set_fault(self, fault):
        """DEAD, DISCONNECTED, SHORTED or None. A dead chip that comes back has
        been off: it starts again from power-on reset."""
        was_dead = self.fault == DEAD
        self.fault = fault
        if fault is None and was_dead:
            self._reset(self.clock.now_us())
        else:
            self._drive(self._dout_level)

    def _drive(self, level):
        self._dout_level = level
        if self.fault == DEAD:
            level = 1
        elif self.fault == DISCONNECTED:
            level = None
        elif self.fault == SHORTED:
            level = 0
        if self.board.pin(self.dout).external != level:
            self.board.drive(self.dout, level)

    def _violation(self, t_us, what):
        self.violations.append((t_us, what))

    # -- conversions --------------------------------------------------------

    def _source(self, t_us):
        if self.input == B32:
            return self.channel_b(t_us)
        a = self.counts_at(t_us)
        return a >> 1 if self.input == A64 and a is not None else a

    def _next_conversion(self, ready_us):
        """The word after this one is ready at ready_us; its reload starts
        RELOAD_US before."""
        self.clock.at(ready_us - RELOAD_US, self._reload, self._epoch)

    def _reload(self, t_us, epoch):
        """A conversion ends: the output register is reloaded, DOUT high."""
        if epoch != self._epoch:
            return  # the chip was reset since this conversion was scheduled
        ready_us = t_us + RELOAD_US
        self._next_conversion(ready_us + self.period_us)
        if self.fault == DEAD:
            return
        if 0 < self.pulses < 24:
            self._violation(t_us, "a conversion completed at bit %d of 24 of a read: the output "
                                  "was reloaded under the clock and the word is lost"
                            % self.pulses)
        elif self.pulses:
            self._end_transfer(t_us)
        self.pulses = 0
        self.ready = False
        self.reloading = True
        self._drive(1)
        self.clock.at(ready_us, self._convert, epoch)

    def _convert(self, t_us, epoch):
        """The new word is ready: DOUT low."""
        if epoch != self._epoch or self.fault == DEAD:
            return
        self.reloading = False
        target = self._source(t_us)
        if target is None:
            return  # no word: DOUT stays high, the filter keeps its state
        self.settle_step += 1
        if self.settle_step < SETTLING_CONVERSIONS:
            start = self._settle_from
            value = start + (target - start) * self.settle_step // SETTLING_CONVERSIONS
        else:
            value = target
        value = min(MAX_CODE, max(MIN_CODE, value))
        self._output = value
        self.word = value & 0xFFFFFF
        self.ready = True
        self.conversions += 1
        self._suspect_us = None  # the firmware waited for data: no read was cut
        self._drive(0)

    def _end_transfer(self, t_us):
        """The pulses of the last read pick the input of this conversion."""
        extra = self.pulses - 24
        if not A128 <= extra <= A64:
            self._violation(t_us, "%d PD_SCK pulses in one read: the HX711 takes 25 to 27"
                            % self.pulses)
        elif extra != self.input:
            self.input = extra
            self.settle_step = 0
            self._settle_from = self._output

    # -- the serial interface -------------------------------------------

    def _on_sck(self, pin_id, level, t_us):
        if self.fault == DEAD:
            return
        if level:
            self._rise(t_us)
        else:
            self._fall(t_us)

    def _rise(self, t_us):
        self._rise_us = t_us
        self._counted = False
        if not self.powered:
            return
        self.clock.at(t_us + POWER_DOWN_US + 1, self._power_down, self._epoch)
        if self._suspect_us is not None and not self.ready and not self.pulses:
            self._mid_read(self._suspect_us, 1)
            self.longest_pulse_us = max(self.longest_pulse_us, self._suspect_width)
            self._suspect_us = None
        if self.reloading:
            self._violation(t_us, "PD_SCK pulse while a conversion was reloading the output: "
                                  "a read must end before the next conversion")
            self._counted = True
            return
        if self.pulses < 24 and (self.ready or self.pulses):
            self.pulses += 1
            self._counted = True
            self._drive(self.word >> (24 - self.pulses) & 1)
        elif self.pulses == 24:
            self.pulses = 25
            self._counted = True
            self.ready = False
            self.words_read += 1
            self._drive(1)
        # Otherwise (no word ready, or past the 25th pulse) the edge is judged
        # when it ends: short, it is a clock pulse; long, a power-down.

    def _power_down(self, t_us, epoch):
        if epoch != self._epoch or self._rise_us is None:
            return
        if t_us - self._rise_us <= POWER_DOWN_US:
            return  # PD_SCK fell and rose again since this check was set
        if 2 <= self.pulses <= 24:
            self._mid_read(t_us, self.pulses)
        elif self.pulses == 1:
            # Bit 1 is also where a deliberate power-down of a chip with a
            # word waiting lands; it was a read if clocking goes on after.
            self._suspect_us = t_us
        self._down_at_pulse = self.pulses
        self.powered = False
        self.ready = False
        self.reloading = False
        self.power_downs += 1
        self._epoch += 1
        self._drive(1)

    def _mid_read(self, t_us, bit):
        self._violation(t_us, "PD_SCK held high over %d us at bit %d of a read: "
                              "the chip powered down and the word is lost"
                        % (POWER_DOWN_US, bit))

    def _fall(self, t_us):
        if self._rise_us is None:
            return
        width = t_us - self._rise_us
        self._rise_us = None
        if not self.powered:
            if 2 <= self._down_at_pulse <= 24:  # a clock pulse that ran too long
                self.longest_pulse_us = max(self.longest_pulse_us, width)
            elif self._down_at_pulse == 1:  # counted if clocking goes on (_rise)
                self._suspect_width = width
            self._reset(t_us)  # PD_SCK low again: reset, start converting
            return
        if not self._counted:
            if not self.pulses:
                self._violation(t_us, "PD_SCK pulse while no conversion was ready (DOUT high)")
                return
            self.pulses += 1  # 26th or 27th: input selection
        self.longest_pulse_us = max(self.longest_pulse_us, width)


class Playback:
    """The cheapest stand-in for a row of HX711s on one clock, converting in
    step every `period_us`: every DOUT plays back `word` (a 24-bit code).
    It allocates nothing, so it measures the driver alone. It is also the
    driver's clock, and time moves only in its sleeps: a sleep while no word
    waits skips to just before the next conversion, so a reading costs the
    driver two polls. PD_SCK high for over 60 us resets the chips."""

    def __init__(self, word, cells=1, period_us=100000):
        outer = self
        self.pulse = 25  # rising edges since the last conversion; over 24: DOUT high
        self.pulses = 0  # all rising edges
        self.word = word
        self.period_us = period_us
        self.now = 0
        self.due = period_us  # the next conversion
        self.high_since = -1  # when PD_SCK rose, -1 while it is low

        class Sck:
            def init(self, *args, **kw):
                pass

            def __call__(self, level=-1):
                if level == 1:
                    outer.pulse += 1
                    outer.pulses += 1
                    outer.high_since = outer.now
                elif level == 0:
                    if outer.high_since >= 0 and outer.now - outer.high_since > 60:
                        outer.pulse = 25  # woken from power-down: reset, no word yet
                        outer.due = outer.now + outer.period_us
                    outer.high_since = -1

        class Dout:
            def init(self, *args, **kw):
                pass

            def __call__(self):
                n = outer.pulse
                if n > 24:
                    return 1  # pulled high by the 25th pulse until the next conversion
                return outer.word >> (24 - n) & 1 if n else 0

        self.sck = Sck()
        self.douts = tuple(Dout() for _ in range(cells))

    def ticks_us(self):
        return self.now & _TICKS_MAX

    def ticks_ms(self):
        return (self.now // 1000) & _TICKS_MAX

    def ticks_diff(self, end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF

    def sleep_us(self, us):
        self.now += us
        if self.high_since >= 0:
            return  # powered down: no conversions
        if self.now >= self.due:
            self.pulse = 0  # a new word, replacing one nobody read
            while self.due <= self.now:
                self.due += self.period_us
        elif self.pulse > 24 and self.now < self.due - 1:
            self.now = self.due - 1  # nothing happens until then

    def sleep_ms(self, ms):
        self.sleep_us(ms * 1000)

    def pause_ms(self, ms):
        self.sleep_us(ms * 1000)
        return _yield_now()


_TICKS_MAX = (1 << 30) - 1  # MicroPython's ticks wrap at 2**30
_TICKS_HALF = 1 << 29


def _yield_now():
    """Let other tasks run, without allocating on MicroPython."""
    import asyncio

    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(0)
    return asyncio.sleep(0)
