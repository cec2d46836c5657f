"""QA regressions: input that is not a transcript shows in the exit code, and an empty folder is
named, for both `slowloop ingest` and `slowloop explain`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples" / "codex-api-format.jsonl"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=60)


def test_ingest_of_only_non_transcripts_exits_3(tmp_path: Path):
    png = tmp_path / "shot.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    r = run("ingest", str(png))
    assert r.returncode == 3, r.stdout + r.stderr
    assert f"skipped: {png}: not a transcript" in r.stderr
    assert r.stdout.startswith("0 file(s) read, 1 skipped (not transcripts), 0 turn(s)")


def test_ingest_with_some_transcripts_reads_them_and_counts_the_rest(tmp_path: Path):
    csv = tmp_path / "data.csv"
    csv.write_text("a,b\n1,2\n")
    r = run("ingest", str(csv), str(EXAMPLE))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 file(s) read, 1 skipped (not transcripts), 2 turn(s): 2 new")
    assert f"skipped: {csv}" in r.stderr


def test_ingest_of_a_folder_without_transcripts_says_so(tmp_path: Path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("hello")
    r = run("ingest", str(folder))
    assert r.returncode == 0
    assert f"note: {folder} holds no .jsonl or .json files" in r.stderr
    assert r.stdout.startswith("0 file(s), 0 turn(s)")


def test_explain_exits_3_when_a_file_is_not_a_transcript_but_explains_the_others(tmp_path: Path):
    csv = tmp_path / "data.csv"
    csv.write_text("a,b\n1,2\n")
    r = run("explain", str(csv), str(EXAMPLE), "--json")
    assert r.returncode == 3
    assert f"error: {csv}: not a transcript" in r.stderr
    assert '"user_correction"' in r.stdout or "user_correction" in r.stdout
    assert run("explain", str(EXAMPLE)).returncode == 0
