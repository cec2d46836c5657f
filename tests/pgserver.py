"""A throw-away PostgreSQL server, for the tests (``pg_server.py`` wraps it in fixtures) and the
benches (``bench/fleet.py``); no pytest here.

``throwaway_server()`` runs ``initdb`` into a temporary folder and ``pg_ctl start`` on a Unix
socket there (no TCP port), as the ``postgres`` user when run as root (PostgreSQL refuses root),
and stops it and removes the folder after. Durability is off (fsync, synchronous_commit): a test
or bench server, so the figures are the database's work, not the disk's flushes — the SQLite
ledger runs with its own defaults (WAL, synchronous=NORMAL), see docs/scale.md.

``missing()`` says why PostgreSQL cannot be benched here (no initdb/pg_ctl, no psycopg), or "".
``fresh_database(admin_url, name)`` creates an empty database and returns its URL.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

INSTALL = ("install PostgreSQL's server programs (Debian: apt install postgresql; initdb and pg_ctl "
           "on PATH or in /usr/lib/postgresql/*/bin) and pip install 'psycopg[binary]'")


class Unavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why."""


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True):
        return str(candidate)
    return None


def missing(*, server: bool = True) -> str:
    """Why PostgreSQL cannot be benched here ("" when it can); ``server``: initdb/pg_ctl needed."""
    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed"
    if server and not (_bin("initdb") and _bin("pg_ctl")):
        return "PostgreSQL's initdb/pg_ctl were not found"
    return ""


def _as_owner(argv: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *argv] if owner else argv


@contextlib.contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a server; yield a URL to its ``postgres`` database (to create others from)."""
    why = missing()
    if why:
        raise Unavailable(f"{why}; {INSTALL}")
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    assert initdb and pg_ctl
    owner = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise Unavailable("running as root and there is no 'postgres' user to run the "
                              "server as") from None
        owner = "postgres"
    root = Path(tempfile.mkdtemp(prefix="slowloop-pg-"))
    data = root / "data"
    if owner:
        shutil.chown(root, owner)
    try:
        subprocess.run(_as_owner([initdb, "-D", str(data), "-A", "trust", "-U", "slowloop",
                                  "--no-sync", "-E", "UTF8", "--locale=C"], owner),
                       check=True, capture_output=True, text=True)
        opts = (f"-k {root} -c listen_addresses='' -c fsync=off -c full_page_writes=off "
                "-c synchronous_commit=off -c max_connections=200")
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-o", opts, "-l", str(root / "log"),
                                  "-w", "-t", "60", "start"], owner),
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        log = (root / "log").read_text(errors="replace")[-2000:] if (root / "log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"could not start a PostgreSQL server: {exc.stderr or exc.stdout}\n{log}"
                          ) from None
    try:
        yield f"postgresql://slowloop@/postgres?host={quote(str(root))}"
    finally:
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], owner),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def with_database(url: str, name: str) -> str:
    """``url`` pointing at the database ``name`` instead."""
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def fresh_database(admin_url: str, name: str) -> str:
    """Drop ``name`` if it exists, create it empty; its URL."""
    import psycopg

    try:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            admin.execute(f"CREATE DATABASE {name}")
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0]
        raise SystemExit(f"cannot create the database {name} on the PostgreSQL server: "
                         f"{first} (is the server reachable, and may the URL's role create "
                         "databases?)") from None
    return with_database(admin_url, name)


def drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
