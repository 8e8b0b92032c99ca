"""The shapes a load-cell trace is built from (devsim.traces): a cat's weight
arriving, a hand pressing, a tower ringing after an impact, mains-like
vibration, creep. Each is known by its running integral, so a conversion's
mean over its period is exact. Runs on CPython and the unix port, never on
the Pico."""
import math


# ---- effects: one shape each, known by its running integral ----------------
#
# A conversion reports the mean load over its period T, so an effect starting
# at t0 contributes (I(t - t0) - I(t - T - t0)) / T, where I is the integral of
# its shape from its start. After `length` microseconds the shape is constant
# (`final`), and the effect folds into the trace's base load.


class _Effect:
    def setup(self, t0, length, final, weights):
        self.t0 = t0
        self.length = length
        self.final = final
        self.weights = weights
        self.i_end = self.integral(length)

    def running(self, s):
        if s <= 0:
            return 0.0
        if s >= self.length:
            return self.i_end + self.final * (s - self.length)
        return self.integral(s)

    def mean(self, t, period):
        s = t - self.t0
        return (self.running(s) - self.running(s - period)) / period


class Ramp(_Effect):
    """A lasting change of `amount` counts, reached linearly over `dur` us."""

    def __init__(self, t0, dur, amount, weights):
        self.amount = amount
        self.dur = max(1, dur)
        self.setup(t0, self.dur, amount, weights)

    def integral(self, s):
        return self.amount * s * s / (2 * self.dur)


class Bump(_Effect):
    """A passing push of peak `amount`: a raised cosine `dur` us long."""

    def __init__(self, t0, dur, amount, weights):
        self.amount = amount
        self.dur = max(1, dur)
        self.setup(t0, self.dur, 0, weights)

    def integral(self, s):
        w = 2 * math.pi / self.dur
        return self.amount * (s - math.sin(w * s) / w) / 2


class Ring(_Effect):
    """A damped oscillation amount * exp(-s/tau) * sin(2 pi s / period): a
    tray ringing after an impact, or a tower rocking to rest. Its integral
    over all time (the impulse it delivers) is amount * b."""

    def __init__(self, t0, period, tau, amount, weights):
        self.amount = amount
        self.w = 2 * math.pi / period
        self.tau = tau
        d = self.w * self.w + 1 / (tau * tau)
        self.a = (1 / tau) / d
        self.b = self.w / d
        # Below half a count it no longer matters.
        length = tau * math.log(max(1.0, 2 * abs(amount)))
        self.setup(t0, length, 0, weights)

    def integral(self, s):
        e = math.exp(-s / self.tau)
        ws = self.w * s
        return self.amount * (self.b - e * (self.a * math.sin(ws) + self.b * math.cos(ws)))


def impulse_ring(t0, period, tau, impulse, weights):
    """The ring an impact of `impulse` count-microseconds sets off."""
    w = 2 * math.pi / period
    return Ring(t0, period, tau, impulse * (w * w + 1 / (tau * tau)) / w, weights)


class Tremor(_Effect):
    """A hand's tremor: amount * sin(2 pi s / period + phase) under a raised
    cosine envelope `dur` us long."""

    def __init__(self, t0, dur, period, phase, amount, weights):
        self.amount = amount
        self.w = 2 * math.pi / period
        self.env = 2 * math.pi / max(1, dur)
        self.phase = phase
        self.setup(t0, max(1, dur), 0, weights)

    def integral(self, s):
        # sin(a)(1 - cos(b))/2 = sin(a)/2 - (sin(a + b) + sin(a - b))/4
        w, e, p = self.w, self.env, self.phase
        return self.amount * (
            _sin_integral(w, p, s) / 2
            - (_sin_integral(w + e, p, s) + _sin_integral(w - e, p, s)) / 4
        )


def _sin_integral(k, phase, s):
    if abs(k) < 1e-12:
        return s * math.sin(phase)
    return (math.cos(phase) - math.cos(k * s + phase)) / k


class Creep(_Effect):
    """A load cell creeping by `amount` after a load change, time constant tau."""

    def __init__(self, t0, tau, amount, weights):
        self.amount = amount
        self.tau = tau
        length = tau * math.log(max(1.0, 2 * abs(amount)))
        self.setup(t0, length, amount, weights)

    def integral(self, s):
        return self.amount * (s - self.tau * (1 - math.exp(-s / self.tau)))
