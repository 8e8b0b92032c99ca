# Chip models: each decodes the real bus or pin traffic of one part, as the
# real part would, into the state a person or a test can inspect.
