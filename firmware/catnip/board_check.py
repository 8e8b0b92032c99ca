# What every part of a board file is checked for (catnip.board checks the
# file part by part): a GPIO the Pico exposes on its header, an I2C address
# a part can have, two parts on one pin or answering at one address, and
# the problems found, each in words. PURE, like catnip.board: it imports
# only catnip.layout and the rules' wording of a bad value.
from catnip.layout import is_int as _is_int
from catnip.rules.vet import describe

# The Pico (RP2040) and the Pico 2 (RP2350A) share one pinout: GP0-GP29, of
# which GP23 (power-supply mode), GP24 (VBUS sense), GP25 (LED) and GP29
# (VSYS/3) are wired on the board itself and are not on its header. One board
# file serves both.
NOT_ON_HEADER = (23, 24, 25, 29)
GPIO_COUNT = 30


def _address_text(text):
    """An address written as text, "0x3C" or "60", read alike on CPython and
    MicroPython: ASCII digits only (no "0x3_C", no other scripts' digits,
    no spaces or signs), else None."""
    hexa = text[:2] in ("0x", "0X")
    digits = text[2:] if hexa else text
    allowed = "0123456789abcdefABCDEF" if hexa else "0123456789"
    if not 0 < len(digits) <= 4 or not all(ch in allowed for ch in digits):
        return None
    return int(digits, 16 if hexa else 10)


class Check:
    """The problems of one board file so far, and the pins and I2C devices
    its parts use, to find two on one pin or at one address."""

    def __init__(self):
        self.problems = []
        self.pins = {}  # GPIO -> [(where, shareable role)]
        self.devices = []  # (bus, channel or None, address, where)

    def fail(self, message):
        self.problems.append(message)

    def known(self, d, keys, where):
        if not isinstance(d, dict):
            self.fail("%s: expected an object with %s" % (where, ", ".join(keys)))
            return
        for k in d:
            if k not in keys:
                self.fail("%s: unknown key %s (known: %s)" % (where, describe(k), ", ".join(keys)))

    def pin(self, value, where, share=None):
        """A GPIO number the Pico exposes; `share` names a role several users
        may wire to one pin (an open-drain interrupt line, a common clock)."""
        if not _is_int(value):
            self.fail("%s: a pin is a GPIO number like 4 (for GP4), not %s"
                      % (where, describe(value)))
            return None
        if not 0 <= value < GPIO_COUNT:
            self.fail("%s: GP%d does not exist; a Pico or Pico 2 has GP0-GP29" % (where, value))
            return None
        if value in NOT_ON_HEADER:
            self.fail("%s: GP%d is not on the Pico's header (GP23, GP24, GP25 and GP29 are used "
                      "on the board itself); pick a free pin from GP0-GP22 or GP26-GP28"
                      % (where, value))
            return None
        self.pins.setdefault(value, []).append((where, share))
        return value

    def shared_pins(self):
        for gp in sorted(self.pins):
            users = self.pins[gp]
            roles = set(role for _, role in users)
            if len(users) > 1 and (None in roles or len(roles) > 1):
                self.fail("GP%d is used twice: %s; give each its own pin"
                          % (gp, " and ".join(w for w, _ in users)))

    def address(self, value, where, low=0x08, high=0x77):
        if isinstance(value, str):
            number = _address_text(value)
            if number is None:
                self.fail("%s: %s is not an address; write it like \"0x3C\""
                          % (where, describe(value)))
                return None
            value = number
        if not _is_int(value) or not low <= value <= high:
            self.fail("%s: %s is not an address this part can have (0x%02X-0x%02X)"
                      % (where, describe(value), low, high))
            return None
        return value

    def device(self, bus, channel, addr, where):
        if bus is not None and addr is not None:
            self.devices.append((bus, channel, addr, where))

    def addresses(self, mux):
        """Every mux channel sees the devices on its own segment plus those on
        the bus upstream of the mux (the mux itself included); two parts at
        one address on what one channel sees answer together."""
        buses = set(d[0] for d in self.devices)
        for bus in sorted(buses):
            upstream = [d for d in self.devices if d[0] == bus and d[1] is None]
            channels = sorted(set(d[1] for d in self.devices if d[0] == bus and d[1] is not None))
            segments = [(None, upstream)]
            segments += [(ch, upstream + [d for d in self.devices if d[0] == bus and d[1] == ch])
                         for ch in channels]
            reported = set()
            for ch, seen in segments:
                by_addr = {}
                for d in seen:
                    by_addr.setdefault(d[2], []).append(d[3])
                for addr in sorted(by_addr):
                    users = by_addr[addr]
                    key = (addr, tuple(users))
                    if len(users) > 1 and key not in reported:
                        reported.add(key)
                        place = "bus %d" % bus if ch is None else "bus %d channel %d" % (bus, ch)
                        self.fail("%s: address 0x%02X is used by %s; give one of them another "
                                  "address or move it to another bus or mux channel"
                                  % (place, addr, " and ".join(users)))
