# TrayFeed: a Tray on the HX711 driver's callbacks.


class TrayFeed:
    """A Tray on the HX711 driver: pass `counts` and `fault` as the driver's
    callbacks, HX711Group.run(feed.counts, feed.fault) or
    Hardware.weigh(feed.counts, feed.fault). Each event the tray gives goes
    to on_event(ev). A driver fault (reported once per outage) is the tray's
    "no data" fault; the next reading ends it. Allocates nothing per reading
    unless the tray returns an event."""

    def __init__(self, tray, on_event):
        self.tray = tray
        self.on_event = on_event
        self._four = tray.cal.cells == 4

    def counts(self, counts):
        if self._four:
            ev = self.tray.feed4(counts[0], counts[1], counts[2], counts[3])
        else:
            ev = self.tray.feed(counts[0])
        if ev is not None:
            self.on_event(ev)

    def fault(self, error):
        ev = self.tray.no_data()
        if ev is not None:
            self.on_event(ev)
