# Runs shared test modules under the MicroPython unix port.
# Usage: micropython tests/mp_run.py MODULE [MODULE ...]
# Prints one line per test: "PASS module.name" or "FAIL module.name: error".
import sys


def run(modname):
    mod = __import__(modname)
    for name in sorted(dir(mod)):
        if not name.startswith("test_"):
            continue
        fn = getattr(mod, name)
        if not callable(fn):
            continue
        try:
            fn()
            print("PASS %s.%s" % (modname, name))
        except Exception as e:
            print("FAIL %s.%s: %s: %s" % (modname, name, type(e).__name__, e))
            sys.print_exception(e)


for m in sys.argv[1:]:
    run(m)
print("DONE")
