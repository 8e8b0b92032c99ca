# micropython-only: a Pico as `catnip deploy` meets it, on the unix port.
#
#   micropython deployboard.py FLASH        (stdin and stdout: the pty's master side)
#
# FLASH is the board's filesystem and the working folder. Power-up runs
# FLASH/main.py as the Pico does: `catnip` is imported from FLASH only (the
# deployed .mpy files), and the simulated table of FLASH/board.json (devsim)
# answers on the fake `machine`, so the real app starts, reads the wire on
# stdin and stops on the "stop" command. When main.py ends (or without one) the
# REPL runs, speaking MicroPython's friendly and raw REPL byte for byte as its
# pyexec.c does, raw-paste mode included. Ctrl-D at the friendly REPL is a soft
# reboot that runs main.py again; Ctrl-D on an empty raw REPL line one that
# does not. What the Pico does and this does not: Ctrl-C does not interrupt
# running code (the USB stack's interrupt), and a soft reboot keeps the heap.
import os
import sys

FLASH = sys.argv[1]
HERE = sys.argv[0].rsplit("/", 1)[0]
DEVSIM = HERE + "/../devsim"
BANNER = ("MicroPython v1.29.0 on unix; catnip deploy test board\r\n"
          "Type \"help()\" for more information.\r\n")
WINDOW = 256  # raw paste: bytes the host may send before the board grants more
CTRL_A, CTRL_B, CTRL_C, CTRL_D = 1, 2, 3, 4

inp = sys.stdin.buffer
out = sys.stdout


def say(text):
    out.write(text)


def read():
    c = inp.read(1)
    if not c:
        raise SystemExit  # the laptop's side is gone
    return c[0]


def execute(code, env):
    """Raw REPL semantics: output, 0x04, the error if any, 0x04."""
    try:
        exec(code, env)
        say("\x04")
    except BaseException as e:  # noqa: BLE001 (the REPL reports everything)
        say("\x04")
        sys.print_exception(e, out)
    say("\x04")


def raw_paste(env):
    say("R\x01")
    say(chr(WINDOW & 0xFF) + chr(WINDOW >> 8))
    code = bytearray()
    taken = 0
    while True:
        c = read()
        if c == CTRL_D:
            say("\x04")
            break
        code.append(c)
        taken += 1
        if taken == WINDOW:
            say("\x01")
            taken = 0
    execute(bytes(code), env)


def raw_repl(env):
    """Until Ctrl-B (returns "friendly") or a soft reset (returns "reset")."""
    say("raw REPL; CTRL-B to exit\r\n")
    while True:
        line = bytearray()
        say(">")
        while True:
            c = read()
            if c == CTRL_A:
                if bytes(line) == b"\x05A":
                    raw_paste(env)
                    line = bytearray()
                    say(">")
                    continue
                say("\r\n")
                say("raw REPL; CTRL-B to exit\r\n")
                line = bytearray()
                say(">")
            elif c == CTRL_B:
                say("\r\n")
                return "friendly"
            elif c == CTRL_C:
                line = bytearray()
            elif c == CTRL_D:
                break
            else:
                line.append(c)
        say("OK")
        if not line:
            say("\r\n")
            return "reset"
        execute(bytes(line), env)


def friendly_repl(env):
    """Until a soft reboot (Ctrl-D on an empty line): returns "boot"."""
    say(BANNER)
    line = bytearray()
    say(">>> ")
    while True:
        c = read()
        if c == CTRL_A:
            say("\r\n")
            if raw_repl(env) == "reset":
                return "reset"
            say(BANNER)
            line = bytearray()
            say(">>> ")
        elif c == CTRL_C:
            say("\r\nKeyboardInterrupt\r\n>>> ")
            line = bytearray()
        elif c == CTRL_D and not line:
            say("\r\n")
            return "boot"
        elif c in (10, 13):
            say("\r\n")
            try:
                exec(bytes(line), env)
            except BaseException as e:  # noqa: BLE001
                sys.print_exception(e, out)
            line = bytearray()
            say(">>> ")
        elif c >= 32:
            line.append(c)
            out.write(chr(c))


def power_up(env, kept):
    """A soft reboot: the modules imported since the last one are forgotten."""
    for name in list(sys.modules):
        if name not in kept:
            del sys.modules[name]
    env.clear()
    env["__name__"] = "__main__"
    table = None
    try:
        from catnip.board import load

        from devsim.table import Table
        from devsim.timing import RealClock

        table = Table(load("board.json"), clock=RealClock())
    except Exception as e:  # noqa: BLE001 (no firmware or board yet: a bare board)
        sys.stderr.write("deployboard: no simulated table (%r)\n" % e)
    return table


def run_main(env):
    try:
        with open("main.py") as f:
            code = f.read()
    except OSError:
        return
    try:
        exec(code, env)
    except BaseException as e:  # noqa: BLE001 (as the Pico: a traceback, then the REPL)
        sys.print_exception(e, out)


def main():
    os.chdir(FLASH)
    sys.path[:] = ["", ".frozen", DEVSIM, HERE + "/.."]
    kept = set(sys.modules)
    env = {}
    state = "boot"
    while True:
        table = power_up(env, kept)
        if state == "boot":
            run_main(env)
            state = friendly_repl(env)
        else:
            state = raw_repl(env)
            if state == "friendly":
                state = friendly_repl(env)
        if table is not None:
            table.close()
        say("MPY: soft reboot\r\n")


main()
