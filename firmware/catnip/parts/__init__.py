# The table's hardware as the app uses it, built from board.json: hardware.py
# builds every driver, screen.py and health.py keep a station's faults to one
# OFFLINE / ONLINE pair of events, sound.py plays the buzzer, and detect.py
# surveys the bus at a first power-up that has no board.json.
#
# May import itself, drivers/, keys.py, layout.py and the build's shipped.py.
# hardware.py imports `machine`; detect.py does too and is loaded only by boot
# for that survey. The rest takes what it drives as an argument.
