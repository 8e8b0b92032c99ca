# The PIO clocking program, assembled by devsim's rp2 stand-in, against
# encodings worked out by hand from the RP2040 datasheet (section 3.4).
from check import message

from catnip.drivers.hx711_pio import program, pulses_per_word
import rp2

# One side-set pin, no opt bit: side-set value at bit 12, delay in bits 8-11.
EXPECTED_ONE_CELL = [
    0x80A0,  # pull block          side 0
    0xE057,  # set y, 23           side 0    (SET 111, dest y=010, data 10111)
    0xB142,  # nop (mov y, y)      side 1 [1]
    0x4001,  # in pins, 1          side 0    (IN 010, source pins=000, count 1)
    0x0082,  # jmp y--, bit        side 0    (JMP 000, cond y--=100, addr 2)
    0xA047,  # mov y, osr          side 0    (MOV 101, dest y=010, source osr=111)
    0xB142,  # nop                 side 1 [1]
    0x0186,  # jmp y--, select     side 0 [1]
    0x8020,  # push block          side 0    (PUSH 100, block bit 5)
]


def test_one_cell_program_encodes_as_the_datasheet_says():
    prog = program(1)
    assert prog.instructions == EXPECTED_ONE_CELL
    assert (prog.wrap_target, prog.wrap) == (0, 8)
    assert prog.config["push_thresh"] == 24 and prog.config["autopush"]


def test_four_cells_sample_four_pins_and_push_every_six_pulses():
    prog = program(4)
    assert prog.instructions[3] == 0x4004  # in pins, 4
    assert prog.config["push_thresh"] == 24
    assert [pulses_per_word(n) for n in (1, 2, 3, 4, 5, 6, 30)] == [24, 12, 8, 6, 6, 4, 1]


def test_assembler_refuses_what_the_hardware_cannot_do():
    def too_long_delay():
        @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW)
        def body():
            nop().side(0)[16]  # noqa: F821  only 4 delay bits are left

    assert "delay 16" in message(ValueError, too_long_delay)

    def bad_operand():
        @rp2.asm_pio()
        def body():
            set(osr, 1)  # noqa: F821

    assert "set destination" in message(ValueError, bad_operand)
