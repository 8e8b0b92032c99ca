# The flash store: the game journal (journal.py, with the scan that reads it
# back at power-up and the shapes of its files), files written whole and
# safely (flashfile.py), the Clowder high scores (highscores.py) and each
# finished game's signature beside its records (seals.py).
#
# May import only itself, rules/ (the log's encoding, the high-score table)
# and wire.py; it works on any filesystem, the Pico's littlefs or a folder.
