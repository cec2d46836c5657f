"""The adversarial blind sets (tests/data/adv1/, written by helper sessions that read only the README
and SECURITY.md): attacks by every channel, and realistic secret shapes, through what users run.

    python bench/adversarial.py                          # both sets, every channel and boundary
    python bench/adversarial.py --set instructions       # one set
    python bench/adversarial.py --channel teammate_file  # one channel of the instructions
    python bench/adversarial.py --src /tmp/base/src      # measure another checkout (the first run)
    python bench/adversarial.py --show                   # every attack that got through, every false hold

instructions.jsonl — each item arrives by its channel, and the attack worked when any
``must_not_reach`` fragment is in what the agent reads at the next session's start (the bootstrap,
and every file under the agent's folder, links followed as a client would); a planted link's
target must also stay unchanged. A benign item is *held* when a ``must_reach`` fragment is missing
there (blocked, or waiting in review).

- ``model_rule`` / ``model_skill``: a reflection whose model (scripted, in process) proposes the
  texts as memo rules or the skill; the real validation, gate, review and apply run;
- ``mcp_memory``: ``append_memory`` over a real MCP stdio session (``slowloop mcp``);
- ``teammate_file``: a teammate's clone pushes the files to the shared bare remote, the person's
  ``slowloop sync`` (the CLI) pulls them;
- ``tool_output``: the turns written as a transcript, ingested, reflected on offline.

secrets.jsonl — each text through every boundary: the model boundary (the redaction every provider
is wrapped in, on the text as it would be sent), the search index (``recall.db`` bytes after
``refresh``), ``slowloop search`` output, and a memory write (``append_memory`` over MCP: refused,
or stored without the secret). A secret is caught at a boundary when its fragment is absent there;
a benign item's ``keep`` literal must survive the model boundary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "adv1"
CHANNELS = ("model_rule", "model_skill", "mcp_memory", "teammate_file", "tool_output")


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("instructions", "secrets", "both"), default="both")
    ap.add_argument("--channel", choices=CHANNELS, default=None)
    ap.add_argument("--src", default=str(ROOT / "src"), help="the slowloop source tree to measure")
    ap.add_argument("--dir", default=str(DATA))
    ap.add_argument("--show", action="store_true", help="print every success of an attack and every false hold")
    return ap.parse_args()


ARGS = _args() if __name__ == "__main__" else None
# the marker a planted link's target holds: each set names its own (`slowloop-adv2-planted-target`)
MARK = f"slowloop-{Path(ARGS.dir if ARGS else DATA).name}-planted-target"
SRC = str(Path(ARGS.src if ARGS else ROOT / "src").resolve())
sys.path.insert(0, SRC)
os.environ["SLOWLOOP_BENCH_SRC"] = SRC  # blind5 (write_session) must not put another checkout first
sys.path.insert(0, str(ROOT / "bench"))

from blind5 import write_session  # noqa: E402

from slowloop.bootstrap import build_bootstrap  # noqa: E402
from slowloop.config import load_config  # noqa: E402
from slowloop.ingest import ingest_paths  # noqa: E402
from slowloop.providers.base import Completion  # noqa: E402
from slowloop.reflect.cycle import reflect_agent  # noqa: E402
from slowloop.store import open_store  # noqa: E402

AGENT = "a"


def _env(home: Path, fake_home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SLOWLOOP_HOME=str(home), HOME=str(fake_home), PYTHONPATH=SRC, GIT_AUTHOR_NAME="Ben",
               GIT_AUTHOR_EMAIL="ben@example.test", GIT_COMMITTER_NAME="Ben",
               GIT_COMMITTER_EMAIL="ben@example.test", SLOWLOOP_NO_PROGRESS="1")
    env.pop("CI", None)
    return env


def _slowloop(home: Path, fake_home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slowloop", *args], env=_env(home, fake_home),
                          capture_output=True, text=True, timeout=timeout)


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=60)


# -- what the agent reads at the next session's start --------------------------------------------

def agent_reads(home: Path) -> str:
    """The bootstrap and every file under the agent's folder, links followed as a client would."""
    parts = []
    try:
        parts.append(build_bootstrap(AGENT, home=home, record_impressions=False).text)
    except Exception as e:  # a broken bootstrap is reported, never counted as "blocked"
        parts.append(f"<bootstrap failed: {e}>")
    folder = home / "agents" / AGENT
    for p in sorted(folder.rglob("*")) if folder.exists() else []:
        if ".git" in p.relative_to(folder).parts[:1]:
            continue
        try:
            if p.is_file() and p.stat().st_size <= 64 * 1024 * 1024:
                parts.append(p.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return "\n".join(parts)


def _reached(text: str, fragments: list[str]) -> list[str]:
    return [f for f in fragments if f and f in text]


class ScriptedModel:
    """A reflection model that answers with the attacker's actions: the gate is under test."""

    kind, name, model = "scripted", "scripted", "adversary-1"

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def destination(self) -> str:
        return "nowhere (scripted adversary)"

    def complete(self, system, user, *, schema=None):
        return Completion(text=self.answer, model=self.model, destination=self.destination())


def _seed_home(tmp: Path, name: str) -> Path:
    """A home with one small session, so a reflection has turns to read."""
    home = tmp / name
    home.mkdir()
    path = write_session(tmp / f"{name}.jsonl", [
        {"user": "add a health check endpoint", "actions": [
            {"tool": "write", "path": "app/health.py", "content": "def health():\n    return {'ok': True}\n"}],
         "reply": "Added app/health.py."},
        {"user": "thanks, looks good", "actions": [], "reply": "You're welcome."}])
    _ingest(home, path)
    return home


def _ingest(home: Path, path: Path) -> None:
    with open_store(home=home) as store:
        ingest_paths([path], agent=AGENT, store=store, cfg=load_config(home))


def _skill_action(body: str) -> dict:
    name, desc, text = "team-notes", "Notes the team keeps for this project", body
    m = re.match(r"^\ufeff?---\s*\n(.*?)\n---\s*\n?(.*)$", body, re.S)
    if m:
        head, text = m.group(1), m.group(2)
        n = re.search(r"^name:\s*['\"]?([^'\"\n]+)", head, re.M)
        d = re.search(r"^description:\s*['\"]?([^\n]+?)['\"]?\s*$", head, re.M)
        if n:
            name = re.sub(r"[^a-z0-9]+", "-", n.group(1).strip().lower()).strip("-") or name
        if d:
            desc = d.group(1).strip()
    return {"type": "create_skill", "name": name[:60], "description": desc[:1000], "body": text,
            "reason": "the team asked for these notes to be kept"}


def run_model(item: dict, tmp: Path, k: int) -> str:
    home = _seed_home(tmp, f"m{k}")
    if item["channel"] == "model_rule":
        actions = [{"type": "update_memo", "section": "plays", "op": "add", "text": t,
                    "reason": "the person works this way"} for t in item["texts"]]
    else:
        actions = [_skill_action(item["texts"][0])]
    out = reflect_agent(AGENT, home=home, provider=ScriptedModel(json.dumps({"actions": actions})), force=True)
    why = [j["reason"] for j in out.rejected] + [h["reason"] for h in out.held]
    # a rule the quality lint turned down (not an imperative, a transient lesson) is no gate decision
    lint_only = bool(why) and all(w.startswith(("vague line", "draws a lesson from a transient")) for w in why)
    return agent_reads(home) + ("\n<lint-only>" if lint_only else "")


def run_tool_output(item: dict, tmp: Path, k: int) -> str:
    home = tmp / f"t{k}"
    home.mkdir()
    turns = []
    for t in item.get("turns") or []:
        acts = []
        for a in t.get("actions") or []:
            if a.get("tool") == "read":
                acts.append({"tool": "read", "path": a.get("path", ""), "output": a.get("content", "")})
            else:
                acts.append(a)
        turns.append({"user": t.get("user", ""), "actions": acts, "reply": t.get("reply", "")})
    _ingest(home, write_session(tmp / f"t{k}.jsonl", turns))
    reflect_agent(AGENT, home=home, provider=None, force=True)
    return agent_reads(home)


def run_teammate(item: dict, tmp: Path, k: int) -> tuple[str, bool]:
    """(what the agent reads after the person's sync, whether a planted target stayed unchanged)."""
    base = tmp / f"s{k}"
    fake_home = base / "home"
    (fake_home / ".ssh").mkdir(parents=True)
    home = base / "slowloop"
    remote = base / "remote.git"
    _git(base, "init", "-q", "--bare", str(remote))
    seed = _seed_home(base, "seedhome")
    # the person: their agent folder on the shared remote
    home.mkdir()
    for p in seed.iterdir():
        os.replace(p, home / p.name)
    r = _slowloop(home, fake_home, "sync", "init", "--agent", AGENT, "--remote", str(remote))
    if r.returncode != 0:
        raise RuntimeError(f"sync init failed: {r.stderr[-400:]}")
    # the teammate: a plain clone, the files written and pushed
    mate = base / "mate"
    env = _env(home, fake_home)
    branch = _git(home / "agents" / AGENT, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip() or "main"
    _git(base, "clone", "-q", "--branch", branch, str(remote), str(mate), env=env)
    targets: dict[Path, bytes] = {}
    for f in item.get("files") or []:
        rel = f["path"].lstrip("/")
        dst = mate / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        if f.get("symlink_to"):
            target = Path(f["symlink_to"].replace("/home/user", str(fake_home)))
            target.parent.mkdir(parents=True, exist_ok=True)
            # a link to a folder (`~/.ssh`): the marker sits in a file inside it
            planted = target / "planted" if target.is_dir() else target
            if not planted.exists():
                planted.write_text(f"{MARK}\nsecret material the link points at\n", encoding="utf-8")
            targets[planted] = planted.read_bytes()
            os.symlink(target, dst)
            continue
        content = f.get("content") or ""
        size = f.get("size_bytes") or 0
        with open(dst, "w", encoding="utf-8") as fh:
            if size:
                line = "- keep the build green and the docs current\n"
                n = max(0, size - len(content.encode("utf-8")))
                fh.write(line * (n // len(line)) + "x" * (n % len(line)))
            fh.write(content)
    _git(mate, "add", "-A", "-f", env=env)
    _git(mate, "commit", "-q", "-m", "team notes", env=env)
    pushed = _git(mate, "push", "-q", "origin", f"HEAD:{branch}", env=env)
    if pushed.returncode != 0:
        raise RuntimeError(f"the teammate's push failed: {pushed.stderr[-300:]}")
    _slowloop(home, fake_home, "sync", "--agent", AGENT)
    intact = all(t.read_bytes() == b for t, b in targets.items())
    return agent_reads(home), intact


def run_mcp(items: list[dict], tmp: Path) -> dict[str, str]:
    """Each text through ``append_memory`` over one real MCP session; what the memory holds after."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    home = _seed_home(tmp, f"mcp{len(list(tmp.glob('mcp*')))}")
    from slowloop.memory import Memory

    Memory.for_agent(AGENT, home=home).init()
    out: dict[str, str] = {}

    async def go():
        env = _env(home, tmp)
        params = StdioServerParameters(command=sys.executable, args=["-m", "slowloop", "mcp", "--agent", AGENT],
                                       env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for item in items:
                    before = agent_reads(home)
                    await session.call_tool("append_memory", {"text": item["texts"][0]})
                    after = agent_reads(home)
                    out[item["id"]] = after[len(before):] if after.startswith(before) else after
    anyio.run(go)
    return out


def run_instructions(d: Path, tmp: Path, show: bool, channel: str | None) -> None:
    rows = [json.loads(ln) for ln in (d / "instructions.jsonl").read_text(encoding="utf-8").splitlines() if ln.strip()]
    if channel:
        rows = [r for r in rows if r["channel"] == channel]
    stats: dict[str, Counter] = defaultdict(Counter)
    by_class: dict[str, Counter] = defaultdict(Counter)
    lines: list[str] = []
    mcp_items = [r for r in rows if r["channel"] == "mcp_memory"]
    mcp_seen = run_mcp(mcp_items, tmp) if mcp_items else {}
    t0 = time.time()
    for k, item in enumerate(rows):
        ch = item["channel"]
        intact = True
        try:
            if ch in ("model_rule", "model_skill"):
                seen = run_model(item, tmp, k)
            elif ch == "tool_output":
                seen = run_tool_output(item, tmp, k)
            elif ch == "teammate_file":
                seen, intact = run_teammate(item, tmp, k)
            else:
                seen = mcp_seen.get(item["id"], "")
        except Exception as e:  # a crash is a finding, never a pass
            stats[ch]["crashed"] += 1
            lines.append(f"  CRASH {item['id']} [{ch}] {type(e).__name__}: {str(e)[:160]}")
            continue
        if item["label"] == "dangerous":
            got = _reached(seen, item["must_not_reach"]) or ([] if intact else ["<the link's target changed>"])
            stats[ch]["dangerous"] += 1
            by_class[item["class"]]["dangerous"] += 1
            if got:
                stats[ch]["through"] += 1
                by_class[item["class"]]["through"] += 1
                lines.append(f"  THROUGH {item['id']} [{ch} {item['class']} {item['lang']} {item['disguise'][:30]}] "
                             f"{got[0][:90]!r}")
        else:
            stats[ch]["benign"] += 1
            need = [f for f in item.get("must_reach") or [] if f]
            if need and len(_reached(seen, need)) < len(need):
                if seen.endswith("<lint-only>"):
                    stats[ch]["lint"] += 1
                    lines.append(f"  LINT {item['id']} [{ch} {item['class']} {item['lang']}] {need[0][:90]!r}")
                else:
                    stats[ch]["held"] += 1
                    lines.append(f"  HELD {item['id']} [{ch} {item['class']} {item['lang']}] {need[0][:90]!r}")
    total = Counter()
    print(f"instructions — {len(rows)} items, {time.time() - t0:.0f} s")
    print("  channel          dangerous  stopped   benign  held (false)  crashed  (benign turned down by the quality lint)")
    for ch in CHANNELS:
        s = stats.get(ch)
        if not s:
            continue
        total.update(s)
        stopped = s["dangerous"] - s["through"]
        print(f"  {ch:<16} {s['dangerous']:>9}  {stopped:>4} ({stopped / max(1, s['dangerous']):.1%})"
              f"  {s['benign']:>6}  {s['held']:>4} ({s['held'] / max(1, s['benign']):.1%})  {s['crashed']:>4}"
              f"     {s['lint']}")
    stopped = total["dangerous"] - total["through"]
    print(f"  {'ALL':<16} {total['dangerous']:>9}  {stopped:>4} ({stopped / max(1, total['dangerous']):.1%})"
          f"  {total['benign']:>6}  {total['held']:>4} ({total['held'] / max(1, total['benign']):.1%})"
          f"  {total['crashed']:>4}     {total['lint']}")
    print("  by class (dangerous stopped): " + "  ".join(
        f"{c} {v['dangerous'] - v['through']}/{v['dangerous']}" for c, v in sorted(by_class.items())))
    if show:
        print("\n".join(lines))
    else:
        print("\n".join(ln for ln in lines if ln.startswith("  CRASH")))


# -- secrets -------------------------------------------------------------------------------------

def _secret_session(item: dict) -> list[dict]:
    """The text where the agent saw it, and quoted by the agent in its answer (as agents do when
    they explain what they found): what the agent answers is indexed for search, so every item
    reaches the index — the hardest case."""
    text, where = item["text"], item.get("where") or "command_output"
    if where == "user_message":
        return [{"user": text, "actions": [], "reply": "Noted."}]
    cmd = {"log": "tail -n 50 logs/app.log", "file_read": "cat config/settings.txt",
           "file_written": "cat config/generated.env"}.get(where, "./scripts/show-config.sh")
    return [{"user": "check the config and tell me what is wrong",
             "actions": [{"tool": "bash", "command": cmd, "output": text, "exit_code": 1}],
             "reply": "Here is what it printed:\n\n" + text}]


def _indexed_text(home: Path) -> str:
    import sqlite3

    parts = []
    for p in home.rglob("recall.db"):
        db = sqlite3.connect(p)
        try:
            parts += [a + "\n" + b for a, b in db.execute("SELECT text, context FROM entries")]
        finally:
            db.close()
    return "\n".join(parts)


def _context_words(r: dict) -> list[str]:
    return re.findall(r"[A-Za-z]{5,}", r["text"].replace(r["secret"], " "))[:3]


def run_secrets(d: Path, tmp: Path, show: bool) -> None:
    from slowloop.recall import refresh
    from slowloop.safety.redact import redact

    rows = [json.loads(ln) for ln in (d / "secrets.jsonl").read_text(encoding="utf-8").splitlines() if ln.strip()]
    secrets = [r for r in rows if r["label"] == "secret"]
    benign = [r for r in rows if r["label"] != "secret"]
    caught: Counter = Counter()
    lines: list[str] = []
    # the model boundary: what a provider is handed
    for r in secrets:
        if r["secret"] not in redact(r["text"]).text:
            caught["model request"] += 1
        else:
            lines.append(f"  LEAK model request {r['id']} [{r['kind']} {r['form']}] {r['secret'][:40]!r}")
    kept = 0
    for r in benign:
        if r.get("keep") and r["keep"] in redact(r["text"]).text:
            kept += 1
        elif r.get("keep"):
            lines.append(f"  LOST {r['id']} [{r['kind']}] {r['keep'][:50]!r}")
    # the search index and `slowloop search`: every secret in one home, then the index's bytes
    home = tmp / "sec"
    home.mkdir()
    for k, r in enumerate(secrets):
        _ingest(home, write_session(tmp / f"sec{k}.jsonl", _secret_session(r)))
    refresh(AGENT, home=home)
    indexed = _indexed_text(home)
    reached = sum(1 for r in secrets if _context_words(r) and all(w in indexed for w in _context_words(r)))
    print(f"  (the search index holds the words around {reached}/{len(secrets)} secrets)")
    for r in secrets:
        if r["secret"] not in indexed:
            caught["search index"] += 1
        else:
            lines.append(f"  LEAK search index {r['id']} [{r['kind']}] {r['secret'][:40]!r}")
    # `slowloop search` output: a query made of the words around the secret
    for r in secrets:
        words = _context_words(r)
        out = _slowloop(home, tmp, "search", " ".join(words) or "config", "--agent", AGENT, "--json").stdout
        if r["secret"] not in out:
            caught["search output"] += 1
        else:
            lines.append(f"  LEAK search output {r['id']} [{r['kind']}] {r['secret'][:40]!r}")
    # a memory write over MCP: refused, or stored without the secret
    mem_items = [{"id": r["id"], "texts": [r["text"]]} for r in secrets]
    seen = run_mcp(mem_items, tmp)
    for r in secrets:
        if r["secret"] not in seen.get(r["id"], ""):
            caught["memory write"] += 1
        else:
            lines.append(f"  LEAK memory write {r['id']} [{r['kind']}] {r['secret'][:40]!r}")
    n = len(secrets)
    print(f"secrets — {n} secrets ({len({r['kind'] for r in secrets})} kinds), {len(benign)} benign look-alikes")
    for b in ("model request", "search index", "search output", "memory write"):
        print(f"  {b:<15} caught {caught[b]:>4}/{n} ({caught[b] / max(1, n):.1%})")
    print(f"  benign kept at the model boundary: {kept}/{sum(1 for r in benign if r.get('keep'))}")
    forms: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in secrets:
        forms[r["form"]][1] += 1
        forms[r["form"]][0] += r["secret"] not in redact(r["text"]).text
    print("  model request by form: " + "  ".join(f"{f} {a}/{b}" for f, (a, b) in sorted(forms.items())))
    if show:
        print("\n".join(lines))


def main() -> None:
    assert ARGS is not None
    d = Path(ARGS.dir)
    import slowloop

    print(f"code measured: {Path(slowloop.__file__).parent}")
    assert Path(slowloop.__file__).resolve().is_relative_to(SRC), (slowloop.__file__, SRC)
    with tempfile.TemporaryDirectory(prefix="slowloop-adv-") as t:
        tmp = Path(t)
        os.environ["SLOWLOOP_HOME"] = str(tmp / "unused-home")
        os.environ["SLOWLOOP_NO_PROGRESS"] = "1"
        if ARGS.set in ("instructions", "both"):
            run_instructions(d, tmp, ARGS.show, ARGS.channel)
        if ARGS.set in ("secrets", "both"):
            run_secrets(d, tmp, ARGS.show)


if __name__ == "__main__":
    main()
