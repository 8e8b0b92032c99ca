# A stand-in for MicroPython's `rp2` module: the PIO assembler behind
# @rp2.asm_pio, and state machines that run the assembled program on the
# simulated board.
#
# The assembler encodes instructions as the RP2040 datasheet (section 3.4)
# lays them out and runs anywhere. Running a state machine needs CPython and
# the rp2040-pio-emulator package (pioemu), and a VirtualClock installed: the
# program then drives and samples devsim's pins cycle by cycle, in the same
# virtual time as the chip models.
from devsim import pins as _pins


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


# -- the assembler ------------------------------------------------------------

# Operand codes by instruction field (RP2040 datasheet 3.4.2-3.4.12).
_JMP_CONDITIONS = {"not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5,
                   "pin": 6, "not_osre": 7}
_IN_SOURCES = {"pins": 0, "x": 1, "y": 2, "null": 3, "isr": 6, "osr": 7}
_OUT_DESTINATIONS = {"pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5,
                     "isr": 6, "exec": 7}
_MOV_DESTINATIONS = {"pins": 0, "x": 1, "y": 2, "exec": 4, "pc": 5, "isr": 6, "osr": 7}
_MOV_SOURCES = {"pins": 0, "x": 1, "y": 2, "null": 3, "status": 5, "isr": 6, "osr": 7}
_SET_DESTINATIONS = {"pins": 0, "x": 1, "y": 2, "pindirs": 4}
_WAIT_SOURCES = {"gpio": 0, "pin": 1, "irq": 2}


class _Operand:
    """A name the program body uses (pins, x, y_dec, block, ...)."""

    def __init__(self, name, op=0):
        self.name = name
        self.op = op  # MOV operation: 1 invert, 2 bit-reverse

    def __repr__(self):
        return self.name


def invert(operand):
    return _Operand(operand.name, 1)


def reverse(operand):
    return _Operand(operand.name, 2)


_OPERANDS = {name: _Operand(name) for name in (
    "pins", "x", "y", "null", "pindirs", "pc", "isr", "osr", "exec", "status",
    "not_x", "x_dec", "not_y", "y_dec", "x_not_y", "pin", "not_osre",
    "gpio", "irq", "block", "noblock", "iffull", "ifempty", "clear", "rel")}


def _code(table, operand, what):
    name = getattr(operand, "name", None)
    if name not in table:
        raise ValueError("PIO: %r is not a valid %s" % (operand, what))
    return table[name]


class _Assembler:
    def __init__(self, sideset_init, sideset_opt):
        if sideset_init is None:
            count = 0
        elif isinstance(sideset_init, tuple):
            count = len(sideset_init)
        else:
            count = 1
        self.sideset_count = count
        self.sideset_opt = sideset_opt
        self.labels = {}
        self.program = []
        self.wrap_target = 0
        self.wrap = None

    def emit(self, word):
        self.program.append(word)
        return self

    # Chained after an instruction: .side(v) and [delay]
    def side(self, value):
        bits = self.sideset_count + (1 if self.sideset_opt else 0)
        if not self.sideset_count:
            raise ValueError("PIO: .side() needs sideset_init in @asm_pio")
        if not 0 <= value < 1 << self.sideset_count:
            raise ValueError("PIO: side-set value %d does not fit %d pin(s)"
                             % (value, self.sideset_count))
        if self.sideset_opt:
            value |= 1 << self.sideset_count
        self.program[-1] |= value << (13 - bits)
        return self

    def __getitem__(self, delay):
        bits = 5 - self.sideset_count - (1 if self.sideset_opt else 0)
        if not 0 <= delay < 1 << bits:
            raise ValueError("PIO: delay %d exceeds the %d delay bits left by side-set"
                             % (delay, bits))
        self.program[-1] |= delay << 8
        return self

    def address(self, label):
        if isinstance(label, int):
            return label
        return self.labels.get(label, 0)  # pass 0 fills in the labels

    def functions(self):
        a = self

        def wrap_target():
            a.wrap_target = len(a.program)

        def wrap():
            a.wrap = len(a.program) - 1

        def label(name):
            a.labels[name] = len(a.program)

        def word(instr, label=None):
            return a.emit(instr | (a.address(label) if label is not None else 0))

        def nop():
            return a.emit(0xA042)  # mov y, y

        def jmp(cond, label=None):
            if label is None:
                cond, label = None, cond
            c = 0 if cond is None else _code(_JMP_CONDITIONS, cond, "jmp condition")
            return a.emit(0x0000 | c << 5 | a.address(label))

        def wait(polarity, source, index):
            return a.emit(0x2000 | (polarity & 1) << 7
                          | _code(_WAIT_SOURCES, source, "wait source") << 5 | index & 0x1F)

        def in_(source, count):
            return a.emit(0x4000 | _code(_IN_SOURCES, source, "in source") << 5 | count & 0x1F)

        def out(dest, count):
            return a.emit(0x6000 | _code(_OUT_DESTINATIONS, dest, "out destination") << 5
                          | count & 0x1F)

        def _flags(args):
            names = [getattr(x, "name", None) for x in args]
            block = 0 if "noblock" in names else 1
            cond = 1 if ("iffull" in names or "ifempty" in names) else 0
            return cond << 6 | block << 5

        def push(*args):
            return a.emit(0x8000 | _flags(args))

        def pull(*args):
            return a.emit(0x8080 | _flags(args))

        def mov(dest, source):
            return a.emit(0xA000 | _code(_MOV_DESTINATIONS, dest, "mov destination") << 5
                          | source.op << 3 | _code(_MOV_SOURCES, source, "mov source"))

        def set(dest, data):
            return a.emit(0xE000 | _code(_SET_DESTINATIONS, dest, "set destination") << 5
                          | data & 0x1F)

        names = dict(_OPERANDS)
        names.update(wrap_target=wrap_target, wrap=wrap, label=label, word=word, nop=nop,
                     jmp=jmp, wait=wait, in_=in_, out=out, push=push, pull=pull, mov=mov,
                     set=set, invert=invert, reverse=reverse)
        return names


