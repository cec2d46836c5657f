"""A sub-agent's transcript has no person: every "user" message in it is the main agent talking,
so none of its words is ever the person's correction — read whole, resumed from the middle (a
hook), or in pieces (workers)."""

from __future__ import annotations

import json
from pathlib import Path

from integrations_fixtures import cc_turn, lines
from test_ingest_pieces import _answer, _cx, _heard, _said, read_in_pieces

from slowloop.transcripts import iter_turns

CORRECTION = "No, use pnpm instead of npm, we always use pnpm here"


def _codex(source) -> str:
    out = [_cx("session_meta", {"id": "sub-1", "cwd": "/r", "source": source})]
    for n in range(6):
        out += [_said(CORRECTION, 2 + 3 * n), _heard(CORRECTION, 2 + 3 * n), _answer("ok", 3 + 3 * n),
                _cx("event_msg", {"type": "task_complete"}, 4 + 3 * n)]
    return "\n".join(out) + "\n"


def test_a_claude_code_subagent_file_has_no_person(tmp_path: Path) -> None:
    f = tmp_path / "proj" / "session-1" / "subagents" / "agent-a1.jsonl"
    f.parent.mkdir(parents=True)
    f.write_text(lines(cc_turn(CORRECTION) + cc_turn("and again", n=1)), encoding="utf-8")
    turns = list(iter_turns(f))
    assert turns and not any(t.person for t in turns)
    main = tmp_path / "proj" / "session-1.jsonl"
    main.write_text(lines(cc_turn(CORRECTION)), encoding="utf-8")
    assert all(t.person for t in iter_turns(main))


def test_a_codex_subagent_rollout_has_no_person_however_it_is_read(tmp_path: Path) -> None:
    sub = tmp_path / "rollout-sub.jsonl"
    sub.write_text(_codex({"subagent": "review"}), encoding="utf-8")
    whole = list(iter_turns(sub))
    assert whole and not any(t.person for t in whole)
    resumed = list(iter_turns(sub, start_offset=whole[2].byte_start, start_line=whole[2].line_start,
                              start_index=2))
    assert resumed and not any(t.person for t in resumed)
    pieces, _ = read_in_pieces(sub, 300)
    assert [t.to_json() for t in pieces] == [t.to_json() for t in whole]
    # a person's own session keeps its person, and its stored form is what it always was
    own = tmp_path / "rollout-own.jsonl"
    own.write_text(_codex("cli"), encoding="utf-8")
    mine = list(iter_turns(own))
    assert mine and all(t.person for t in mine) and "person" not in json.loads(mine[0].to_json())


def test_a_subagents_words_are_never_recorded_as_a_correction(tmp_path: Path) -> None:
    from slowloop.config import load_config
    from slowloop.ingest import ingest_paths
    from slowloop.store import open_store

    sub = tmp_path / "rollout-sub.jsonl"
    sub.write_text(_codex({"subagent": "review"}), encoding="utf-8")
    home = tmp_path / "home"
    with open_store(home=home) as store:
        ingest_paths([sub], agent="a", store=store, cfg=load_config(home))
        assert {int(r["corrected"]) for r in store.query("SELECT corrected FROM turns")} == {0}
