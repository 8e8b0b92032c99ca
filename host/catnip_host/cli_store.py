"""The session store as the commands open it: one help text for --store, and
the checks that turn a wrong path into a message naming what to do."""

from __future__ import annotations

from pathlib import Path

import click

from catnip_host.store import StoreError

STORE_HELP = "the session store (default: sessions.sqlite3 in your user data folder)"


def is_text(arg: str) -> bool:
    """Whether a command-line argument decoded as text (not bytes the
    system's encoding could not read, which Python keeps as surrogates)."""
    try:
        arg.encode()
    except UnicodeEncodeError:
        return False
    return True


def open_store(path: str | None, create: bool = True, readonly: bool = False):
    """The store at `path` (the default one if None), read-only for the
    commands that only read. Only the commands that record (`create`) start a
    new one: for the others a path that names no file is a mistake to say, not
    an empty store to make."""
    from catnip_host.store import Store

    if path is not None and not is_text(path):
        raise click.ClickException(f"the --store path {path!r} holds bytes that are not text in "
                                   "this system's encoding: rename it, or give another path")
    if path is not None and not create and not _is_file(path):
        near = sorted(p.name for p in Path(path).parent.glob("*.sqlite3")) \
            if Path(path).parent.is_dir() else []
        raise click.ClickException(
            f"there is no session store at {path}" + (f" (that folder has {', '.join(near)})"
                                                      if near else "")
            + ": check the path; `catnip monitor --store PATH` starts a new one")
    try:
        return Store(path, readonly=readonly)
    except StoreError as e:
        raise click.ClickException(str(e)) from e


def _is_file(path: str) -> bool:
    """Whether `path` names a file; a name the system refuses (too long for
    it, say) is said as the system's reason."""
    try:
        return Path(path).is_file()
    except OSError as e:
        raise click.ClickException(f"the --store path cannot be used: {e.strerror} "
                                   f"({path[:60]}{'...' if len(path) > 60 else ''})") from e
