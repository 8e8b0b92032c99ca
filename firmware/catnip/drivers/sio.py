# The one register-level difference between the Pico's RP2040 and the Pico
# 2's RP2350 that catnip meets: everything else goes through machine and rp2.
# PURE: the native HX711 pass (catnip.drivers.hx711_sio) asks it once at import.


def sio_words(machine):
    """(GPIO_OUT_SET, GPIO_OUT_CLR) as word indices from the SIO block's base,
    for the chip sys.implementation._machine names (pico-sdk 2.2.0's
    src/rp2040 and src/rp2350 hardware_regs/include/hardware/regs/sio.h:
    0x014, 0x018 on the RP2040; 0x018, 0x020 on the RP2350). GPIO_IN is
    0x004 on both."""
    if "RP2350" in machine:
        return 6, 8
    return 5, 6
