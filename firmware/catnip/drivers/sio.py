# The one register-level difference between the Pico's RP2040 and the Pico
# 2's RP2350 that catnip meets: everything else goes through machine and rp2.
# PURE: the native HX711 pass (catnip.drivers.hx711_sio) asks it once at import.


SIO_BASE = 0xD0000000  # both chips (pico-sdk's hardware/regs/addressmap.h)


def out_registers(machine):
    """The addresses of GPIO_OUT_SET and GPIO_OUT_CLR for the chip
    sys.implementation._machine names (pico-sdk 2.2.0's src/rp2040 and
    src/rp2350 hardware_regs/include/hardware/regs/sio.h: 0x014, 0x018 from
    SIO_BASE on the RP2040; 0x018, 0x020 on the RP2350). GPIO_IN is 0x004 on
    both."""
    if "RP2350" in machine:
        return SIO_BASE + 0x018, SIO_BASE + 0x020
    return SIO_BASE + 0x014, SIO_BASE + 0x018
