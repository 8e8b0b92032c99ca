"""A stand-in for Wokwi's runtime, to run a custom chip (hardware/wokwi/chips/) without Wokwi:
it loads the chip's WebAssembly with wasmtime, gives it the API functions Wokwi gives a chip
(docs.wokwi.com/chips-api: pins, timers, attributes, I2C, framebuffer) and wires its pins to
devsim's pin board, where catnip's own drivers clock it through the fake `machine.Pin`, and its
I2C device to a devsim bus, where they reach it through the fake `machine.I2C`. Timers run in
the virtual time of a devsim VirtualClock, so a run is exact and repeatable. As in Wokwi, the
chip's .chip.json beside its .wasm gives its pins and its display.

    with VirtualClock() as clock:
        chip = WokwiChip(wasm, clock, {"SCK": 20, "DT1": 21}, {"cats": 1})
        hx = HX711(20, 21, clock=clock)     # catnip's driver, bit by bit
        chip.set("cats", 2)                 # a slider moves

Like Wokwi, only the functions the chip imports are given, each checked against the documented
signature; a chip importing anything else fails to load here as it would there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import wasmtime

from devsim import pins

ROOT = Path(__file__).resolve().parent.parent
CHIPS = ROOT / "hardware" / "wokwi" / "chips"

I32, F32, F64 = wasmtime.ValType.i32(), wasmtime.ValType.f32(), wasmtime.ValType.f64()
# Wokwi's names for the functions a chip may import, with their WebAssembly signatures (the
# header at wokwi.com/api/chips/wokwi-api.h; the docs' GPIO, Time and Attributes pages).
API = {
    "pinInit": ([I32, I32], [I32]),
    "pinRead": ([I32], [I32]),
    "pinWrite": ([I32, I32], []),
    "pinWatch": ([I32, I32], [I32]),
    "pinWatchStop": ([I32], []),
    "pinMode": ([I32, I32], []),
    "timerInit": ([I32], [I32]),
    "timerStart": ([I32, I32, I32], []),
    "timerStartNanos": ([I32, F64, I32], []),
    "timerStop": ([I32], []),
    "getSimNanos": ([], [F64]),
    "attrInit": ([I32, F32], [I32]),
    "attrRead": ([I32], [I32]),
    "attrReadFloat": ([I32], [F32]),
    "i2cInit": ([I32], [I32]),
    "framebufferInit": ([I32, I32], [I32]),
    "bufferRead": ([I32, I32, I32, I32], []),
    "bufferWrite": ([I32, I32, I32, I32], []),
}
RISING, FALLING = 1, 2
OUTPUT, OUTPUT_LOW, OUTPUT_HIGH = 1, 16, 17
INPUT_PULLUP, INPUT_PULLDOWN = 2, 3
PULLS = {INPUT_PULLUP: pins.PULL_UP, INPUT_PULLDOWN: pins.PULL_DOWN}


def build(chip: str = "hx711-tray") -> Path:
    """The chip's .wasm, built by the Makefile's rule (clang for wasm32-wasi)."""
    wasm = CHIPS / f"{chip}.chip.wasm"
    subprocess.run(["make", "--no-print-directory", "-s", str(wasm.relative_to(ROOT))],
                   cwd=ROOT, check=True)
    return wasm


class WokwiChip:
    """One instance of a custom chip. wiring maps the chip's pin names to GPIO numbers on
    devsim's board (a pin left out is unconnected); attrs are diagram.json's attributes,
    and set() moves a control while the simulation runs."""

    def __init__(self, wasm: Path, clock, wiring: dict[str, int],
                 attrs: dict[str, float] | None = None, i2c=None):
        spec = json.loads(wasm.with_suffix(".json").read_text())
        self.display = spec.get("display")
        self.framebuffer = bytearray()
        self.i2c = i2c  # the devsim Bus the chip's I2C device is on
        self.clock = clock
        self.board = pins.board  # the one VirtualClock installed
        self.wiring = dict(wiring)
        self.values = dict(attrs or {})
        self.names: list[str] = []  # attribute ids -> names
        self.pin_names: list[str] = []  # pin ids -> names
        self.timers = Timers(clock, self._words, self._call)
        self._watchers: dict[int, object] = {}  # GPIO -> the chip's watch on it
        self._modes: dict[int, int] = {}  # pin id -> its mode
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        module = wasmtime.Module.from_file(engine, str(wasm))
        self.instance = wasmtime.Instance(self.store, module, [self._provide(i)
                                                               for i in module.imports])
        exports = self.instance.exports(self.store)
        self.table = exports["__indirect_function_table"]
        exports["chipInit"](self.store)
        # In Wokwi a misspelt attribute or pin is silently left out; here it is an error.
        for what, given, known in (("the chip has no attribute", self.values, self.names),
                                   ("the chip has no pin", self.wiring, self.pin_names),
                                   ("its .chip.json has no pin", self.pin_names, spec["pins"])):
            strange = sorted(set(given) - set(known))
            if strange:
                raise ValueError(f"{what} {', '.join(strange)} (it has {', '.join(known)})")

    def set(self, name: str, value: float) -> None:
        """A control moves (or an attribute is changed)."""
        if name not in self.names:
            raise ValueError(f"the chip has no attribute {name}")
        self.values[name] = value

    # -- linking ------------------------------------------------------------

    def _provide(self, imp):
        if imp.module != "env":
            raise LookupError(f"the chip imports {imp.module}.{imp.name}: Wokwi gives only env")
        if imp.name == "memory":
            self.memory = wasmtime.Memory(self.store, wasmtime.MemoryType(imp.type.limits))
            return self.memory
        if imp.name not in API:
            raise LookupError(f"the chip imports {imp.name}, which is not in Wokwi's chip API")
        params, results = API[imp.name]
        if [str(p) for p in imp.type.params] != [str(p) for p in params] or \
                [str(r) for r in imp.type.results] != [str(r) for r in results]:
            raise TypeError(f"the chip imports {imp.name} as {imp.type.params} -> "
                            f"{imp.type.results}, not Wokwi's {params} -> {results}")
        handler = getattr(self.timers if imp.name in TIMER_API else self, "_" + imp.name)
        return wasmtime.Func(self.store, wasmtime.FuncType(params, results), handler)

    def _string(self, ptr: int) -> str:
        data = self.memory.read(self.store, ptr, ptr + 256)
        return bytes(data[:data.index(0)]).decode()

    def _words(self, ptr: int, n: int) -> list[int]:
        data = self.memory.read(self.store, ptr, ptr + 4 * n)
        return [int.from_bytes(data[4 * k:4 * k + 4], "little") for k in range(n)]

    def _call(self, index: int, *args) -> None:
        self.table.get(self.store, index)(self.store, *args)

    # -- pins -----------------------------------------------------------------

    def _gpio(self, pin: int) -> int | None:
        return self.wiring.get(self.pin_names[pin])

    def _pinInit(self, name_ptr: int, mode: int) -> int:
        name = self._string(name_ptr)
        self.pin_names.append(name)
        pin = len(self.pin_names) - 1
        self._pinMode(pin, mode)
        return pin

    def _pinMode(self, pin: int, mode: int) -> None:
        self._modes[pin] = mode
        gp = self._gpio(pin)
        if gp is None:
            return
        if mode in (OUTPUT_LOW, OUTPUT_HIGH):
            self.board.drive(gp, 1 if mode == OUTPUT_HIGH else 0)
        elif mode != OUTPUT:  # an input: released, with the pull it asks for
            self.board.drive(gp, None)
            if mode in PULLS:
                self.board.set_pull(gp, PULLS[mode])

    def _pinRead(self, pin: int) -> int:
        gp = self._gpio(pin)
        if gp is None:  # not wired: its own pull, if any
            return 1 if self._modes.get(pin) == INPUT_PULLUP else 0
        return self.board.pin(gp).level()

    def _pinWrite(self, pin: int, value: int) -> None:
        gp = self._gpio(pin)
        if gp is not None and self.board.pin(gp).external != value:
            self.board.drive(gp, 1 if value else 0)

    def _pinWatch(self, pin: int, config: int) -> int:
        user_data, edge, callback = self._words(config, 3)
        gp = self._gpio(pin)
        if gp is None:
            return 1

        def changed(_gp, level, _t_us):
            if edge & (RISING if level else FALLING):
                self._call(callback, user_data, pin, level)

        self._pinWatchStop(pin)
        self._watchers[gp] = changed
        self.board.watch(gp, changed)
        return 1

    def _pinWatchStop(self, pin: int) -> None:
        gp = self._gpio(pin)
        if gp in self._watchers:
            self.board.unwatch(gp, self._watchers.pop(gp))

    # -- time: Timers (below) -------------------------------------------------

    # -- attributes -----------------------------------------------------------

    def _attrInit(self, name_ptr: int, default: float) -> int:
        name = self._string(name_ptr)
        self.names.append(name)
        self.values.setdefault(name, default)
        return len(self.names) - 1

    def _attrRead(self, attr: int) -> int:
        return int(self.values[self.names[attr]])

    def _attrReadFloat(self, attr: int) -> float:
        return float(self.values[self.names[attr]])


    # -- I2C ------------------------------------------------------------------

    def _i2cInit(self, config: int) -> int:
        user_data, address, _scl, _sda, connect, read, write, disconnect = self._words(config, 8)
        if self.i2c is None:
            raise ValueError("the chip has an I2C device: give WokwiChip a devsim bus (i2c=)")
        device = _I2CDevice(self, user_data, connect, read, write, disconnect)
        if address:
            self.i2c.attach(address, device.at(address))
        else:  # every address: the bus asks it for each one it does not know
            self.i2c.devices[("wokwi", id(device))] = device
        return 0

    # -- the display ----------------------------------------------------------

    def _framebufferInit(self, width_ptr: int, height_ptr: int) -> int:
        if not self.display:
            raise ValueError("the chip asks for a framebuffer but its .chip.json has no display")
        w, h = self.display["width"], self.display["height"]
        self.memory.write(self.store, w.to_bytes(4, "little"), width_ptr)
        self.memory.write(self.store, h.to_bytes(4, "little"), height_ptr)
        self.framebuffer = bytearray(w * h * 4)
        return 0

    def _bufferWrite(self, _buffer: int, offset: int, data: int, length: int) -> None:
        if offset + length > len(self.framebuffer):
            raise IndexError(f"bufferWrite of {length} bytes at {offset} past the framebuffer")
        self.framebuffer[offset:offset + length] = self.memory.read(self.store, data,
                                                                    data + length)

    def _bufferRead(self, _buffer: int, offset: int, data: int, length: int) -> None:
        self.memory.write(self.store, bytes(self.framebuffer[offset:offset + length]), data)

    def pixel(self, x: int, y: int) -> int:
        """The display's pixel at (x, y) as 0xRRGGBBAA."""
        k = (y * self.display["width"] + x) * 4
        return int.from_bytes(self.framebuffer[k:k + 4], "big")


