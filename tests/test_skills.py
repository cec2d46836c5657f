"""Skills on disk: format, names, patch, lifecycle, eviction, conflicts, broken files, concurrency."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.errors import ConflictError, DataError, UserError
from slowloop.history import apply_changes
from slowloop.skills import SkillLibrary, plan_patch
from slowloop.skills.format import parse_skill, spec_problems
from slowloop.store import open_store

BODY = "## Steps\n1. When exporting, always convert timestamps to UTC.\n2. Never exceed 5 bullets.\n"


def lib_with(home: Path, **skills_cfg) -> SkillLibrary:
    from slowloop.config import load_config

    cfg = load_config(home)
    if skills_cfg:
        cfg = cfg.with_overrides(skills=skills_cfg)
    return SkillLibrary("default", home=home, config=cfg)


def all_written_files_pass_spec(lib: SkillLibrary) -> None:
    for path in lib.skills_dir.glob("*/SKILL.md"):
        assert spec_problems(path.read_text(), path) == [], path


def test_create_writes_spec_valid_frontmatter(slowloop_home):
    clock.set_clock(lambda: 1_736_000_000.0)
    lib = lib_with(slowloop_home)
    skill = lib.create("weekly-report-export", "Compile the weekly report. Use when asked for it.",
                       BODY, title="Weekly Report Export").skill
    text = skill.path.read_text()
    assert skill.path == slowloop_home / "agents/default/skills/weekly-report-export/SKILL.md"
    assert "createdAt: '2025-01-04T14:13:20Z'" in text and "patchCount: '0'" in text
    assert skill.metadata["title"] == "Weekly Report Export"
    all_written_files_pass_spec(lib)


@pytest.mark.parametrize("bad", ["Weekly Report", "../etc", "a--b", "-a", "a-", "x" * 65, "", "a/b"])
def test_invalid_names_are_refused(slowloop_home, bad):
    with pytest.raises(UserError):
        lib_with(slowloop_home).create(bad, "desc", BODY)


def test_no_clobbering_and_description_limit(slowloop_home):
    lib = lib_with(slowloop_home)
    lib.create("deploy", "Deploy the app.", BODY)
    with pytest.raises(UserError, match="already exists"):
        lib.create("deploy", "Other.", "other body")
    with pytest.raises(UserError, match="1-1024"):
        lib.create("long-one", "x" * 1025, BODY)
    assert "Deploy the app." in lib.get("deploy").description


def test_seed_flat_form_is_read(tmp_path):
    folder = tmp_path / "weekly-report-export"
    folder.mkdir()
    text = textwrap.dedent("""\
        ---
        name: "Weekly Report Export"
        description: "Compile this week's data into the standard weekly-report format"
        createdAt: "2025-01-01T00:00:00Z"
        updatedAt: "2025-01-08T00:00:00Z"
        patchCount: 2
        lastUsedAt: 2025-01-09T10:00:00Z
        ---
        ## Steps
        1. ...
        """)
    s = parse_skill(text, folder / "SKILL.md")
    assert s.name == "weekly-report-export" and s.title == "Weekly Report Export"
    assert s.metadata["patchCount"] == "2" and s.metadata["lastUsedAt"] == "2025-01-09T10:00:00Z"
    assert s.flat_form and s.body.startswith("## Steps")


def test_patch_once_and_its_errors(slowloop_home):
    lib = lib_with(slowloop_home)
    lib.create("report", "Weekly report.", "Always use 5 bullets. Use 5 bullets max.\nEnd.\n")
    with pytest.raises(UserError, match="not found"):
        lib.patch("report", "7 bullets", "3 bullets")
    with pytest.raises(UserError, match="occurs 2 times"):
        lib.patch("report", "5 bullets", "3 bullets")
    s = lib.patch("report", "Always use 5 bullets.", "Always use 3 bullets.")
    assert "Always use 3 bullets." in s.body and s.metadata["patchCount"] == "1"
    s = lib.patch("report", "End.", "Finish with the conclusion.")
    assert s.metadata["patchCount"] == "2"
    with pytest.raises(UserError, match="no skill named 'nope'.*"):
        lib.patch("nope", "a", "b")
    all_written_files_pass_spec(lib)


def test_person_edit_between_read_and_write_is_not_overwritten(slowloop_home):
    lib = lib_with(slowloop_home)
    skill = lib.create("report", "Weekly report.", BODY).skill
    changes = plan_patch("report", "Never exceed 5 bullets.", "Never exceed 3 bullets.",
                         home=slowloop_home)
    person = skill.path.read_text().replace("convert timestamps", "convert all timestamps")
    skill.path.write_text(person)
    with pytest.raises(ConflictError):
        apply_changes(changes, store=open_store(home=slowloop_home), agent="default", actor="reflection")
    assert skill.path.read_text() == person


def test_retire_restore_archive_never_deletes(slowloop_home):
    lib = lib_with(slowloop_home)
    lib.create("old-steps", "Old deploy steps.", BODY)
    lib.retire("old-steps", reason="moved to CI")
    assert not (lib.skills_dir / "old-steps").exists()
    archived = list((lib.archive_dir / "old-steps").glob("*/SKILL.md"))
    assert len(archived) == 1
    assert [s.name for s in lib.list()] == []
    assert [(s.name, s.retired) for s in lib.list(include_retired=True)] == [("old-steps", True)]
    with pytest.raises(UserError, match="retired"):
        lib.read("old-steps")
    assert lib.restore("old-steps").body == BODY
    with pytest.raises(UserError, match="clobber"):
        lib.restore("old-steps")


def _age_skills(lib: SkillLibrary, names_and_created: dict[str, float]) -> None:
    for name, at in names_and_created.items():
        clock.set_clock(lambda at=at: at)
        lib.create(name, f"Skill {name}.", BODY)


def test_eviction_prefers_never_used_then_lru_outside_grace(slowloop_home):
    day = 86400.0
    t0 = 1_700_000_000.0
    lib = lib_with(slowloop_home, max_count=3, eviction_grace="3d")
    _age_skills(lib, {"a-used-long-ago": t0, "b-never-used": t0 + 1 * day, "c-used-recently": t0 + 2 * day})
    clock.set_clock(lambda: t0 + 3 * day)
    lib.read("a-used-long-ago")
    clock.set_clock(lambda: t0 + 9 * day)
    lib.read("c-used-recently")
    clock.set_clock(lambda: t0 + 10 * day)
    res = lib.create("d-new", "New skill.", BODY)
    assert [e.name for e in res.evicted] == ["b-never-used"]
    assert "never used" in res.evicted[0].reason
    clock.set_clock(lambda: t0 + 20 * day)
    res = lib.create("e-new", "New skill.", BODY)
    # d-new is 10 days old and never used: never-used goes first, even before the LRU one
    assert [e.name for e in res.evicted] == ["d-new"]
    lib.read("e-new")
    clock.set_clock(lambda: t0 + 21 * day)
    res = lib.create("f-new", "New skill.", BODY)
    assert [e.name for e in res.evicted] == ["a-used-long-ago"]
    assert "least recently used" in res.evicted[0].reason
    assert sorted(s.name for s in lib.list()) == ["c-used-recently", "e-new", "f-new"]
    assert (lib.archive_dir / "b-never-used").is_dir()


def test_grace_period_blocks_eviction_and_zero_allows_it(slowloop_home):
    t0 = 1_700_000_000.0
    lib = lib_with(slowloop_home, max_count=2, eviction_grace="3d")
    _age_skills(lib, {"one": t0, "two": t0 + 60})
    clock.set_clock(lambda: t0 + 3600)
    with pytest.raises(UserError, match="grace period"):
        lib.create("three", "Third.", BODY)
    assert sorted(s.name for s in lib.list()) == ["one", "two"]
    lib0 = lib_with(slowloop_home, max_count=2, eviction_grace="0")
    res = lib0.create("three", "Third.", BODY)
    assert [e.name for e in res.evicted] == ["one"]


def test_hand_broken_skill_is_skipped_and_reported(slowloop_home):
    lib = lib_with(slowloop_home)
    lib.create("good", "A good skill.", BODY)
    bad = lib.skills_dir / "bad-yaml" / "SKILL.md"
    bad.parent.mkdir()
    bad.write_text("---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n")
    wrong = lib.skills_dir / "wrong-name" / "SKILL.md"
    wrong.parent.mkdir()
    wrong.write_text("---\nname: other-name\ndescription: x\n---\nbody\n")
    long = lib.skills_dir / "too-long" / "SKILL.md"
    long.parent.mkdir()
    long.write_text("---\nname: too-long\ndescription: " + "x" * 1100 + "\n---\nbody\n")
    assert [s.name for s in lib.list()] == ["good"]
    from slowloop.bootstrap import build_bootstrap

    assert build_bootstrap(home=slowloop_home).skills_shown == ["good"]
    problems = {Path(p.path).parent.name: p for p in lib.problems()}
    assert set(problems) == {"bad-yaml", "wrong-name", "too-long"}
    assert problems["wrong-name"].line == 2 and "does not match its folder" in problems["wrong-name"].message
    assert problems["too-long"].line == 3
    with pytest.raises(DataError) as exc:
        lib.get("wrong-name")
    assert str(wrong) in str(exc.value)

    from click.testing import CliRunner

    from slowloop.cli import cli

    out = CliRunner().invoke(cli, ["doctor", "--json"])
    assert out.exit_code == 3
    assert any(f["path"] == str(bad) and f["line"] for f in __import__("json").loads(out.output))


def test_read_counts_invocations_and_flushes_last_used_at_most_hourly(slowloop_home):
    t0 = 1_700_000_000.0
    clock.set_clock(lambda: t0)
    lib = lib_with(slowloop_home)
    lib.create("report", "Weekly report.", BODY)
    for i in range(5):
        clock.set_clock(lambda i=i: t0 + 60 * i)
        assert lib.read("report") == BODY
    lib.read("report", count=False)  # the reflector's read is not an invocation
    skill = lib.get("report")
    assert skill.metadata["lastUsedAt"] == clock.iso(t0)  # written once, not on every read
    m = lib.metrics(["report"])["report"]
    assert m.invocations == 5 and m.last_invoked_at == clock.iso(t0 + 240)
    assert lib.last_used(skill, m) == clock.iso(t0 + 240)  # the ledger's value is reported
    clock.set_clock(lambda: t0 + 3700)
    lib.read("report")
    assert lib.get("report").metadata["lastUsedAt"] == clock.iso(t0 + 3700)


def test_record_edit_credits_last_read_skill(slowloop_home):
    lib = lib_with(slowloop_home)
    with pytest.raises(UserError, match="read no skill"):
        lib.record_edit()
    lib.create("report", "Weekly report.", BODY)
    lib.read("report")
    assert lib.record_edit(note="rewrote the table") == ["report"]
    m = lib.stats()[0]
    assert m.edits_after_use == 1 and m.edit_after_use_rate == 1.0


WORKER = """
import sys
from slowloop.skills import SkillLibrary
lib = SkillLibrary("default")
who = sys.argv[1]
for i in range(12):
    lib.create(f"{who}-skill-{i}", f"Skill {i} by {who}.", "## Steps\\n1. Always step one.\\n")
    lib.patch("shared", f"count-{who}-{i}.", f"count-{who}-{i + 1}.")
