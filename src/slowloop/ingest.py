"""Record observed turns in the ledger: incremental, idempotent, safe with concurrent writers.

A turn already recorded is recognised by its key (``Turn.key``) and not recorded again; a turn that
grew since (a session still being written) is updated in place. Each turn is written in one
transaction together with its errors, signals, skills read, the invocations those reads count as,
and — when the user corrected a skill-assisted turn — an edit-after-use for those skills.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import clock
from .config import Config
from .errors import DataError, UserError
from .observe.model import ObservedTurn
from .observe.observe import observe_and_score
from .observe.signals import WeaknessMatcher
from .store import Store, ledger
from .transcripts import iter_turns
from .transcripts.model import ParseReport, Turn

# The ledger keeps the head and tail of long tool outputs: observation already ran on the full
# text, the bundle cuts far shorter, and copying whole logs would double the user's disk use.
STORED_OUTPUT_HEAD = 3000
STORED_OUTPUT_TAIL = 2000

TRANSCRIPT_SUFFIXES = (".jsonl", ".json")


@dataclass
class IngestSummary:
    files: int = 0
    turns: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    reflect_worthy: int = 0
    problems: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    bytes: int = 0

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class RecordResult:
    turn_id: int
    status: str  # new | updated | unchanged


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files given, and folders walked for *.jsonl / *.json (sorted), each by its real path.

    A file's identity is its resolved path (and its content): the same file reached by a relative
    path, through a symlink or with ``..`` is the same source, so its turns are recognised as
    already recorded instead of being "updated" into new reflections. Missing paths are an error.
    """
    out: dict[Path, None] = {}
    for p in paths:
        path = Path(p).expanduser()
        if not path.exists():
            raise UserError(f"{path}: no such file or folder",
                            hint="give transcript files (.jsonl/.json) or folders that hold them")
        if path.is_dir():
            for root, dirs, files in os.walk(path.resolve()):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(TRANSCRIPT_SUFFIXES):
                        out[(Path(root) / name).resolve()] = None
        else:
            out[path.resolve()] = None
    return list(out)


def _space_before(text: str, i: int) -> int:
    j = max(text.rfind(" ", 0, i), text.rfind("\n", 0, i))
    return j if j > i - 400 else i - 400 if i > 400 else i


def _space_after(text: str, i: int) -> int:
    cands = [j for j in (text.find(" ", i), text.find("\n", i)) if j >= 0]
    j = min(cands) if cands else -1
    return j if 0 <= j < i + 400 else min(len(text), i + 400)


def shrink_for_storage(turn: Turn) -> Turn:
    steps = []
    changed = False
    for s in turn.steps:
        r = s.result
        if r is not None and len(r.output) > STORED_OUTPUT_HEAD + STORED_OUTPUT_TAIL + 100:
            text = r.output
            # Cut at whitespace: a secret (keys and tokens hold none) is never split in two
            # pieces that the bundle's redaction would no longer recognise.
            head_end = _space_before(text, STORED_OUTPUT_HEAD)
            tail_start = _space_after(text, len(text) - STORED_OUTPUT_TAIL)
            cut = tail_start - head_end
            out = (text[:head_end] + f"\n[… {cut} chars not stored …]\n" + text[tail_start:])
            s = dataclasses.replace(s, result=dataclasses.replace(r, output=out))
            changed = True
        steps.append(s)
    return dataclasses.replace(turn, steps=tuple(steps)) if changed else turn


def record_observed(store: Store, agent: str, ot: ObservedTurn, *,
                    agent_id: int | None = None) -> RecordResult:
    """Write one observed turn (and what hangs off it) in one transaction. ``agent_id``: the
    agent's id when the caller already looked it up (a batch looks it up once)."""
    turn = ot.turn
    if agent_id is None:
        agent_id = store.agent_id(agent)
    key = turn.key()
    stored = shrink_for_storage(turn)
    data = stored.to_json()
    chash = stored.content_hash(data)
    # Microseconds: the dirty gate compares a turn's update with the moment the last reflection
    # read the ledger; whole seconds would hide an update made in that same second.
    now = clock.iso(micro=True)
    obs, score = ot.observation, ot.score
    rec = ledger.TurnRecord(
        agent_id=agent_id, key=key, content_hash=chash, source=turn.source, format=turn.format,
        session_id=turn.session_id, idx=turn.index, started_at=turn.started_at,
        ended_at=turn.ended_at, updated_at=now, user_text=turn.user_text,
        tool_calls=obs.tool_calls, corrected=int(obs.corrected), aborted=int(obs.aborted),
        rejected=obs.rejected, recovered=int(obs.recovered),
        ended_in_real_error=int(obs.ended_in_real_error), score=score.score,
        threshold=score.threshold, reflect=int(score.reflect), complete=int(turn.complete), data=data)
    at = turn.ended_at or turn.started_at or now
    with store.transaction():  # the turn and its correction edits: one unit
        turn_id, status = ledger.record_turn(
            store, rec, errors=[(e.kind, e.tool, e.evidence, e.excerpt, e.step) for e in obs.errors],
            signals=[(s.name, s.weight, s.why) for s in score.signals], skills=turn.skills_read,
            used_at=at)
        if status != "unchanged" and obs.corrected and turn.index > 0:
            # A correction right after a skill-assisted turn is an edit-after-use of those skills.
            ledger.record_correction_edits(store, agent_id, turn_id, source=turn.source,
                                           idx=turn.index, session_id=turn.session_id, at=at,
                                           note=turn.user_text[:200])
    return RecordResult(turn_id, status)


