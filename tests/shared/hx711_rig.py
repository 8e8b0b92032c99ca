# A load-cell rig for HX711 tests: HX711 models on the simulated board, the
# driver reading them, all in virtual time. Runs on CPython and MicroPython.
from catnip.drivers import hx711
from devsim.models.hx711 import HX711Model

SCK = 2
DOUTS = (3, 4, 5, 6)


class Level:
    """A signal source whose value a test sets: counts_at(t_us) -> value."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, t_us):
        return self.value


def expected(input, a, b):
    """What the driver must return for channel A signal a, channel B signal b."""
    if input == hx711.B32:
        raw = b
    elif input == hx711.A64:
        raw = a >> 1
    else:
        raw = a
    return min(hx711.MAX_COUNT, max(hx711.MIN_COUNT, raw))


def models(clock, count=1, rate=10, phases=(0, 23000, 51000, 77000),
           periods=None):
    """`count` HX711 models sharing SCK, each with its own A and B sources.
    Returns (models, a_sources, b_sources)."""
    built, a_sources, b_sources = [], [], []
    for i in range(count):
        a, b = Level(1000 * (i + 1)), Level(-500 * (i + 1))
        period = periods[i] if periods else None
        built.append(HX711Model(clock, SCK, DOUTS[i], a, rate=rate, channel_b=b,
                                phase_us=phases[i], period_us=period))
        a_sources.append(a)
        b_sources.append(b)
    return built, a_sources, b_sources


def check_reads(driver, a_sources, b_sources, steps):
    """Run (input, a, b) steps on a group driver: each read must return the
    exact expected count of every cell. Cell i gets a + i, b - i."""
    for input, a, b in steps:
        for i in range(len(a_sources)):
            a_sources[i].value = a + i
            b_sources[i].value = b - i
        driver.select(input)
        driver.read()
        counts = driver.counts
        for i in range(len(a_sources)):
            want = expected(input, a + i, b - i)
            assert counts[i] == want, (input, a, b, i, counts[i], want)
            sat = want in (hx711.MAX_COUNT, hx711.MIN_COUNT)
            assert bool(driver.saturated >> i & 1) == sat, (input, a, i, driver.saturated)


def no_violations(*chips):
    for chip in chips:
        assert chip.violations == [], chip.violations
