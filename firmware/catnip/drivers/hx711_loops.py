# The HX711 driver's reading loops (catnip.drivers.hx711 has the chips, the
# clocking pass and its timing): read() blocking, read_async() and run()
# under asyncio. They wait until every chip has a word, spinning for the last
# one when it is due within 1.5 ms so the pass starts at the head of the gap
# it opens, then ask the group for one attempt; a fault is raised (read) or
# said once (run) and the chips are tried again each conversion period.
# It imports only the interpreter's built-ins and its own room.
from catnip.drivers.hx711_faults import NO_DATA, OK, WAIT

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


_IRQ_US = const(100)  # a DOUT interrupt runs within this of the fall
_SPIN_US = const(1500)  # a conversion due this soon is waited for on the spot
_SPIN_STEP_US = const(25)


class Loops:
    """The reading loops of catnip.drivers.hx711.HX711Group (their subclass),
    over what it provides: not_ready() (the cells with no word waiting, as
    bits), due(missing) (us until the last of them converts, below 0 if
    unknown), attempt() (one pass: OK, WAIT for wait_us, below 0 to try
    again, or a fault code on the cells in `bad`), result(), lost(),
    failed(code, cells) (the SensorFault), recovered(); and its fields
    clock, powered, fault, period_ms, timeout_ms and poll_us."""

    def read(self, timeout_ms=None):
        """Wait (blocking) for the next settled reading of every cell; return
        the counts array (signed counts, one per cell). Cells that cannot be
        read raise SensorFault, every time it is asked.

        Called again within about a conversion period, read() follows the
        chips; after a longer pause it restarts them in step first (four
        conversions). For a steady stream use run()."""
        _check_powered(self.powered)
        clock = self.clock
        timeout_ms = timeout_ms or self.timeout_ms
        while True:
            start = clock.ticks_ms()
            missing = self.not_ready()
            while missing:
                if clock.ticks_diff(clock.ticks_ms(), start) >= timeout_ms:
                    self.lost()
                    raise self.failed(NO_DATA, missing)
                clock.sleep_us(self.poll_us)
                missing = self.not_ready()
            status = self.attempt()
            if status == OK:
                self.recovered()
                return self.result()
            if status == WAIT:
                clock.sleep_us(self.wait_us)
            elif status > 0:
                raise self.failed(status, self.bad)

    async def read_async(self):
        """read() for asyncio: polls DOUT, letting other tasks run meanwhile.

        Cells that cannot be read raise SensorFault once; later calls
        wait quietly, trying again every conversion period, until every cell
        answers again (then `fault` is 0 and settled readings resume)."""
        _check_powered(self.powered)
        return await self._serve(None, None)

    async def run(self, on_counts, on_fault):
        """Read for ever: on_counts(counts) after every settled reading,
        on_fault(SensorFault) once when the cells cannot be read, then nothing
        until they can again. Idles while powered down. One coroutine for
        the whole session, so a reading allocates nothing."""
        await self._serve(on_counts, on_fault)

    async def _serve(self, on_counts, on_fault):
        clock = self.clock
        while True:
            if not self.powered:
                if on_counts is None:
                    _check_powered(self.powered)
                await clock.pause_ms(self.period_ms)
                continue
            start = clock.ticks_ms()
            missing = self.not_ready()
            while missing and self.powered:
                if clock.ticks_diff(clock.ticks_ms(), start) >= self.timeout_ms:
                    break
                due = self.due(missing)
                if 0 <= due <= _SPIN_US:
                    missing = self._spin(missing, due)
                else:
                    await clock.pause_ms(max(1, self.period_ms >> 3))
                    missing = self.not_ready()
            if not self.powered:
                continue
            if missing:
                code, cells = NO_DATA, missing
                self.lost()
            else:
                status = self.attempt()
                if status == OK:
                    self.recovered()
                    if on_counts is None:
                        return self.result()
                    on_counts(self.result())
                    continue
                if status == WAIT:
                    await clock.pause_ms((self.wait_us + 999) // 1000)
                if status < 0:
                    continue
                code, cells = status, self.bad
            if not self.fault:
                error = self.failed(code, cells)
                if on_fault is None:
                    raise error
                on_fault(error)
            await clock.pause_ms(self.period_ms)

    def _spin(self, missing, due):
        # The last conversion is due within _SPIN_US: wait for it here, so
        # the pass starts at the head of the gap it opens, not a poll later
        # (an asyncio sleep can end milliseconds late while others run).
        clock = self.clock
        until = clock.ticks_add(clock.ticks_us(), due + _IRQ_US)
        while missing and clock.ticks_diff(until, clock.ticks_us()) > 0:
            clock.sleep_us(_SPIN_STEP_US)
            missing = self.not_ready()
        return missing


def _check_powered(powered):
    if not powered:
        raise ValueError("the HX711 is powered down: call power_up() before reading")
