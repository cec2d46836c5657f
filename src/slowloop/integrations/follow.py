"""Observe only what is new in a growing transcript: the shared core of the hooks and ``watch``.

The ``offsets`` table remembers, per (agent, file), where the next read starts: just past the
last complete turn, or at the start of the turn still being written (it is read again, and its
ledger row updated, until it is complete). With it go the file's inode, size and a hash of the
bytes already consumed, so a file that was rotated (new inode), truncated (shorter than the
offset) or rewritten (those bytes changed) is read again from the start. Reading from the start
is always safe: turns already recorded have the same keys and come back "unchanged".

A half-written last line is not an error here: the turn it belongs to is incomplete and is read
again next time, when the line is whole.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Config
from ..errors import DataError
from ..fsutil import file_lock
from ..observe.signals import WeaknessMatcher
from ..paths import home as default_home, home_lock
from ..store import Store, ledger
from ..transcripts.model import Turn

HEAD_BYTES = 1024


@dataclass
class FollowResult:
    path: str
    start: int = 0  # byte offset the read started at
    offset: int = 0  # where the next read will start
    turns: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    reflect_worthy: int = 0
    reset: str = ""  # why the file was read from the start again ("rotated", "truncated"…)
    problems: list[str] = field(default_factory=list)
    skipped: str = ""  # not a transcript: the reason


def _head_hash(path: Path, upto: int) -> str:
    n = min(upto, HEAD_BYTES)
    if n <= 0:
        return ""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read(n)).hexdigest()[:24]


def _save(store: Store, agent_id: int, path: str, st: os.stat_result, offset: int, head: str,
          line: int, index: int) -> None:
    ledger.save_offset(store, agent_id, path, ledger.SavedOffset(
        st.st_ino, st.st_size, st.st_mtime, offset, head, line, index))


def is_unchanged(store: Store, agent: str, path: str | Path) -> bool:
    """True when the file has the size and mtime it had at the last read (nothing to do)."""
    p = Path(path)
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return False
    saved = ledger.saved_offset(store, agent_id, str(p.resolve()))
    try:
        st = p.stat()
    except OSError:
        return True
    return (saved is not None and saved.inode == st.st_ino and saved.size == st.st_size
            and saved.mtime == st.st_mtime)


def observe_new(path: str | Path, *, agent: str, store: Store, cfg: Config,
                weakness: WeaknessMatcher | None = None, home: Path | None = None) -> FollowResult:
    """Observe and record the turns of ``path`` not seen yet for ``agent``.

    One process at a time per (agent, file) — a Stop hook and ``slowloop watch`` on the same file
    queue on a lock instead of recording a turn twice or moving the offset backwards.
    """
    from ..ingest import record_observed, same_session
    from ..observe.observe import observe_and_score
    from ..selfobs import is_reflector_transcript
    from ..transcripts import iter_turns
    from ..transcripts.model import ParseReport

    p = Path(path).resolve()
    key = str(p)
    h = home or default_home()
    if is_reflector_transcript(p, [h / "reflector"]):
        return FollowResult(path=key, skipped="a slowloop reflection's own session (never observed)")
    lock = home_lock("follow-" + hashlib.sha256(f"{agent}\0{key}".encode()).hexdigest()[:20] + ".lock", h)
    result = FollowResult(path=key)
    with file_lock(lock, timeout=60):
        agent_id = store.agent_id(agent)
        st = p.stat()
        saved = ledger.saved_offset(store, agent_id, key)
        start, line, index = 0, 1, 0
        json_document = p.suffix == ".json"
        if saved is not None and not json_document:
            if saved.inode is not None and saved.inode != st.st_ino:
                result.reset = "rotated (a new file at this path)"
            elif st.st_size < saved.offset:
                result.reset = "truncated"
            elif _head_hash(p, saved.offset) != saved.head_hash:
                result.reset = "rewritten"
            else:
                start, line, index = saved.offset, saved.line, saved.turn_index
        if (saved is not None and not result.reset and saved.size == st.st_size
                and saved.mtime == st.st_mtime):
            result.start = result.offset = start
            return result
        result.start = start
        next_offset, next_line, next_index = start, line, index
        held = False  # an incomplete turn was seen: the offset stays at its start
        report = ParseReport()
        try:
            turns = iter_turns(p, report=report, start_offset=start, start_line=line if start else None,
                               start_index=index)
            previous: Turn | None = None
            for turn in turns:
                if previous is None and turn.index > 0:
                    previous = _recorded_previous(store, agent_id, turn)
                ot = observe_and_score(turn, cfg, weakness=weakness, previous=same_session(previous, turn))
                previous = turn
                res = record_observed(store, agent, ot)
                result.turns += 1
                setattr(result, res.status, getattr(result, res.status) + 1)
                result.reflect_worthy += int(ot.score.reflect)
                if held or json_document or turn.byte_start is None:
                    continue
                if turn.complete:
                    next_offset = turn.byte_end if turn.byte_end is not None else turn.byte_start
                    next_line = (turn.line_end or turn.line_start or next_line) + 1
                    next_index = turn.index + 1
                else:
                    next_offset, next_line, next_index = turn.byte_start, turn.line_start or next_line, turn.index
                    held = True
        except DataError as exc:  # not a transcript (yet): remember nothing, say why
            result.skipped = str(exc)
            return result
        result.problems = [str(pr) for pr in report.problems if "truncated last line" not in pr.message]
        result.offset = next_offset
        _save(store, agent_id, key, st, next_offset, _head_hash(p, next_offset), next_line, next_index)
    return result


def forget(store: Store, agent: str, path: str | Path) -> None:
    """Drop the saved offset of a file (the next read starts from the beginning)."""
    agent_id = store.agent_id(agent, create=False)
    if agent_id is not None:
        ledger.forget_offset(store, agent_id, str(Path(path).resolve()))


def _recorded_previous(store: Store, agent_id: int, turn: Turn) -> Turn | None:
    """The turn before ``turn`` as recorded earlier (a hook reads a session from where it stopped):
    what the agent did that the person's next words may be reacting to."""
    import json

    row = ledger.previous_turns(store, agent_id, [(turn.source, turn.index, turn.session_id)]).get(
        (turn.source, turn.index, turn.session_id or ""))
    return Turn.from_dict(json.loads(row["data"])) if row is not None else None