class _I2CDevice:
    """The chip's I2C device on a devsim bus. The bus works in whole transactions: each is
    the chip's connect, a byte at a time, then disconnect, as Wokwi calls them. Asked whether
    an address answers (devsim's find), it probes as a scan does: connect, then disconnect."""

    def __init__(self, chip: WokwiChip, user_data, connect, read, write, disconnect):
        self.chip, self.user_data = chip, user_data
        self.callbacks = (connect, read, write, disconnect)

    def _call(self, k: int, *args):
        return self.chip.table.get(self.chip.store, self.callbacks[k])(self.chip.store,
                                                                      self.user_data, *args)

    def downstream(self, address: int):
        acked = self._call(0, address, 0)
        self._call(3)
        return self.at(address) if acked else None

    def at(self, address: int):
        device = self

        class At:
            def write(self, data: bytes) -> None:
                device.transaction(address, data=data)

            def read(self, n: int) -> bytes:
                return device.transaction(address, n=n)

        return At()

    def transaction(self, address: int, data: bytes = b"", n: int = 0) -> bytes:
        try:
            if not self._call(0, address, 1 if n else 0):
                raise OSError(EIO)
            for k, byte in enumerate(data):
                if not self._call(2, byte):
                    raise OSError(EIO, f"byte {k} of the write was not acknowledged")
            return bytes(self._call(1) & 0xFF for _ in range(n))
        finally:
            self._call(3)


