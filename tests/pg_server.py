"""A real PostgreSQL server for the tests that run the ledger on both databases.

``postgres_server`` (session scope) uses ``SLOWLOOP_TEST_DATABASE_URL`` when it is set (``.ci/run``
starts a server and sets it: a URL to a database the tests may create databases from), otherwise
starts its own (``pgserver.throwaway_server``: initdb into a temporary folder, a Unix socket
there, no TCP port) and stops it after the session. ``ledger_backend`` parametrizes a test over
``sqlite`` and ``postgresql``: for the latter, a fresh database per test, named in
``SLOWLOOP_DATABASE_URL``.

Without PostgreSQL's programs or psycopg the ``postgresql`` runs skip with the command that
installs them — except under CI=true, where they fail: CI must prove both databases.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pgserver import INSTALL, Unavailable, drop_database, fresh_database, missing, throwaway_server

# Read at import: the autouse home fixture clears SLOWLOOP_* variables around each test.
GIVEN_URL = os.environ.get("SLOWLOOP_TEST_DATABASE_URL", "")
_counter = itertools.count(1)


def _unavailable(message: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and the PostgreSQL ledger tests cannot run: {message}", pytrace=False)
    pytest.skip(message if INSTALL in message else f"{message}; {INSTALL}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A URL to a database on a running server from which test databases are created."""
    why = missing(server=not GIVEN_URL)
    if why:
        _unavailable(why)
    if GIVEN_URL:
        yield GIVEN_URL
        return
    try:
        server = throwaway_server()
        url = server.__enter__()
    except Unavailable as exc:
        _unavailable(str(exc))
    try:
        yield url
    finally:
        server.__exit__(None, None, None)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database for one test; dropped after it."""
    name = f"slowloop_t{os.getpid()}_{next(_counter)}"
    url = fresh_database(postgres_server, name)
    try:
        yield url
    finally:
        drop_database(postgres_server, name)


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_backend(request: pytest.FixtureRequest, slowloop_home: Path,
                   monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test on each database: SQLite in the home, then a fresh PostgreSQL database."""
    if request.param == "postgresql":
        monkeypatch.setenv("SLOWLOOP_DATABASE_URL", request.getfixturevalue("postgres_url"))
    return request.param
