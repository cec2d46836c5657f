"""The archive flow: real forced archives, thresholds over cycles, three layers deep, crashes at every
stage, and notes from other processes arriving while an archive runs."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from slowloop.errors import ConflictError, ModelError, UserError
from slowloop.memory import (
    Memory,
    MemorySettings,
    archive as archive_mod,
    iter_entries,
    list_layers,
    summary_of,
)
from slowloop.memory.archive import STAGING


def make(tmp_path: Path, **settings) -> Memory:
    m = Memory(tmp_path / "memory", MemorySettings(**settings))
    m.init()
    return m


def chronicle_texts(mem: Memory) -> list[str]:
    """The dated entries (the cycle line above them is an entry too, with no time)."""
    return [e.text for e in iter_entries(mem) if e.kind == "chronicle" and e.at]


def test_a_real_forced_archive(tmp_path: Path) -> None:
    mem = make(tmp_path)
    mem.set_state("CI", "arm64 runners")
    mem.add_debt("cache key ignores arch")
    mem.add_debt("docs stale")
    mem.note("We decided to move tests to arm64 because x86 queued for hours.")
    mem.note("Routine: bumped a dependency.")
    mem.update_debt("D-0001", status="closed")
    before = {n: mem.path(n).read_text() for n in ("system-state.md", "debts.md", "chronicle.md",
                                                    "past-summary.md")}
    with pytest.raises(UserError, match="nothing to archive: the chronicle is"):
        mem.archive()
    res = mem.archive(force=True)
    layer = res.layer
    assert layer.number == 1 and layer.path == mem.root / "past" / layer.name
    assert res.reason == "forced" and res.entries_archived == 2
    assert (res.debts_closed, res.debts_carried) == (1, 1)
    for name, text in before.items():  # the old root, byte for byte, in the layer
        assert (layer.path / name).read_text() == text
    meta = json.loads((layer.path / "layer.json").read_text())
    assert meta["reason"] == "forced" and meta["debts_closed"] == ["D-0001"]
    # the new root
    assert mem.path("system-state.md").read_text() == before["system-state.md"]
    assert [d.id for d in mem.debts()] == ["D-0002"]
    assert mem.chronicle() == []
    chron = mem.path("chronicle.md").read_text()
    assert "Cycle 2 · started" in chron and f"archived in past/{layer.name}/" in chron
    summary = mem.path("past-summary.md").read_text()
    assert "We decided to move tests to arm64 because x86 queued for hours." in summary
    assert "closed D-0001: cache key ignores arch" in summary and "bumped a dependency" not in summary
    assert not (mem.root / STAGING).exists()
    assert mem.cycle == 2
    # ids never come back, even though D-0001 left the root
    assert mem.add_debt("new one").id == "D-0003"
    with pytest.raises(UserError, match=r"D-0001 was closed and archived in .*past/0001-"):
        mem.update_debt("D-0001", status="open")


def test_threshold_archives_over_several_cycles_lose_nothing(tmp_path: Path) -> None:
    mem = make(tmp_path, chronicle_max_lines=14)
    archived = []
    for i in range(40):
        res = mem.note(f"note {i}: chose option {i} because it was simpler")
        if res.archived:
            archived.append(res.archived.layer.number)
    layers = list_layers(mem)
    assert len(layers) >= 4 and archived == [x.number for x in layers]
    assert all(x.reason == "threshold" for x in layers)
    assert sorted(chronicle_texts(mem)) == sorted(f"note {i}: chose option {i} because it was simpler"
                                                  for i in range(40))
    for x in layers:  # each archived chronicle is about one threshold's worth
        assert x.files["chronicle.md"].lines <= 14 + 3
    assert len(mem.path("chronicle.md").read_text().splitlines()) <= 14


def test_auto_archive_off_lets_the_chronicle_grow(tmp_path: Path) -> None:
    mem = make(tmp_path, chronicle_max_lines=8, auto_archive=False)
    for i in range(10):
        assert mem.note(f"n{i}").archived is None
    assert list_layers(mem) == []
    assert mem.archive().layer.number == 1  # over the threshold: a plain archive goes ahead


def test_three_layers_deep_with_nested_summaries_and_dig(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from slowloop.cli import cli

    mem = make(tmp_path)
    for cycle, milestone in ((1, "alpha"), (2, "beta"), (3, "v1.0 GA")):
        mem.note(f"cycle {cycle}: we decided on plan {cycle} because of reason {cycle}")
        mem.archive(milestone=milestone)
    layers = list_layers(mem)
    assert [x.name[5:].split("-", 3)[-1] for x in layers] == ["alpha", "beta", "v1-0-ga"]
    assert [x.milestone for x in layers] == ["alpha", "beta", "v1.0 GA"]
    # each layer holds the summary that was current when it was archived: they nest
    s1, s2, s3 = ((x.path / "past-summary.md").read_text() for x in layers)
    root = mem.path("past-summary.md").read_text()
    assert "Cycle" not in s1
    assert "plan 1" in s2 and "plan 2" not in s2
    assert "plan 2" in s3 and "plan 1" in s3 and "plan 3" not in s3
    assert root.index("plan 3") < root.index("plan 2") < root.index("plan 1")  # newest first
    assert summary_of(mem, layers[1])[0] == layers[2].path / "past-summary.md"

    runner = CliRunner()
    d = str(tmp_path)
    out = runner.invoke(cli, ["memory", "dig", "--dir", d])
    assert out.exit_code == 0, out.output
    for x in layers:
        assert f"past/{x.name}/" in out.output
    out = runner.invoke(cli, ["memory", "dig", "--dir", d, "2"])
    assert out.exit_code == 0 and "plan 2" in out.output and "chronicle.md" in out.output
    assert "deeper: slowloop memory dig 1" in out.output
    out = runner.invoke(cli, ["memory", "dig", "--dir", d, "1", "--file", "chronicle.md"])
    assert "cycle 1: we decided on plan 1" in out.output
    out = runner.invoke(cli, ["memory", "dig", "--dir", d, "--json"])
    assert [x["number"] for x in json.loads(out.output)] == [1, 2, 3]
    out = runner.invoke(cli, ["memory", "dig", "--dir", d, "9"])
    assert out.exit_code == 2 and "no layer '9'" in out.output


def test_the_summary_stays_under_its_cap_across_many_cycles(tmp_path: Path) -> None:
    mem = make(tmp_path, summary_max_chars=700)
    for cycle in range(6):
        for i in range(8):
            mem.note(f"c{cycle} e{i}: decided to keep component {i} because it is load-bearing " * 2)
        mem.add_debt(f"thing {cycle}", status="closed")
        mem.archive(force=True)
        text = mem.path("past-summary.md").read_text()
        assert len(text) <= 700
        assert f"## Cycle {cycle + 1}" in text  # the newest cycle always has its section
        assert "more in past/" in text


def test_a_model_summary_is_used_and_a_failing_model_falls_back(tmp_path: Path) -> None:
    mem = make(tmp_path)
    mem.note("We chose SQLite because it needs no server.")
    seen: list[str] = []

    def model(prompt: str) -> str:
        seen.append(prompt)
        return "```markdown\n- Cycle 1: SQLite, no server to run.\n```"

    res = mem.archive(force=True, summarize=model)
    assert res.summary_by == "model" and "We chose SQLite" in seen[0] and "at most 4000 characters" in seen[0]
    text = mem.path("past-summary.md").read_text()
    assert "- Cycle 1: SQLite, no server to run." in text and "```" not in text
    assert json.loads((res.layer.path / "layer.json").read_text())["summary_by"] == "model"

    mem.note("We decided to keep WAL mode because readers never block.")

    def broken(prompt: str) -> str:
        raise ModelError("the answer was not text")

    res = mem.archive(force=True, summarize=broken)
    assert res.summary_by == "extractive" and "not text" in res.warning
    assert "keep WAL mode because readers never block" in mem.path("past-summary.md").read_text()

    mem.note("x")
    res = mem.archive(force=True, summarize=lambda p: "word " * 5000)
    assert len(mem.path("past-summary.md").read_text()) <= 4000


def test_a_hand_edit_during_the_archive_aborts_it_and_keeps_the_root(tmp_path: Path, monkeypatch) -> None:
    mem = make(tmp_path)
    mem.note("before")

    def person_saves(stage: str) -> None:
        if stage == "staged":
            p = mem.path("chronicle.md")
            p.write_text(p.read_text() + "\n## 2025-01-01T00:00:00Z\ntyped in an editor\n")

    monkeypatch.setattr(archive_mod, "_stage_hook", person_saves)
    with pytest.raises(ConflictError, match="changed during the archive"):
        mem.archive(force=True)
    assert list_layers(mem) == [] and not (mem.root / STAGING).exists()
    assert [e.text for e in mem.chronicle()] == ["before", "typed in an editor"]


class Crash(BaseException):
    """Not an Exception: nothing in the archive code may catch it, like a power cut."""


STAGES = ["staged", "committed", "layer-moved", "replaced-chronicle.md", "replaced-debts.md",
          "replaced-past-summary.md", "done"]


@pytest.mark.parametrize("stage", STAGES)
def test_a_crash_at_any_stage_leaves_the_old_root_or_the_new_one(tmp_path: Path, monkeypatch, stage: str) -> None:
    mem = make(tmp_path)
    mem.set_state("CI", "arm64")
    mem.add_debt("still open")
    mem.add_debt("done now")
    mem.update_debt("D-0002", status="closed")
    notes = [f"entry {i}: decided {i} because {i}" for i in range(5)]
    for n in notes:
        mem.note(n)
    old_chronicle = mem.path("chronicle.md").read_text()

    def crash(at: str) -> None:
        if at == stage:
            raise Crash(at)

    monkeypatch.setattr(archive_mod, "_stage_hook", crash)
    with pytest.raises(Crash):
        mem.archive(force=True)
    monkeypatch.setattr(archive_mod, "_stage_hook", None)

    fresh = Memory(mem.root, MemorySettings())  # "the next process": opening recovers
    entries = [e.text for e in fresh.chronicle()]
    layers = fresh.layers()
    assert not (fresh.root / STAGING).exists()
    if stage == "staged":  # before the commit point: the old root, whole
        assert layers == [] and entries == notes
        assert fresh.path("chronicle.md").read_text() == old_chronicle
        assert [d.id for d in fresh.debts()] == ["D-0001", "D-0002"]
    else:  # after it: the new root, whole
        assert len(layers) == 1 and entries == []
        assert "Cycle 2 · started" in fresh.path("chronicle.md").read_text()
        assert [d.id for d in fresh.debts()] == ["D-0001"]
        assert "closed D-0002" in fresh.path("past-summary.md").read_text()
        assert (layers[0].path / "chronicle.md").read_text() == old_chronicle
    assert sorted(chronicle_texts(fresh)) == sorted(notes)  # no entry lost either way
    assert [s.title for s in fresh.state_sections()] == ["CI"]
    fresh.note("life goes on")
    assert fresh.archive(force=True).layer.number == len(layers) + 1


def test_a_process_killed_mid_archive_is_recovered_by_the_next_one(tmp_path: Path) -> None:
    mem = make(tmp_path)
    for i in range(3):
        mem.note(f"n{i}")
    script = textwrap.dedent(f"""
        import os
        from pathlib import Path
        from slowloop.memory import Memory, MemorySettings
        from slowloop.memory import archive
        def die(stage):
            if stage == "replaced-chronicle.md":
                os._exit(9)   # chronicle replaced, debts and summary not yet: the worst moment
        archive._stage_hook = die
        Memory(Path({str(mem.root)!r}), MemorySettings()).archive(force=True)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 9, proc.stderr
    assert (mem.root / STAGING / "plan.json").exists()  # really interrupted half-way
    fresh = Memory(mem.root, MemorySettings())
    assert len(fresh.layers()) == 1 and not (mem.root / STAGING).exists()
    assert sorted(chronicle_texts(fresh)) == ["n0", "n1", "n2"]
    assert "Cycle 1" in fresh.path("past-summary.md").read_text()


WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from slowloop.memory import Memory, MemorySettings
    root, tag, n = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    mem = Memory(root, MemorySettings(chronicle_max_lines=30))
    (root.parent / f"ready-{tag}").touch()
    while not (root.parent / "go").exists():   # all writers start together, once imported
        time.sleep(0.01)
    for i in range(n):
        mem.note(f"{tag}-{i}")
        time.sleep(0.02)   # a note now and then, as sessions write them, so archives fall between
""")


@pytest.mark.slow
def test_notes_from_other_processes_during_archives_are_all_found(tmp_path: Path) -> None:
    mem = make(tmp_path, chronicle_max_lines=30)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(mem.root), f"w{k}", "40"],
                                stderr=subprocess.PIPE, text=True) for k in range(4)]
    deadline = time.monotonic() + 60
    while not all((mem.root.parent / f"ready-w{k}").exists() for k in range(4)):
        assert time.monotonic() < deadline and all(w.poll() is None for w in writers)
        time.sleep(0.02)
    (mem.root.parent / "go").touch()
    forced = during = 0
    while any(w.poll() is None for w in writers) or forced < 3:
        mem.note(f"main-{forced}")
        mem.archive(force=True)
        forced += 1
        during += any(w.poll() is None for w in writers)  # an archive finished while others wrote
        time.sleep(0.05)  # flock is not fair: give the writers a window, as real archives are rare
    for w in writers:
        assert w.wait(timeout=120) == 0, w.stderr.read()
    texts = chronicle_texts(mem)
    expected = [f"w{k}-{i}" for k in range(4) for i in range(40)] + [f"main-{i}" for i in range(forced)]
    assert sorted(texts) == sorted(expected)  # every note exactly once, in the root or in a layer
    assert during >= 2 and len(mem.layers()) >= forced
    assert not (mem.root / STAGING).exists()
    for layer in mem.layers():  # and each layer is a whole cycle, readable
        assert (layer.path / "chronicle.md").read_text().startswith("# Chronicle")