EIO = 5


# The chip API's calls Timers answers; the chip answers the rest.
TIMER_API = ("timerInit", "timerStart", "timerStartNanos", "timerStop", "getSimNanos")


class Timers:
    """Wokwi's timers in the board's simulated time: each calls the chip back
    (call(callback, user_data)) once, or every period, until stopped or
    started again; words(ptr, n) reads the chip's memory."""

    def __init__(self, clock, words, call):
        self.clock = clock
        self._words = words
        self._call = call
        self.ids: list[tuple[int, int]] = []  # timer ids -> (callback, user_data)
        self._gen: list[int] = []  # a start or stop makes earlier schedules stale

    def _timerInit(self, config: int) -> int:
        user_data, callback = self._words(config, 2)
        self.ids.append((callback, user_data))
        self._gen.append(0)
        return len(self.ids) - 1

    def _timerStart(self, timer: int, micros: int, repeat: int) -> None:
        self._gen[timer] += 1
        self._schedule(timer, micros * 1000, bool(repeat))

    def _timerStartNanos(self, timer: int, nanos: float, repeat: int) -> None:
        self._gen[timer] += 1
        self._schedule(timer, int(nanos), bool(repeat))

    def _schedule(self, timer: int, nanos: int, repeat: bool) -> None:
        gen = self._gen[timer]
        # The board's clock counts microseconds: a shorter timer fires within the same one.
        self.clock.at(self.clock.now_us() + -(-nanos // 1000), self._fire, (timer, gen, nanos,
                                                                            repeat))

    def _fire(self, _t_us, arg) -> None:
        timer, gen, nanos, repeat = arg
        if gen != self._gen[timer]:
            return  # restarted or stopped since
        if repeat:
            self._schedule(timer, nanos, True)
        callback, user_data = self.ids[timer]
        self._call(callback, user_data)

    def _timerStop(self, timer: int) -> None:
        self._gen[timer] += 1

    def _getSimNanos(self) -> float:
        return float(self.clock.now_us() * 1000)
