# The serial line to the laptop: line.py frames and checks what goes both
# ways (the frames themselves are wire.py's), remote.py carries out the
# laptop's commands on the app it is handed.
#
# May import itself, wire.py, rules/, flash/ (the journal's errors) and
# version.py. The app arrives as an argument; `machine` only in the lazy
# uses that tests/test_layering.py names.
