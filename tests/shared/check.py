# Tiny assertion helpers that work under CPython and MicroPython alike
# (pytest.raises is not available on the Pico's interpreter).


def raises(exc, fn, *args, **kwargs):
    """Call fn and return the exception of type `exc` it raised; fail otherwise."""
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc.__name__))


def message(exc, fn, *args, **kwargs):
    """The message of the exception fn raised."""
    return str(raises(exc, fn, *args, **kwargs))
