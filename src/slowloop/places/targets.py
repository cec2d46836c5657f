"""Every place an agent's bootstrap lives, and bringing them all up to date at once.

``slowloop hooks install`` records each install here (``<home>/integrations.json``): the harness,
the scope, the agent, the settings file holding the hooks, the folder its skills are linked into,
the ``AGENTS.md`` whose block carries the bootstrap, and the project. The hooks record themselves
too when they run (an install made by an older slowloop becomes known at its first hook).

After a reflection changed an agent's skills or memo, ``refresh(home, agent)`` rebuilds the cached
bootstrap the SessionStart hook serves, rewrites each ``AGENTS.md`` block and re-links the skills,
so the **very next** session carries the lesson — not the one after the next Stop hook.

Standard library only at import time (the hooks read it on their fast path).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import home_lock, layout

if TYPE_CHECKING:
    from ..store import Store

FILE = "integrations.json"
KEYS = ("harness", "scope", "agent", "settings", "skills_dir", "agents_md", "project")


def _path(home: Path) -> Path:
    return Path(home) / FILE


def load(home: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(_path(home).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    items = data.get("targets") if isinstance(data, dict) else None
    return [t for t in items or [] if isinstance(t, dict) and t.get("agent") and t.get("harness")]


def _key(t: dict[str, Any]) -> tuple:
    return (t.get("harness"), t.get("scope"), t.get("settings"), t.get("agent"))


def _write(home: Path, targets: list[dict[str, Any]]) -> None:
    from ..fsutil import atomic_write

    atomic_write(_path(home), json.dumps({"targets": targets}, indent=2, ensure_ascii=False) + "\n")


def _locked(home: Path):
    from ..fsutil import file_lock

    return file_lock(home_lock("integrations.lock", Path(home)), timeout=10)


def register(home: Path, target: dict[str, Any]) -> bool:
    """Record one install (replacing an older record of the same hooks file and agent)."""
    t = {k: (str(target[k]) if target.get(k) is not None else None) for k in KEYS}
    with _locked(home):
        items = load(home)
        if t in items:
            return False
        items = [x for x in items if _key(x) != _key(t)] + [t]
        _write(home, items)
    return True


def unregister(home: Path, *, harness: str, settings: str, project: str | Path | None = None) -> int:
    """Forget the installs of ``harness`` in ``settings`` for ``project`` (and what their hooks
    recorded of themselves, which carries no settings path)."""
    proj = str(project) if project is not None else None

    def gone(x: dict[str, Any]) -> bool:
        return (x.get("harness") == harness and x.get("project") == proj
                and x.get("settings") in (settings, None))

    with _locked(home):
        items = load(home)
        kept = [x for x in items if not gone(x)]
        if len(kept) != len(items):
            _write(home, kept)
    return len(items) - len(kept)


def known(home: Path, target: dict[str, Any]) -> bool:
    t = {k: (str(target[k]) if target.get(k) is not None else None) for k in KEYS}
    return t in load(home)


def known_like(home: Path, target: dict[str, Any]) -> bool:
    """Whether an install with the same harness, agent and places is recorded, whatever its
    settings file (a hook does not know which file it was installed in)."""
    t = {k: (str(target[k]) if target.get(k) is not None else None) for k in KEYS if k != "settings"}
    return any({k: x.get(k) for k in t} == t for x in load(home))


def for_agent(home: Path, agent: str) -> list[dict[str, Any]]:
    return [t for t in load(home) if t.get("agent") == agent]


def project_install_covering(home: Path, harness: str, cwd: str | None) -> dict[str, Any] | None:
    """The project-scoped install of ``harness`` whose project holds ``cwd`` (deepest first)."""
    if not cwd:
        return None
    best: dict[str, Any] | None = None
    for t in load(home):
        proj = t.get("project")
        if t.get("harness") != harness or t.get("scope") != "project" or not proj:
            continue
        if cwd == proj or cwd.startswith(proj.rstrip(os.sep) + os.sep):
            if best is None or len(proj) > len(best.get("project") or ""):
                best = t
    return best


def install_around(home: Path, cwd: Path | None = None) -> dict[str, Any] | None:
    """The project install (``hooks install --project``) around ``cwd``, of either harness."""
    where = os.path.realpath(cwd or Path.cwd())
    for harness in ("claude-code", "codex"):
        t = project_install_covering(home, harness, where)
        if t is not None:
            return t
    return None


def project_around(home: Path, cwd: Path | None = None) -> Path | None:
    """The project installed (``hooks install --project``) around ``cwd`` — where ``prompt``,
    ``search``, ``slowloop mcp`` and ``slowloop memory`` find a project's own memory and contexts
    by default."""
    t = install_around(home, cwd)
    return Path(t["project"]) if t is not None else None


def refresh(home: Path, agent: str, store: Store | None = None) -> list[str]:
    """Bring every known place of ``agent``'s bootstrap up to date now; what was done, one line
    each. Never raises for one place: a place that fails is reported and the others go on.
    ``store``: the ledger already open (a connection to a server costs a round trip or more)."""
    from ..bootstrap_cache import cached_bootstrap
    from ..store import open_store

    done: list[str] = []
    targets = for_agent(home, agent)
    with contextlib.nullcontext(store) if store is not None else open_store(home=home) as store:
        # one text per (project, whether the host lists the linked skills itself)
        variants = sorted({(t.get("project") or "", bool(t.get("skills_dir"))) for t in targets}
                          | {("", False)})
        texts: dict[tuple[str, bool], str] = {}
        for proj, listed in variants:
            try:
                texts[(proj, listed)] = cached_bootstrap(home, agent, store, rebuild=True,
                                                         project=Path(proj) if proj else None,
                                                         host_lists_skills=listed)[0]
            except Exception as exc:  # noqa: BLE001 — one broken place must not stop the others
                done.append(f"bootstrap cache{' for ' + proj if proj else ''}: FAILED: {exc}")
        done.append(f"bootstrap cache rebuilt ({len(texts)} variant(s))")

    source = layout(agent, Path(home)).skills
    for t in targets:
        md = t.get("agents_md")
        if md:
            try:
                from .agents_md import write_block

                key = (t.get("project") or "", bool(t.get("skills_dir")))
                changed = write_block(Path(md), texts.get(key, texts.get(("", False), "")))
                done.append(f"{md}: block {'updated' if changed else 'already current'}")
            except Exception as exc:  # noqa: BLE001
                done.append(f"{md}: FAILED: {exc}")
        sdir = t.get("skills_dir")
        if sdir:
            try:
                from .skills_export import sync

                r = sync(source, Path(sdir))
                done.append(f"{sdir}: {len(r.added)} linked, {len(r.removed)} unlinked")
            except Exception as exc:  # noqa: BLE001
                done.append(f"{sdir}: FAILED: {exc}")
    return done
