# catnip: a table companion for three cat games on a Raspberry Pi Pico.
