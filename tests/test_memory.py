"""The memory root: role files, notes, debts, state, hand edits, check, bootstrap text and entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from slowloop import clock
from slowloop.errors import ConflictError, DataError, UserError
from slowloop.memory import Memory, MemorySettings, check, iter_entries, memory_bootstrap, show_text, status
from slowloop.memory.files import HEADERS
from slowloop.tokens import estimate_tokens


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    m = Memory(tmp_path / "proj" / "memory", MemorySettings())
    m.init()
    return m


def test_init_creates_the_role_files_with_a_header_and_keeps_existing_ones(tmp_path: Path) -> None:
    m = Memory(tmp_path / "memory", MemorySettings())
    assert set(m.init()) == {"system-state.md", "debts.md", "chronicle.md", "past-summary.md"}
    for name, header in HEADERS.items():
        assert m.path(name).read_text(encoding="utf-8").splitlines()[0] == header
    assert (m.root / "past").is_dir()
    assert "*.lock" in (m.root / ".gitignore").read_text()
    m.path("system-state.md").write_text("# mine\n\n## CI\nhand written\n")
    assert m.init() == []
    assert "hand written" in m.path("system-state.md").read_text()


def test_default_location_is_the_agent_dir_and_dir_puts_it_in_a_project(slowloop_home: Path, tmp_path: Path) -> None:
    assert Memory.for_agent("coder").root == slowloop_home / "agents" / "coder" / "memory"
    assert Memory.for_dir(tmp_path / "repo").root == tmp_path / "repo" / "memory"


def test_writing_to_a_memory_that_was_never_created_says_how_to_create_it(tmp_path: Path) -> None:
    m = Memory(tmp_path / "nowhere", MemorySettings())
    with pytest.raises(UserError, match="no memory at") as exc:
        m.note("hello")
    assert "slowloop memory init" in str(exc.value)
    assert memory_bootstrap(m, 1000) == ""


def test_note_appends_timestamped_entries_in_order(mem: Memory) -> None:
    clock.set_clock(lambda: 1_736_071_200.0)  # 2025-01-05T10:00:00Z
    mem.note("Moved CI to arm64\nbecause x86 queued for hours")
    clock.set_clock(lambda: 1_736_074_800.0)
    mem.note("second")
    entries = mem.chronicle()
    assert [e.at for e in entries] == ["2025-01-05T10:00:00Z", "2025-01-05T11:00:00Z"]
    assert entries[0].text == "Moved CI to arm64\nbecause x86 queued for hours"
    text = mem.path("chronicle.md").read_text()
    assert "## 2025-01-05T10:00:00Z\nMoved CI to arm64" in text
    assert "Cycle 1 · started" in text
    with pytest.raises(UserError, match="needs some text"):
        mem.note("   ")


def test_debts_get_stable_ids_and_statuses_round_trip(mem: Memory) -> None:
    a = mem.add_debt("CI cache ignores the arch")
    b = mem.add_debt("Backups never verified", status="deferred")
    assert (a.id, b.id) == ("D-0001", "D-0002")
    u = mem.update_debt("d-0001", status="in-progress", note="only arm64 misses")
    assert u.status == "in-progress" and u.notes == ("only arm64 misses",) and u.updated
    c = mem.update_debt("1", status="closed")
    assert c.closed and c.opened == a.opened
    again = mem.update_debt("D-0001", text="CI cache ignored the arch")
    assert again.closed == c.closed  # the first closing time is kept
    listed = {d.id: d for d in mem.debts()}
    assert listed["D-0001"].status == "closed" and listed["D-0001"].notes == ("only arm64 misses",)
    assert [d.id for d in mem.debts(include_closed=False)] == ["D-0002"]
    line = mem.path("debts.md").read_text().splitlines()
    assert any(x.startswith("- D-0002 [deferred] Backups never verified (opened ") for x in line)


def test_bad_debt_input_gets_clear_errors(mem: Memory) -> None:
    mem.add_debt("one")
    with pytest.raises(UserError, match=r"no debt D-0042 in .*debts\.md \(known: D-0001\)"):
        mem.update_debt("D-0042", status="closed")
    with pytest.raises(UserError, match="status 'done' is not valid") as exc:
        mem.update_debt("D-0001", status="done")
    assert "open, in-progress, deferred, closed" in str(exc.value)
    with pytest.raises(UserError, match="debt id 'X-1' is not valid"):
        mem.update_debt("X-1", status="closed")
    with pytest.raises(UserError, match="needs a description"):
        mem.add_debt("  ")


@pytest.mark.parametrize("broken, message", [
    ("- D-0003 [done] shipped", "status 'done'"),
    ("- fix the flaky test", "not a debt entry"),
    ("- D-0001 [open] duplicated", "appears twice"),
    ("- D-7 [open] short id", "debt id 'D-7' is not valid"),
])
def test_a_hand_broken_debts_line_is_named_by_file_and_line(mem: Memory, broken: str, message: str) -> None:
    mem.add_debt("first")
    p = mem.path("debts.md")
    p.write_text(p.read_text() + broken + "\n")
    lineno = len(p.read_text().splitlines())
    with pytest.raises(DataError, match=message) as exc:
        mem.debts()
    assert exc.value.path == str(p) and exc.value.line == lineno
    assert f"{p}:{lineno}:" in str(exc.value)
    with pytest.raises(DataError):  # and nothing writes over a register it cannot read
        mem.add_debt("second")
    assert p.read_text().splitlines()[-1] == broken


def test_a_persons_headings_and_prose_in_debts_md_survive_machine_writes(mem: Memory) -> None:
    mem.add_debt("first")
    p = mem.path("debts.md")
    p.write_text(p.read_text() + "\n## Deferred until the migration\nThese wait for Q3.\n"
                 "- D-0005 [deferred] Move the wiki (opened 2025-01-01T00:00:00Z)\n  owner: ops\n")
    d = mem.add_debt("third")
    assert d.id == "D-0006"
    mem.update_debt("D-0005", status="open")
    text = p.read_text()
    assert "## Deferred until the migration\nThese wait for Q3.\n- D-0005 [open] Move the wiki" in text
    assert "  owner: ops" in text
    assert text.index("D-0005") < text.index("D-0006")


def test_an_editor_saving_between_read_and_write_is_not_overwritten(mem: Memory, monkeypatch) -> None:
    real_read = Memory.read
    calls = {"n": 0}

    def read_then_person_saves(self: Memory, name: str):
        out = real_read(self, name)
        if name == "chronicle.md" and calls["n"] == 0:
            calls["n"] += 1
            p = self.path(name)
            p.write_text(p.read_text() + "\n## 2025-01-01T00:00:00Z\nwritten in an editor\n")
        return out

    monkeypatch.setattr(Memory, "read", read_then_person_saves)
    mem.note("written by slowloop")
    text = mem.path("chronicle.md").read_text()
    assert "written in an editor" in text and "written by slowloop" in text


def test_an_editor_that_never_stops_saving_gets_a_conflict_not_a_lost_edit(mem: Memory, monkeypatch) -> None:
    real_read = Memory.read

    def always_edited(self: Memory, name: str):
        out = real_read(self, name)
        if name == "system-state.md":
            p = self.path(name)
            p.write_text(p.read_text() + "x")
        return out

    monkeypatch.setattr(Memory, "read", always_edited)
    with pytest.raises(ConflictError, match="kept changing"):
        mem.set_state("CI", "arm64")
    assert "arm64" not in mem.path("system-state.md").read_text()


def test_state_set_replaces_one_section_and_keeps_the_others(mem: Memory) -> None:
    mem.set_state("CI", "x86 runners")
    mem.set_state("Sources of truth", "infra/ holds the deploy config")
    mem.set_state("ci", "arm64 runners for tests")
    secs = {s.title: s.body for s in mem.state_sections()}
    assert secs == {"CI": "arm64 runners for tests", "Sources of truth": "infra/ holds the deploy config"}
    assert mem.path("system-state.md").read_text().startswith(HEADERS["system-state.md"])
    with pytest.raises(UserError, match="not valid"):
        mem.set_state("## CI", "x")


def test_check_flags_history_in_state_and_open_items_in_the_chronicle(mem: Memory) -> None:
    mem.set_state("CI", "Runs on arm64.\n- 2025-01-03: moved from x86\nYesterday we fixed the cache key.\n"
                  "Ieri abbiamo corretto la pipeline.\nThe release job still builds on x86.")
    mem.note("TODO: rotate the signing keys")
    mem.note("- [ ] write the upgrade notes")
    mem.note("Open question: do we keep the x86 cache?")
    mem.note("todo funciona bien en arm64")  # Spanish "all", not an open item
    mem.note("FIXME tracked as D-0009, nothing to add")
    found = check(mem)
    rules = [(v.rule, v.text) for v in found]
    assert ("history-in-state", "- 2025-01-03: moved from x86") in rules
    assert ("history-in-state", "Yesterday we fixed the cache key.") in rules
    assert ("history-in-state", "Ieri abbiamo corretto la pipeline.") in rules
    assert not any("still builds" in t for _, t in rules)
    open_items = [t for r, t in rules if r == "open-item-in-chronicle"]
    assert open_items == ["TODO: rotate the signing keys", "- [ ] write the upgrade notes",
                          "Open question: do we keep the x86 cache?"]
    assert all(v.line and v.path.endswith(".md") for v in found)
    mem.add_debt("Rotate the signing keys")
    assert "TODO: rotate the signing keys" not in [v.text for v in check(mem)]


def test_check_flags_a_root_over_its_caps(tmp_path: Path) -> None:
    m = Memory(tmp_path / "memory", MemorySettings(chronicle_max_lines=10, auto_archive=False,
                                                   state_max_tokens=20))
    m.init()
    for i in range(6):
        m.note(f"entry {i}")
    m.set_state("Model", "a rather long description of the current model of the system " * 3)
    over = [v for v in check(m) if v.rule == "over-cap"]
    assert {Path(v.path).name for v in over} == {"chronicle.md", "system-state.md"}
    st = status(m)
    assert st.files["chronicle.md"]["lines"] > 10 and st.cycle == 1 and st.layers == []


def _full_memory(mem: Memory) -> None:
    mem.set_state("Model", "The service is a queue worker in front of Postgres. " * 4)
    for i in range(3):
        mem.add_debt(f"open item number {i}")
    mem.add_debt("someday: rewrite the docs", status="deferred")
    for i in range(12):
        clock.set_clock(lambda i=i: 1_736_071_200.0 + 3600 * i)
        mem.note(f"entry {i}: we decided to change step {i} because the old one failed")
    clock.set_clock(None)
    mem.path("past-summary.md").write_text(HEADERS["past-summary.md"] + "\n\n" +
                                           "\n".join(f"- old decision {i} with its reason" for i in range(40)) + "\n")


def test_bootstrap_shows_everything_when_it_fits(mem: Memory) -> None:
    _full_memory(mem)
    text = show_text(mem)
    for needle in ("## State (system-state.md)", "queue worker", "D-0004 [deferred]", "entry 0:",
                   "entry 11:", "old decision 39", "Cycle 1 · started"):
        assert needle in text
    # where we are first (the last session, what is open, today's state), then how we got here
    assert text.index("## Last session") < text.index("## Open debts") < text.index("## State") \
        < text.index("## Earlier in this cycle") < text.index("## Past summary")
    last = text.split("## Last session")[1].split("## Open debts")[0]
    assert "entry 11:" in last and "entry 10:" not in last


def test_bootstrap_trims_summary_then_oldest_chronicle_then_deferred_debts_then_state(mem: Memory) -> None:
    _full_memory(mem)
    full = estimate_tokens(show_text(mem))
    summary_tokens = estimate_tokens(mem.path("past-summary.md").read_text())

    t1 = memory_bootstrap(mem, full - summary_tokens // 2)
    assert "past summary cut to fit" in t1 and "old decision 0 " in t1 and "old decision 39" not in t1
    assert "entry 0:" in t1  # the chronicle is untouched while the summary can give

    t2 = memory_bootstrap(mem, full - summary_tokens - 60)
    assert "old decision" not in t2 and "entry 11:" in t2 and "entry 0:" not in t2
    assert "older entries cut to fit" in t2 and "D-0004 [deferred]" in t2

    # Walk the budget down: each section only gives once the one before it in the order is gone.
    saw_debt_cut = saw_state_cut = False
    for budget in range(full, 30, -7):
        t = memory_bootstrap(mem, budget)
        assert estimate_tokens(t) <= budget
        chron = "".join(t.split(h)[1].split("\n## ")[0] for h in ("## Last session", "## Earlier in this cycle")
                        if h in t)
        if "more open debts cut" in t:
            saw_debt_cut = True
            assert "entry " not in chron and "old decision" not in t
            if any(f"D-000{i} [open]" not in t for i in (1, 2, 3)):
                assert "D-0004" not in t  # the deferred one went first
        if "state cut to fit" in t:
            saw_state_cut = True
            if "## Open debts" in t:  # below a few dozen tokens even the headings go (last resort)
                assert "D-000" not in t.split("## Open debts")[1].split("more open debts")[0]
    assert saw_debt_cut and saw_state_cut


def test_iter_entries_covers_chronicle_debts_state_and_summary_with_lines(mem: Memory) -> None:
    mem.set_state("CI", "arm64")
    mem.add_debt("cache key")
    mem.note("first note")
    entries = list(iter_entries(mem))
    kinds = {e.kind for e in entries}
    assert kinds == {"chronicle", "debt", "state"}
    note = next(e for e in entries if e.kind == "chronicle" and e.at)
    assert note.text == "first note" and note.layer is None and note.at.endswith("Z")
    assert note.path.read_text().splitlines()[note.line - 1].startswith("## ")
    debt = next(e for e in entries if e.kind == "debt")
    assert debt.text.startswith("D-0001 [open] cache key") and debt.at
    assert list(iter_entries(mem.root)) == entries  # recall passes the folder
    p = mem.path("chronicle.md")
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:3] + ["Context a person typed above the entries."] + lines[3:]) + "\n")
    lead = next(e for e in iter_entries(mem) if e.kind == "chronicle" and e.at is None)
    assert "Cycle 1 · started" in lead.text and "a person typed" in lead.text