class Program:
    """An assembled PIO program and the configuration @asm_pio gave it."""

    def __init__(self, assembler, config):
        self.instructions = list(assembler.program)
        self.wrap_target = assembler.wrap_target
        self.wrap = (assembler.wrap if assembler.wrap is not None
                     else len(self.instructions) - 1)
        self.sideset_count = assembler.sideset_count
        self.sideset_opt = assembler.sideset_opt
        self.config = config


def asm_pio(set_init=None, out_init=None, sideset_init=None, in_shiftdir=0, out_shiftdir=0,
            autopush=False, autopull=False, push_thresh=32, pull_thresh=32,
            fifo_join=PIO.JOIN_NONE, sideset_opt=False):
    """@rp2.asm_pio(...): assemble the decorated function's body. Like
    MicroPython's, it runs the body twice (labels, then code) with the PIO
    names as the module's globals, so the body may use only those, literals
    and variables of enclosing functions."""
    config = dict(set_init=set_init, out_init=out_init, sideset_init=sideset_init,
                  in_shiftdir=in_shiftdir, out_shiftdir=out_shiftdir, autopush=autopush,
                  autopull=autopull, push_thresh=push_thresh, pull_thresh=pull_thresh,
                  fifo_join=fifo_join)

    def assemble(body):
        module_globals = body.__globals__
        saved = dict(module_globals)
        assembler = None
        try:
            for _ in range(2):
                labels = assembler.labels if assembler else {}
                assembler = _Assembler(sideset_init, sideset_opt)
                assembler.labels = labels
                module_globals.clear()
                module_globals.update(assembler.functions())
                body()
        finally:
            module_globals.clear()
            module_globals.update(saved)
        if len(assembler.program) > 32:
            raise ValueError("PIO: %d instructions do not fit the 32-word instruction memory"
                             % len(assembler.program))
        return Program(assembler, config)

    return assemble


# -- state machines -------------------------------------------------------------

_PIO_SIDE_BIT = 31  # where the emulator keeps side-set pins (see StateMachine)


