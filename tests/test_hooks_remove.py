"""`slowloop hooks remove` (and `uninstall`) leaves a project as install found it, and a typo of
`hooks` is refused with a suggestion — run as a person runs them, the real command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(args: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOWLOOP_")}
    env.update(SLOWLOOP_HOME=str(home), HOME=str(home.parent))
    return subprocess.run([sys.executable, "-m", "slowloop", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): (p.read_text(errors="replace") if p.is_file() else "<dir>")
            for p in sorted(root.rglob("*")) if ".git/objects" not in str(p) and ".git/logs" not in str(p)}


@pytest.mark.parametrize("verb", ["remove", "uninstall"])
def test_remove_leaves_the_project_as_install_found_it(tmp_path: Path, verb: str) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / "README.md").write_text("# shop\n")
    before = _tree(proj)
    done = _run(["hooks", "install", "claude-code", "--project", "--agent", "shop"], proj, home)
    assert done.returncode == 0, done.stderr
    assert (proj / ".claude" / "settings.local.json").exists()
    assert "slowloop" in (proj / ".git" / "info" / "exclude").read_text()
    done = _run(["hooks", verb, "claude-code", "--project", "--agent", "shop"], proj, home)
    assert done.returncode == 0, done.stderr
    assert _tree(proj) == before


def test_remove_keeps_what_the_person_had(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    (proj / ".claude" / "skills" / "mine").mkdir(parents=True)
    (proj / ".claude" / "skills" / "mine" / "SKILL.md").write_text("---\nname: mine\ndescription: x\n---\n")
    (proj / ".claude" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    before = _tree(proj)
    assert _run(["hooks", "install", "claude-code", "--project"], proj, home).returncode == 0
    assert _run(["hooks", "remove", "claude-code", "--project"], proj, home).returncode == 0
    after = _tree(proj)
    assert after.keys() == before.keys()
    assert '"allow"' in after[".claude/settings.local.json"]


def test_a_typo_of_hooks_is_refused_with_a_suggestion_and_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = _run(["hook", "install", "claude-code"], tmp_path, home)
    assert done.returncode != 0
    assert "slowloop hooks install claude-code" in done.stderr
    assert not (home / "slowloop.db").exists()
