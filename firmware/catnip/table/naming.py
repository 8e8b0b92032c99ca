# The players' names at the table, kept on flash for the board the table is
# wired as (catnip.flash.tablenames): a laptop sends them all
# (catnip.link.remote), or a station picks its own at setup (catnip.ui.names).
from catnip import wire
from catnip.flash import tablenames


def kept(hw, stations):
    """(names by station for `hw`'s board, every name the table knows)."""
    return tablenames.load(hw.board.name, stations)


class Picking:
    """What setup's name picker asks of the table `app`: the names it knows,
    and to keep the one a station picked."""

    def __init__(self, app):
        self.app = app

    def known(self):
        return self.app.known

    def pick(self, station, name):
        """Station's name from now on, kept on flash; or why not (nothing changes)."""
        app = self.app
        names = tablenames.with_name(app.names, station, name)
        try:
            known = tablenames.save(app.hw.board.name, app.stations, names)
        except wire.WireError as e:
            return str(e)
        except OSError as e:
            return "The flash did not keep the name (%s)" % e
        app.rename(names, known)
        return None
