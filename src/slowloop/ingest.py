"""Record observed turns in the ledger: incremental, idempotent, safe with concurrent writers.

A turn already recorded is recognised by its key (``Turn.key``) and not recorded again; a turn that
grew since (a session still being written) is updated in place. Each turn is written in one
transaction together with its errors, signals, skills read, the invocations those reads count as,
and — when the user corrected a skill-assisted turn — an edit-after-use for those skills.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from . import clock
from .config import Config
from .errors import DataError, SlowloopError, UserError
from .observe.model import ErrorObservation, Observation, ObservedTurn
from .observe.observe import observe_and_score, redo_correction
from .observe.signals import WeaknessMatcher, score_turn
from .store import Store, ledger
from .transcripts import iter_turns
from .transcripts.model import ParseReport, Step, ToolCall, ToolResult, Turn, json_parts, key_parts, text_hash

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


# A tool's input (a file written whole) or a pasted message is kept up to this many characters of
# each string, head and tail, with a marker: the detectors read it whole, the ledger need not.
STORED_STRING_MAX = 64_000


def _cut(text: str) -> str:
    if len(text) <= STORED_STRING_MAX:
        return text
    half = (STORED_STRING_MAX - 100) // 2  # head + marker + tail stays under the cap: cut once
    head_end = _space_before(text, half)
    tail_start = _space_after(text, len(text) - half)
    return text[:head_end] + f"\n[… {tail_start - head_end} chars not stored …]\n" + text[tail_start:]


def _cut_value(value):  # noqa: ANN001, ANN202 — a JSON value of a tool's input
    if isinstance(value, str):
        return _cut(value)
    if isinstance(value, dict):
        return {k: _cut_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_value(v) for v in value]
    return value


def _too_big(value, budget: int = STORED_STRING_MAX) -> bool:  # noqa: ANN001
    if isinstance(value, str):
        return len(value) > budget
    if isinstance(value, dict):
        return any(_too_big(v, budget) for v in value.values())
    if isinstance(value, list):
        return any(_too_big(v, budget) for v in value)
    return False


def shrink_for_storage(turn: Turn) -> Turn:
    steps = []
    changed = False
    if len(turn.user_text) > STORED_STRING_MAX:
        turn = dataclasses.replace(turn, user_text=_cut(turn.user_text))
        changed = True
    for s in turn.steps:
        if s.call is not None and _too_big(s.call.input):
            s = dataclasses.replace(s, call=dataclasses.replace(s.call, input=_cut_value(s.call.input)))
            changed = True
        if s.kind == "text" and len(s.text) > STORED_STRING_MAX:
            s = dataclasses.replace(s, text=_cut(s.text))
            changed = True
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


class Prepared(NamedTuple):
    """An observed turn ready to record, computed where the turn was read (a worker process when
    a large ingest is spread over the cores): every column but those that depend on the turn's
    index in its file, which only the recorder knows when a file is read in pieces."""

    rec: ledger.TurnRecord  # ``key``, ``content_hash`` and ``data`` empty; ``idx`` in its piece
    before: str  # the stored JSON around the index: ``before + str(index) + after``
    after: str
    key: tuple[str, str]  # the key's basis around the index (model.key_parts)
    errors: list[tuple[str, str | None, str, str, int | None]]
    signals: list[tuple[str, float, str]]
    skills: tuple[str, ...]
    used_at: str
    corrected: bool


def prepare(ot: ObservedTurn) -> Prepared:
    """Everything ``record_prepared`` writes for one observed turn, short of its index."""
    turn = ot.turn
    before, after = json_parts(shrink_for_storage(turn).to_dict())
    obs, score = ot.observation, ot.score
    rec = ledger.TurnRecord(
        agent_id=0, key="", content_hash="", source=turn.source, format=turn.format,
        session_id=turn.session_id, idx=turn.index, started_at=turn.started_at,
        ended_at=turn.ended_at, updated_at="", user_text=_cut(turn.user_text),  # stamped when written
        tool_calls=obs.tool_calls, corrected=int(obs.corrected), aborted=int(obs.aborted),
        rejected=obs.rejected, recovered=int(obs.recovered),
        ended_in_real_error=int(obs.ended_in_real_error), score=score.score,
        threshold=score.threshold, reflect=int(score.reflect), complete=int(turn.complete), data="")
    return Prepared(rec, before, after,
                    key_parts(turn.format, turn.session_id or turn.source, turn.started_at,
                              turn.user_text),
                    [(e.kind, e.tool, e.evidence, e.excerpt, e.step) for e in obs.errors],
                    [(s.name, s.weight, s.why) for s in score.signals], turn.skills_read,
                    turn.ended_at or turn.started_at or clock.iso(micro=True), obs.corrected)


def record_prepared(store: Store, agent_id: int, p: Prepared, *, index_base: int = 0
                    ) -> RecordResult:
    """Write one prepared turn (and what hangs off it) in one transaction; ``index_base``: the
    turns of its file before the piece it was read in."""
    idx = p.rec.idx + index_base
    data = f"{p.before}{idx}{p.after}"
    rec = p.rec._replace(agent_id=agent_id, idx=idx, data=data, content_hash=text_hash(data),
                         key=text_hash(f"{p.key[0]}{idx}{p.key[1]}"))
    with store.transaction():  # the turn and its correction edits: one unit
        turn_id, status = ledger.record_turn(store, rec, errors=p.errors, signals=p.signals,
                                             skills=p.skills, used_at=p.used_at)
        if status != "unchanged" and p.corrected and idx > 0:
            # A correction right after a skill-assisted turn is an edit-after-use of those skills.
            ledger.record_correction_edits(store, agent_id, turn_id, source=rec.source,
                                           idx=idx, session_id=rec.session_id, at=p.used_at,
                                           note=rec.user_text[:200])
    return RecordResult(turn_id, status)


def record_observed(store: Store, agent: str, ot: ObservedTurn, *,
                    agent_id: int | None = None) -> RecordResult:
    """Write one observed turn (and what hangs off it) in one transaction. ``agent_id``: the
    agent's id when the caller already looked it up (a batch looks it up once)."""
    if agent_id is None:
        agent_id = store.agent_id(agent)
    return record_prepared(store, agent_id, prepare(ot))


