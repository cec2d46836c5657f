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
- ``sync``: commit → fetch → merge → push (a push that lost a race fetches and merges again).
- **Merging what two machines learned** never loses either side. The memo and the memory files
  merge by lines within their ``##`` sections: each side's new lines are kept, a line one side
  removed is removed, the same line learned on both is kept once. A skill body changed on both
  sides is merged by git's line merge when it can be; a real conflict keeps this machine's body
  and the other's in a marked block (``<!-- slowloop:conflict … -->``) that the next reflection or
  the person settles — ``slowloop status``/``doctor`` list such skills until then.
- **Nothing secret or dangerous leaves**: every changed file is read through the same secret and
  danger checks as anything the agent reads before it is committed; one that fails stays out of
  the commit (and of the remote) and is reported with its line.

After each applied reflection the cycle calls ``after_reflection``: when the agent's folder has a
remote, it commits and syncs (failures are reported in the outcome, never fatal: the lesson is
already on this machine).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SlowloopError, UserError

CONFLICT_BEGIN = "<!-- slowloop:conflict"
CONFLICT_END = "<!-- slowloop:end-conflict -->"
IGNORED = ["recall.db", "recall.db-*", "*.lock", ".memory.lock", ".archive-staging/", "cache/",
           "*.tmp", ".*.tmp"]
ATTRIBUTES = ["memo.md merge=slowloop", "memory/*.md merge=slowloop", "memory/**/*.md merge=slowloop",
              "skills/*/SKILL.md merge=slowloop", "contexts/*/CONTEXT.md merge=slowloop"]
PRIVATE_CHOICES = ("memory", "contexts", "archive")


class SyncError(SlowloopError):
    exit_code = 1


@dataclass
class SyncResult:
    agent: str
    path: str
    committed: list[str] = field(default_factory=list)  # commit subjects made here
    pulled: int = 0  # commits merged in from the remote
    pushed: bool = False
    held_back: list[str] = field(default_factory=list)  # files kept out of the commit, and why
    conflicts: list[str] = field(default_factory=list)  # skills holding a conflict block
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


# -- git ------------------------------------------------------------------------------------------

def git_program() -> str:
    found = shutil.which("git")
    if not found:
        raise UserError("git is not installed (slowloop syncs through the git you use)",
                        hint="install git (e.g. `apt install git`, `brew install git`), then run this again")
    return found


