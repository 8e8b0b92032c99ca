# What the stations show: screens drawn into a station's Screen (a
# framebuf), and what each button does there. May import itself, rules/,
# keys.py, wire.py (how names are shown), flash/ (the Clowder high scores
# shown at setup and in play) and catnip.forget (a scene drops its code as
# it leaves); the hardware, `machine` and the app never: what it draws on
# is handed in, and what a game's extras at the table add to a view (the
# tray's state) is asked of the side Play is given.
#
# The table shows one scene at a time (scene.py: Setup, Play, End, the
# tray's calibration); each answers buttons and the time with a command
# for the App (catnip.table.app.COMMANDS) and draws every station.
#
# Every screen is a pure function of (view, local UI state): `view` is what
# the rules let that station see (game.view(seat) for a player's own
# station, game.public() for everyone else) and `local` is the station's
# cursor, picker and peek state. Nothing else of another player reaches a
# station. A game module provides:
#
#     Local()                           one station's UI state
#     draw_screen(fb, view, local)      the whole screen
#     press(view, local, button, kind)  a button event: the action to submit,
#                                       ("answer", value) to the table's own
#                                       question, ("why", text), or None
#     say(event, view)                  a public event as a line of text, or None
#     sound(event)                      the tune a public event plays, or None
#     draw_table(fb, public)            the table display
