"""The operational memory keeps itself: after turns are recorded, each session they belong to leaves
its chronicle entry and opens or closes debts — from what was observed, at zero model cost.

- **One entry per session**, ``## <its start> · session <tag>``, replaced in place each time the
  session grows, so the same session recorded twice (a hook and ``watch``, a resume) leaves one
  entry. A session with nothing new (a question answered, nothing changed) leaves none.
- **Debts from what was left open**: the tests failing at the end of the session, the last real
  error nothing got past, what the person said was for later. Each carries an ``auto:`` note (its
  key and the session that opened it) by which a later session closes it — the same tests pass, the
  same command succeeds, the person says it is done — with a note of how. A transient error opens
  nothing: it is no outcome.
- **Where**: the project's memory when the project keeps one (``<project>/memory``), else the
  agent's (``<home>/agents/<agent>/memory``), created with the first session that has news.

It runs after each recording (``integrations/recorded.py``); a mark in the ledger's ``meta`` table
(the newest ``updated_at`` it has read) keeps it to the sessions that changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config
from ..memory import Debt, Memory
from ..memory.debts import AUTO_NOTE as AUTO
from ..memory.layout import STATE
from ..safety.redact import redact
from ..store import Store, ledger
from ..text import fold, terms
from ..transcripts.model import Turn
from .digest import SessionDigest, TestRun, TurnIn, digest

# At most this many sessions per pass (the newest): an ingest of a long history gives the memory
# its recent sessions, not a chronicle of years that the archive would then fold away at once.
MAX_SESSIONS = 5
# A session's turns read per pass: its first and its newest ones.
MAX_TURNS = 300
_MARK = "memory-kept:{}"


@dataclass
class KeepResult:
    memory: str = ""
    entries: list[str] = field(default_factory=list)  # session tags whose entry was written
    opened: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    archived: str | None = None  # the layer an automatic archive made

    def note(self) -> str:
        if not (self.entries or self.opened or self.closed):
            return ""
        parts = [f"{len(self.entries)} session entr{'y' if len(self.entries) == 1 else 'ies'}"]
        if self.opened:
            parts.append("opened " + ", ".join(self.opened))
        if self.closed:
            parts.append("closed " + ", ".join(self.closed))
        if self.archived:
            parts.append(f"archived the cycle into past/{self.archived}/")
        return f"memory {self.memory}: " + "; ".join(parts)


def memory_for(home: Path, agent: str, config: Config, project: Path | None = None) -> Memory:
    """The memory a session writes to: its project's, when the project keeps one, else the agent's."""
    if project is not None and (Path(project) / "memory" / STATE).is_file():
        return Memory.for_dir(Path(project), config=config)
    return Memory.for_agent(agent, home=home, config=config)


def keep_memory(store: Store, agent: str, *, home: Path, config: Config,
                project: Path | None = None) -> KeepResult:
    """Write the entries and debts of the sessions recorded since the last pass."""
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return KeepResult()
    since = store.get_meta(_MARK.format(agent_id)) or ""
    groups = store.query(
        "SELECT MIN(session_id) AS session_id, MIN(source) AS source, MIN(id) AS first, "
        "MAX(updated_at) AS last FROM turns WHERE agent_id = ? AND updated_at > ? "
        "GROUP BY COALESCE(session_id, source) ORDER BY MIN(id)", (agent_id, since))
    if not groups:
        return KeepResult()
    mem = memory_for(home, agent, config, project)
    out = KeepResult(memory=str(mem.root))
    for g in groups[-MAX_SESSIONS:]:
        turns = _session_turns(store, agent_id, g["session_id"], g["source"])
        if turns:
            # with a model configured, the next reflection condenses the past with it (reflect.cycle)
            _keep_session(mem, turns[0], turns[1], project, out,
                          defer_archive=str(config.get("provider", "kind")).strip().lower() != "offline")
    store.set_meta(_MARK.format(agent_id), max(str(g["last"]) for g in groups))
    return out


def _session_turns(store: Store, agent_id: int, session_id: str | None, source: str
                   ) -> tuple[list[TurnIn], tuple[str, str]] | None:
    """The session's turns in order (its first and newest ``MAX_TURNS``), and (where, at)."""
    where, params = (("session_id = ?", (agent_id, session_id)) if session_id is not None
                     else ("session_id IS NULL AND source = ?", (agent_id, source)))
    cols = "id, idx, data, corrected, started_at, recorded_at"
    rows = store.query(f"SELECT {cols} FROM turns WHERE agent_id = ? AND {where} "
                       f"ORDER BY idx DESC, id DESC LIMIT {MAX_TURNS}", params)
    if not rows:
        return None
    rows = list(reversed(rows))
    if int(rows[0]["idx"]) > 0:
        rows = store.query(f"SELECT {cols} FROM turns WHERE agent_id = ? AND {where} "
                           "ORDER BY idx, id LIMIT 1", params) + rows
    errors = ledger.errors_of(store, [int(r["id"]) for r in rows])
    turns = [TurnIn(Turn.from_dict(json.loads(r["data"])),
                    [(e["kind"], e["tool"], e["evidence"], e["excerpt"], e["step"])
                     for e in errors.get(int(r["id"]), [])], bool(r["corrected"])) for r in rows]
    at = str(rows[0]["started_at"] or rows[0]["recorded_at"])
    return turns, (session_id or source, at[:19] + "Z" if len(at) >= 19 else at)


