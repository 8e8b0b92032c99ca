"""`catnip serve`: the table's public state live in a browser, and the
evening's sessions, games, charts and replays from the session store.

The server follows the table exactly as `catnip monitor` does (the same
Link, Keeper, store and Mirror) and holds nothing the wire did not carry:
the live page is a pure function of the frames heard. No request writes to
the store; the only requests that reach the table are a phone seat's, from
the one browser bound to that seat (docs/serve.md, "Phone seats").

    live.py     the Mirror the page shows, and the hub that streams it
    follow.py   the Keeper on its own thread, as the monitor runs it
    seats.py    the phone seats: join secrets, bindings, CSRF, tries (in memory)
    phones.py   the phone seats' pages: /join, /seat, /host
    evening.py  the store read-only: sessions, plays, charts, replays
    pages.py    the evening's HTML
    app.py      the routes, the security headers, binding the port
    cli.py      the `catnip serve` command
"""
