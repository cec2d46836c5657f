"""Share what an agent learned across machines and a team: its folder is a git working tree.

``<home>/agents/<agent>/`` (skills, memo, memory, contexts, the archive of retired skills) becomes a
git repository with a remote the person owns. slowloop drives the ``git`` program the person
already has — it carries their credentials, SSH keys and config — and invents no sync protocol:

- ``init``: ``git init`` the folder (or adopt it), ``.gitignore`` what is this machine's alone
  (the search index, locks, caches; with ``private`` also the folders the person keeps to
  themselves), the merge drivers below in ``.git/config`` and ``.gitattributes``, the remote,
  one first commit, then a first ``sync``.
- ``commit``: one commit per reflection (``R12: create_skill use-httpx …`` with the history ids)
  or per batch of a person's edits (``edited by hand: memo.md``) — each says what and why.
- ``sync``: commit → fetch → screened merge → secret scan → push (a push that lost a race fetches
  and merges again).
- **Nothing comes in unscreened** (``incoming``, ``screen``): what the remote changed is judged file
  by file — the learned Markdown only, regular files, size caps, never ``.gitignore`` or
  ``.gitattributes``, no database or binary, the danger gate and the secret scan on each file as it
  will be after the merge — before the folder the agent reads moves; a refused file is quarantined
  (``quarantine``) with who wrote it, for ``slowloop sync show/accept/drop``.
- **Merging what two machines learned** never loses either side. The memo and the memory files
  merge by lines within their ``##`` sections: each side's new lines are kept, a line one side
  removed is removed, the same line learned on both is kept once. A skill body changed on both
  sides is merged by git's line merge when it can be; a real conflict keeps this machine's body
  and the other's in a marked block (``<!-- slowloop:conflict … -->``) that the next reflection or
  the person settles — ``slowloop status``/``doctor`` list such skills until then.
- **Nothing secret or dangerous leaves** (``outgoing``): every changed file passes the same screening
  before it is committed; one that fails stays out of the commit (and of the remote) and is reported
  with its line; and every file version a push would send is read for secrets first.

After each applied reflection the cycle calls ``after_reflection``: when the agent's folder has a
remote, it commits and syncs (failures are reported in the outcome, never fatal: the lesson is
already on this machine).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from ..errors import SlowloopError, UserError
from . import quarantine
from .git import SyncError, branch, git, remote_url
from .incoming import accept, drop, merge_incoming
from .merge import CONFLICT_BEGIN, CONFLICT_END, merge_driver, merge_lines, merge_skill, merged_text
from .outgoing import changed, commit, push_refusals
from .result import SyncResult

__all__ = ["CONFLICT_BEGIN", "CONFLICT_END", "SyncError", "SyncResult", "accept", "after_reflection", "changed",
           "commit", "conflicted_skills", "describe_held", "drop", "held", "init", "is_synced", "merge_driver", "merge_lines",
           "merge_skill", "merged_text", "remote_url", "sync", "sync_repo"]

IGNORED = ["recall.db", "recall.db-*", "*.lock", ".memory.lock", ".archive-staging/", "cache/",
           "*.tmp", ".*.tmp"]
ATTRIBUTES = ["memo.md merge=slowloop", "memory/*.md merge=slowloop", "memory/**/*.md merge=slowloop",
              "skills/*/SKILL.md merge=slowloop", "contexts/*/CONTEXT.md merge=slowloop"]
PRIVATE_CHOICES = ("memory", "contexts", "archive")


def _folder(agent: str, home: Path | None) -> Path:
    from ..paths import agent_dir

    return agent_dir(agent, home)


def is_synced(agent: str, home: Path | None = None) -> bool:
    d = _folder(agent, home)
    return (d / ".git").is_dir() and bool(remote_url(d))


# -- init -------------------------------------------------------------------------------------------

def init(agent: str, remote: str, *, home: Path | None = None, private: tuple[str, ...] = ()) -> SyncResult:
    """Make the agent's folder a working tree of ``remote`` and sync it once."""
    from ..paths import validate_agent_name

    validate_agent_name(agent)
    bad = [p for p in private if p not in PRIVATE_CHOICES]
    if bad:
        raise UserError(f"cannot keep {bad[0]!r} private", hint=f"choose among {', '.join(PRIVATE_CHOICES)}")
    repo = _folder(agent, home)
    repo.mkdir(parents=True, exist_ok=True)
    if not (repo / ".git").is_dir():
        git(repo, "init", "-q", "-b", "main")
    _write_lines(repo / ".gitignore", IGNORED + [f"{p}/" for p in private])
    _write_lines(repo / ".gitattributes", ATTRIBUTES)
    install_driver(repo)
    guard(repo)
    if remote_url(repo) is None:
        git(repo, "remote", "add", "origin", remote)
    elif remote_url(repo) != remote:
        git(repo, "remote", "set-url", "origin", remote)
    result = SyncResult(agent, str(repo))
    commit(repo, "slowloop: start sharing this agent", result)
    return sync_repo(repo, result)


def _write_lines(path: Path, lines: list[str]) -> None:
    have = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    missing = [x for x in lines if x not in have]
    if missing:
        with open(path, "a", encoding="utf-8") as f:
            if have and not path.read_text(encoding="utf-8").endswith("\n"):
                f.write("\n")
            f.write("".join(x + "\n" for x in missing))


def install_driver(repo: Path) -> None:
    """The merge driver lives in this clone's .git/config (not shared: it names this machine's
    Python); .gitattributes, which is shared, only names it."""
    cmd = f"{_sh(sys.executable)} -m slowloop.sync merge-driver %O %A %B %P"
    git(repo, "config", "merge.slowloop.name", "slowloop: keep what both sides learned")
    git(repo, "config", "merge.slowloop.driver", cmd)