def _keep_session(mem: Memory, turns: list[TurnIn], where_at: tuple[str, str], project: Path | None,
                  out: KeepResult, *, defer_archive: bool = False) -> None:
    where, at = where_at
    d = digest(turns, where=where, at=at, project=project)
    marker = f"session {d.tag}"
    if not d.has_news and not mem.exists():
        return  # nothing new: no entry, and no memory created for it
    with mem.lock():
        refs = _debts(mem, d, out)  # a session with no other news may still close a debt
        if not (d.has_news or refs.closed or marker in mem.text("chronicle.md")):
            return
        res = mem.session_entry(marker, at, redact(render_entry(d, refs)).text,
                                defer_archive=defer_archive)
    if res is not None:
        out.entries.append(d.tag)
        if res.archived is not None:
            out.archived = res.archived.layer.name


# -- debts ----------------------------------------------------------------------------------------

def auto_key(debt: Debt) -> tuple[str, str] | None:
    """(key, session tag) of a debt slowloop opened, from its ``auto:`` note."""
    for n in debt.notes:
        if n.startswith(AUTO):
            key, _, rest = n[len(AUTO):].partition(" · session ")
            return key.strip(), rest.strip()
    return None


@dataclass
class _Refs:
    """What the entry says about debts: key → the debt id it opened or found open; closures."""

    ids: dict[str, str] = field(default_factory=dict)
    closed: list[tuple[str, str]] = field(default_factory=list)  # (id, how)


def _debts(mem: Memory, d: SessionDigest, out: KeepResult) -> _Refs:
    refs = _Refs()
    debts = mem.debts() if mem.exists() else []
    keyed = {k[0]: x for x in debts if (k := auto_key(x)) is not None}
    tag = d.tag
    closed_by = f"closed by session {tag}: "

    def open_(key: str, title: str) -> None:
        found = keyed.get(key)
        if found is not None and found.status != "closed":
            refs.ids[key] = found.id
            return
        if found is not None and auto_key(found) == (key, tag):  # failing again in the same session
            mem.update_debt(found.id, status="open", note="failing again later in the same session")
            refs.ids[key] = found.id
            return
        if not mem.exists():
            mem.init()
        new = mem.add_debt(redact(title).text, notes=(f"{AUTO}{key} · session {tag}",))
        keyed[key] = new
        refs.ids[key] = new.id
        out.opened.append(new.id)

    def close(debt: Debt, how: str) -> None:
        if debt.status != "closed":
            mem.update_debt(debt.id, status="closed", note=redact(f"{closed_by}{how}").text)
            out.closed.append(debt.id)

    for tool, run in d.final_tests().items():
        key = f"test:{tool}"
        if run.passed is False:
            open_(key, _test_title(run))
        elif key in keyed and _covers(run, keyed[key]):
            close(keyed[key], f"`{run.command}` passed")
    for key, ok in d.outcomes.items():
        if ok and f"error:{key}" in keyed:
            close(keyed[f"error:{key}"], f"{key.partition(':')[2] or key} succeeded")
    if d.unresolved is not None:
        u = d.unresolved
        open_(f"error:{u.key}", f"unresolved error: {u.what} ({u.evidence})")
    deferred_at: dict[str, int] = {}
    for idx, sentence in d.deferrals:
        key = later_key(sentence)
        deferred_at[key] = idx
        if key not in keyed:
            open_(key, f"“{sentence}”")
        else:
            refs.ids[key] = keyed[key].id
    for idx, sentence in d.done:
        how = f"the person said “{sentence}”"
        now = mem.debts() if mem.exists() else []
        if any(f"{closed_by}{how}" in x.notes for x in now):
            continue  # this sentence closed its debt already: it closes no second one
        target = _done_target(sentence, idx, [x for x in now if x.status != "closed"], tag, deferred_at)
        if target is not None:
            close(target, how)
    # the closures this session made, in this pass or an earlier one: its entry names them all
    for x in mem.debts() if mem.exists() else []:
        refs.closed += [(x.id, n[len(closed_by):]) for n in x.notes if n.startswith(closed_by)]
    return refs


