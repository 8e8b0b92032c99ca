# The HX711 clocking pass on the Pico, in native code: PD_SCK driven and the
# DOUTs sampled through the SIO block's GPIO registers from 0xd0000000. A pass
# of four cells takes about 0.1 ms instead of the 2 ms of Pin calls, so it
# fits between chips that convert milliseconds apart. Where the registers are
# differs by chip (catnip.drivers.sio): the RP2350 keeps GPIO_HI_OUT
# between GPIO_OUT and GPIO_OUT_SET.
#
# HX711 datasheet timing: PD_SCK high and low each at least 0.2 us, DOUT
# valid 0.1 us after the rising edge; high for 60 us powers the chip down, so
# the caller keeps interrupts off for the whole pass.
import sys

import micropython
from micropython import const

from catnip.drivers.sio import out_registers

OUT_SET, OUT_CLR = out_registers(sys.implementation._machine)  # not const(): read once a pass

_HOLD = const(3)  # delay loop turns per half-pulse: 0.5 us high (emulated)


@micropython.viper
def shift(sck: int, douts, n: int, acc, extra: int, level: int):
    # 24 data pulses shifting each chip's bit into acc[i] (an array of "i"),
    # then `extra` selection pulses. With level 0 the clock stays low (a dry
    # run that times the pass). douts: bytes of the chips' GPIO numbers.
    sio = ptr32(0xD0000000)
    out_set = ptr32(OUT_SET)
    out_clr = ptr32(OUT_CLR)
    pins = ptr8(douts)
    words = ptr32(acc)
    clock = 1 << sck
    high = clock if level else 0
    i = 0
    while i < n:
        words[i] = 0
        i += 1
    pulse = 0
    total = 24 + extra
    while pulse < total:
        out_set[0] = high
        d = 0
        while d < _HOLD:
            d += 1
        out_clr[0] = clock
        d = 0
        while d < _HOLD:
            d += 1
        if pulse < 24:
            sampled = sio[1]  # GPIO_IN
            i = 0
            while i < n:
                words[i] = (words[i] << 1) | ((sampled >> pins[i]) & 1)
                i += 1
        pulse += 1

