"""A real PostgreSQL server for the tests that run the ledger on both databases.

``postgres_server`` (session scope) uses ``SLOWLOOP_TEST_DATABASE_URL`` when it is set (``.ci/run``
starts a server and sets it: a URL to a database the tests may create databases from), otherwise
starts its own: ``initdb`` into a temporary folder and ``pg_ctl start`` on a Unix socket there, no
TCP port (as the ``postgres`` user when the tests run as root, which PostgreSQL refuses to be), and
stops it after the session. ``ledger_backend`` parametrizes a test over ``sqlite`` and
``postgresql``: for the latter, a fresh database per test, named in ``SLOWLOOP_DATABASE_URL``.

Without PostgreSQL's programs or psycopg the ``postgresql`` runs skip with the command that
installs them — except under CI=true, where they fail: CI must prove both databases.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

# Read at import: the autouse home fixture clears SLOWLOOP_* variables around each test.
GIVEN_URL = os.environ.get("SLOWLOOP_TEST_DATABASE_URL", "")
INSTALL = ("install PostgreSQL's server programs (Debian: apt install postgresql; initdb and pg_ctl "
           "on PATH or in /usr/lib/postgresql/*/bin) and pip install 'psycopg[binary]'")
_counter = itertools.count(1)


def _unavailable(message: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and the PostgreSQL ledger tests cannot run: {message}", pytrace=False)
    pytest.skip(f"{message}; {INSTALL}")


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True):
        return str(candidate)
    return None


def _as_owner(argv: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *argv] if owner else argv


@contextlib.contextmanager
def _own_server() -> Iterator[str]:
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        _unavailable("PostgreSQL's initdb/pg_ctl were not found")
    assert initdb and pg_ctl
    owner = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run the server as")
        owner = "postgres"
    root = Path(tempfile.mkdtemp(prefix="slowloop-pg-"))
    data = root / "data"
    if owner:
        shutil.chown(root, owner)
    try:
        subprocess.run(_as_owner([initdb, "-D", str(data), "-A", "trust", "-U", "slowloop",
                                  "--no-sync", "-E", "UTF8", "--locale=C"], owner),
                       check=True, capture_output=True, text=True)
        # a test server: durability off (the crash tests kill clients, never the server)
        opts = (f"-k {root} -c listen_addresses='' -c fsync=off -c full_page_writes=off "
                "-c synchronous_commit=off -c max_connections=200")
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-o", opts, "-l", str(root / "log"),
                                  "-w", "-t", "60", "start"], owner),
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        log = (root / "log").read_text(errors="replace")[-2000:] if (root / "log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"could not start a test PostgreSQL server: {exc.stderr or exc.stdout}\n{log}")
    try:
        yield f"postgresql://slowloop@/postgres?host={quote(str(root))}"
    finally:
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], owner),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A URL to a database on a running server from which test databases are created."""
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("psycopg is not installed")
    if GIVEN_URL:
        yield GIVEN_URL
        return
    with _own_server() as url:
        yield url


def _with_db(url: str, name: str) -> str:
    """``url`` pointing at the database ``name`` instead."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database for one test; dropped after it."""
    import psycopg

    name = f"slowloop_t{os.getpid()}_{next(_counter)}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield _with_db(postgres_server, name)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_backend(request: pytest.FixtureRequest, slowloop_home: Path,
                   monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test on each database: SQLite in the home, then a fresh PostgreSQL database."""
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
        monkeypatch.setenv("SLOWLOOP_DATABASE_URL", url)
    return request.param
