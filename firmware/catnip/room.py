# Stock MicroPython only (catnip.start): catnip's code runs from .mpy files
# and loads into the heap, and what loads at power-up leaves the heap in
# pieces. A Room holds one piece whole for code still to load.


class Room:
    """A piece of the heap, `size` bytes, held whole for the first game's
    code. Whoever passes it on holds the Room, never the piece, so that the
    last holder letting go of it (the app, as that code loads) frees it."""

    def __init__(self, size):
        self.piece = bytearray(size)

    def spare(self, make, *args):
        """make(*args), the piece let go for it if the heap has no other room
        (a power-up that found a game to resume can leave the setup scene's
        code none): that code leaves as the game's loads, which has it then."""
        try:
            return make(*args)
        except MemoryError:
            if self.piece is None:
                raise
        self.piece = None
        import gc

        gc.collect()
        return make(*args)
