"""Benchmark: what a hostile push costs the teammate who syncs it (issue 20, "Sync screens what comes in").

Run: python bench/sync_screen.py [--mb 150] [--rules 300]

A bare remote in a temp folder; the victim is a slowloop home synced with it; the attacker is a
plain clone. The attacker pushes a SKILL.md of ``--mb`` MB (the review's 150 MB); the victim then
runs `slowloop sync` as a person does (a separate process), with a rule of their own to push.
Printed: the sync's wall time and peak memory, whether the victim's own rule went out, what the
agent's folder and the quarantine hold, and a session start's bootstrap time afterwards. A second
measure is the ordinary case: a teammate's push of ``--rules`` memo lines, screened and merged.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEMO = "## Strengths and pitfalls\n- Pitfall: forgets the pnpm workspace.\n## Plays for this user and domain\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


_PEAK = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(p.returncode)")


def slowloop(home: Path, *args: str) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, the peak RSS in MB of the largest process it ran (its git included), and it."""
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "slowloop", *args],
                       capture_output=True, text=True,
                       env={**os.environ, "SLOWLOOP_HOME": str(home), "SLOWLOOP_REFLECT__AUTO": "false"})
    wall = time.perf_counter() - t
    *said, peak = p.stderr.strip().splitlines() or ["0"]
    p.stderr = "\n".join(said)
    return wall, int(peak) / 1024, p


def setup(tmp: Path) -> tuple[Path, Path, Path]:
    remote = tmp / "agent.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    home = tmp / "victim"
    (home / "agents" / "shop").mkdir(parents=True)
    (home / "agents" / "shop" / "memo.md").write_text(MEMO)
    _, _, p = slowloop(home, "sync", "init", "--agent", "shop", "--remote", str(remote))
    assert p.returncode == 0, p.stderr
    attacker = tmp / "attacker"
    subprocess.run(["git", "clone", "-q", str(remote), str(attacker)], check=True, capture_output=True)
    git(attacker, "config", "user.name", "Mallory")
    git(attacker, "config", "user.email", "m@example.net")
    return remote, home, attacker


def push(attacker: Path, rel: str, text: str, msg: str) -> None:
    git(attacker, "pull", "-q", "--no-rebase", "origin", "main")
    p = attacker / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    git(attacker, "add", "-A")
    git(attacker, "commit", "-q", "-m", msg)
    git(attacker, "push", "-q", "origin", "HEAD:main")


def huge(mb: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        remote, home, attacker = setup(Path(d))
        t = time.perf_counter()
        push(attacker, "skills/big/SKILL.md",
             "---\nname: big\ndescription: Big\n---\n" + "pad the context " * (mb * 1024 * 1024 // 16), "big")
        print(f"attacker's push of a {mb} MB SKILL.md: {time.perf_counter() - t:.1f} s")
        folder = home / "agents" / "shop"
        (folder / "memo.md").write_text(MEMO + "- Play: run `make db` before the integration tests.\n")
        wall, rss, p = slowloop(home, "sync", "--agent", "shop", "--json")
        out = json.loads(p.stdout)
        q = sum(f.stat().st_size for f in (home / "quarantine" / "shop").iterdir())
        print(f"victim's `slowloop sync`: {wall:.2f} s, peak RSS {rss:.0f} MB; pushed={out['pushed']}; "
              f"own rule on the remote: {'make db' in git(remote, 'show', 'main:memo.md')}")
        print(f"  quarantined: {[(x['path'], x['kind']) for x in out['quarantined']]}; quarantine folder "
              f"{q / 1024:.1f} KB; skills/big in the agent's folder: {(folder / 'skills' / 'big').exists()}")
        wall, rss, p = slowloop(home, "prompt", "--agent", "shop")
        print(f"`slowloop prompt` (what a session starts with) afterwards: {wall * 1000:.0f} ms, peak RSS {rss:.0f} MB, "
              f"{len(p.stdout):,} chars")


def ordinary(rules: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        remote, home, attacker = setup(Path(d))
        lines = "".join(f"- Play {i}: run the suite of package {i} with pnpm -F pkg{i} test.\n" for i in range(rules))
        push(attacker, "memo.md", MEMO + lines, "a teammate's rules")
        wall, rss, p = slowloop(home, "sync", "--agent", "shop", "--json")
        out = json.loads(p.stdout)
        print(f"a teammate's push of {rules} memo lines: `slowloop sync` {wall:.2f} s, peak RSS {rss:.0f} MB, "
              f"merged={out['merged_from']}, quarantined={len(out['quarantined'])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=150)
    ap.add_argument("--rules", type=int, default=300)
    a = ap.parse_args()
    huge(a.mb)
    ordinary(a.rules)


if __name__ == "__main__":
    main()
