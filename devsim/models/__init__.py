# Chip models: each one watches and drives the pins of devsim's board exactly
# as the real part would, so drivers are tested on the signals they produce.