def later_key(sentence: str) -> str:
    return "later:" + hashlib.sha256(fold(sentence).encode()).hexdigest()[:8]


def _test_title(run: TestRun) -> str:
    failing = f" — {', '.join(run.failing)}" if run.failing else ""
    return f"tests fail: `{run.command}`{failing}"


def _covers(run: TestRun, debt: Debt) -> bool:
    """A passing run closes a test debt when it ran the whole suite or the files that failed."""
    return not run.paths or any(p.split("::")[0] in debt.text for p in run.paths)


def _done_target(sentence: str, idx: int, open_debts: list[Debt], tag: str,
                 deferred_at: dict[str, int]) -> Debt | None:
    """The open debt the person's "it's done" is about: one left for later or written by hand
    (tests and errors close on evidence), sharing the most words with the sentence."""
    said = terms(sentence)
    best, best_n = None, 0
    for debt in open_debts:
        key = auto_key(debt)
        if key is not None and not key[0].startswith("later:"):
            continue
        if key is not None and key[1] == tag and deferred_at.get(key[0], -1) >= idx:
            continue  # said done before (or while) it was put off
        n = len(said & terms(debt.text))
        if n > best_n:
            best, best_n = debt, n
    return best


# -- the entry ----------------------------------------------------------------------------------------

def _listed(items: list[str], limit: int) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def render_entry(d: SessionDigest, refs: _Refs) -> str:
    """A few lines: asked, changed, how it ended, corrections, what was left for later, closures."""
    lines = []
    if d.asked:
        lines.append(f"Asked: “{d.asked}”" + (f" ({d.turns} turns)" if d.turns > 1 else ""))
    if d.files:
        lines.append("Changed: " + _listed(d.files, 6))
    git = ([f"commit “{c}”" for c in d.commits[-3:]] + [f"branch {b}" for b in d.branches]
           + [f"pull request {p}" for p in d.prs])
    if git:
        lines.append("Git: " + ", ".join(git))
    for tool, run in d.final_tests().items():
        ref = refs.ids.get(f"test:{tool}")
        state = "pass" if run.passed else "fail" + (f" ({', '.join(run.failing)})" if run.failing else "")
        lines.append(f"Tests: `{run.command}` {state}" + (f" → {ref}" if ref and not run.passed else ""))
    if d.unresolved is not None:
        ref = refs.ids.get(f"error:{d.unresolved.key}")
        lines.append(f"Left unresolved: {d.unresolved.what} ({d.unresolved.evidence})"
                     + (f" → {ref}" if ref else ""))
    if d.corrections:
        lines.append("Corrected: " + "; ".join(f"“{c}”" for c in d.corrections[:2])
                     + (f" and {len(d.corrections) - 2} more" if len(d.corrections) > 2 else ""))
    for _idx, sentence in d.deferrals[:3]:
        key = later_key(sentence)
        lines.append(f"Left for later: “{sentence}”" + (f" → {refs.ids[key]}" if key in refs.ids else ""))
    for debt_id, how in refs.closed:
        lines.append(f"Closed {debt_id}: {how}")
    return "\n".join(lines) or "No change observed."