# Turns are written in small batches, one transaction each: per-turn transactions made the ledger
# cost more than observing; much larger batches would hold the write lock long enough to make a
# hook in another process wait.
BATCH_TURNS = 64

# A large ingest spreads the reading over worker processes (one per core, at most this many):
# whole files, and Claude Code and Codex files cut into pieces of PIECE_BYTES; below PARALLEL_MIN_BYTES
# starting the workers costs more than it saves.
MAX_WORKERS = 4
PIECE_BYTES = 4 << 20
PARALLEL_MIN_BYTES = 16 << 20


def default_weakness(agent: str, home: Path | None = None) -> WeaknessMatcher | None:
    """The memo-backed matcher for ``known_weakness`` (None when the agent has no memo)."""
    from .memo import weakness_matcher

    return weakness_matcher(agent, home=home)


def observe_file(path: Path, cfg: Config, *, report: ParseReport | None = None,
                 weakness: WeaknessMatcher | None = None, start_offset: int = 0,
                 start_line: int | None = None, resync: bool = False,
                 stop_offset: int | None = None, end_offset: int | None = None
                 ) -> Iterator[ObservedTurn]:
    previous: Turn | None = None
    for turn in iter_turns(path, report=report, start_offset=start_offset, start_line=start_line,
                           resync=resync, stop_offset=stop_offset, end_offset=end_offset):
        yield observe_and_score(turn, cfg, weakness=weakness, previous=same_session(previous, turn))
        previous = turn


def same_session(previous: Turn | None, turn: Turn) -> Turn | None:
    """``previous`` when it is the turn before ``turn`` in the same session (what the person may be
    reacting to), else None."""
    if previous is None or (previous.session_id or "") != (turn.session_id or ""):
        return None
    return previous


