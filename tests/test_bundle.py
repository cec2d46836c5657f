"""The reflection bundle: budget, cut markers, redaction, what is kept first, events in time order."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

# The ledger-writing helpers live with the scheduler tests (same rows, same rules).
from test_scheduler import HOUR, T0, FakeClock, add_edit, record_turn, reflected

from slowloop import clock
from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.errors import UserError
from slowloop.reflect.bundle import build_bundle
from slowloop.store import Store, open_store
from slowloop.tokens import estimate_tokens
from slowloop.transcripts.model import Step, ToolCall, ToolResult

OPENAI_KEY = "sk-proj-" + "Q7x9Kp2LmN4vR8tY1wZ3bC6dF0gH5jJ2kL9mN3pQ7rS1"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.Xk3v9QpL2mN8rT5wY1zB4cF7hJ0kM6sA"


@pytest.fixture
def fc() -> FakeClock:
    c = FakeClock(T0)
    clock.set_clock(c)
    return c


@pytest.fixture
def store() -> Store:
    s = open_store()
    yield s
    s.close()


@pytest.fixture
def cfg():
    return load_config()


def prose(seed: int, chars: int) -> str:
    words = ["deploy", "staging", "config", "retry", "database", "migration", "pipeline", "cache",
             "token", "service", "bucket", "cluster", "release", "branch", "review", "schema"]
    out, i, size = [], seed, 0
    while size < chars:
        out.append(f"{words[i % len(words)]}{i % 97}")
        size += len(out[-1]) + 1
        i = (i * 31 + 7) % 1_000_003
    return " ".join(out)[:chars]


def tool_steps(name: str, output: str, *, args: dict | None = None, answer: str = "Done.",
               is_error: bool = False, exit_code: int | None = None, rejected: bool = False
               ) -> tuple[Step, ...]:
    return (Step("tool_call", call=ToolCall("c1", name, args or {"command": "make deploy"})),
            Step("tool_result", result=ToolResult("c1", name, output, is_error=is_error,
                                                  exit_code=exit_code, rejected=rejected)),
            Step("text", text=answer))


# -- the budget ----------------------------------------------------------------------------------

@pytest.mark.parametrize("budget", [12000, 3000])
def test_budget_is_never_exceeded_with_200_long_turns(fc, store, cfg, budget):
    for n in range(200):
        signals = (("user_correction",) if n % 7 == 3 else ()) + (("complex_task",) if n % 3 == 0 else ())
        record_turn(store, "alpha", session=f"s{n % 5}", signals=signals,
                    user=prose(n, 3000), steps=tool_steps("bash", prose(n + 1, 20000),
                                                          args={"script": prose(n + 2, 4000)},
                                                          answer=prose(n + 3, 2500)),
                    errors=(("real", "bash", "exit code 2", prose(n, 900)),) if n % 11 == 0 else ())
        fc.advance(60)
    b = build_bundle(store, "alpha", cfg.with_overrides(bundle={"token_budget": budget}))
    assert b.tokens <= budget
    assert estimate_tokens(b.text) == b.tokens
    assert b.truncated and 1 <= b.conversations <= 5
    if budget == 12000:
        assert b.conversations == 5
    assert "shortened or left out to fit the token budget" in b.text
    assert b.watermark == 200 and len(b.turn_ids) >= 5
    # what survives is the most valuable: a turn below the threshold is shown only when every
    # reflect-worthy one is
    # (the answers that corrections correct are the one exception: kept with their correction)
    rows = {r["id"]: r for r in store.query("SELECT id, reflect, corrected FROM turns")}
    answers = {i - 5 for i in rows if rows[i]["corrected"]}  # same session, one turn earlier
    shown = set(b.turn_ids)
    if any(not rows[i]["reflect"] for i in shown - answers):
        assert all(i in shown for i in rows if rows[i]["reflect"])
    assert any(rows[i]["corrected"] for i in shown)


def test_many_user_edits_do_not_crowd_out_the_turns(fc, store, cfg):
    tid = record_turn(store, "alpha", signals=("user_correction",), user="use the blue theme")
    fc.advance(60)
    aid = store.agent_id("alpha")
    with store.transaction() as db:
        for n in range(30):
            db.execute("INSERT INTO edits(agent_id, skill, at, source, note) VALUES "
                       "(?, 'theme', ?, 'explicit', ?)", (aid, clock.iso(), f"EDIT-{n} " + prose(n, 600)))
    b = build_bundle(store, "alpha", cfg.with_overrides(bundle={"token_budget": 1000}))
    assert b.tokens <= 1000 and b.truncated
    assert b.turn_ids == [tid] and "use the blue theme" in b.text
    assert "EDIT-29 " in b.text and "EDIT-0 " not in b.text  # the most recent edits first
    assert "older user edits left out." in b.text
    with pytest.raises(UserError, match="token_budget = 500 is too small"):
        build_bundle(store, "alpha", cfg.with_overrides(bundle={"token_budget": 500}))


def test_worthy_turns_are_kept_first(fc, store, cfg):
    # The reflect-worthy turn is the OLDEST: recency alone would cut it first.
    record_turn(store, "alpha", session="s1", signals=("error_recovery",), user="migrate the db",
                steps=tool_steps("psql", "ERROR: relation WORTHY-OUTPUT-MARK does not exist",
                                 answer="Created the table first, then migrated."),
                errors=(("real", "psql", "relation does not exist", "WORTHY-OUTPUT-MARK"),))
    for n in range(30):
        fc.advance(60)
        record_turn(store, "alpha", session="s1", signals=("complex_task",) if n % 2 else (),
                    user=prose(n, 2000),
                    steps=tool_steps("bash", f"LOW-OUTPUT-{n} " + prose(n, 5000)))
    b = build_bundle(store, "alpha", cfg.with_overrides(bundle={"token_budget": 2500}))
    assert b.tokens <= 2500 and b.truncated
    assert "WORTHY-OUTPUT-MARK does not exist" in b.text  # shown in full: its tool output too
    assert "Created the table first, then migrated." in b.text
    assert 1 in b.turn_ids
    kept_low_outputs = [n for n in range(30) if f"LOW-OUTPUT-{n} " in b.text]
    assert len(kept_low_outputs) < 30


def test_a_correction_keeps_the_answer_it_corrects(fc, store, cfg):
    prev = record_turn(store, "alpha", session="s1", user="add the left-pad package",
                       steps=tool_steps("bash", prose(1, 4000),
                                        answer="Ran npm install left-pad; it is in package.json."))
    reflected(store, "alpha")  # the answer was already reflected on: it is context now
    fc.advance(5 * HOUR)
    fix = record_turn(store, "alpha", session="s1", signals=("user_correction",),
                      user="no, in this repo use pnpm instead of npm, always",
                      steps=tool_steps("bash", prose(2, 4000), answer="Switched to pnpm."))
    for n in range(25):  # bulky, low-value turns elsewhere
        fc.advance(60)
        record_turn(store, "alpha", session="s2", user=prose(n, 3000),
                    steps=tool_steps("bash", prose(n, 6000), answer=prose(n, 1500)))
    b = build_bundle(store, "alpha", cfg.with_overrides(bundle={"token_budget": 1200}))
    assert b.tokens <= 1200
    assert "no, in this repo use pnpm instead of npm, always" in b.text
    assert "Ran npm install left-pad; it is in package.json." in b.text
    assert "already reflected on, shown for context" in b.text
    assert "The user corrects this answer in the next turn." in b.text
    assert prev in b.turn_ids and fix in b.turn_ids
    assert b.watermark == fix + 25  # context turns never move the watermark back


# -- cuts and redaction --------------------------------------------------------------------------

@pytest.mark.parametrize("command, value", [
    ("op read op://prod/db/password", "Qm7vLr2xK9pZt4Wd"),
    ("vault kv get -field=token secret/ci", "hvs9xQp2LmR7tV4kZ8wN"),
    ("printenv DB_PASSWORD", "s3cr3t-Pw!x9Lm2Q"),
])
def test_a_bare_value_a_secret_command_printed_never_reaches_the_bundle(fc, store, cfg, command, value):
    # the tool output is stored apart from its command: the bundle reads them together
    record_turn(store, "alpha", signals=("user_correction",), user="why does the login fail?",
                steps=tool_steps("Bash", value + "\n", args={"command": command}))
    b = build_bundle(store, "alpha", cfg)
    assert value not in b.text and command.split()[0] in b.text
    assert b.redactions >= 1


def test_long_tool_output_is_cut_with_a_visible_marker(fc, store, cfg):
    output = "".join(f"line {i:05d} of the build log\n" for i in range(400))  # 10,800 chars
    record_turn(store, "alpha", signals=("error_recovery",),
                steps=tool_steps("bash", output, exit_code=1))
    b = build_bundle(store, "alpha", cfg)
    assert f"[… {len(output) - 1500} chars cut …]" in b.text
    assert "line 00000 of the build log" in b.text  # the head
    assert "line 00399 of the build log" in b.text  # the tail, where errors usually are
    assert "line 00200 of the build log" not in b.text
    assert "(exit code 1)" in b.text
    assert not b.truncated  # the budget had room: the per-output cut is not a budget cut


def test_secrets_never_reach_the_bundle(fc, store, cfg):
    # the key sits across the point where the tool output is cut: redaction must come first
    output = "x" * 990 + f" OPENAI_API_KEY={OPENAI_KEY} " + "y" * 4000
    record_turn(store, "alpha", signals=("user_correction",),
                user=f"use this key {OPENAI_KEY} for the call",
                steps=tool_steps("curl", output,
                                 args={"cmd": f"curl -H 'Authorization: Bearer {BEARER}' "
                                              "https://api.example.com/v1/models"}),
                errors=(("real", "curl", "HTTP 401", f"Authorization: Bearer {BEARER} rejected"),))
    b = build_bundle(store, "alpha", cfg)
    for secret in (OPENAI_KEY, BEARER):
        for start in range(0, len(secret) - 12, 4):  # not even a 12-character piece survives
            assert secret[start:start + 12] not in b.text
    assert b.redactions >= 4
    assert "api.example.com" in b.text  # the rest of the line is still there to learn from


# -- events, labels, order -----------------------------------------------------------------------

def test_events_are_labelled_and_interleaved_by_time(fc, store, cfg):
    aid = store.agent_id("alpha")
    with store.transaction() as db:
        for _ in range(4):
            db.execute("INSERT INTO impressions(agent_id, skill, at) VALUES (?, 'deploy', ?)",
                       (aid, clock.iso()))
    t1 = record_turn(store, "alpha", session="morning", signals=("error_recovery",),
                     steps=tool_steps("bash", "make: *** [deploy] Error 1", exit_code=1),
                     errors=(("transient", "http", "HTTP 503", "Service Unavailable"),
                             ("real", "bash", "exit code 1", "make: *** [deploy] Error 1")))
    with store.transaction() as db:
        for _ in range(2):
            db.execute("INSERT INTO invocations(agent_id, skill, at, source, turn_id) "
                       "VALUES (?, 'deploy', ?, 'library', NULL)", (aid, clock.iso()))
    fc.advance(HOUR)
    add_edit(store, "alpha", skill="deploy")
    fc.advance(HOUR)
    record_turn(store, "alpha", session="noon", aborted=True, user="run the full test suite")
    fc.advance(60)
    record_turn(store, "alpha", session="noon", user="delete the build folder",
                steps=tool_steps("bash", "The user doesn't want to proceed with this tool use.",
                                 rejected=True, args={"command": "rm -rf build"}))
    b = build_bundle(store, "alpha", cfg)
    text = b.text
    assert "- TRANSIENT error (environment, not a lesson) in `http`: HTTP 503" in text
    assert "- REAL error in `bash`: exit code 1 — make: *** [deploy] Error 1" in text
    assert "Never learn a rule from them" in text
    assert "- ABORTED: the user interrupted this turn" in text
    assert "- REJECTED: the user refused 1 tool use (bash)" in text
    assert "(REJECTED by the user)" in text
    assert "| deploy | 4 | 2 | 50% | 50% | – |" in text
    assert f"### Turn #{t1} · 2026-11-20T09:00:00Z · score 0.8 · reflect-worthy" in text
    assert "Signals: error_recovery 0.8 (error_recovery fired)" in text
    morning = text.index("## Conversation: session `morning`")
    edit = text.index("## User edit · 2026-11-20T10:00:00Z")
    noon = text.index("## Conversation: session `noon`")
    assert text.index("## Skill metrics") < morning < edit < noon
    # 1 signal + 2 errors + 1 abort + 1 rejection + 1 edit + the metrics table
    assert b.events == 7
    assert b.redactions == 0 and not b.truncated


def test_conversation_cap_prefers_worthy_then_recent_and_covers_everything(fc, store, cfg):
    ids = []
    for n in range(7):
        ids.append(record_turn(store, "alpha", session=f"c{n}",
                               signals=("user_correction",) if n == 0 else ()))
        fc.advance(HOUR)
    b = build_bundle(store, "alpha", cfg)
    assert b.conversations == 5
    assert b.turn_ids == [ids[0]] + ids[3:]  # the worthy (oldest) one, then the 4 most recent
    assert b.left_out_turns == 2 and b.truncated
    assert "2 new turns from older or less eventful conversations left out" in b.text
    assert b.watermark == ids[-1]


def test_nothing_new_and_determinism(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",), steps=tool_steps("bash", "ok"))
    a, b = build_bundle(store, "alpha", cfg), build_bundle(store, "alpha", cfg)
    assert a == b
    reflected(store, "alpha")
    clean = build_bundle(store, "alpha", cfg)
    assert "Nothing new since the last reflection." in clean.text
    assert clean.turn_ids == [] and clean.watermark == a.watermark and clean.events == 0


def test_bundle_command_prints_exactly_the_model_text(fc, store, cfg):
    record_turn(store, "alpha", signals=("user_correction",), user="actually, use port 8080",
                steps=tool_steps("bash", f"token={OPENAI_KEY}"))
    expected = build_bundle(store, "alpha", cfg)
    runner = CliRunner()
    res = runner.invoke(cli, ["bundle", "--agent", "alpha"])
    assert res.exit_code == 0, res.output
    assert res.stdout == expected.text
    assert OPENAI_KEY not in res.stdout
    as_json = json.loads(runner.invoke(cli, ["bundle", "--agent", "alpha", "--json"]).stdout)
    assert as_json["text"] == expected.text and as_json["tokens"] == expected.tokens
    assert set(as_json) >= {"text", "tokens", "turn_ids", "watermark", "events", "redactions",
                            "truncated"}
    missing = runner.invoke(cli, ["bundle", "--agent", "ghost"])
    assert missing.exit_code == 2  # a user error
    assert "no agent named 'ghost'" in missing.stderr and missing.stdout == ""
