"""`catnip serve`: the table's public state live in a browser, and the
evening's sessions, games, charts and replays from the session store.

The server follows the table exactly as `catnip monitor` does (the same
Link, Keeper, store and Mirror) and holds nothing the wire did not carry:
the live page is a pure function of the frames heard. It only reads: no
request reaches the table or writes to the store.

    live.py     the Mirror the page shows, and the hub that streams it
    follow.py   the Keeper on its own thread, as the monitor runs it
    evening.py  the store read-only: sessions, plays, charts, replays
    pages.py    the evening's HTML
    app.py      the routes, the security headers, binding the port
    cli.py      the `catnip serve` command
"""