def with_previous(p: Prepared, prev: Prepared, cfg: Config,
                  weakness: WeaknessMatcher | None) -> Prepared:
    """The first turn of a piece, observed where the piece was read without the turn before it
    (the previous piece's last): add the correction its agent's redo of that turn shows. Only the
    correction and the score change — errors, counts and the stored turn are what the worker read."""
    if p.corrected:
        return p
    turn = Turn.from_dict(json.loads(f"{p.before}{p.rec.idx}{p.after}"))
    previous = same_session(Turn.from_dict(json.loads(f"{prev.before}{prev.rec.idx}{prev.after}")), turn)
    correction = redo_correction(turn, previous)
    if not correction.corrected:
        return p
    obs = Observation(tool_calls=p.rec.tool_calls,
                      errors=tuple(ErrorObservation("real" if k == "real" else "transient", ev, tool, ex, st)
                                   for k, tool, ev, ex, st in p.errors),
                      correction=correction, aborted=bool(p.rec.aborted), rejected=p.rec.rejected,
                      skills_read=p.skills, recovered=bool(p.rec.recovered),
                      ended_in_real_error=bool(p.rec.ended_in_real_error))
    score = score_turn(obs, turn, cfg, weakness=weakness)
    rec = p.rec._replace(corrected=1, score=score.score, reflect=int(score.reflect))
    return p._replace(rec=rec, signals=[(s.name, s.weight, s.why) for s in score.signals], corrected=True)


class Piece(NamedTuple):
    """A file, or a piece of one, that one worker reads."""

    file: int  # the file's position in the ingest
    path: Path
    start: int
    line: int
    stop: int | None  # None: to the end of the file
    size: int  # bytes, for the progress bar
    end: int | None = None  # a file read in pieces: its size when the ingest began (all pieces
                            # read that snapshot, however much is written to it meanwhile)


class PieceResult(NamedTuple):
    prepared: list[Prepared]
    problems: list[str]
    error: str | None  # the file is not a transcript (DataError)


def ingest_paths(paths: Iterable[str | Path], *, agent: str, store: Store, cfg: Config,
                 weakness: WeaknessMatcher | None = None,
                 on_file: Callable[[Path, int], None] | None = None,
                 workers: int | None = None) -> IngestSummary:
    """Observe and record every turn of the given files/folders for ``agent``.

    A large input is read by worker processes (``workers``, default the ``[ingest] workers``
    setting: 0 = one per core, 1 = none): whole files, and Claude Code and Codex files in pieces, each
    observed where it is read; this process writes every turn in file order, exactly as one
    reader would (tests compare the two ledgers). ``on_file(path, n)``: ``n`` more bytes of
    ``path`` were read (a progress bar).
    """
    from .selfobs import is_reflector_transcript

    files = expand_paths(paths)
    summary = IngestSummary()
    reflector_dirs = [store.home / "reflector"]
    sizes: dict[int, int] = {}
    for i, path in enumerate(files):
        if is_reflector_transcript(path, reflector_dirs):
            summary.skipped_files.append(f"{path}: a slowloop reflection's own session (never observed)")
            continue
        try:
            sizes[i] = path.stat().st_size
        except OSError as exc:
            summary.problems.append(f"{path}: cannot read: {exc.strerror}")
    n = _worker_count(cfg, workers, sum(sizes.values()))
    results = (_read_in_workers(files, sizes, cfg, weakness, n) if n > 1
               else _read_here(files, sizes, cfg, weakness))
    batch: list[tuple[Prepared, int]] = []
    current, base, failed = -1, 0, False
    last: Prepared | None = None  # the file's last turn read so far
    try:
        for piece, prepared, problems, error in results:
            if piece.file != current:  # the next file: the last one's turns are all read
                if current >= 0:
                    _file_done(summary, sizes[current])
                current, base, failed, last = piece.file, 0, False, None
            if failed:
                continue
            count = 0
            try:
                for p in prepared:
                    if count == 0 and piece.start > 0 and last is not None:
                        p = with_previous(p, last, cfg, weakness)
                    last = p
                    batch.append((p, base))
                    count += 1
                    if len(batch) >= BATCH_TURNS:
                        _record_batch(store, agent, batch, summary)
            except DataError as exc:
                error = str(exc)
            if error is not None:  # not a transcript: report it, go on with the other files
                summary.skipped_files.append(error)
                failed = True
            base += count  # the next piece's turns come after this one's in the file
            summary.problems.extend(problems)
            if on_file:
                on_file(piece.path, piece.size)
    except WorkerDied:
        _record_batch(store, agent, batch, summary)  # what was read before it is kept
        raise
    finally:
        close = getattr(results, "close", None)
        if close is not None:  # whatever stopped the loop, the workers stop now, not at exit
            close()
    _record_batch(store, agent, batch, summary)
    if current >= 0:
        _file_done(summary, sizes[current])
    return summary


