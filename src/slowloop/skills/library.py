"""The skill library of one agent: list, read, create, patch, retire, restore, merge, metrics.

Files are the truth (``<agent dir>/skills/<name>/SKILL.md``); the ledger records reads, edits and
every change. Each mutating operation is a pure planner (``plan_*``, returning ``FileChange``
values) plus ``slowloop.history.apply_changes``, so reflection can apply several as one unit.
The library methods take an agent-wide lock around plan + apply: two processes creating or
patching at once queue instead of failing, and a person's editor (which takes no lock) is caught
by the content-hash check in ``apply_changes``.
"""

from __future__ import annotations

import builtins
import os
from dataclasses import dataclass, replace
from pathlib import Path

from .. import clock
from ..config import Config, load_config
from ..errors import ConflictError, DataError, UserError
from ..fsutil import file_lock, lock_path_for, read_text
from ..history import FileChange, apply_changes, archive_path, notice_person_edits
from ..paths import AgentLayout, agent_dir as _agent_dir, home as _home
from ..store import Store, artifacts, open_store
from .eviction import Candidate, Eviction, choose_eviction
from .format import (
    SKILL_FILE,
    Problem,
    Skill,
    load_skill,
    parse_skill,
    render_skill,
    spec_problems,
    validate_name,
)
from .metrics import SkillMetrics, skill_metrics


@dataclass(frozen=True)
class CreateResult:
    skill: Skill
    evicted: list[Eviction]


