# The table: the app that decides what happens at the table (which scene each
# station shows, what a key does, what is journaled and told to the laptop),
# the tray's weighing during a game and the tray's calibration.
#
# May import every other room of catnip (rules/, tray/, ui/, flash/, link/,
# parts/, keys, wire). It never imports `machine` nor the code that builds the
# hardware: boot builds the hardware and hands it in.
