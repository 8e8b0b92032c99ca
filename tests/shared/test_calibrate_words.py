# The tray's refusals in words for the person calibrating (catnip.table.calibrate):
# every TrayError a calibration can meet, raised by the tray package itself,
# reads without a field name or a call in it, and says what to do.
from catnip.table.calibrate_words import PLAIN, again as _again, plain
from catnip.ui.calibrate import percent
from catnip.tray import Calibration, TrayError
from catnip.tray.calibrator import Calibrator

CODE_WORDS = ("capture(", "feed", "rate_hz", "per_cat", "cat_sd", "_", "%r", "None")


def _error(call):
    try:
        call()
    except TrayError as e:
        return e
    raise AssertionError("no TrayError")


def _good(**change):
    fields = {"rate_hz": 80, "zero": [1000], "sign": [1], "per_cat": 4300, "cat_sd": 86,
              "noise": 86, "cats": 5}
    fields.update(change)
    return lambda: Calibration(**fields)


def _corner_off():
    cal = Calibrator(80, 4)
    cal.levels[0] = [0, 0, 0, 0]
    cal.levels[1] = [1000, 1000, 1000, 1000]
    for k in range(4):
        cal.corners[k] = [1000, 1000, 1000, 1000]  # every cell took an even share
    cal._var = [100]
    return cal.result()


CASES = (
    ("rate_hz", lambda: Calibrator(11), "10 or 80 readings a second"),
    ("cells", lambda: Calibrator(80, 2), "one, or four under the corners"),
    ("cats", lambda: Calibrator(80).capture(201), "at most 200 cats"),
    ("per_cat", _good(per_cat=1 << 20, cat_sd=100, noise=100), "heavier load"),
    ("noise", _good(noise=3000), "check the load cell's wiring"),
    ("cat_sd", _good(cat_sd=3000), "cats of one set"),
    ("raw", lambda: Calibrator(80).feed(1.5), "HX711's wiring"),
    ("corner", _corner_off, "right above that cell"),
)


def test_each_refusal_of_the_tray_reads_in_plain_words():
    for field, call, words in CASES:
        e = _error(call)
        assert e.field == field, (field, e.field, str(e))
        text = plain(e)
        assert words in text, (field, text)
        assert text[0].isupper(), text
        for code in CODE_WORDS:
            assert code not in text, (field, code, text)


def test_a_refusal_without_a_field_keeps_the_trays_own_words():
    cal = Calibrator(80)
    cal.levels[0] = [0]
    cal.levels[1] = [5]  # one cat adds 5 counts
    cal._var = [4]
    text = plain(_error(cal.result))
    assert text.startswith("One cat adds 5 counts, too few to count"), text
    assert "more sensitive load cell" in text


def test_every_plain_sentence_names_what_to_do():
    for field in PLAIN:
        text = PLAIN[field]
        assert ":" in text, (field, text)


def test_a_refused_capture_drops_the_stations_press_ok():
    assert _again("the load moved while measuring: keep hands off the tray, then press OK "
                  "again") == "The load moved while measuring: keep hands off the tray. Weigh again."
    assert _again("much noisier than before: something touched the tray; press OK again") == \
        "Much noisier than before: something touched the tray. Weigh again."


def test_figures_read_the_same_on_both_interpreters():
    assert percent(9) == "0.9%" and percent(1003) == "100.3%" and percent(0) == "0.0%"
