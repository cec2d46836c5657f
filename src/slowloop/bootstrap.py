"""The session bootstrap: what an agent reads at the start of its next conversation.

In this order, each part under its own budget so the whole stays small by construction:

1. **the rules broken after they were learned**, when there are any (``rules.escalated_section``:
   at most five, each restated with its trigger and the action that broke it), first, where the
   agent weighs them most;
2. **where we are**: the operational memory — the project's own (``<project>/memory``, when the
   project keeps one) and the agent's — each ``slowloop.memory.memory_bootstrap`` within
   ``bootstrap.memory_tokens``: the last session's entry, the open debts, today's state, then the
   earlier entries and the past summary (it trims itself, oldest first); and one line on how the
   agent records a decision, a debt or a state line (the CLI command, or the MCP tool);
3. **the self-understanding memo** (both sections, each cut to its character cap — a memo a person
   overfilled by hand is cut from the end of the section, `slowloop doctor` says so);
4. **the skill index**: ``- name: description`` lines under ``bootstrap.index_tokens``. With a task,
   skills are ranked by lexical relevance to it (stemmed terms shared with the name and the
   description, the name counting double), then by use; without one, by use and recency (ledger
   invocations and last use, then the file's ``updatedAt``). Descriptions longer than 240 characters
   are shortened in the index; when the budget runs out the lowest-ranked skills are dropped first
   and a line says how many were left out;
5. **how to read a skill** (``slowloop skills read NAME`` or the ``SKILL.md`` path);
6. **the named context**, when one is given, within ``bootstrap.context_tokens`` (cut from its end);
7. **the project's contexts**, when ``project`` is a folder with them (``slowloop ctx new --dir``):
   an index (name, what it is for, how to load it) and the named one.

When the host lists the learned skills itself (Claude Code and Codex load the linked skill folders
and show each one's description), ``skills_listed_by_host`` replaces the index with one line, so
the same skills are not listed twice; every skill the host lists counts as shown.

Building it records one impression per skill shown, in one transaction. The hot path does not
parse YAML: skill files are parsed once per (path, inode, mtime, size).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import clock
from .config import Config, load_config
from .errors import DataError, UserError
from .memo import HEADINGS, SECTIONS, Memo, MemoContent, memo_cap, parse_memo
from .memory import Memory, context_text, memory_bootstrap
from .paths import home as _home
from .rules import escalated_section
from .skills.format import Skill
from .skills.library import SkillLibrary
from .store import Store, artifacts, ledger, open_store
from .text import terms
from .tokens import estimate_tokens

INDEX_DESCRIPTION_CHARS = 240


@dataclass(frozen=True)
class Bootstrap:
    text: str
    skills_shown: list[str]
    tokens: int


# The memo is capped when rendered; a memo file far past any cap (pasted logs, a runaway script) is
# read only this far, so the session start stays fast whatever is in it. doctor warns about it.
MEMO_READ_BYTES = 256 * 1024


def _within(entries: list[str], cap: int) -> list[str]:
    """The first entries whose rendered bullets fit in ``cap`` (what ``section_chars`` counts)."""
    used = -1
    for i, e in enumerate(entries):
        used += len(e) + 3  # "- " + entry + "\n"
        if used > cap:
            return entries[:i]
    return entries


def _read_memo(memo: Memo) -> MemoContent:
    try:
        size = memo.path.stat().st_size
    except OSError:
        size = 0
    if size <= MEMO_READ_BYTES:
        return memo.content()[0]
    with open(memo.path, "rb") as fh:
        head = fh.read(MEMO_READ_BYTES).decode("utf-8", errors="replace")
    return parse_memo(head[:head.rfind("\n") + 1], str(memo.path))


def _memo_text(memo: Memo, config: Config) -> str:
    try:
        content = _read_memo(memo)
    except DataError:
        return ""  # a hand-broken memo is reported by doctor; the session starts without it
    parts = []
    for s in SECTIONS:
        entries = list(content.entries[s])
        cap = memo_cap(config, s)
        entries = _within(entries, cap)
        if entries:
            parts.append(f"## {HEADINGS[s]}\n" + "\n".join(f"- {e}" for e in entries))
    if not parts:
        return ""
    return "# What I know about how I work\n\n" + "\n\n".join(parts)


def _usage(store: Store, agent: str) -> dict[str, tuple[int, float | None]]:
    agent_id = store.agent_id(agent, create=False)
    if agent_id is None:
        return {}
    return {skill: (n, clock.parse_iso(last))
            for skill, (n, last) in artifacts.skill_usage(store, agent_id).items()}


def _recency(ts: float | None, now: float) -> float:
    if ts is None:
        return 0.0
    return 1.0 / (1.0 + max(now - ts, 0.0) / (7 * 86400))


def rank_skills(skills: list[Skill], usage: dict[str, tuple[int, float | None]],
                task: str | None, now: float) -> list[Skill]:
    """Most useful first: relevance to ``task`` (when given), then use and recency."""
    task_terms = terms(task) if task else frozenset()

    def use_score(s: Skill) -> float:
        n, last = usage.get(s.name, (0, None))
        file_last = _parse_iso(s.metadata.get("lastUsedAt"))
        if file_last is not None and (last is None or file_last > last):
            last = file_last
        if last is None and n == 0:
            return 0.5 * _recency(_parse_iso(s.metadata.get("updatedAt")), now)
        return math.log1p(n) + 2.0 * _recency(last, now)

    def relevance(s: Skill) -> float:
        if not task_terms:
            return 0.0
        name_t = terms(s.name.replace("-", " "))
        desc_t = terms(s.description)
        shared = 2 * len(task_terms & name_t) + len(task_terms & (desc_t - name_t))
        return shared / math.sqrt(len(name_t | desc_t) or 1)

    return sorted(skills, key=lambda s: (-relevance(s), -use_score(s), s.name))


@lru_cache(maxsize=4096)
def _index_line(name: str, description: str) -> tuple[str, int]:
    """The index line of a skill and its token cost (cached: the hot path runs it 200 times)."""
    desc = description
    if len(desc) > INDEX_DESCRIPTION_CHARS:
        desc = desc[: INDEX_DESCRIPTION_CHARS - 1].rstrip() + "…"
    line = f"- {name}: {desc}"
    return line, estimate_tokens(line) + 1


_parse_iso = lru_cache(maxsize=8192)(clock.parse_iso)


def _memory_or_why(mem: Memory, budget: int) -> str:
    """The memory for the session; a file refused (a link, a pipe, too big) withholds the memory and
    says which file, so the person sees why, and nothing it points at enters the context."""
    try:
        return memory_bootstrap(mem, budget)
    except DataError as exc:
        return (f"# Operational memory · {mem.root}\n\n(not read: {exc.path or mem.root} — "
                f"{exc.message.split(': ', 1)[-1]})")


def project_memory_part(project: Path, config: Config) -> str:
    """The project's memory root, when the project keeps one ("" otherwise)."""
    mem = Memory.for_dir(Path(project), config=config)
    if not (mem.root / "system-state.md").is_file():
        return ""
    text = _memory_or_why(mem, config.bootstrap.memory_tokens).strip()
    return f"# Project memory ({mem.root})\n\n{text}" if text else ""