class StateMachine:
    """One PIO state machine running `program` at `freq` cycles per second on
    devsim's board, in the installed VirtualClock's time.

    pioemu samples `in pins` from its bit 0 and has no in_base, so this class
    presents GPIO in_base+k at the emulator's bit k and keeps the side-set
    pins at its top bits, then maps them back to the board's GPIOs."""

    def __init__(self, id, program, freq=125000000, in_base=None, sideset_base=None, **kw):
        try:
            from pioemu import State
        except ImportError:
            raise ImportError("running a PIO program in devsim needs CPython with the "
                              "rp2040-pio-emulator package (pip install rp2040-pio-emulator)")
        board = _pins.board
        if not hasattr(board, "timeline") or not hasattr(board.timeline, "run_until"):
            raise RuntimeError("a PIO state machine runs in virtual time: "
                               "enter a devsim.timing.VirtualClock first")
        if not 0 <= id <= 7:
            raise ValueError("StateMachine(%r): the RP2040 has state machines 0-7" % (id,))
        self.id = id
        self.program = program
        self.freq = freq
        self._board = board
        self._clock = board.timeline
        self._in_base = _gpio(in_base) if in_base is not None else 0
        self._side_base = _gpio(sideset_base) if sideset_base is not None else None
        count = program.sideset_count
        self._side_shift = _PIO_SIDE_BIT + 1 - count
        init = program.config["sideset_init"]
        levels = init if isinstance(init, tuple) else (init,) * count
        directions = values = 0
        for k in range(count):
            directions |= 1 << (self._side_shift + k)
            if levels[k] == PIO.OUT_HIGH:
                values |= 1 << (self._side_shift + k)
        self._state = State(pin_directions=directions, pin_values=values)
        self._active = False
        self._rx = []
        self._synced_cycle = 0
        self._synced_us = self._clock.now_us()
        self._drive(self._state)

    def active(self, value=None):
        if value is not None:
            self._active = bool(value)
        return self._active

    def put(self, value):
        from collections import deque

        tx = deque(self._state.transmit_fifo)
        tx.append(value & 0xFFFFFFFF)
        self._replace(transmit_fifo=tx)

    def get(self):
        """The next word from the RX FIFO, running the program until it comes."""
        if not self._rx:
            self._run_until_word()
        return self._rx.pop(0)

    def rx_fifo(self):
        return len(self._rx) + len(self._state.receive_fifo)

    # -- running the emulator -------------------------------------------

    def _replace(self, **fields):
        from dataclasses import replace

        self._state = replace(self._state, **fields)

    def _run_until_word(self):
        """Run the program until it stalls on an empty TX FIFO, collecting
        what it pushes. On the Pico the machine runs on while the CPU reads
        the first word; here it runs ahead, in its own cycle time."""
        from collections import deque

        from pioemu import emulate

        if not self._active:
            raise RuntimeError("StateMachine(%d).get() would block for ever: it is not active"
                               % self.id)
        # The machine waited (stalled) until now: its cycle count resumes here.
        self._synced_cycle = self._state.clock
        self._synced_us = self._clock.now_us()
        prog = self.program
        config = prog.config

        def stalled_for_ever(opcode, state):
            blocking_pull = opcode & 0xE0E0 == 0x80A0
            return blocking_pull and not state.transmit_fifo

        def pins_now(state):
            self._advance_to(state.clock)
            self._drive(state)
            return self._inputs()

        pins_now.__annotations__ = {"state": type(self._state)}
        running = True
        while running:
            running = False
            steps = emulate(prog.instructions, stop_when=stalled_for_ever,
                            initial_state=self._state, input_source=pins_now,
                            auto_push=config["autopush"], push_threshold=config["push_thresh"],
                            shift_isr_right=config["in_shiftdir"] == PIO.SHIFT_RIGHT,
                            side_set_base=self._side_shift, side_set_count=prog.sideset_count,
                            wrap_target=prog.wrap_target, wrap_top=prog.wrap)
            for _, after in steps:
                self._state = after
                if after.receive_fifo:  # the CPU drains the FIFO as words come
                    self._rx.extend(after.receive_fifo)
                    self._replace(receive_fifo=deque())
                    running = True
                    break
        self._advance_to(self._state.clock)
        self._drive(self._state)
        if not self._rx:
            raise RuntimeError("StateMachine(%d) stalled with no word for get()" % self.id)

    def _advance_to(self, cycle):
        t = self._synced_us + (cycle - self._synced_cycle) * 1000000 // self.freq
        if t > self._clock.now_us():
            self._clock.run_until(t)

    def _drive(self, state):
        if self._side_base is None:
            return
        for k in range(self.program.sideset_count):
            level = state.pin_values >> (self._side_shift + k) & 1
            gpio = self._side_base + k
            if self._board.pin(gpio).firmware != level:
                _pins.Board.set_firmware(self._board, gpio, level)  # no CPU time

    def _inputs(self):
        value = 0
        for k in range(min(_pins.PIN_COUNT - self._in_base, self._side_shift)):
            value |= self._board.pin(self._in_base + k).level() << k
        return value


def _gpio(pin):
    return pin if isinstance(pin, int) else pin.id
