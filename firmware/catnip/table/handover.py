# The app hands the USB serial to the REPL: Ctrl-C from a tool (Thonny's
# Stop, every mpremote command) or the laptop's stop command. The loop
# stops between two commands of its line, so no press is half carried out
# and no journal write is in flight: every accepted move is on flash, and
# the game in play is offered at the next power-up, as after a power cut.
# Here the journal lets go of its file, the buzzer's PWM stops, and every panel
# says the table has stopped, so nobody presses on at a table that no
# longer reads its buttons. Loaded only then.
from catnip.ui import draw


def stop(app, why=None):
    """The app at rest for the REPL; `why` it stopped (the laptop's words,
    None for Ctrl-C), as the line says it."""
    app.journal.close()
    app.sound.off()
    saved = app.journal.resumable() is not None  # what the next power-up offers
    lines = ["Stopped: REPL", "(Ctrl-C)" if why is None else "(the laptop)"]
    if saved:
        lines.append("Game saved.")
    lines += ["Unplug, plug in", "to play again"]
    draw.everywhere(app.hw, lines, app.clock.ticks_ms())
    return why or "Ctrl-C"
