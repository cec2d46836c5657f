"""QA regression: `slowloop daemon --poll -1` was accepted and spun a CPU core at 100% instead of
refusing the value."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")


def test_daemon_refuses_a_poll_that_would_spin():
    for bad in ("-1", "0"):
        r = subprocess.run([sys.executable, "-m", "slowloop", "daemon", "--poll", bad],
                           capture_output=True, text=True, env=dict(os.environ), timeout=30)
        assert r.returncode == 2, (bad, r.stderr)
        assert "--poll" in r.stderr and bad in r.stderr
