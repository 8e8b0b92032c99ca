# The RP2040's state beyond GPIO levels and I2C buses, shared by the fake
# `machine` module and the simulator: PWM slices, virtual timers, the
# watchdog, the interrupt mask, the clock and the reset cause.
#
# Nothing here runs by itself: the simulator (or a test) calls service(),
# and so do machine.idle() and machine.lightsleep(), the places where a real
# Pico's timer interrupts would get a chance to run between firmware steps.
try:
    from time import ticks_ms as _ticks_ms  # type: ignore[attr-defined]  # MicroPython's
except ImportError:  # CPython
    from time import monotonic_ns

    def _ticks_ms():
        return monotonic_ns() // 1000000

PWRON_RESET = 1
WDT_RESET = 3
RTC_AT_POWER_ON = 1609459200  # 2021-01-01 00:00 UTC: the rp2 port's main() sets its RTC so


class Reset(SystemExit):
    """The firmware asked for (or the watchdog forced) a reset. The simulator
    catches it and boots the firmware again; `cause` is the next reset_cause()."""

    def __init__(self, cause, soft=False):
        super().__init__(cause)
        self.cause = cause
        self.soft = soft


class Soc:
    def __init__(self):
        self.clock_ms = _ticks_ms
        self.cpu_hz = 125000000
        self.reset_cause = PWRON_RESET
        self.pwm_freq = {}  # PWM slice -> Hz; both channels of a slice share it
        self.pwm_duty = {}  # GPIO -> duty 0..65535 while PWM drives it
        self.timers = []  # running machine.Timer objects
        self.watchdog = None  # [timeout_ms, last_feed_ms] once started
        self.irq_depth = 0  # disable_irq() nesting
        self.deferred = []  # interrupt handlers held back while masked
        self.rtc = (RTC_AT_POWER_ON, self.now())  # (Unix seconds, ms) machine.RTC counts from

    def now(self):
        return self.clock_ms()

    # ---- PWM -------------------------------------------------------------

    def tone(self, pin_id):
        """(Hz, duty 0..65535) a PWM pin puts out, or None when PWM is off."""
        duty = self.pwm_duty.get(pin_id)
        if duty is None:
            return None
        return self.pwm_freq.get(pwm_slice(pin_id), 0), duty

    # ---- interrupts ------------------------------------------------------

    def interrupt(self, handler, arg):
        """Run an interrupt handler now, or once interrupts are enabled again."""
        if self.irq_depth:
            self.deferred.append((handler, arg))
        else:
            handler(arg)

    def unmask(self):
        while self.deferred and not self.irq_depth:
            handler, arg = self.deferred.pop(0)
            handler(arg)

    # ---- time ------------------------------------------------------------

    def service(self):
        """Fire due timers and check the watchdog (raises Reset when it bit)."""
        now = self.now()
        for timer in list(self.timers):
            timer._fire_due(now)
        dog = self.watchdog
        if dog is not None and now - dog[1] > dog[0]:
            self.reset_cause = WDT_RESET
            raise Reset(WDT_RESET)


def pwm_slice(pin_id):
    """RP2040 PWM slice of a GPIO: GP0/GP1 slice 0 ... GP14/GP15 slice 7, then
    again from GP16 (datasheet 4.5.2)."""
    return (pin_id >> 1) & 7


soc = Soc()


def reset():
    global soc
    soc = Soc()
    return soc
