"""The self-understanding memo: sections, caps on every write path, matching, known_weakness."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.errors import DataError, UserError
from slowloop.history import apply_changes
from slowloop.memo import Memo, is_pitfall, plan_memo_update, weakness_matcher
from slowloop.store import open_store

MEMO = """# Self-understanding memo

## Strengths and pitfalls

- Strength: I write clear SQL migrations and never lose data in them.
- Pitfall: I tend to forget timezone conversion when exporting CSV reports.
- I often misread the user's fiscal-year boundaries in quarterly finance summaries.
- Punto debole: sbaglio spesso il fuso orario nelle esportazioni CSV dei report.

## Plays for this user and domain

- When answering family-office questions, never exceed 5 bullet points.
"""


def write_memo(home, text=MEMO):
    path = home / "agents" / "default" / "memo.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_add_replace_remove_and_matching(slowloop_home):
    m = Memo(home=slowloop_home)
    m.add("plays", "When the user asks for a summary, give the conclusion first.")
    m.add("plays", "When writing SQL, always show the migration before running it.")
    assert m.entries("plays") == ["When the user asks for a summary, give the conclusion first.",
                                  "When writing SQL, always show the migration before running it."]
    m.replace("plays", "conclusion", "When summarising, give the conclusion first, then 3 bullets.")
    m.remove("plays", 2)
    assert m.entries("plays") == ["When summarising, give the conclusion first, then 3 bullets."]
    with pytest.raises(UserError, match="no entry"):
        m.remove("plays", "nothing like this")
    m.add("plays", "When summarising a meeting, list decisions first.")
    with pytest.raises(UserError, match="matches entries 1, 2"):
        m.remove("plays", "summarising")
    with pytest.raises(UserError, match="no entry 9"):
        m.replace("plays", 9, "x")
    text = m.path.read_text()
    assert "## Strengths and pitfalls" in text and "## Plays for this user and domain" in text


def test_caps_enforced_on_every_write_path(slowloop_home):
    cfg = load_config(slowloop_home).with_overrides(memo={"plays_cap": 60})
    m = Memo(home=slowloop_home, config=cfg)
    m.add("plays", "When asked, always answer in English.")  # 39 chars with "- "
    with pytest.raises(UserError, match=r"characters, \d+ over its cap of 60") as exc:
        m.add("plays", "When summarising, give the conclusion first.")
    assert "replace or remove" in str(exc.value)
    with pytest.raises(UserError, match="over its cap"):
        m.replace("plays", 1, "When asked anything at all, always answer in plain English, briefly.")
    with pytest.raises(UserError, match="over its cap"):
        plan_memo_update("plays", "add", "When in doubt, always ask one question first.",
                         home=slowloop_home, config=cfg)
    assert m.entries("plays") == ["When asked, always answer in English."]
    m.remove("plays", 1)  # shrinking is always allowed
    assert m.entries("plays") == []


def test_planner_applies_through_history(slowloop_home):
    changes = plan_memo_update("strengths", "add", "Pitfall: I forget to run the linter.",
                               home=slowloop_home)
    apply_changes(changes, store=open_store(home=slowloop_home), agent="default", actor="reflection")
    assert Memo(home=slowloop_home).entries("strengths") == ["Pitfall: I forget to run the linter."]


def test_hand_edited_memo_is_parsed_and_broken_heading_is_reported(slowloop_home):
    path = write_memo(slowloop_home, MEMO + "  continued on a second line\n")
    m = Memo(home=slowloop_home)
    assert m.entries("plays")[0].endswith("5 bullet points. continued on a second line")
    path.write_text(MEMO.replace("## Plays for this user and domain", "## Random notes"))
    with pytest.raises(DataError) as exc:
        m.entries("plays")
    assert exc.value.line == 10
    assert m.problems()[0][0] == 10
    assert weakness_matcher(home=slowloop_home)("export csv timezone") is None  # skipped, not fatal


def test_pitfall_classification():
    assert is_pitfall("Pitfall: I forget timezones")
    assert is_pitfall("I tend to write answers that are too long")
    assert is_pitfall("Piège : j'oublie les fuseaux horaires")
    assert is_pitfall("苦手：タイムゾーンの変換")
    assert not is_pitfall("Strength: I never lose data in migrations")
    assert not is_pitfall("I write clear SQL migrations")
    assert not is_pitfall("Attention to detail in code review")


def test_weakness_matcher_matches_and_non_matches(slowloop_home):
    write_memo(slowloop_home)
    match = weakness_matcher(home=slowloop_home)
    hit = match("Please export the weekly CSV report with timestamps in the client's timezone")
    assert hit is not None and hit.startswith("Pitfall: I tend to forget timezone")
    assert match("Prepare the quarterly finance summary for the fiscal year").startswith("I often misread")
    assert match("Esporta il report CSV settimanale con il fuso orario giusto").startswith("Punto debole")
    # strengths never count, unrelated tasks do not match
    assert match("Write the SQL migrations for the new table without losing data") is None
    assert match("Write a haiku about spring") is None
    assert match("") is None


def test_memo_cli(slowloop_home):
    r = CliRunner()
    assert r.invoke(cli, ["memo", "add", "-s", "plays", "When asked, answer first."]).exit_code == 0
    out = r.invoke(cli, ["memo", "show", "--json"])
    assert out.exit_code == 0 and '"When asked, answer first."' in out.output
    assert r.invoke(cli, ["memo", "remove", "-s", "plays", "nope"]).exit_code != 0


def test_memo_remove_finds_the_section_itself_when_only_one_can_be_meant(slowloop_home):
    from click.testing import CliRunner

    from slowloop.cli import cli
    from slowloop.memo import Memo

    m = Memo("default")
    m.add("plays", "When summarising, always give the conclusion first.")
    m.add("plays", "When installing packages, always use pnpm, never npm.")
    m.add("strengths", "Pitfall: when installing packages, use pnpm, not npm.")
    run = CliRunner().invoke
    done = run(cli, ["memo", "remove", "conclusion first"])
    assert done.exit_code == 0, done.output
    assert Memo("default").entries("plays") == ["When installing packages, always use pnpm, never npm."]
    both = run(cli, ["memo", "remove", "pnpm"])  # in both sections: the person says which
    assert both.exit_code != 0 and "--section" in both.output
    done = run(cli, ["memo", "remove", "2"])  # only plays… has no entry 2 now; neither does strengths
    assert done.exit_code != 0
    done = run(cli, ["memo", "remove", "--section", "strengths", "1"])
    assert done.exit_code == 0 and Memo("default").entries("strengths") == []


def test_a_four_backtick_fence_in_the_memo_does_not_move_a_new_entry_to_another_section():
    from slowloop.memo import append_bullet, parse_memo

    text = ("# Memo\n\n## Strengths and pitfalls\n\n- a strength\n\n````markdown\n```\n"
            "## Plays for this user and domain\n```\n````\n\n## Plays for this user and domain\n\n- a play\n")
    out = append_bullet(text, "plays", "When testing, always run the unit tests first.")
    assert out is not None
    memo = parse_memo(out)
    assert memo.entries["plays"] == ("a play", "When testing, always run the unit tests first.")
    assert "When testing" not in " ".join(memo.entries["strengths"])