def how_to_keep(flags: str = "") -> str:
    """The line that tells the agent how to add to the memory itself (each session's entry and
    its debts are written by slowloop)."""
    return ("Add to this memory: a decision `slowloop memory note \"…\"`, a debt `slowloop memory debt "
            "add \"…\"`, a state line `slowloop memory state set \"SECTION\" \"…\"`"
            + (f" (each with {flags})" if flags else "")
            + "; or slowloop's MCP tools append_memory, add_debt, set_state.")


def project_parts(project: Path, config: Config, context: str | None = None) -> list[str]:
    """The project's context index and named context, when the project folder has them."""
    from .memory.contexts import Contexts

    project = Path(project)
    parts: list[str] = []
    try:
        ctxs = Contexts.for_dir(project).list()
    except (DataError, OSError):
        ctxs = []  # a broken CONTEXT.md is reported by `slowloop ctx list --dir`
    if ctxs:
        lines = [f"- {c.name}: {c.description}" for c in ctxs]
        parts.append("# Contexts of this project\n\nLoad the one that fits the task: "
                     f"`slowloop ctx show NAME --dir {project}`.\n" + "\n".join(lines))
    if context:
        try:
            ctx = context_text(context, config.bootstrap.context_tokens, directory=project)
        except Exception:  # noqa: BLE001 — the agent's own contexts were tried by the caller
            ctx = ""
        if ctx.strip():
            parts.append(ctx.strip())
    return parts


