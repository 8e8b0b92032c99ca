# A station's four buttons as catnip numbers them in events, in the order of
# catnip.board.BUTTONS, whatever pins or expander bits they are wired to.
# PURE: the hardware layer and the screens share these.
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

UP = const(0)
DOWN = const(1)
OK = const(2)
BACK = const(3)