class SkillLibrary:
    # The public method ``list`` shadows the builtin inside this class body, so the annotations
    # here spell it ``builtins.list``.
    def __init__(self, agent: str = "default", *, home: Path | None = None,
                 store: Store | None = None, config: Config | None = None) -> None:
        self.agent = agent
        self.home = Path(home) if home is not None else _home()
        self.dir = _agent_dir(agent, self.home)
        self.skills_dir = AgentLayout(self.dir).skills
        self.archive_dir = AgentLayout(self.dir).archive / "skills"
        self._store = store
        self._config = config

    # -- plumbing -----------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(home=self.home)
        return self._store

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = load_config(self.home)
        return self._config

    def path_of(self, name: str) -> Path:
        return self.skills_dir / validate_name(name) / SKILL_FILE

    def _lock(self):
        return file_lock(lock_path_for(self.dir))

    # -- reading ------------------------------------------------------------------------------
    def scan(self) -> tuple[builtins.list[Skill], builtins.list[DataError]]:
        """Active skills that parse, and the errors of those that do not (``doctor`` shows them)."""
        skills: list[Skill] = []
        broken: list[DataError] = []
        try:
            entries = sorted(os.scandir(self.skills_dir), key=lambda e: e.name)
        except FileNotFoundError:
            return [], []
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            path = os.path.join(entry.path, SKILL_FILE)  # str, not Path: this is the hot path
            try:
                skills.append(load_skill(path))
            except FileNotFoundError:
                broken.append(DataError("the folder has no SKILL.md", path=path,
                                        hint="add one, or remove the folder"))
            except DataError as exc:
                broken.append(exc)
        return skills, broken

    def list(self, include_retired: bool = False) -> builtins.list[Skill]:
        """Active skills (broken files skipped); with ``include_retired``, the archived ones too."""
        skills, _ = self.scan()
        self._notice(skills)
        if include_retired:
            active = {s.name for s in skills}
            for name in sorted(os.listdir(self.archive_dir)) if self.archive_dir.is_dir() else []:
                if name in active:
                    continue
                latest = self._latest_archived(name)
                if latest is None:
                    continue
                try:
                    skills.append(load_skill(latest, retired=True, folder=name))
                except DataError:
                    continue  # an archived copy that does not parse is still kept on disk
        return skills

    def problems(self) -> builtins.list[Problem]:
        """What ``doctor`` reports: files that are skipped (errors) and files read but not written
        the way the Agent Skills spec asks (warnings, e.g. the seed's flat form)."""
        skills, broken = self.scan()
        out = [Problem(e.path or "", e.line, e.message.split(": ", 1)[-1] if e.path else e.message)
               for e in broken]
        for s in skills:
            text, _ = read_text(s.path)
            if text is None:
                continue
            for p in spec_problems(text, s.path):
                if s.flat_form and p.severity == "error":
                    p = Problem(p.path, p.line, p.message + " (seed flat form: read, rewritten in "
                                "spec form on the next change)", "warning")
                out.append(p)
        return out

    def _notice(self, skills: builtins.list[Skill] | None = None) -> builtins.list[int]:
        """Record, before anything else, the edits a person made to skill files by hand (every
        skill file, and the ones deleted by hand: what a listing shows must be in the history)."""
        files = [(p, "skill", p.parent.name) for p in self.skills_dir.glob(f"*/{SKILL_FILE}")]
        return notice_person_edits(self.store, self.agent, files, known_kind="skill")

    def _apply(self, changes: builtins.list[FileChange], *, actor: str,
               reflection_id: int | None = None) -> None:
        """Apply planned changes, first recording a person's edits to the files they touch.

        Only those files are read: a write costs the files it changes, not the whole library
        (edits elsewhere are noticed by the next listing or read of those skills).
        """
        touched = [(c.path, "skill", c.target) for c in changes
                   if c.kind == "skill" and c.before is not None]
        if touched:
            notice_person_edits(self.store, self.agent, touched)
        apply_changes(changes, store=self.store, agent=self.agent, actor=actor,
                      reflection_id=reflection_id)

    def get(self, name: str) -> Skill:
        path = self.path_of(name)
        try:
            return load_skill(path)
        except FileNotFoundError:
            archived = " (it is retired: `slowloop skills restore " + name + "`)" \
                if self._latest_archived(name) else ""
            raise UserError(f"no skill named {name!r} for agent {self.agent!r}{archived}",
                            hint="see `slowloop skills list`") from None

    def read(self, name: str, *, source: str = "library", count: bool = True,
             turn_id: int | None = None) -> str:
        """The skill's body. Counts an invocation unless ``count=False`` (the reflector's reads)."""
        path = self.path_of(name)
        if path.exists():
            notice_person_edits(self.store, self.agent, [(path, "skill", name)])
        skill = self.get(name)
        if count:
            if source not in ("library", "cli", "mcp", "transcript"):
                raise UserError(f"unknown invocation source {source!r}",
                                hint="use library, cli, mcp or transcript")
            artifacts.record_invocation(self.store, self.store.agent_id(self.agent), name,
                                        at=clock.iso(), source=source, turn_id=turn_id)
            self._flush_last_used(skill)
        return skill.body

    def _flush_last_used(self, skill: Skill) -> None:
        # The ledger (invocations) is the truth of when a skill was last used; the file's
        # metadata.lastUsedAt is a convenience copy for people and for agents that load SKILL.md
        # natively. Rewriting the file on every read would churn it in a hot loop (and race a
        # person's editor), so it is written back at most once per skills.last_used_flush per
        # skill, only with expect=<hash we read>: if a person is editing the file, their edit wins
        # and the ledger still has the truth until the next flush.
        interval = self.config.skills.last_used_flush.seconds
        last = clock.parse_iso(skill.metadata.get("lastUsedAt"))
        now = clock.now()
        if last is not None and now - last < interval:
            return
        text, digest = read_text(skill.path)
        if text is None or digest != skill.content_hash:
            return  # changed since we parsed it: give way, flush on a later read
        meta = dict(skill.metadata)
        meta["lastUsedAt"] = clock.iso(now)
        after = render_skill(skill.name, skill.description, meta, skill.body, skill.extra)
        change = FileChange(path=skill.path, before=text, before_hash=digest,
                            after=after, kind="skill", target=skill.name, op="touch",
                            note="lastUsedAt written back from the ledger")
        try:
            apply_changes([change], store=self.store, agent=self.agent, actor="slowloop")
        except ConflictError:
            pass  # a person's concurrent edit wins; see the comment above

    def last_used(self, skill: Skill, metrics: SkillMetrics | None) -> str | None:
        """The ledger's lastUsedAt (newest of the invocations and the file's own value)."""
        values = [v for v in (skill.metadata.get("lastUsedAt"),
                              metrics.last_invoked_at if metrics else None) if v]
        return max(values, key=lambda v: clock.parse_iso(v) or 0.0) if values else None

    def describe(self, skill: Skill, metrics: SkillMetrics | None) -> dict:
        """One skill as ``skills list --json`` gives it: frontmatter, path, metrics, retired."""
        meta = dict(skill.metadata)
        last = self.last_used(skill, metrics)
        if last:
            meta["lastUsedAt"] = last  # the ledger's value, which the file catches up with hourly
        return {"name": skill.name, "description": skill.description, "metadata": meta,
                "path": str(skill.path), "metrics": metrics.to_dict() if metrics else {},
                "retired": skill.retired}

    def metrics(self, names: builtins.list[str] | None = None) -> dict[str, SkillMetrics]:
        return skill_metrics(self.store, self.agent, names=names)

    def stats(self) -> builtins.list[SkillMetrics]:
        skills, _ = self.scan()
        m = self.metrics([s.name for s in skills])
        return [m[s.name] for s in skills]

    def record_edit(self, skill: str | None = None, note: str = "") -> builtins.list[str]:
        """The user changed the result of a skill-assisted answer; returns the skills credited.

        Without ``skill``: the skills read in the agent's most recent turn (or its most recent
        read outside a turn).
        """
        agent_id = self.store.agent_id(self.agent)
        turn_id = None
        if skill is not None:
            validate_name(skill)
            names = [skill]
            last = artifacts.last_invocation(self.store, agent_id, skill)
            turn_id = last["turn_id"] if last else None
            if last is None and not self.path_of(skill).exists() and self._latest_archived(skill) is None:
                # a typo would otherwise become metrics for a skill that never existed
                raise UserError(f"no skill named {skill!r} for agent {self.agent!r}",
                                hint="see `slowloop skills list` (retired ones: --retired)")
        else:
            last = artifacts.last_invocation(self.store, agent_id)
            if last is None:
                raise UserError(f"agent {self.agent!r} has read no skill yet, so there is nothing "
                                "to credit the edit to", hint="name it: record-edit --skill NAME")
            turn_id = last["turn_id"]
            if turn_id is None:
                names = [last["skill"]]
            else:
                names = artifacts.skills_read_in_turn(self.store, agent_id, turn_id)
        artifacts.record_edits(self.store, agent_id, names, at=clock.iso(), turn_id=turn_id,
                               note=note, source="explicit")
        return names

    def _latest_archived(self, name: str) -> Path | None:
        folder = self.archive_dir / name
        if not folder.is_dir():
            return None
        stamps = sorted(p for p in folder.iterdir() if (p / SKILL_FILE).is_file())
        return stamps[-1] / SKILL_FILE if stamps else None

    # -- planners (pure: read the files, return FileChanges) ----------------------------------
    def _fresh(self, name: str) -> tuple[Skill, str]:
        path = self.path_of(name)
        text, digest = read_text(path)
        if text is None:
            self.get(name)  # raises the helpful error: no such skill, or a folder in its place
            raise ConflictError(f"{path} changed while it was read", hint="try again")
        return parse_skill(text, path, content_hash=digest), text

    def plan_create(self, name: str, description: str, body: str, *, title: str | None = None,
                    evict: bool = True, extra: int = 0, exclude: frozenset[str] = frozenset()
                    ) -> tuple[builtins.list[FileChange], builtins.list[Eviction]]:
        """``extra``/``exclude``: for a batch (one reflection) — the net number of skills its
        earlier actions add, and the skills they already change, which cannot be evicted too."""
        validate_name(name)
        path = self.path_of(name)
        if path.parent.exists():
            raise UserError(f"skill {name!r} already exists ({path})",
                            hint=f"change it with `slowloop skills patch {name} --old … --new …`, "
                                 "or pick another name")
        if not body.strip():
            raise UserError(f"the body of skill {name!r} is empty", hint="write the steps or key points")
        now = clock.iso()
        meta = {"title": title or name, "createdAt": now, "updatedAt": now, "patchCount": "0"}
        text = render_skill(name, description, meta, body)
        changes = [FileChange(path=path, before=None, before_hash=None, after=text, kind="skill",
                              target=name, op="create")]
        evictions = self._plan_evictions(extra=extra, exclude=exclude) if evict else []
        for ev in evictions:
            changes.append(replace(self.plan_retire(ev.name)[0], op="evict", note=ev.reason))
        return changes, evictions

    def _plan_evictions(self, *, extra: int = 0,
                        exclude: frozenset[str] = frozenset()) -> builtins.list[Eviction]:
        cap = self.config.skills.max_count
        skills, _ = self.scan()
        excess = len(skills) + extra - cap + 1
        skills = [s for s in skills if s.name not in exclude]
        if excess <= 0:
            return []
        grace = self.config.skills.eviction_grace.seconds
        metrics = self.metrics([s.name for s in skills])
        candidates = []
        for s in skills:
            created = clock.parse_iso(s.metadata.get("createdAt"))
            if created is None:
                created = s.path.stat().st_mtime
            candidates.append(Candidate(s.name, created,
                                        clock.parse_iso(self.last_used(s, metrics.get(s.name)))))
        out: list[Eviction] = []
        now = clock.now()
        for _ in range(excess):
            ev = choose_eviction(candidates, now=now, grace_seconds=grace)
            if ev is None:
                raise UserError(
                    f"the skill library of agent {self.agent!r} is full ({cap} skills) and every "
                    f"skill is younger than the eviction grace period ({self.config.skills.eviction_grace}); nothing was created",
                    hint="retire one with `slowloop skills retire NAME`, or raise skills.max_count")
            out.append(ev)
            candidates = [c for c in candidates if c.name != ev.name]
        return out

    def plan_patch(self, name: str, old: str, new: str) -> builtins.list[FileChange]:
        skill, text = self._fresh(name)
        if not old:
            raise UserError("--old is empty", hint="quote the exact text to replace")
        if old == new:
            raise UserError("--old and --new are the same text; nothing to change")
        n = skill.body.count(old)
        if n == 0:
            raise UserError(f"the text to replace was not found in skill {name!r}: {old[:80]!r}",
                            hint=f"copy it exactly from `slowloop skills show {name}`")
        if n > 1:
            raise UserError(f"the text to replace occurs {n} times in skill {name!r}: {old[:80]!r}",
                            hint="include more of the surrounding text so it matches exactly once")
        body = skill.body.replace(old, new, 1)
        if not body.strip():
            raise UserError(f"the patch would leave skill {name!r} empty", hint="retire it instead")
        meta = dict(skill.metadata)
        meta["patchCount"] = str(skill.patch_count + 1)
        meta["updatedAt"] = clock.iso()
        after = render_skill(skill.name, skill.description, meta, body, skill.extra)
        return [FileChange(path=skill.path, before=text, before_hash=skill.content_hash, after=after,
                           kind="skill", target=name, op="patch")]

    def plan_retire(self, name: str, *, reason: str = "") -> builtins.list[FileChange]:
        path = self.path_of(name)
        text, digest = read_text(path)
        if text is None:
            self.get(name)
        return [FileChange(path=path, before=text, before_hash=digest, after=None, kind="skill",
                           target=name, op="retire", archive_to=archive_path(path, "skill", name),
                           note=reason)]

    def plan_restore(self, name: str) -> builtins.list[FileChange]:
        path = self.path_of(name)
        if path.parent.exists():
            raise UserError(f"skill {name!r} is active already; restoring would clobber it",
                            hint=f"retire it first, or see `slowloop skills show {name}`")
        latest = self._latest_archived(name)
        if latest is None:
            raise UserError(f"no archived skill named {name!r} for agent {self.agent!r}",
                            hint="see `slowloop skills list --retired`")
        text, _ = read_text(latest)
        return [FileChange(path=path, before=None, before_hash=None, after=text, kind="skill",
                           target=name, op="restore", note=f"from {latest}")]

    def plan_merge(self, names: builtins.list[str], into_name: str, description: str,
                   body: str) -> builtins.list[FileChange]:
        """Fold ``names`` into ``into_name`` (new, or one of them, rewritten) and retire the rest."""
        if len(set(names)) < 2:
            raise UserError("a merge needs at least two distinct skills")
        for n in names:
            self.get(n)
        changes: list[FileChange] = []
        if into_name in names:
            skill, text = self._fresh(into_name)
            meta = dict(skill.metadata)
            meta["patchCount"] = str(skill.patch_count + 1)
            meta["updatedAt"] = clock.iso()
            after = render_skill(into_name, description, meta, body, skill.extra)
            changes.append(FileChange(path=skill.path, before=text, before_hash=skill.content_hash,
                                      after=after, kind="skill", target=into_name, op="merge",
                                      note="merged " + ", ".join(n for n in names if n != into_name)))
        else:
            created, _ = self.plan_create(into_name, description, body, evict=False)
            changes.append(replace(created[0], op="merge", note="merged " + ", ".join(names)))
        for n in names:
            if n != into_name:
                changes.append(replace(self.plan_retire(n)[0], op="merge",
                                       note=f"merged into {into_name}"))
        return changes

    # -- operations (plan + apply under the agent's skill lock) --------------------------------
    def create(self, name: str, description: str, body: str, *, title: str | None = None,
               actor: str = "person", reflection_id: int | None = None) -> CreateResult:
        with self._lock():
            changes, evicted = self.plan_create(name, description, body, title=title)
            self._apply(changes, actor=actor, reflection_id=reflection_id)
        return CreateResult(self.get(name), evicted)

    def patch(self, name: str, old: str, new: str, *, actor: str = "person",
              reflection_id: int | None = None) -> Skill:
        with self._lock():
            self._apply(self.plan_patch(name, old, new), actor=actor, reflection_id=reflection_id)
        return self.get(name)

    def retire(self, name: str, *, reason: str = "", actor: str = "person",
               reflection_id: int | None = None) -> None:
        with self._lock():
            self._apply(self.plan_retire(name, reason=reason), actor=actor,
                        reflection_id=reflection_id)

    def restore(self, name: str, *, actor: str = "person") -> Skill:
        with self._lock():
            self._apply(self.plan_restore(name), actor=actor)
        return self.get(name)

    def merge(self, names: builtins.list[str], into_name: str, description: str, body: str, *,
              actor: str = "person", reflection_id: int | None = None) -> Skill:
        with self._lock():
            self._apply(self.plan_merge(names, into_name, description, body), actor=actor,
                        reflection_id=reflection_id)
        return self.get(into_name)
