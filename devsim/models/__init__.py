# Chip models: each decodes the real bus or pin traffic of one part into the
# state a person or a test can inspect.
