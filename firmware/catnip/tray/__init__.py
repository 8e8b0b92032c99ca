# The Stack O' Cats tray: HX711 load-cell readings in, tower events and turn
# verdicts out. PURE: runs unchanged on the Pico and the laptop, and may
# import only itself.
#
# The app's view (docs/tray.md has the rest):
#
#   tray = Tray(Calibration.from_dict(saved), wedged=4, in_play=40)
#   tray.tare()                          # the empty base on the tray
#   asyncio.create_task(hw.weigh(feed.counts, feed.fault))   # feed = TrayFeed(tray, show)
#
#   tray.begin_attempt()                 # the active player's attempt starts
#   ... events arrive through show(ev): "handling", "placed", "collapse",
#   ... "removed", "settled", "fault"
#   v = tray.verdict()                   # on each "settled" and "collapse" event
#                                        # until answered (a collapse replaces an
#                                        # earlier verdict); None while the load
#                                        # moves or a call is due
#   # v["kind"]: "placed" | "collapse" | "ask" | "none" (nothing yet: wait
#   # or ask); v["n"]: cats more on the tray; one question: v["ask"]
#   # ("added" | "fell" | "cats") with
#   # v["min"] <= v["default"] <= v["max"], v["conf"] (percent sure of
#   # exactly the default; 0: a question), v["why"]. No height: weight
#   # cannot tell one.
#   record = tray.confirm(v["id"], answer)   # journal it; ends the attempt
#
# Between attempts, cats leaving the tray are a removal (tidying); during
# one, a collapse, whether or not one struck the tray, unless they could
# all be fallen cats lying on it (tidying while the player tries again).
# The count and the tower never go below 0 or above in_play: a load no
# count explains asks.
#
# Stages, one job each: sensor (is it alive), readings (still or moving, the
# level), episode (what the load did while moving), calls (Caller: what the
# load means when it comes to rest), counting (whole cats), turn (the tower,
# the attempt, proposals), lean (where the weight sits), calibration (what
# the maker measured), estimator (Tray: checks its input, runs the readings
# and says when the Caller is asked), feed (TrayFeed: the driver's
# callbacks); calibrator (Calibrator: the maker's procedure, imported from
# catnip.tray.calibrator only while a tray is calibrated: on the Pico imported
# code takes heap).
# The names below are the package's (no __all__: a list of them would take heap).
from catnip.tray.calibration import Calibration  # noqa: F401
from catnip.tray.common import ALL_ONES, FULL_SCALE, MIN_COUNT, TrayError  # noqa: F401
from catnip.tray.estimator import Tray  # noqa: F401
from catnip.tray.feed import TrayFeed  # noqa: F401
