"""Corruption is reported, never silent: an empty, truncated or damaged ledger stops with how to
recover (never a new ledger over the old history); a bad skill entry costs that skill only; a
huge memo does not slow the session start."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from slowloop.bootstrap import build_bootstrap
from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.errors import DataError
from slowloop.ingest import ingest_paths
from slowloop.memo import Memo
from slowloop.skills import SkillLibrary
from slowloop.store import open_store

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"


def _ledger(home: Path) -> Path:
    with open_store() as store:
        ingest_paths([EXAMPLES], agent="default", store=store, cfg=load_config())
    return home / "slowloop.db"


def _old(path: Path) -> None:
    past = time.time() - 60
    os.utime(path, (past, past))


def test_an_empty_ledger_is_refused_not_taken_for_a_new_one(slowloop_home: Path) -> None:
    db = _ledger(slowloop_home)
    db.write_bytes(b"")
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    _old(db)
    with pytest.raises(DataError) as err:
        open_store()
    assert "0-byte" in err.value.message and ".recover" in (err.value.hint or "")
    assert db.stat().st_size == 0  # nothing was written over it
    r = CliRunner().invoke(cli, ["doctor"])
    assert r.exit_code == 3 and "sqlite3 slowloop.db .recover" in r.output
    r = CliRunner().invoke(cli, ["agents"])
    assert r.exit_code == 3 and "0-byte" in r.output


def test_a_ledger_being_created_right_now_is_not_mistaken_for_a_truncated_one(slowloop_home):
    slowloop_home.mkdir(parents=True, exist_ok=True)
    (slowloop_home / "slowloop.db").write_bytes(b"")  # another process just connected
    with open_store() as store:
        assert store.schema_version >= 1


def test_a_truncated_or_damaged_ledger_stops_with_recovery_steps(slowloop_home: Path) -> None:
    db = _ledger(slowloop_home)
    with open_store() as store:  # fold the WAL in, so the damage below is in the main file
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    good = db.read_bytes()
    damaged = bytearray(good)
    damaged[4096 * 2:4096 * 2 + 3000] = b"A" * 3000
    db.write_bytes(bytes(damaged))
    r = CliRunner().invoke(cli, ["doctor"])
    assert r.exit_code == 3 and "damaged" in r.output and ".recover" in r.output
    for command in (["agents"], ["reflect"], ["ingest", str(EXAMPLES)]):
        # whether a command reads the damaged page depends on the page: either it works, or it
        # says the ledger is damaged and points at doctor, never a traceback
        r = CliRunner().invoke(cli, command)
        assert r.exit_code == 0 or (r.exit_code == 3 and "doctor" in r.output), (command, r.exception)
    db.write_bytes(good[:5000])
    r = CliRunner().invoke(cli, ["doctor", "--json"])
    assert r.exit_code == 3 and '"severity": "error"' in r.output
    db.write_bytes(b"not a database at all, just text " * 10)
    with pytest.raises(DataError, match="not a usable SQLite database") as err:
        open_store()
    assert ".recover" in (err.value.hint or "")


def test_a_folder_where_a_skill_file_should_be_costs_that_skill_only(slowloop_home: Path) -> None:
    lib = SkillLibrary("default")
    lib.create("testing", "When running the tests.", "- When testing, always run make test.\n")
    (lib.skills_dir / "broken" / "SKILL.md").mkdir(parents=True)
    assert [s.name for s in SkillLibrary("default").list()] == ["testing"]
    assert "testing" in build_bootstrap("default").text
    r = CliRunner().invoke(cli, ["doctor"])
    assert r.exit_code == 3 and "SKILL.md is a folder" in r.output
    r = CliRunner().invoke(cli, ["prompt"])
    assert r.exit_code == 0 and "testing" in r.output
    shutil.rmtree(lib.skills_dir / "broken")


def test_a_huge_memo_keeps_the_session_start_fast(slowloop_home: Path) -> None:
    memo = Memo("default")
    memo.add("plays", "When testing, always run make test.")
    with open(memo.path, "a") as fh:
        fh.write("".join(f"- When case {i} happens, always do thing {i}.\n" for i in range(200_000)))
    start = time.perf_counter()
    text = build_bootstrap("default").text
    assert time.perf_counter() - start < 2.0
    assert "always run make test" in text and "case 199999" not in text
    r = CliRunner().invoke(cli, ["doctor"])
    assert "a session start reads only its first" in r.output


def test_memo_add_keeps_what_a_person_wrote_under_a_section(slowloop_home: Path) -> None:
    memo = Memo("default")
    memo.add("plays", "When testing, always run make test.")
    structured = memo.path.read_text().replace(
        "- When testing, always run make test.\n",
        "- When testing, always run make test.\n\n### Deploying\n\n1. build\n2. ship\n\n"
        "```bash\nmake deploy\n```\n\n| env | host |\n|---|---|\n| prod | a |\n")
    memo.path.write_text(structured)
    Memo("default").add("plays", "When releasing, always tag first.")
    Memo("default").add("strengths", "Pitfall: when editing YAML, check the indentation.")
    text = memo.path.read_text()
    # everything the person wrote is still there, byte for byte, and the new bullets were added
    for block in ("### Deploying\n\n1. build\n2. ship\n", "```bash\nmake deploy\n```\n",
                  "| env | host |\n|---|---|\n| prod | a |\n"):
        assert block in text
    assert text.index("| prod | a |") < text.index("- When releasing, always tag first.")
    assert "- Pitfall: when editing YAML" in text.split("## Plays")[0]