def git(repo: Path, *args: str, check: bool = True, input: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.setdefault("GIT_TERMINAL_PROMPT", "0")  # never hang on a password prompt in the background
    p = subprocess.run([git_program(), "-C", str(repo), *args], capture_output=True, text=True, env=env,
                       input=input, timeout=300)
    if check and p.returncode != 0:
        said = (p.stderr or p.stdout).strip().splitlines()
        raise SyncError(f"git {' '.join(args[:2])} failed in {repo}: {' '.join(said[-3:])[:600]}",
                        hint="run the same git command in that folder to see the whole message")
    return p


def _identity(repo: Path) -> list[str]:
    """Commit as the person (their git config); a machine without one commits as slowloop."""
    name = git(repo, "config", "user.name", check=False).stdout.strip()
    email = git(repo, "config", "user.email", check=False).stdout.strip()
    out = []
    if not name:
        out += ["-c", "user.name=slowloop"]
    if not email:
        out += ["-c", "user.email=slowloop@localhost"]
    return out


def _folder(agent: str, home: Path | None) -> Path:
    from .paths import agent_dir

    return agent_dir(agent, home)


def is_synced(agent: str, home: Path | None = None) -> bool:
    d = _folder(agent, home)
    return (d / ".git").is_dir() and bool(remote_url(d))


def remote_url(repo: Path) -> str | None:
    if not (repo / ".git").is_dir():
        return None
    p = git(repo, "remote", "get-url", "origin", check=False)
    return p.stdout.strip() or None


def _branch(repo: Path) -> str:
    p = git(repo, "symbolic-ref", "--short", "HEAD", check=False)
    return p.stdout.strip() or "main"


# -- init -------------------------------------------------------------------------------------------

def init(agent: str, remote: str, *, home: Path | None = None, private: tuple[str, ...] = ()) -> SyncResult:
    """Make the agent's folder a working tree of ``remote`` and sync it once."""
    from .paths import validate_agent_name

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


def _sh(s: str) -> str:
    return s if re.fullmatch(r"[\w./+-]+", s) else "'" + s.replace("'", "'\\''") + "'"


# -- commit -----------------------------------------------------------------------------------------

def _changed(repo: Path) -> list[str]:
    p = git(repo, "status", "--porcelain", "-z", "--untracked-files=all")
    out = []
    for entry in p.stdout.split("\0"):
        if len(entry) > 3:
            out.append(entry[3:])
    return out


def _screen(repo: Path, rel: str) -> str | None:
    """Why ``rel`` must not leave this machine (a secret, a dangerous instruction), or None."""
    path = repo / rel
    if not path.is_file() or path.suffix.lower() not in (".md", ".txt", ".yaml", ".yml", ".json", ""):
        return None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    from .safety.danger import scan
    from .safety.redact import find_secrets

    secrets = find_secrets(text)
    if secrets:
        from .safety.redact import redact

        line = next((i for i, ln in enumerate(text.splitlines(), 1) if redact(ln).count), 1)
        return f"{rel}:{line}: looks like a secret ({secrets[0]}); kept out of the commit"
    if rel.endswith(".md") and not rel.startswith("archive/"):
        found = scan(text)
        if found:
            return (f"{rel}: a dangerous instruction ({found[0].kind}: {found[0].evidence[:80]}); "
                    "kept out of the commit")
    return None


def commit(repo: Path, subject: str, result: SyncResult, body: str = "") -> bool:
    """Stage every change that passes the checks and commit it; False when nothing to commit."""
    changed = _changed(repo)
    staged = []
    for rel in changed:
        why = _screen(repo, rel)
        if why:
            result.held_back.append(why)
            continue
        staged.append(rel)
    if not staged:
        return False
    git(repo, "add", "-A", "--", *staged)
    if not git(repo, "diff", "--cached", "--name-only").stdout.strip():
        return False
    msg = subject + ("\n\n" + body if body else "")
    git(repo, *_identity(repo), "commit", "-q", "--no-verify", "-m", msg)
    result.committed.append(subject)
    return True


def describe_changes(agent: str, home: Path | None, reflection_id: int | None = None) -> tuple[str, str]:
    """A commit subject and body from the ledger: the reflection's summary and history ids."""
    from .store import ledger, open_store

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
    """Commit what changed here, merge what the remote has, push the result."""
    repo = _folder(agent, home)
    if not (repo / ".git").is_dir():
        raise UserError(f"agent {agent!r} is not shared yet ({repo} is not a git folder)",
                        hint=f"start with `slowloop sync init --agent {agent} --remote URL`")
    result = SyncResult(agent, str(repo))
    install_driver(repo)  # this machine's Python may have moved (a new virtualenv)
    subject, body = describe_changes(agent, home, reflection_id)
    if subject == "edited by hand":
        changed = [c for c in _changed(repo) if not c.startswith(".git")]
        subject = "edited by hand: " + ", ".join(sorted(changed)[:4]) + (" …" if len(changed) > 4 else "")
    commit(repo, subject, result, body)
    return sync_repo(repo, result)


def sync_repo(repo: Path, result: SyncResult, attempts: int = 3) -> SyncResult:
    if remote_url(repo) is None:
        result.notes.append("no remote: committed here only")
        return result
    branch = _branch(repo)
    for _ in range(attempts):
        fetched = git(repo, "fetch", "-q", "origin", check=False)
        if fetched.returncode != 0:
            raise SyncError(f"cannot reach the remote {remote_url(repo)}: "
                            f"{(fetched.stderr or '').strip()[-400:]}",
                            hint="check the URL, your network and your git credentials; "
                                 "what was learned is committed here and goes out at the next sync")
        has_remote = git(repo, "rev-parse", "--verify", "-q", f"origin/{branch}", check=False).returncode == 0
        if has_remote:
            ahead = git(repo, "rev-list", "--count", f"HEAD..origin/{branch}", check=False).stdout.strip()
            if ahead and ahead != "0":
                merged = git(repo, *_identity(repo), "merge", "-q", "--no-edit", "--allow-unrelated-histories",
                             "-m", f"merge what origin/{branch} learned", f"origin/{branch}", check=False)
                if merged.returncode != 0:
                    _settle_leftovers(repo, result)
                result.pulled += int(ahead)
        pushed = git(repo, "push", "-q", "origin", f"HEAD:{branch}", check=False)
        if pushed.returncode == 0:
            result.pushed = True
            break
        if "rejected" not in pushed.stderr and "fetch first" not in pushed.stderr \
                and "non-fast-forward" not in pushed.stderr:
            raise SyncError(f"git push failed: {pushed.stderr.strip()[-400:]}",
                            hint="check your write access to the remote")
    result.conflicts = conflicted_skills(repo)
    return result


def _settle_leftovers(repo: Path, result: SyncResult) -> None:
    """A merge the drivers could not finish (a file deleted on one side and changed on the other,
    a binary file): keep this machine's version of each, commit, and say which."""
    left = [x for x in git(repo, "diff", "--name-only", "--diff-filter=U").stdout.splitlines() if x]
    for rel in left:
        if (repo / rel).exists():
            git(repo, "checkout", "--ours", "--", rel, check=False)
            git(repo, "add", "--", rel)
        else:
            git(repo, "rm", "-q", "--cached", "--", rel, check=False)
        result.notes.append(f"{rel}: changed on both sides in a way no line merge settles; this "
                            "machine's version kept (the other is in the merge's second parent)")
    git(repo, *_identity(repo), "commit", "-q", "--no-verify", "--no-edit")


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
        return line
    except SlowloopError as exc:
        return f"sync failed (the lesson is kept here; next sync retries): {exc.message}"
    except (OSError, subprocess.SubprocessError) as exc:
        return f"sync failed (the lesson is kept here; next sync retries): {exc}"


# -- the merge driver -------------------------------------------------------------------------------

def _sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading line or '', lines) in order; a heading inside a code fence is text
    (``slowloop.markdown`` decides both)."""
    from .markdown import code_lines, heading

    out: list[tuple[str, list[str]]] = [("", [])]
    for line, in_code in code_lines(text.splitlines()):
        if not in_code and heading(line) is not None:
            out.append((line, []))
            continue
        out[-1][1].append(line)
    return out


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """Three-way merge by lines within sections: keep each side's additions, honour each side's
    removals, keep a line both added once."""
    b = {h: [_norm(x) for x in ls] for h, ls in _sections(base)}
    o = _sections(ours)
    t = dict(_sections(theirs))
    out: list[str] = []
    seen_heads = set()
    for head, lines in o:
        seen_heads.add(head)
        base_set = set(b.get(head, []))
        their = t.get(head, [])
        their_set = {_norm(x) for x in their}
        kept = [x for x in lines if not (_norm(x) in base_set and _norm(x) not in their_set and _norm(x))]
        have = {_norm(x) for x in kept}
        added = [x for x in their if _norm(x) not in base_set and _norm(x) not in have]
        if added:
            while kept and not kept[-1].strip():
                kept.pop()
            kept += added
            if lines and not lines[-1].strip():
                kept.append("")
        if head:
            out.append(head)
        out.extend(kept)
    for head, lines in _sections(theirs):
        if head not in seen_heads and head not in b:
            out.append(head)
            out.extend(lines)
    return "\n".join(out).rstrip("\n") + "\n"


def _front(text: str) -> tuple[str, str]:
    from .markdown import split_frontmatter

    fm = split_frontmatter(text)
    return (fm.head, fm.body) if fm.text is not None else ("", text)


def merge_skill(base: str, ours: str, theirs: str, path: str) -> str:
    """git's line merge for the body; a real conflict keeps both sides, the other's marked."""
    import tempfile

    front, body_o = _front(ours)
    _f, body_t = _front(theirs)
    _fb, body_b = _front(base)
    if body_o == body_t:
        return ours
    with tempfile.TemporaryDirectory() as d:
        files = []
        for name, text in (("ours", body_o), ("base", body_b), ("theirs", body_t)):
            f = Path(d) / name
            f.write_text(text, encoding="utf-8")
            files.append(str(f))
        done = subprocess.run([git_program(), "merge-file", "-p", "-q", *files], capture_output=True, text=True)
    if done.returncode == 0:
        return front + done.stdout
    name = Path(path).parent.name
    return (front + body_o.rstrip("\n") + "\n\n"
            f"{CONFLICT_BEGIN} skill {name}: another machine changed this skill differently. Its version is"
            " below; keep what is right, delete the rest and these markers. -->\n"
            + body_t.strip("\n") + "\n" + CONFLICT_END + "\n")


def merge_driver(base_path: str, ours_path: str, theirs_path: str, path: str) -> int:
    def read(p: str) -> str:
        try:
            return Path(p).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    base, ours, theirs = read(base_path), read(ours_path), read(theirs_path)
    if path.endswith("SKILL.md"):
        merged = merge_skill(base, ours, theirs, path)
    else:
        merged = merge_lines(base, ours, theirs)
    Path(ours_path).write_text(merged, encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 5 and args[0] == "merge-driver":
        sys.exit(merge_driver(*args[1:]))
    print("usage: python -m slowloop.sync merge-driver BASE OURS THEIRS PATH", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
