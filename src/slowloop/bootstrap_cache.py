"""The bootstrap as last built, kept beside the home (``cache/bootstrap``): a session start reads
it in milliseconds, and every place that must carry a new lesson (the hooks, AGENTS.md blocks)
rebuilds it when what it depends on changed."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

CACHE_TTL = 3600.0


def _stat_key(path: Path) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}"


def _folder_stats(folder: Path, label: str) -> list[str]:
    """Every Markdown file directly in ``folder``: a file the bootstrap comes to read is part of the
    key without anyone listing it here."""
    try:
        return [f"{label}:{e.name}={_stat_key(Path(e.path))}"
                for e in sorted(os.scandir(folder), key=lambda e: e.name) if e.name.endswith(".md")]
    except (FileNotFoundError, NotADirectoryError):
        return [f"no-{label}"]


def _project_stats(project: Path) -> list[str]:
    parts = [f"project={project}"]
    parts.extend(_folder_stats(project / "memory", "project-memory"))
    try:
        for e in sorted(os.scandir(project / "contexts"), key=lambda e: e.name):
            parts.append(f"ctx:{e.name}={_stat_key(Path(e.path) / 'CONTEXT.md')}")
    except (FileNotFoundError, NotADirectoryError):
        parts.append("no-contexts")
    return parts


def bootstrap_fingerprint(home: Path, agent: str, store, project: Path | None = None,
                          host_lists_skills: bool = False) -> str:
    """What the bootstrap text depends on, cheaply: file stats and the ledger's last invocation."""
    from .paths import layout

    files = layout(agent, home)
    parts = [_stat_key(home / "config.toml"), _stat_key(files.memo), f"host={host_lists_skills}"]
    if project is not None:
        parts.extend(_project_stats(project))
    try:
        for e in sorted(os.scandir(files.skills), key=lambda e: e.name):
            parts.append(f"{e.name}={_stat_key(Path(e.path) / 'SKILL.md')}")
    except FileNotFoundError:
        parts.append("no-skills")
    parts.extend(_folder_stats(files.memory, "memory"))
    parts.extend(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("SLOWLOOP_BOOTSTRAP__")
                 or k.startswith("SLOWLOOP_MEMO__"))
    agent_id = store.agent_id(agent, create=False)
    if agent_id is not None:
        from .store import ledger, rules

        parts.append(f"inv={ledger.last_invocation_id(store, agent_id)}")
        parts.append(f"escalated={rules.escalation_mark(store, agent_id)}")  # the top of the bootstrap
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


def _cache_path(home: Path, agent: str, project: Path | None = None, host_lists_skills: bool = False) -> Path:
    variant = ""
    if project is not None or host_lists_skills:
        variant = "-" + hashlib.sha256(f"{project}\0{host_lists_skills}".encode()).hexdigest()[:12]
    return home / "cache" / "bootstrap" / f"{agent}{variant}.json"


def cached_bootstrap(home: Path, agent: str, store, *, rebuild: bool = False, project: Path | None = None,
                     host_lists_skills: bool = False) -> tuple[str, list[str]]:
    """The bootstrap text and the skills it shows, from the cache when nothing changed."""
    key = bootstrap_fingerprint(home, agent, store, project, host_lists_skills)
    path = _cache_path(home, agent, project, host_lists_skills)
    if not rebuild:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if (data.get("key") == key and time.time() - float(data.get("built_at", 0)) < CACHE_TTL
                    and isinstance(data.get("text"), str)):
                return data["text"], [str(s) for s in data.get("skills_shown", [])]
        except (OSError, ValueError, TypeError):
            pass
    from .bootstrap import build_bootstrap
    from .fsutil import atomic_write

    b = build_bootstrap(agent, home=home, store=store, record_impressions=False, project=project,
                        skills_listed_by_host=host_lists_skills)
    atomic_write(path, json.dumps({"key": key, "built_at": time.time(), "text": b.text,
                                   "skills_shown": b.skills_shown}))
    return b.text, list(b.skills_shown)


def _last_built(home: Path, agent: str, project: Path | None, host_lists_skills: bool) -> str:
    """The bootstrap text cached last, however old (the fallback when the ledger is out of reach)."""
    try:
        data = json.loads(_cache_path(home, agent, project, host_lists_skills).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    text = data.get("text") if isinstance(data, dict) else None
    return text if isinstance(text, str) else ""
