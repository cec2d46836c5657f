"""QA regression: a hand-edited file saved in another encoding (here Latin-1) used to be rewritten
with U+FFFD in place of the person's bytes on the next slowloop write. Now the write is refused,
the file is left byte for byte, and the message names the file and the line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from slowloop.errors import DataError
from slowloop.fsutil import atomic_write, read_text


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_chronicle_in_latin1_is_not_rewritten(slowloop_home: Path):
    assert run("memory", "init").returncode == 0
    chronicle = slowloop_home / "agents" / "default" / "memory" / "chronicle.md"
    with chronicle.open("ab") as fh:
        fh.write(b"\n## 2026-11-29T10:00:00Z\nmigrated the caf\xe9 service\n")
    before = chronicle.read_bytes()
    r = run("memory", "note", "a new entry")
    assert r.returncode == 3, r.stdout + r.stderr
    assert f"{chronicle}:" in r.stderr and "not UTF-8" in r.stderr and "0xe9" in r.stderr
    assert "save the file as UTF-8" in r.stderr
    assert chronicle.read_bytes() == before


def test_memo_in_latin1_is_not_rewritten_but_still_read(slowloop_home: Path):
    assert run("memo", "add", "-s", "plays", "When deploying, always tag the release.").returncode == 0
    memo = slowloop_home / "agents" / "default" / "memo.md"
    with memo.open("ab") as fh:
        fh.write(b"- When ordering, always ask for the caf\xe9 menu.\n")
    before = memo.read_bytes()
    r = run("memo", "add", "-s", "plays", "When testing, always use python3.")
    assert r.returncode == 3 and "not UTF-8" in r.stderr
    assert memo.read_bytes() == before
    shown = run("memo", "show")  # reading stays possible
    assert shown.returncode == 0 and "always tag the release" in shown.stdout


def test_atomic_write_with_expected_hash_refuses_only_non_utf8(tmp_path: Path):
    ok = tmp_path / "ok.md"
    ok.write_text("caf\u00e9\n", encoding="utf-8")
    _, digest = read_text(ok)
    atomic_write(ok, "changed\n", expect=digest)
    assert ok.read_text() == "changed\n"
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"line one\ncaf\xe9\n")
    _, digest = read_text(bad)
    with pytest.raises(DataError, match=r"bad.md:2: not UTF-8"):
        atomic_write(bad, "changed\n", expect=digest)
    assert bad.read_bytes() == b"line one\ncaf\xe9\n"
    atomic_write(bad, "replaced on purpose\n")  # an unconditional write is the caller's choice
    assert bad.read_text() == "replaced on purpose\n"


def test_doctor_names_non_utf8_files_with_their_line(slowloop_home: Path):
    assert run("memo", "add", "-s", "plays", "When deploying, always tag the release.").returncode == 0
    assert run("doctor").returncode == 0
    memo = slowloop_home / "agents" / "default" / "memo.md"
    with memo.open("ab") as fh:
        fh.write(b"- When ordering, always ask for the caf\xe9 menu.\n")
    line = memo.read_bytes().count(b"\n")
    r = run("doctor")
    assert r.returncode == 3
    assert f"error: {memo}:{line}: not UTF-8 text (byte 0xe9)" in r.stdout
    assert "1 error(s)" in r.stderr