def _file_done(summary: IngestSummary, size: int) -> None:
    summary.files += 1
    summary.bytes += size


def _record_batch(store: Store, agent: str, batch: list[tuple[Prepared, int]],
                  summary: IngestSummary) -> None:
    if not batch:
        return
    with store.transaction():
        agent_id = store.agent_id(agent)
        for p, base in batch:
            res = record_prepared(store, agent_id, p, index_base=base)
            summary.turns += 1
            setattr(summary, res.status, getattr(summary, res.status) + 1)
            if p.rec.reflect:
                summary.reflect_worthy += 1
    batch.clear()


def _worker_count(cfg: Config, workers: int | None, total: int) -> int:
    n = cfg.ingest.workers if workers is None else workers
    if n == 1 or total < PARALLEL_MIN_BYTES:
        return 1
    if n == 0:
        n = min(MAX_WORKERS, os.cpu_count() or 1)
    import multiprocessing
    import threading

    # Workers are forked (they inherit the loaded config and detectors); forking a process that
    # runs other threads is unsafe, and some platforms cannot fork: read here then.
    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1
    return n


_Read = tuple[Piece, Iterable[Prepared], list[str], str | None]


def _read_here(files: list[Path], sizes: dict[int, int], cfg: Config,
               weakness: WeaknessMatcher | None) -> Iterator[_Read]:
    """Each file whole, in this process, streamed (turns are written as they are read)."""
    for i, path in enumerate(files):
        if i not in sizes:
            continue
        report = ParseReport()
        problems: list[str] = []
        turns = (prepare(ot) for ot in observe_file(path, cfg, report=report, weakness=weakness))
        yield Piece(i, path, 0, 1, None, sizes[i]), _then(turns, report, problems), problems, None


def _then(turns: Iterator[Prepared], report: ParseReport, problems: list[str]) -> Iterator[Prepared]:
    """The file's turns as they are read, then its problem lines into ``problems`` (known only
    once the file is read; the caller looks at ``problems`` after the turns)."""
    yield from turns
    problems.extend(str(p) for p in report.problems)


def _pieces(files: list[Path], sizes: dict[int, int]) -> Iterator[Piece]:
    from .transcripts import SPLITTABLE, split_points
    from .transcripts.detect import sniff

    for i, path in enumerate(files):
        if i not in sizes:
            continue
        size = sizes[i]
        fmt, layout = None, "json"
        if size >= 2 * PIECE_BYTES:
            with contextlib.suppress(DataError):  # not a transcript: its worker says so
                fmt, layout = sniff(path)
        if fmt not in SPLITTABLE or layout != "jsonl":
            yield Piece(i, path, 0, 1, None, size)
            continue
        prev: tuple[int, int] | None = None
        for point in split_points(path, PIECE_BYTES, size):
            if prev is not None:
                yield Piece(i, path, prev[0], prev[1], point[0], point[0] - prev[0], size)
            prev = point
        assert prev is not None
        yield Piece(i, path, prev[0], prev[1], None, size - prev[0], size)