def guard(repo: Path) -> None:
    """This machine's own ignore and attribute rules, in ``.git/info/`` where no remote reaches:
    even a ``git merge`` run by hand that took a remote's ``.gitignore`` or ``.gitattributes``
    keeps the search index ignored and the merge drivers named."""
    info = repo / ".git" / "info"
    info.mkdir(exist_ok=True)
    _write_lines(info / "exclude", IGNORED)
    _write_lines(info / "attributes", ATTRIBUTES)


def _sh(s: str) -> str:
    return s if re.fullmatch(r"[\w./+-]+", s) else "'" + s.replace("'", "'\\''") + "'"


# -- commit and sync ------------------------------------------------------------------------------

def describe_changes(agent: str, home: Path | None, reflection_id: int | None = None) -> tuple[str, str]:
    """A commit subject and body from the ledger: the reflection's summary and history ids."""
    from ..store import ledger, open_store

    with open_store(home=home) as store:
        row = store.agent(agent)
        if row is None or reflection_id is None:
            return "edited by hand", ""
        summary = ledger.reflection_summary(store, reflection_id) or "reflection"
        ids = [str(i) for i in ledger.change_ids(store, reflection_id)]
    return (f"R{reflection_id}: {summary}"[:200],
            f"slowloop reflection R{reflection_id}; history changes {', '.join(ids) or '-'}"
            f" (`slowloop history`, `slowloop history undo R{reflection_id}`)")


# -- sync -------------------------------------------------------------------------------------------

def sync(agent: str, *, home: Path | None = None, reflection_id: int | None = None) -> SyncResult:
    """Commit what changed here, merge what the remote has (screened), push the result."""
    repo = _folder(agent, home)
    if not (repo / ".git").is_dir():
        raise UserError(f"agent {agent!r} is not shared yet ({repo} is not a git folder)",
                        hint=f"start with `slowloop sync init --agent {agent} --remote URL`")
    result = SyncResult(agent, str(repo))
    install_driver(repo)  # this machine's Python may have moved (a new virtualenv)
    guard(repo)
    subject, body = describe_changes(agent, home, reflection_id)
    if subject == "edited by hand":
        edited = [c for c in changed(repo) if not c.startswith(".git")]
        subject = "edited by hand: " + ", ".join(sorted(edited)[:4]) + (" …" if len(edited) > 4 else "")
    commit(repo, subject, result, body)
    return sync_repo(repo, result)


def sync_repo(repo: Path, result: SyncResult, attempts: int = 3) -> SyncResult:
    """Fetch, merge what came in through the screening, scan what would leave, push."""
    if remote_url(repo) is None:
        result.notes.append("no remote: committed here only")
        return result
    name = branch(repo)
    for _ in range(attempts):
        fetched = git(repo, "fetch", "-q", "origin", check=False)
        if fetched.returncode != 0:
            raise SyncError(f"cannot reach the remote {remote_url(repo)}: "
                            f"{(fetched.stderr or '').strip()[-400:]}",
                            hint="check the URL, your network and your git credentials; "
                                 "what was learned is committed here and goes out at the next sync")
        merge_incoming(repo, result, f"origin/{name}")
        refused = push_refusals(repo)
        if refused:
            result.held_back.extend(refused)
            break
        pushed = git(repo, "push", "-q", "origin", f"HEAD:{name}", check=False)
        if pushed.returncode == 0:
            result.pushed = True
            break
        if "rejected" not in pushed.stderr and "fetch first" not in pushed.stderr \
                and "non-fast-forward" not in pushed.stderr:
            raise SyncError(f"git push failed: {pushed.stderr.strip()[-400:]}",
                            hint="check your write access to the remote")
    result.conflicts = conflicted_skills(repo)
    return result


def describe_held(repo: Path, ident: int) -> dict:
    return quarantine.describe(repo, ident)


def held(agent: str, home: Path | None = None) -> list[dict]:
    """The incoming changes waiting in the quarantine for the person, with who wrote them."""
    return [h.to_dict() for h in quarantine.held(_folder(agent, home))]


def conflicted_skills(repo: Path) -> list[str]:
    out = []
    for p in sorted((repo / "skills").glob("*/SKILL.md")):
        if not p.is_file():  # a folder where the file should be: doctor's skills check says so
            continue
        try:
            if CONFLICT_BEGIN in p.read_text(encoding="utf-8", errors="replace"):
                out.append(p.parent.name)
        except OSError:
            continue
    return out


def after_reflection(agent: str, home: Path | None, reflection_id: int) -> str | None:
    """Commit and sync a shared agent after a reflection; one line saying what happened, or None
    when the agent is not shared. Never raises."""
    try:
        if not is_synced(agent, home):
            return None
        r = sync(agent, home=home, reflection_id=reflection_id)
        line = (f"synced with {remote_url(Path(r.path))}: {len(r.committed)} commit(s), "
                f"{r.pulled} merged in, {'pushed' if r.pushed else 'not pushed'}")
        if r.held_back:
            line += "; held back: " + "; ".join(r.held_back)
        if r.quarantined:
            line += (f"; {len(r.quarantined)} incoming change(s) not merged, quarantined "
                     f"(`slowloop sync status --agent {agent}`): "
                     + "; ".join(f"{q['reason']} (from {q['by']})" for q in r.quarantined))
        return line
    except SlowloopError as exc:
        return f"sync failed (the lesson is kept here; next sync retries): {exc.message}"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"sync failed (the lesson is kept here; next sync retries): {exc}"