"""


def test_two_processes_creating_and_patching_lose_nothing(slowloop_home, tmp_path):
    lib = lib_with(slowloop_home)
    lib.create("shared", "Shared skill.", "Tally: count-p-0. count-q-0.\n")
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    procs = [subprocess.Popen([sys.executable, str(script), who]) for who in ("p", "q")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    names = {s.name for s in lib.list()}
    assert len(names) == 25 and not lib.problems()
    shared = lib.get("shared")
    assert "count-p-12." in shared.body and "count-q-12." in shared.body
    assert shared.metadata["patchCount"] == "24"
    all_written_files_pass_spec(lib)


def test_a_write_reads_the_files_it_changes_not_the_whole_library(slowloop_home, monkeypatch):
    import io

    from slowloop.history import history

    lib = SkillLibrary("reads", home=slowloop_home)
    opened: list[str] = []
    real_open = io.open

    def counting_open(file, mode="r", *args, **kwargs):
        if "r" in mode and str(file).endswith("SKILL.md"):
            opened.append(str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting_open)
    monkeypatch.setattr("builtins.open", counting_open)
    per_create = []
    for i in range(40):
        opened.clear()
        lib.create(f"step-{i:02d}", f"When doing step {i}, check it first.", f"1. Always check {i}.\n")
        per_create.append(len(opened))
    assert max(per_create) == per_create[0] <= 3  # the same few files at 1 skill as at 40
    # a person's hand edit of the skill being patched is still recorded before the patch
    target = lib.path_of("step-07")
    target.write_text(target.read_text().replace("check 7", "check 7 twice"))
    opened.clear()
    lib.patch("step-07", "twice", "three times")
    assert set(opened) == {str(target)}
    ops = [(c.actor, c.op) for c in history(lib.store, "reads", limit=2)]
    assert ops == [("person", "patch"), ("person", "edit")]
