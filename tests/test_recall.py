"""Recall: the per-agent index, incremental refresh, lexical search, filters, CLI output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from slowloop import clock
from slowloop.config import load_config
from slowloop.errors import UserError
from slowloop.paths import agent_dir
from slowloop.recall import add_paths, refresh, reindex, search, status
from slowloop.store import open_store
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def bump_mtime(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


@pytest.fixture
def memory(slowloop_home: Path) -> Path:
    mem = agent_dir("default", slowloop_home) / "memory"
    write(mem / "chronicle.md", "# Chronicle\n\n"
          "## 2025-03-01 CI\nThe CI pipeline failed on the flaky upload test; pinned pytest.\n\n"
          "## 2025-03-02 staging\nDeployed version 2 to staging.\n\n"
          "## 2025-03-04 部署\n我们今天讨论了部署问题，数据库迁移失败。\n\n"
          "## 2025-03-04T18:00:00Z\nデプロイの手順を見直した。\n")
    write(mem / "debts.md", "# Debts\n- D-0001 [open] Rotate the API keys of the billing service\n")
    write(mem / "past" / "0001-2025-01-02" / "chronicle.md",
          "# Chronicle\n\n## 2025-01-02 database\nMigrated the database to Postgres 16.\n")
    return mem


def sources_of(hits) -> list[str]:
    return [h.source for h in hits]


# -- incremental refresh ------------------------------------------------------------------------

def test_refresh_reads_only_what_changed_and_drops_what_is_gone(memory: Path) -> None:
    first = refresh("default")
    assert first.added == 6 and first.files_parsed == 3

    again = refresh("default")
    assert (again.added, again.updated, again.removed, again.files_parsed) == (0, 0, 0, 0)

    # touched but identical: read and hashed, nothing re-indexed
    bump_mtime(memory / "debts.md")
    touched = refresh("default")
    assert touched.files_parsed == 0 and not touched.changed

    # one file edited: only its entries change
    write(memory / "debts.md", "# Debts\n- D-0001 [open] Rotate the API keys of the billing service\n"
          "- D-0002 [open] Replace the nightly cron with a systemd timer\n")
    bump_mtime(memory / "debts.md")
    edited = refresh("default")
    assert edited.files_parsed == 1 and edited.added >= 1 and edited.removed == 0
    assert search("systemd timer", mode="lexical")[0].kind == "debt"

    # an archived layer removed: its entries leave the index
    (memory / "past" / "0001-2025-01-02" / "chronicle.md").unlink()
    gone = refresh("default")
    assert gone.removed >= 1
    assert search("Postgres", mode="lexical") == []


def test_turns_are_indexed_incrementally_from_the_ledger(slowloop_home: Path) -> None:
    from slowloop.ingest import record_turns

    cfg = load_config(slowloop_home)
    store = open_store(home=slowloop_home)
    clock.set_clock(lambda: 1_736_000_000.0)

    def turn(i: int, user: str, answer: str, error: str | None = None) -> Turn:
        steps = [Step("tool_call", call=ToolCall("c1", "Bash", {"command": "pytest"}))]
        if error:
            steps.append(Step("tool_result", result=ToolResult("c1", "Bash", error, is_error=True)))
        steps.append(Step("text", text=answer))
        return Turn(source="<memory>", format="openai", index=i, user_text=user, steps=tuple(steps),
                    session_id="s1", started_at="2025-01-09T10:00:00Z")

    record_turns([turn(0, "why is CI red?", "The upload test is flaky.",
                       error="E   ConnectionResetError: peer closed the socket"),
                  turn(1, "write the weekly report", "Done: report.md")],
                 agent="default", store=store, cfg=cfg)
    first = refresh("default")
    assert first.added == 2
    hits = search("ConnectionResetError", mode="lexical", kinds=["turn"])
    assert len(hits) == 1 and hits[0].source.startswith("turn:") and hits[0].time == "2025-01-09T10:00:00Z"

    clock.set_clock(lambda: 1_736_000_100.0)
    record_turns([turn(2, "rename the billing module", "Renamed to invoicing.")],
                 agent="default", store=store, cfg=cfg)
    assert refresh("default").added == 1

    # a session that grew: the same turn recorded again with more content replaces its entry
    clock.set_clock(lambda: 1_736_000_200.0)
    record_turns([turn(1, "write the weekly report", "Done: report.md, sent to finance")],
                 agent="default", store=store, cfg=cfg)
    grown = refresh("default")
    assert (grown.added, grown.updated) == (0, 1)
    assert "finance" in search("weekly report", mode="lexical")[0].text

    with store.transaction() as db:
        tid = int(db.execute("SELECT id FROM turns WHERE user_text LIKE 'rename%'").fetchone()[0])
        db.execute("DELETE FROM turns WHERE id = ?", (tid,))
    assert refresh("default").removed == 1
    assert search("billing invoicing", mode="lexical") == []
    store.close()


def test_reindex_rebuilds_and_keeps_registered_folders(memory: Path, tmp_path: Path) -> None:
    notes = write(tmp_path / "notes" / "kyoto.md", "# Kyoto\nThe Fushimi shrine at dawn.\n").parent
    add_paths([notes], "default")
    before = status("default")["entries"]
    stats = reindex("default")
    assert stats.added == before and stats.total == before
    assert status("default")["doc_roots"][0]["path"] == str(notes.resolve())
    assert search("shrine", mode="lexical")[0].kind == "doc"


# -- the seam with slowloop.memory --------------------------------------------------------------

def test_memory_entries_come_from_slowloop_memory_when_it_has_iter_entries(memory: Path) -> None:
    refresh("default")
    hit = search("Postgres", mode="lexical")[0]
    assert hit.kind == "chronicle" and hit.time == "2025-01-02T00:00:00Z"
    assert hit.source.endswith("past/0001-2025-01-02/chronicle.md:3")  # the entry's dated heading
    debt = search("API keys", mode="lexical")[0]
    assert debt.kind == "debt" and "D-0001" in debt.text


def test_generic_splitter_reads_memory_without_iter_entries(memory: Path, monkeypatch) -> None:
    import slowloop.memory

    monkeypatch.delattr(slowloop.memory, "iter_entries")
    write(memory / "debts.md", "# Debts\n- Rotate the API keys\n- Replace the cron\n")
    refresh("default")
    hits = search("cron", mode="lexical")
    assert hits[0].kind == "debt" and hits[0].source.endswith("debts.md:3")


def test_a_hand_broken_memory_file_is_reported_and_still_searchable(memory: Path) -> None:
    write(memory / "debts.md", "# Debts\n- this line breaks the debt format: Kubernetes upgrade\n")
    stats = refresh("default")
    assert any("debts.md:2" in p for p in stats.problems)
    assert search("Kubernetes", mode="lexical")[0].kind == "debt"


# -- languages and hostile queries ----------------------------------------------------------------

@pytest.mark.parametrize("query", ["部署", "数据库迁移", "数据库的迁移", "デプロイ", "手順"])
def test_chinese_and_japanese_queries_find_their_entry(memory: Path, query: str) -> None:
    refresh("default")
    hits = search(query, mode="lexical")
    assert hits, query
    assert any(ch in hits[0].text for ch in query[:2])
    assert "«" in hits[0].snippet


# FTS5 syntax in a query is read as words (every token is quoted before MATCH): no error, and the
# words still find their entry — or nothing, when no word of the query is in the memory.
@pytest.mark.parametrize("query, found", [
    ('AND OR NOT "(*', None), ("flaky*", "flaky upload"), ("NEAR(ci pipeline)", "CI pipeline"),
    ('"unbalanced', None), ("-upload", "flaky upload"), ("text:flaky", "flaky upload"),
    ("^ci", "CI pipeline"), ("don't", None), ("c++ && ||", None),
    ("staging OR", "staging"), ("billing:service", "billing service"),
])
def test_query_syntax_never_reaches_the_user(memory: Path, query: str, found: str | None) -> None:
    refresh("default")
    hits = search(query, mode="lexical")
    if found is None:
        assert hits == []
    else:
        assert hits and found in hits[0].text


@pytest.mark.parametrize("query", ["", "   ", "?!*()"])
def test_empty_query_is_a_clear_error(memory: Path, query: str) -> None:
    with pytest.raises(UserError) as err:
        search(query, mode="lexical")
    assert "query" in str(err.value)


def test_inflections_and_diacritics_meet(memory: Path, tmp_path: Path) -> None:
    write(tmp_path / "n" / "cafe.md", "# Notes\nWe met at the café to discuss deployments.\n")
    add_paths([tmp_path / "n"])
    assert search("cafe deploying", mode="lexical")[0].kind == "doc"


# -- filters ------------------------------------------------------------------------------------

def test_kind_and_since_filters(memory: Path) -> None:
    refresh("default")
    assert {h.kind for h in search("database", mode="lexical")} >= {"chronicle"}
    assert search("API keys", kinds=["chronicle"], mode="lexical") == []
    assert search("API keys", kinds="debt", mode="lexical")[0].kind == "debt"
    everything = search("pipeline staging Postgres", mode="lexical")
    assert len(everything) == 3
    recent = search("pipeline staging Postgres", mode="lexical", since="2025-03-02")
    assert [h.time for h in recent] == ["2025-03-02T00:00:00Z"] and "staging" in recent[0].text
    with pytest.raises(UserError):
        search("database", since="last tuesday")
    with pytest.raises(UserError):
        search("database", kinds=["email"])


def test_since_accepts_a_duration(memory: Path) -> None:
    refresh("default")
    clock.set_clock(lambda: clock.parse_iso("2025-03-05T00:00:00Z"))
    recent = search("pipeline staging 部署", mode="lexical", since="2d")
    assert [h.time for h in recent] == ["2025-03-04T00:00:00Z"]


# -- registered folders -------------------------------------------------------------------------

def test_doc_folder_changes_are_picked_up(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    a = write(notes / "trip.md", "# Trip\n## Kyoto\nThe Fushimi shrine.\n## Budget\nHotels are pricey.\n")
    write(notes / ".git" / "config.md", "# hidden, not a note\nFushimi\n")
    stats = add_paths([notes])
    assert stats.added == 2  # one entry per section; hidden folders skipped
    assert search("Fushimi shrine", mode="lexical")[0].source == f"{a.resolve()}:3"

    write(notes / "sub" / "ideas.txt", "Build a Fushimi lantern replica.\n")
    write(a, "# Trip\n## Kyoto\nThe Kiyomizu temple.\n## Budget\nHotels are pricey.\n")
    bump_mtime(a)
    changed = refresh("default")
    # the new file's entry, and the edited file's sections (a doc's time is its file's mtime)
    assert (changed.added, changed.updated, changed.files_parsed) == (1, 2, 2)
    hits = search("Fushimi", mode="lexical")
    assert [h.source.rsplit("/", 1)[-1] for h in hits] == ["ideas.txt:1"]

    (notes / "sub" / "ideas.txt").unlink()
    assert refresh("default").removed == 1
    assert search("Fushimi", mode="lexical") == []

    with pytest.raises(UserError):
        add_paths([tmp_path / "missing"])


def test_skills_and_memo_are_indexed(slowloop_home: Path) -> None:
    adir = agent_dir("default", slowloop_home)
    write(adir / "skills" / "weekly-report" / "SKILL.md",
          '---\nname: weekly-report\ndescription: "Compile the week into the finance report"\n'
          'metadata:\n  updatedAt: "2025-01-08T00:00:00Z"\n---\n## Steps\n1. Export the ledger CSV\n')
    write(adir / "skills" / "broken" / "SKILL.md", "---\nname: [unclosed\n---\nRecover the kubeconfig\n")
    write(adir / "memo.md", "# Self\n## Strengths\nGood at Python refactors.\n## Plays\n"
          "When replying on finance, always give the conclusion first.\n")
    refresh("default")
    skill = search("finance report", kinds=["skill"], mode="lexical")[0]
    assert skill.time == "2025-01-08T00:00:00Z" and skill.source.endswith("weekly-report/SKILL.md:1")
    assert search("kubeconfig", mode="lexical")[0].kind == "skill"  # a hand-broken skill is still found
    assert search("conclusion first", mode="lexical")[0].kind == "memo"


# -- CLI ----------------------------------------------------------------------------------------

def run_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SLOWLOOP_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "slowloop", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_cli_search_json_shape_and_errors(memory: Path, slowloop_home: Path) -> None:
    out = run_cli("search", "flaky", "CI", "--mode", "lexical", "--json", "-k", "3", home=slowloop_home)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    assert 1 <= len(hits) <= 3
    assert set(hits[0]) == {"kind", "source", "time", "score", "snippet", "text"}
    assert hits[0]["kind"] == "chronicle" and "«flaky»" in hits[0]["snippet"]
    assert hits[0]["source"].endswith("chronicle.md:3")

    empty = run_cli("search", " ", "--mode", "lexical", home=slowloop_home)
    assert empty.returncode == 2 and "query is empty" in empty.stderr

    st = run_cli("index", "status", "--json", home=slowloop_home)
    info = json.loads(st.stdout)
    assert info["by_kind"]["chronicle"] >= 3 and info["entries"] == sum(info["by_kind"].values())

    filtered = run_cli("search", "database", "--kind", "debt", "--mode", "lexical", home=slowloop_home)
    assert filtered.returncode == 0 and filtered.stdout == "" and "no match" in filtered.stderr


def test_words_common_to_a_large_index_do_not_drown_the_rare_ones(tmp_path: Path) -> None:
    from slowloop.recall.api import search_index
    from slowloop.recall.index import RecallIndex
    from slowloop.recall.model import Entry

    idx = RecallIndex(tmp_path / "recall.db")
    idx.upsert(Entry("turn", f"turn:{i}", "2025-01-01T00:00:00Z",
                     f"ran the tests again, build {i} green" + (" after the zebrafish fix" if i == 4321 else ""))
               for i in range(6000))
    hits = search_index(idx, "tests zebrafish", k=3)
    assert hits[0].source == "turn:4321" and "«zebrafish»" in hits[0].snippet
    common = search_index(idx, "tests green", k=3)  # every entry: the latest ones, unranked
    assert [h.source for h in common] == ["turn:5999", "turn:5998", "turn:5997"]
    idx.close()


def test_the_index_stores_turns_with_their_secrets_redacted(slowloop_home: Path) -> None:
    """`slowloop search`, the MCP search tool and anyone copying recall.db see the past without
    the secrets a tool printed or the agent quoted."""
    import sqlite3
    import subprocess
    import sys

    from slowloop.ingest import record_turns

    cfg = load_config(slowloop_home)
    store = open_store(home=slowloop_home)
    secret = "ghp_" + "Q7xLm2Rt9Zp4Kd8Nq3Wv6Yb1Hs5Jc0Fa2Eg7Ui"
    t = Turn(source="<memory>", format="openai", index=0, user_text="why does the deploy fail?",
             steps=(Step("tool_call", call=ToolCall("c1", "Bash", {"command": "./deploy.sh"})),
                    Step("tool_result", result=ToolResult("c1", "Bash", f"auth failed for token {secret}",
                                                          is_error=True)),
                    Step("text", text=f"The deploy token {secret} was rejected by the registry.")),
             session_id="s1", started_at="2025-01-09T10:00:00Z")
    record_turns([t], agent="default", store=store, cfg=cfg)
    refresh("default")
    db = sqlite3.connect(next(slowloop_home.rglob("recall.db")))
    stored = "\n".join(a + b for a, b in db.execute("SELECT text, context FROM entries"))
    db.close()
    assert "deploy token [REDACTED:github_token]" in stored and secret not in stored
    out = subprocess.run([sys.executable, "-m", "slowloop", "search", "deploy token registry", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert "deploy token" in out and secret not in out
