"""One reflection of one agent, and one cycle over the agents that are due.

``reflect_agent``: recover any half-applied reflection → dirty gate and schedule → the agent's lease
→ bundle → the model (or the offline distiller) → parse → check each action → plan each valid one
→ apply all as one unit → record. An invalid action never blocks the valid ones; every rejection is
recorded with its reason. A transient provider failure leaves the agent due (no cooldown).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import clock
from ..config import Config, load_config
from ..errors import ConflictError, LockedError, ModelError, ProviderError, SlowloopError, UserError
from ..history import FileChange
from ..paths import home as default_home
from ..safety.danger import scan
from ..store import Store, ledger, open_store
from ..transcripts.model import Turn
from .actions import Action, Parsed, Rejection, parse_output
from .apply import apply_reflection, recover
from .bundle import build_bundle
from .distill import TurnEvidence, distill
from .lease import agent_lease, agent_lease_name, current
from .plan import plan_action as _plan
from .prompt import build_prompt
from .scheduler import agent_status, mark_cycle, pending, plan_cycle
from .validate import check_content

ProviderChoice = Any  # a Provider, None for the offline distiller, or "config"


@dataclass
class ReflectionOutcome:
    agent: str
    status: str  # applied | nothing | skipped | dry-run | failed | locked
    reason: str = ""
    reflection_id: int | None = None
    applied: list[dict] = field(default_factory=list)  # {"action", "changes": [ids]}
    rejected: list[dict] = field(default_factory=list)  # {"action", "reason"}
    # waiting for the person (`slowloop review`): {"proposal", "action", "reason"}
    held: list[dict] = field(default_factory=list)
    planned: list[dict] = field(default_factory=list)  # dry-run: what would change
    sent_to: str = "nowhere: the offline distiller ran on this machine"
    bundle_tokens: int = 0
    notes: list[str] = field(default_factory=list)
    limits: str | None = None
    recovered: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)  # the bootstrap places brought up to date

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def _evidence(store: Store, agent_id: int, turn_ids: list[int],
              grown: frozenset[int] = frozenset()) -> list[TurnEvidence]:
    """The distiller's evidence from exactly the turns the dirty gate found pending: new past the
    watermark *and* covered turns that grew since the last reflection (a session still being
    written) — otherwise the lesson of a grown turn is never looked at, and lost."""
    rows = ledger.turns_by_ids(store, agent_id, turn_ids, lessons_only=True)
    ids = [int(r["id"]) for r in rows]
    # Four queries for any number of turns: the turns, their predecessors, errors and corrections.
    before = ledger.previous_turns(store, agent_id, ((r["source"], r["idx"], r["session_id"])
                                                     for r in rows))
    errors = ledger.errors_of(store, ids)
    corrections = ledger.signals_of(store, ids, name="user_correction")
    out = []
    for r in rows:
        tid = int(r["id"])
        turn = Turn.from_dict(json.loads(r["data"]))
        prev_row = before.get((r["source"], int(r["idx"]), r["session_id"] or ""))
        previous = Turn.from_dict(json.loads(prev_row["data"])) if prev_row is not None else None
        errs = errors.get(tid, [])
        real = tuple({"step": e["step"], "tool": e["tool"], "evidence": e["evidence"],
                      "excerpt": e["excerpt"]} for e in errs if e["kind"] == "real")
        ev_rows = corrections.get(tid)
        out.append(TurnEvidence(turn_id=tid, turn=turn, corrected=bool(r["corrected"]),
                                correction_evidence=ev_rows[0]["why"] if ev_rows else None,
                                previous=previous, real_errors=real,
                                transient_only=bool(errs) and not real,
                                grown=tid in grown))
    return out


def reflect_agent(agent: str, *, home: Path | None = None, store: Store | None = None,
                  cfg: Config | None = None, provider: ProviderChoice = "config",
                  dry_run: bool = False, force: bool = False,
                  on_event: Callable[[str], None] | None = None) -> ReflectionOutcome:
    """Reflect on one agent now if it is due (``force`` skips the schedule, never the dirty gate)."""
    from ..memo import Memo
    from ..skills import SkillLibrary

    home = home or default_home()
    cfg = cfg or load_config(home)
    own_store = store is None
    store = store or open_store(home=home)
    say = on_event or (lambda _m: None)
    try:
        out = ReflectionOutcome(agent=agent, status="skipped")
        out.recovered = recover(store, agent)
        sched = agent_status(store, agent, cfg)
        if not sched.dirty:
            out.reason = sched.reasons[0] if sched.reasons else "clean: nothing new"
            return out
        offline_only = not sched.due and sched.offline_due and not force and provider == "config"
        if not sched.due and not force and not offline_only:
            out.reason = "; ".join(sched.reasons)
            return out
        if offline_only:
            # the model cools down; the offline learner costs nothing and reads the turns now
            provider = None
            out.notes.append(f"the model cools down until {sched.cooldown_until}: the offline learner "
                             "read the new turns")
        if provider == "config":
            from ..providers import get_provider

            provider = get_provider(cfg)
        from ..providers.boundary import guarded

        provider = guarded(provider)  # whatever was handed in, the bundle is redacted on the way out
        try:
            with agent_lease(store, agent, cfg):
                # Check, lock, check again: another worker (this machine's hook, a daemon on
                # another machine sharing the ledger) may have reflected on it in between.
                again = agent_status(store, agent, cfg)
                if not again.dirty or (not again.due and not force and not (offline_only and again.offline_due)):
                    out.reason = ("reflected on meanwhile by another worker: "
                                  + ("; ".join(again.reasons) or "nothing new"))
                    return out
                return _reflect_locked(agent, home, store, cfg, provider, dry_run, out, say,
                                       Memo(agent, home=home, config=cfg),
                                       SkillLibrary(agent, home=home, store=store, config=cfg))
        except LockedError as exc:
            out.status, out.reason = "locked", str(exc)
            return out
    finally:
        if own_store:
            store.close()


def _reflect_locked(agent, home, store, cfg, provider, dry_run, out, say, memo, lib) -> ReflectionOutcome:
    agent_id = store.agent_id(agent)
    with store.transaction():  # what the bundle reads is the ledger as of this moment
        seen_at = ledger.read_point(store, agent_id)
        bundle = build_bundle(store, agent, cfg)
    out.bundle_tokens = bundle.tokens
    provider_name = "offline" if provider is None else f"{provider.kind}:{provider.name}"
    if provider is not None:
        out.sent_to = provider.destination()
    rid = ledger.start_reflection(store, agent_id, started_at=seen_at, provider=provider_name,
                                  model=getattr(provider, "model", "") or "", sent_to=out.sent_to,
                                  bundle_tokens=bundle.tokens, watermark=bundle.watermark)
    out.reflection_id = rid
    say(f"reflecting on {agent!r} (R{rid}): bundle of {bundle.tokens} tokens, "
        f"{len(bundle.turn_ids)} turns → {out.sent_to}")
    try:
        return _run(agent, home, store, provider, dry_run, out, memo, lib, agent_id, rid, bundle,
                    seen_at)
    except SlowloopError as exc:
        # the error is the caller's to report; the reflection is ended, never left 'running'
        _fail(store, agent_id, rid, f"{type(exc).__name__}: {exc}"[:2000], transient=False)
        raise
    except Exception as exc:  # noqa: BLE001 - one bad answer must not leave R<id> 'running'
        # Whatever went wrong with this reflection (a pathological answer, a bug) is recorded on
        # it, and the cycle goes on to the next agent; nothing was applied.
        reason = f"{type(exc).__name__}: {exc}"[:2000]
        _fail(store, agent_id, rid, reason, transient=False)
        out.status, out.reason = "failed", reason
        return out


@dataclass
class _Run:
    """One reflection under way: what every step reads."""

    agent: str
    home: Path
    store: Store
    provider: Any  # a Provider, or None for the offline learner
    dry_run: bool
    out: ReflectionOutcome
    memo: Any  # Memo
    lib: Any  # SkillLibrary
    agent_id: int
    rid: int
    bundle: Any  # Bundle
    seen_at: str


@dataclass
class _Answer:
    """What the model (or the offline learner) proposed."""

    parsed: Parsed
    raw: str
    unlearned: list[tuple[Action, str]] = field(default_factory=list)  # corrections no rule came from
    person_kinds: set[str] = field(default_factory=set)  # danger classes in the person's own words
    from_model: bool = False  # the actions are a model's (its reasons must cite turns it was shown)


@dataclass
class _Checked:
    """Every proposed action sorted: planned, held for the person, or rejected with its reason."""

    planned: list[tuple[Action, list[FileChange]]] = field(default_factory=list)
    held: list[tuple[Action, str]] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    evictions: dict[int, list[dict]] = field(default_factory=dict)  # id(action) -> the skills evicted
    nothing_reason: str = ""


def _run(agent, home, store, provider, dry_run, out, memo, lib, agent_id, rid, bundle, seen_at
         ) -> ReflectionOutcome:
    r = _Run(agent, home, store, provider, dry_run, out, memo, lib, agent_id, rid, bundle, seen_at)
    answer = _answer(r)
    if answer is None:  # the provider failed: recorded on the reflection, the turns stay pending
        return out
    return _record_and_apply(r, answer.raw, _check(r, answer))


def _offline(r: _Run) -> _Answer:
    """The offline learner over exactly the turns the bundle covers."""
    skills = {s.name: s.body for s in r.lib.list()}
    memo_entries = {"strengths": r.memo.entries("strengths"), "plays": r.memo.entries("plays")}
    new = [t for t in pending(r.store, r.agent_id).turns if t.id <= r.bundle.watermark]
    evidence = _evidence(r.store, r.agent_id, [t.id for t in new], frozenset(t.id for t in new if t.updated))
    d = distill(evidence, memo=memo_entries, skills=skills)
    r.out.notes.extend(d.notes)
    r.out.limits = d.limits
    return _Answer(Parsed(actions=d.actions),
                   json.dumps({"actions": [a.to_dict() for a in d.actions]}, ensure_ascii=False),
                   d.unlearned, _person_danger_kinds(evidence))


def _answer(r: _Run) -> _Answer | None:
    """The proposed actions; None when the provider failed (the reflection is recorded failed)."""
    if r.provider is None:
        return _offline(r)
    prompt = reflection_prompt(r.lib, r.memo, r.store, r.agent, r.bundle.text)
    try:
        completion = r.provider.complete(prompt.system, prompt.user, schema=prompt.schema)
        raw = completion.text
        parsed = parse_output(raw)
    except ModelError as exc:
        # a refusal or an empty answer teaches nothing and must not consume the turns
        raw, parsed = "", Parsed(rejections=[Rejection("(no answer)", f"the model gave no usable answer: {exc}")])
    except ProviderError as exc:
        _fail(r.store, r.agent_id, r.rid, str(exc), transient=exc.transient)
        r.out.status = "failed"
        r.out.reason = (f"the provider failed ({'transient — the agent stays due' if exc.transient else 'not transient'}): {exc}")
        return None
    if parsed.actions:
        return _Answer(parsed, raw, from_model=True)
    # A malformed, empty or refused answer teaches nothing, and must not consume the turns it was
    # about: the offline learner takes what it can from them instead.
    why = "; ".join(j.reason for j in parsed.rejections[:2]) or "an empty answer"
    off = _offline(r)
    r.out.notes.append(f"the model's answer could not be used ({why[:200]}); the offline learner read the same turns")
    return _Answer(Parsed(actions=off.parsed.actions, rejections=parsed.rejections),
                   raw[:100_000] + "\n--- offline learner ---\n" + off.raw, off.unlearned, off.person_kinds)


_CITED = re.compile(r"(?:\bturns?\b|#)\s*#?\s*(\d+(?:\s*(?:,|and|&|-|–|to)\s*#?\s*\d+)*)", re.I)


def _cites_unshown_turns(reason: str, shown: list[int]) -> list[int]:
    """The turn numbers a model's reason cites when none of them was in its bundle ([] when it
    cites none, or at least one it saw)."""
    cited = [int(n) for m in _CITED.finditer(reason or "") for n in re.findall(r"\d+", m.group(1))]
    if not cited or set(cited) & set(shown):
        return []
    return sorted(set(cited))


def _check(r: _Run, answer: _Answer) -> _Checked:
    """Each action checked (names, content, the person's words at stake, one change per skill) and
    planned against the files as they are; an invalid one never blocks the valid ones."""
    from .authorship import persons_words_at_stake

    c = _Checked(rejections=list(answer.parsed.rejections), held=list(answer.unlearned))
    touched: set[str] = set()
    memo_at: int | None = None  # index in ``planned`` of the memo change this reflection makes
    added = 0  # net number of skills the planned actions add (a create at the cap evicts)
    existing = {sk.name for sk in r.lib.list()}
    for action in answer.parsed.actions:
        if action.type == "nothing":
            c.nothing_reason = action.reason
            continue
        missing = [n for n in ((action.name,) if action.type in ("patch_skill", "retire_skill")
                               else action.names) if n and n not in existing]
        if missing:
            c.rejections.append(Rejection(action.to_dict(), f"no skill named {', '.join(missing)} "
                                          f"(the skill index lists the ones that exist)"))
            continue
        unshown = _cites_unshown_turns(action.reason, r.bundle.turn_ids) if answer.from_model else []
        if unshown:
            c.rejections.append(Rejection(action.to_dict(), (
                f"its reason cites turn {', '.join(f'#{n}' for n in unshown)}, which the bundle did "
                "not show: a rule must come from a turn that happened")))
            continue
        verdict = check_content(action)
        if not verdict.ok:
            kinds = {d.kind for t in action.texts() for d in scan(t)}
            if r.provider is None and kinds and kinds <= answer.person_kinds:
                # the person said it themselves: theirs to confirm, never applied silently
                c.held.append((action, f"learned from the person's words, but {verdict.reason}"))
            elif r.provider is None and not kinds and not answer.from_model:
                # the offline learner's rule from a correction, turned down by the quality check (a
                # name of this code, a wording too vague): the lesson waits for the person's wording,
                # never lost in silence
                c.held.append((action, f"the rule as built does not pass the quality check: {verdict.reason}"))
            elif kinds == {"posture"}:
                # it lowers the safety posture (a mirror, a skipped hook…): maybe the team's way,
                # maybe an attack — the person decides, whoever proposed it
                c.held.append((action, f"it changes the safety posture: {verdict.reason}"))
            else:  # from a model, or from text the person did not write (a tool's output…)
                c.rejections.append(Rejection(action.to_dict(), verdict.reason))
            continue
        at_stake = persons_words_at_stake(action, r.store, r.agent_id, r.lib, r.memo) or _state_at_stake(action, r.memo)
        if at_stake:
            c.held.append((action, at_stake))
            continue
        targets = set() if action.type == "update_memo" else (
            {action.target()} | {f"skill:{n}" for n in action.names})
        if targets & touched:
            gone = [n for evs in c.evictions.values() for n in (e["name"] for e in evs)
                    if f"skill:{n}" in targets]
            c.rejections.append(Rejection(action.to_dict(), (
                f"skill {gone[0]} is evicted by a create_skill of this reflection (the library is "
                "full)") if gone else "another action of this reflection already changes the same file"))
            continue
        evicted: list = []
        try:
            changes = _plan(action, r.lib, r.memo,
                            memo_base=c.planned[memo_at][1][0].after if memo_at is not None else None,
                            added=added, touched=frozenset(t.split(":", 1)[1] for t in touched),
                            evicted=evicted)
        except SlowloopError as exc:
            c.rejections.append(Rejection(action.to_dict(), exc.message))
            continue
        touched |= targets | {f"skill:{ev.name}" for ev in evicted}
        added += _net_skills(action) - len(evicted)
        if evicted:
            c.evictions[id(action)] = [{"name": ev.name, "reason": ev.reason} for ev in evicted]
        if action.type == "update_memo" and memo_at is not None:
            # memo entries of one reflection fold into one change of memo.md (planned on top of
            # each other, applied together)
            first = c.planned[memo_at][1][0]
            c.planned[memo_at][1][0] = dataclasses.replace(first, after=changes[0].after,
                                                           target="memo", op="update")
            c.planned.append((action, []))
            continue
        if action.type == "update_memo":
            memo_at = len(c.planned)
        c.planned.append((action, changes))
    _judge_results(c, answer.from_model)
    return c


def _judge_results(c: _Checked, from_model: bool) -> None:
    """The gate on what results: each file as the planned changes leave it, judged whole — a
    download in one memo entry and its execution in the next, a definition and its use. A danger the
    file already had is not laid on the change. And a model's answer that proposed one dangerous
    action is not trusted for the rest: its other changes wait for the person."""
    from ..safety.gate import introduced

    bad: dict[str, str] = {}
    for _action, changes in c.planned:
        for ch in changes:
            found = introduced(ch.before or "", ch.after or "")
            if found:
                bad[ch.target] = f"{found[0].kind} ({found[0].evidence})"
    poisoned = from_model and (any(j.reason.startswith("dangerous content") for j in c.rejections)
                               or any(why.startswith("it changes the safety posture") for _a, why in c.held))
    if not bad and not poisoned:
        return
    memo_bad = bad.get("memo")
    keep: list[tuple[Action, list[FileChange]]] = []
    for action, changes in c.planned:
        targets = {ch.target for ch in changes} | ({"memo"} if action.type == "update_memo" else set())
        why = next((bad[t] for t in targets if t in bad), memo_bad if action.type == "update_memo" else None)
        if why:
            c.held.append((action, f"the file this change leaves holds what no single change showed: {why}"))
        elif poisoned:
            c.held.append((action, "proposed in the same answer as a dangerous action"))
        else:
            keep.append((action, changes))
    c.planned = keep


def _record_and_apply(r: _Run, raw: str, c: _Checked) -> ReflectionOutcome:
    """The answer, its rejections and what waits recorded as one unit; then the planned changes
    applied as one unit (a dry run stops before), and the places the agent reads refreshed."""
    out, store = r.out, r.store
    with store.transaction() as db:
        ledger.record_answer(store, r.rid, raw[:200_000],
                             [(json.dumps(j.action, ensure_ascii=False) if not isinstance(j.action, str)
                               else j.action, j.reason) for j in c.rejections], at=clock.iso())
        if not r.dry_run:
            from .review import hold

            out.held = [{"proposal": hold(db, r.agent_id, r.rid, a, why, store=store), "action": a.to_dict(),
                         "reason": why} for a, why in c.held]
    if r.dry_run:
        out.held = [{"proposal": None, "action": a.to_dict(), "reason": why} for a, why in c.held]
    out.rejected = [{"action": j.action, "reason": j.reason} for j in c.rejections]
    all_changes = [ch for _a, cs in c.planned for ch in cs]
    summary = _summary(c.planned, c.rejections, c.nothing_reason, c.evictions)
    if c.held:
        summary += f" ({len(c.held)} waiting for approval: slowloop review)"
    if r.dry_run:
        out.planned = [{"action": a.to_dict(), "files": [str(ch.path) for ch in cs],
                        "evicted": c.evictions.get(id(a), [])} for a, cs in c.planned]
        ledger.end_dry_run(store, r.rid, summary=summary, at=clock.iso())
        out.status, out.reason = "dry-run", summary
        return out
    try:
        ids = apply_reflection(store, r.agent, r.rid, all_changes, watermark=r.bundle.watermark,
                               summary=summary, status="applied" if all_changes else "nothing",
                               seen_at=r.seen_at)
    except ConflictError as exc:
        # a person edited a file while we planned: give way, keep the turns pending
        ledger.fail_reflection(store, r.rid, f"gave way to a person's edit: {exc.message}", at=clock.iso())
        out.status, out.reason = "failed", f"gave way to a person's edit: {exc.message}"
        return out
    pos = 0
    memo_ids: list[int] = []
    for action, cs in c.planned:
        mine = ids[pos:pos + len(cs)]
        pos += len(cs)
        if action.type == "update_memo":
            memo_ids = mine or memo_ids
            mine = memo_ids
        out.applied.append({"action": action.to_dict(), "changes": mine,
                            "evicted": c.evictions.get(id(action), [])})
    out.status = "applied" if all_changes else "nothing"
    out.reason = summary
    _condense_past(r)
    if all_changes:
        from .publish import changed

        out.refreshed, synced = changed(r.home, r.agent, store, reflection_id=r.rid)
        if synced:
            out.notes.append(synced)
    return out


def _person_danger_kinds(evidence: list[TurnEvidence]) -> set[str]:
    """The danger classes in what the person typed in these turns (their messages and the reasons
    they gave when refusing a tool use), never in tool output or anything an agent wrote."""
    from ..transcripts.anthropic import refusal_reason

    kinds: set[str] = set()
    for ev in evidence:
        if not ev.turn.person:
            continue
        texts = [ev.turn.user_text] + [refusal_reason(r.output) for r in ev.turn.rejected_calls]
        kinds |= {d.kind for t in texts if t for d in scan(t)}
    return kinds


def _fail(store: Store, agent_id: int, rid: int, error: str, *, transient: bool) -> None:
    # a hard failure cools down like an attempt; a transient one stays due
    ledger.fail_reflection(store, rid, error[:2000], at=clock.iso(),
                           cool_down=None if transient else agent_id)


def _net_skills(action: Action) -> int:
    """How many active skills ``action`` adds (negative: removes)."""
    if action.type == "create_skill":
        return 1
    if action.type == "retire_skill":
        return -1
    if action.type == "merge_skills":
        names = set(action.names)
        return (0 if action.into in names else 1) - len(names - {action.into})
    return 0


def _summary(planned, rejections, nothing_reason: str, evictions: dict | None = None) -> str:
    if not planned:
        base = "nothing to save" + (f": {nothing_reason}" if nothing_reason else "")
    else:
        base = "; ".join(f"{a.type} {a.name or a.into or a.section or a.heading}" + "".join(
            f" (evicted {ev['name']}: {ev['reason']})" for ev in (evictions or {}).get(id(a), []))
            for a, _ in planned)
    if rejections:
        base += f" ({len(rejections)} action(s) rejected)"
    return base


def reflection_prompt(lib, memo, store: Store, agent: str, bundle_text: str):
    """The prompt a model gets for this agent: the memo, the skill index with metrics, the bundle."""
    return build_prompt(memo_text=memo.render(), skill_index=_skill_index(lib, store, agent),
                        bundle_text=bundle_text, state_text=_state_text(memo))


def _condense_past(r: _Run) -> None:
    """With a model, the operational memory's past is condensed by it once the chronicle passed its
    cap (the recorded path leaves that to the reflection when a model is configured); the summary
    is gated before it is kept (``memory.summary.build_summary``), and a failure costs nothing."""
    if r.provider is None or r.dry_run:
        return
    from ..memory import Memory
    from ..memory.summary import SUMMARY_SYSTEM

    try:
        mem = Memory.for_agent(r.agent, home=r.home)
        if not (mem.exists() and mem.over_threshold()):
            return
        provider = r.provider
        res = mem.archive(summarize=lambda text: provider.complete(SUMMARY_SYSTEM, text).text)
    except SlowloopError as exc:
        r.out.notes.append(f"the past could not be condensed now: {exc.message}")
        return
    by = "with the model" if res.summary_by == "model" else "extractively"
    r.out.notes.append(f"condensed the past into past/{res.layer.name}/ {by}" + (f" ({res.warning})" if res.warning else ""))


def _state_at_stake(action: Action, memo) -> str:
    """A state section that exists already is someone's account of today — a person's, maybe: a
    model's rewrite of it waits for the person; a new section does not."""
    if action.type != "update_state":
        return ""
    from ..memory import Memory

    try:
        have = {" ".join(sec.title.split()).lower(): sec.body.strip()
                for sec in Memory.for_agent(memo.agent, home=memo.home).state_sections()}
    except SlowloopError:
        return ""
    old = have.get(" ".join(action.heading.split()).lower())
    if old is None or old == action.text.strip():
        return ""
    return f"it rewrites the state section {action.heading!r}, which says: {old[:160]!r}"


def _state_text(memo) -> str:
    """The operational memory's system state as the next session reads it (redacted by the model
    boundary like the rest of the prompt); empty when there is none."""
    from ..memory import Memory
    from ..memory.layout import STATE

    try:
        text, digest = Memory.for_agent(memo.agent, home=memo.home).read(STATE)
    except SlowloopError:
        return ""
    return text if digest is not None else ""


def _skill_index(lib, store: Store, agent: str) -> str:
    from ..skills.metrics import skill_metrics

    metrics = skill_metrics(store, agent)
    lines = []
    for s in lib.list():
        m = metrics.get(s.name)
        stats = (f"impressions {m.impressions}, invocations {m.invocations}, invocation rate "
                 f"{m.invocation_rate:.2f}, edit-after-use {m.edit_after_use_rate:.2f}, ineffective "
                 f"{m.ineffective_rate:.2f}") if m else "no use recorded"
        lines.append(f"- {s.name} — {s.description} — {stats}")
    return "\n".join(lines)


def run_cycle(*, home: Path | None = None, cfg: Config | None = None, agents: list[str] | None = None,
              provider: ProviderChoice = "config", dry_run: bool = False,
              on_event: Callable[[str], None] | None = None) -> list[ReflectionOutcome]:
    """Reflect on the agents that are due, highest pending score first, up to the per-cycle cap.

    The cycle is marked done at the end, so a crash mid-cycle makes the next start run it again.
    """
    home = home or default_home()
    cfg = cfg or load_config(home)
    outcomes = []
    with open_store(home=home) as store:
        # Every due agent in priority order, until the cap of agents this worker reflects on:
        # one another worker holds (or reflected on meanwhile) does not count, so several
        # daemons sharing a ledger take the next due agents rather than the same ones.
        cap, worked = cfg.scheduler.max_agents_per_cycle, 0
        for name in [a.agent for a in plan_cycle(store, cfg, agents=agents, limit=None) if a.due]:
            if worked >= cap:
                break
            holder = current(store, agent_lease_name(name))
            if holder is not None:  # another worker has it: one read, not a status and a try
                outcomes.append(ReflectionOutcome(agent=name, status="locked",
                                                  reason=f"being reflected on by {holder.describe()}"))
                continue
            try:
                outcome = reflect_agent(name, home=home, store=store, cfg=cfg, provider=provider,
                                        dry_run=dry_run, on_event=on_event)
            except UserError:
                raise  # the configuration is wrong for every agent: say so once
            except Exception as exc:  # noqa: BLE001 - one agent's failure must not starve the rest
                outcome = ReflectionOutcome(agent=name, status="failed",
                                            reason=f"{type(exc).__name__}: {exc}"[:2000])
            outcomes.append(outcome)
            if outcome.status not in ("locked", "skipped"):
                worked += 1
        if not dry_run:
            mark_cycle(store)
    return outcomes
