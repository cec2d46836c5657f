"""History: every change with before/after, person edits noticed, undo and undo of a reflection."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from slowloop import clock
from slowloop.cli import cli
from slowloop.errors import ConflictError, UserError
from slowloop.history import apply_changes, history, undo, undo_reflection
from slowloop.memo import Memo, plan_memo_update
from slowloop.skills import SkillLibrary, plan_create, plan_patch, plan_retire
from slowloop.store import Store, open_store

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

BODY = "## Steps\n1. Always convert timestamps to UTC.\n2. Never exceed 5 bullets.\n"


def reflection(store: Store) -> int:
    aid = store.agent_id("default")
    with store.transaction() as db:
        return int(db.execute("INSERT INTO reflections(agent_id, started_at, status) "
                              "VALUES (?, ?, 'applied')", (aid, clock.iso())).lastrowid)


def test_undo_a_patch(slowloop_home):
    lib = SkillLibrary(home=slowloop_home)
    lib.create("report", "Weekly report.", BODY)
    original = lib.get("report").path.read_text()
    lib.patch("report", "5 bullets", "3 bullets")
    patch_id = history(lib.store, "default")[0].id
    new_id = undo(lib.store, "default", patch_id)
    assert lib.get("report").path.read_text() == original
    rows = history(lib.store, "default")
    assert rows[0].id == new_id and rows[0].actor == "undo"
    assert [r.undone_by for r in rows if r.id == patch_id] == [new_id]
    with pytest.raises(UserError, match="already undone"):
        undo(lib.store, "default", patch_id)
    undo(lib.store, "default", new_id)  # redo
    assert "3 bullets" in lib.get("report").body


def test_person_edit_is_recorded_and_undo_refuses_blind_overwrite(slowloop_home):
    lib = SkillLibrary(home=slowloop_home)
    skill = lib.create("report", "Weekly report.", BODY).skill
    lib.patch("report", "5 bullets", "3 bullets")
    patch_id = history(lib.store, "default")[0].id
    person = skill.path.read_text().replace("UTC", "UTC+0")
    skill.path.write_text(person)
    lib.list()
    top = history(lib.store, "default")[0]
    assert top.actor == "person" and top.op == "edit" and "UTC+0" in top.after
    with pytest.raises(ConflictError, match="changed again"):
        undo(lib.store, "default", patch_id)
    assert skill.path.read_text() == person
    undo(lib.store, "default", top.id)  # the person's edit itself can be undone
    assert "UTC+0" not in skill.path.read_text()


def test_reflection_applies_as_one_unit_and_undoes_as_one(slowloop_home):
    store = open_store(home=slowloop_home)
    lib = SkillLibrary(home=slowloop_home, store=store)
    lib.create("report", "Weekly report.", BODY)
    lib.create("old-deploy", "Old deploy steps.", BODY)
    before_report = lib.get("report").path.read_text()
    rid = reflection(store)
    changes = (plan_create("csv-export", "Export CSV files. Use when asked for CSV.",
                           "1. Always quote fields.\n", home=slowloop_home, store=store)
               + plan_patch("report", "5 bullets", "3 bullets", home=slowloop_home)
               + plan_retire("old-deploy", home=slowloop_home)
               + plan_memo_update("plays", "add", "When exporting, always use UTC.", home=slowloop_home))
    ids = apply_changes(changes, store=store, agent="default", actor="reflection", reflection_id=rid)
    assert len(ids) == 4
    assert sorted(s.name for s in lib.list()) == ["csv-export", "report"]
    undo_ids = undo_reflection(store, "default", rid)
    assert len(undo_ids) == 4
    assert sorted(s.name for s in lib.list()) == ["old-deploy", "report"]
    assert lib.get("report").path.read_text() == before_report
    assert Memo(home=slowloop_home).entries("plays") == []
    assert (lib.archive_dir / "csv-export").is_dir()  # undone creations are archived, not deleted
    with pytest.raises(UserError, match="no change left"):
        undo_reflection(store, "default", rid)


def test_failed_batch_writes_nothing(slowloop_home):
    store = open_store(home=slowloop_home)
    lib = SkillLibrary(home=slowloop_home, store=store)
    lib.create("report", "Weekly report.", BODY)
    changes = (plan_create("new-one", "New.", "1. Always do it.\n", home=slowloop_home, store=store)
               + plan_patch("report", "5 bullets", "3 bullets", home=slowloop_home))
    path = lib.get("report").path
    path.write_text(path.read_text() + "\nA person's line.\n")
    with pytest.raises(ConflictError):
        apply_changes(changes, store=store, agent="default", actor="reflection")
    assert not (lib.skills_dir / "new-one").exists()
    assert "A person's line." in path.read_text()


def test_history_and_undo_cli(slowloop_home):
    r = CliRunner()
    SkillLibrary(home=slowloop_home).create("report", "Weekly report.", BODY)
    out = r.invoke(cli, ["history", "--json"])
    assert out.exit_code == 0 and '"op": "create"' in out.output
    rows = history(open_store(home=slowloop_home), "default")
    out = r.invoke(cli, ["undo", str(rows[0].id)])
    assert out.exit_code == 0, out.output
    assert not (slowloop_home / "agents/default/skills/report").exists()
    assert r.invoke(cli, ["undo", "R99"]).exit_code == 2


def test_writes_answer_in_json_and_history_undo_is_the_noun_verb_spelling(slowloop_home, tmp_path):
    import json

    r = CliRunner()
    body = tmp_path / "steps.md"
    body.write_text(BODY)
    out = r.invoke(cli, ["skills", "new", "report", "-d", "Weekly report.", "-f", str(body), "--json"])
    assert out.exit_code == 0, out.output
    created = json.loads(out.stdout)
    assert created["created"] == "report" and created["evicted"] == []
    listed = json.loads(r.invoke(cli, ["history", "list", "--json"]).stdout)
    assert listed[0]["op"] == "create" and listed[0]["target"] == "report"
    out = r.invoke(cli, ["history", "undo", str(listed[0]["id"]), "--json"])
    assert out.exit_code == 0, out.output
    undone = json.loads(out.stdout)
    assert undone["undone"] == listed[0]["id"] and len(undone["changes"]) == 1
    assert not (slowloop_home / "agents/default/skills/report").exists()
    out = r.invoke(cli, ["memo", "add", "-s", "plays", "When asked for a summary, lead with it.",
                         "--json"])
    assert json.loads(out.stdout)["entries"] == ["When asked for a summary, lead with it."]