def _read_in_workers(files: list[Path], sizes: dict[int, int], cfg: Config,
                     weakness: WeaknessMatcher | None, n: int) -> Iterator[_Read]:
    """Files and pieces read by ``n`` forked worker processes, results in order. Only a few
    pieces are in flight at once, so memory is bounded by them, not by the input."""
    import gc
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _warm_up(cfg)
    pieces = _pieces(files, sizes)
    # What is loaded now stays as it is: the workers' collector skips it (and, not touching it,
    # leaves the pages they share with this process shared).
    gc.freeze()
    pool = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_init, initargs=(cfg, weakness))
    try:
        # Pieces in flight: about two per worker's worth of bytes (many small files, or pieces).
        budget, held = 2 * n * PIECE_BYTES, 0
        flight: deque[tuple[Piece, Future[PieceResult]]] = deque()

        def submit() -> None:
            nonlocal held
            while held < budget:
                nxt = next(pieces, None)
                if nxt is None:
                    return
                flight.append((nxt, pool.submit(_read_piece, nxt)))
                held += nxt.size

        try:
            submit()
        except BrokenProcessPool:
            raise _died(None) from None
        while flight:
            piece, future = flight.popleft()
            try:
                res = future.result()
                held -= piece.size
                submit()
            except BrokenProcessPool:
                raise _died(piece.path) from None
            yield piece, res.prepared, res.problems, res.error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


def _warm_up(cfg: Config) -> None:
    """Observe one small made-up turn here, so that the detectors' patterns are compiled (and
    their modules imported) once, before the workers are forked, instead of once in each."""
    call = ToolCall("w", "Bash", {"command": "make test"})
    failed = ToolResult("w", "Bash", "error: No such file or directory", True, 1)
    turn = Turn(source="<warm-up>", format="claude-code", index=1,
                user_text="No, that is wrong: use the other file instead.",
                steps=(Step("tool_call", call=call), Step("tool_result", result=failed),
                       Step("text", text="Fixed.")))
    prepare(observe_and_score(turn, cfg))


class WorkerDied(SlowloopError):
    """A worker process ended without answering (killed, out of memory)."""


def _died(path: Path | None) -> WorkerDied:
    what = f"a worker reading {path}" if path is not None else "a worker"
    return WorkerDied(f"{what} stopped unexpectedly (killed, or out of memory)",
                      hint="every turn read before it is recorded; run the same ingest again, or with "
                           "SLOWLOOP_INGEST__WORKERS=1 to read in this process")


_WORKER: tuple[Config, WeaknessMatcher | None] | None = None


def _worker_init(cfg: Config, weakness: WeaknessMatcher | None) -> None:
    global _WORKER
    _WORKER = (cfg, weakness)
    # Ctrl-C reaches the whole process group: the ingest itself stops (what it wrote is kept)
    # and lets each worker end the piece it is on; a traceback from every worker would say nothing.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _read_piece(piece: Piece) -> PieceResult:
    """In a worker: observe one file or piece and prepare its turns (a piece that does not start
    its file counts its turns' indexes from 0; the writer adds the turns before it)."""
    assert _WORKER is not None
    cfg, weakness = _WORKER
    report = ParseReport()
    out: list[Prepared] = []
    try:
        for ot in observe_file(piece.path, cfg, report=report, weakness=weakness,
                               start_offset=piece.start, start_line=piece.line,
                               resync=piece.start > 0, stop_offset=piece.stop,
                               end_offset=piece.end):
            out.append(prepare(ot))
    except DataError as exc:
        return PieceResult([], [], str(exc))
    return PieceResult(out, [str(p) for p in report.problems], None)


def record_turns(turns: Iterable[Turn], *, agent: str, store: Store, cfg: Config,
                 weakness: WeaknessMatcher | None = None) -> list[tuple[ObservedTurn, RecordResult]]:
    """Library entry point: observe and record turns you already have (e.g. from message lists)."""
    out = []
    previous: Turn | None = None
    for turn in turns:
        ot = observe_and_score(turn, cfg, weakness=weakness, previous=same_session(previous, turn))
        out.append((ot, record_observed(store, agent, ot)))
        previous = turn
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
