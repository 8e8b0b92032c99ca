# What the stations show: screens drawn into a station's Screen (a
# framebuf), and what each button does there. May import itself, rules/,
# keys.py, wire.py (how names are shown) and flash/ (the Clowder high scores
# shown at setup and in play); the hardware, `machine` and the app never:
# what it draws on is handed in. A game's screens may name its extras at the
# table (stack.SIDE), as text: the App imports them as the game starts.
#
# Every screen is a pure function of (view, local UI state): `view` is what
# the rules let that station see (game.view(seat) for a player's own
# station, game.public() for everyone else) and `local` is the station's
# cursor, picker and peek state. Nothing else of another player reaches a
# station. A game module provides:
#
#     Local()                     one station's UI state
#     draw(fb, view, local)       the whole screen
#     press(view, local, button)  a button press: the action to submit, or None
#     say(event, view)            a public event as a line of text, or None
#     table(fb, public)           the table display