# Turns are written in small batches, one transaction each: per-turn transactions made the ledger
# cost more than observing; much larger batches would hold the write lock long enough to make a
# hook in another process wait.
BATCH_TURNS = 64


def _record_batch(store: Store, agent: str, batch: list[ObservedTurn], summary: IngestSummary) -> None:
    if not batch:
        return
    with store.transaction():
        agent_id = store.agent_id(agent)
        for ot in batch:
            res = record_observed(store, agent, ot, agent_id=agent_id)
            summary.turns += 1
            setattr(summary, res.status, getattr(summary, res.status) + 1)
            if ot.score.reflect:
                summary.reflect_worthy += 1
    batch.clear()


def default_weakness(agent: str, home: Path | None = None) -> WeaknessMatcher | None:
    """The memo-backed matcher for ``known_weakness`` (None when the agent has no memo)."""
    from .memo import weakness_matcher

    return weakness_matcher(agent, home=home)


def observe_file(path: Path, cfg: Config, *, report: ParseReport | None = None,
                 weakness: WeaknessMatcher | None = None, start_offset: int = 0) -> Iterator[ObservedTurn]:
    for turn in iter_turns(path, report=report, start_offset=start_offset):
        yield observe_and_score(turn, cfg, weakness=weakness)


def ingest_paths(paths: Iterable[str | Path], *, agent: str, store: Store, cfg: Config,
                 weakness: WeaknessMatcher | None = None,
                 on_file: Callable[[Path, int], None] | None = None) -> IngestSummary:
    """Observe and record every turn of the given files/folders for ``agent``."""
    from .selfobs import is_reflector_transcript

    files = expand_paths(paths)
    summary = IngestSummary()
    reflector_dirs = [store.home / "reflector"]
    for path in files:
        if is_reflector_transcript(path, reflector_dirs):
            summary.skipped_files.append(f"{path}: a slowloop reflection's own session (never observed)")
            continue
        report = ParseReport()
        try:
            size = path.stat().st_size
        except OSError as exc:
            summary.problems.append(f"{path}: cannot read: {exc.strerror}")
            continue
        try:
            batch: list[ObservedTurn] = []
            for ot in observe_file(path, cfg, report=report, weakness=weakness):
                batch.append(ot)
                if len(batch) >= BATCH_TURNS:
                    _record_batch(store, agent, batch, summary)
            _record_batch(store, agent, batch, summary)
        except DataError as exc:  # not a transcript: report it, go on with the other files
            summary.skipped_files.append(str(exc))
        summary.files += 1
        summary.bytes += size
        summary.problems.extend(str(p) for p in report.problems)
        if on_file:
            on_file(path, size)
    return summary


def record_turns(turns: Iterable[Turn], *, agent: str, store: Store, cfg: Config,
                 weakness: WeaknessMatcher | None = None) -> list[tuple[ObservedTurn, RecordResult]]:
    """Library entry point: observe and record turns you already have (e.g. from message lists)."""
    out = []
    for turn in turns:
        ot = observe_and_score(turn, cfg, weakness=weakness)
        out.append((ot, record_observed(store, agent, ot)))
    return out


def observed_to_dict(ot: ObservedTurn, *, file: str | None = None) -> dict:
    """The ``explain --json`` shape."""
    obs, score = ot.observation, ot.score
    return {
        "file": file if file is not None else ot.turn.source,
        "turn": ot.turn.index,
        "user_text": ot.turn.user_text[:300],
        "tool_calls": obs.tool_calls,
        "errors": {
            "transient": [{"evidence": e.evidence, "tool": e.tool, "excerpt": e.excerpt}
                          for e in obs.transient_errors],
            "real": [{"evidence": e.evidence, "tool": e.tool, "excerpt": e.excerpt}
                     for e in obs.real_errors],
        },
        "corrected": obs.corrected,
        "correction_evidence": obs.correction.evidence,
        "aborted": obs.aborted,
        "rejected": obs.rejected,
        "skills_read": list(obs.skills_read),
        "recovered": obs.recovered,
        "signals": [{"name": s.name, "weight": s.weight, "why": s.why} for s in score.signals],
        "score": score.score,
        "threshold": score.threshold,
        "reflect": score.reflect,
    }


def dumps(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False)