def memory_parts(agent: str, home: Path, config: Config, project: Path | None) -> list[str]:
    """Where we are, first in the bootstrap: the project's memory (when it keeps one) and the
    agent's, then how the agent adds to them."""
    parts = [project_memory_part(project, config)] if project is not None else []
    mem_text = _memory_or_why(Memory.for_agent(agent, home=home, config=config),
                              config.bootstrap.memory_tokens)
    parts.append(mem_text.strip())
    parts = [p for p in parts if p]
    if parts:
        in_project = project is not None and bool(parts[0].startswith("# Project memory"))
        parts.append(how_to_keep("" if in_project or agent == "default" else f"--agent {agent}"))
    return parts


def build_bootstrap(agent: str = "default", *, task: str | None = None, home: Path | None = None,
                    record_impressions: bool = True, context: str | None = None,
                    config: Config | None = None, store: Store | None = None,
                    project: Path | None = None, skills_listed_by_host: bool = False) -> Bootstrap:
    """The bootstrap text for ``agent`` (see the module docstring for order and budgets)."""
    home = Path(home) if home is not None else _home()
    config = config or load_config(home)
    store = store or open_store(home=home)
    lib = SkillLibrary(agent, home=home, store=store, config=config)
    now = clock.now()
    memo = _memo_text(Memo(agent, home=home, config=config, store=store), config)
    skills, _broken = lib.scan()  # broken files are skipped here; doctor reports them
    # a rule broken after it was learned comes first (a few lines, only when there is one), then
    # where we are
    escalated = escalated_section(store, agent, [memo, *(s.body for s in skills)])
    parts: list[str] = ([escalated] if escalated else []) + memory_parts(agent, home, config, project)
    if memo:
        parts.append(memo)

    shown: list[str] = []
    if skills and skills_listed_by_host:
        shown = sorted(s.name for s in skills)
        names = ", ".join(shown[:40]) + (f" and {len(shown) - 40} more" if len(shown) > 40 else "")
        parts.append("# Skills\n\nThe skills I wrote for myself are in your skill list (their "
                     f"descriptions say when each applies): {names}. Read the one that fits before "
                     "you start.")
    elif skills:
        budget = config.bootstrap.index_tokens
        ranked = rank_skills(skills, _usage(store, agent), task, now)
        header = "# Skills\n\nSkills I have written for myself, most relevant first:"
        read_how = ("To use a skill, read it before you start the task it fits: run "
                    "`slowloop skills read NAME" + (f" --agent {agent}" if agent != "default" else "")
                    + f"` (or open {lib.skills_dir}{os.sep}NAME{os.sep}SKILL.md).")
        used = estimate_tokens(header) + estimate_tokens(read_how) + 20  # 20: the "more" line
        lines: list[str] = []
        for s in ranked:
            line, cost = _index_line(s.name, s.description)
            if used + cost > budget:
                break
            used += cost
            lines.append(line)
            shown.append(s.name)
        section = header + "\n" + "\n".join(lines)
        if len(shown) < len(ranked):
            section += (f"\n({len(ranked) - len(shown)} more skill(s) not listed here: "
                        "`slowloop skills list`)")
        parts.append(section + "\n\n" + read_how)

    project_context = None
    if context:
        try:
            ctx = context_text(context, config.bootstrap.context_tokens, agent=agent, home=home)
        except UserError:
            if project is None:
                raise
            ctx, project_context = "", context  # not the agent's: the project's, below
        if ctx.strip():
            parts.append(ctx.strip())
    if project is not None:
        parts.extend(project_parts(project, config, project_context))

    if shown and record_impressions:
        agent_id = store.agent_id(agent)
        at = clock.iso()
        bootstrap_id = f"{clock.iso(now, micro=True)}-{os.getpid()}"
        ledger.record_impressions(store, agent_id, shown, at=at, bootstrap_id=bootstrap_id)
    text = "\n\n".join(parts).rstrip() + "\n" if parts else ""
    return Bootstrap(text=text, skills_shown=shown, tokens=estimate_tokens(text))
