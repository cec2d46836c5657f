"""Editing another program's TOML (Codex's config.toml) or slowloop's own keeps comments, order,
layout and every other key — multi-line arrays included — and never writes a file that does not
parse; a broken file is an error naming it, with its line, and is left as it was."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from slowloop.config_edit import set_keys
from slowloop.errors import UserError

CODEX = '''# my codex config
model = "o4"  # pinned, do not touch
approvals = [
  "git status",   # safe
  "ls",
]

[hooks.state."/home/me/.codex/hooks.json:stop:0"]
trusted_hash = "old"

[profiles.fast]
model = "o4-mini"
'''


def test_a_key_is_set_and_everything_else_kept_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CODEX, encoding="utf-8")
    assert set_keys(path, 'hooks.state."/home/me/.codex/hooks.json:stop:0"', {"trusted_hash": "new"})
    assert path.read_text() == CODEX.replace('trusted_hash = "old"', 'trusted_hash = "new"')
    assert set_keys(path, 'hooks.state."/home/me/.codex/hooks.json:start:0"', {"trusted_hash": "h2"})
    data = tomllib.loads(path.read_text())
    assert data["hooks"]["state"]["/home/me/.codex/hooks.json:start:0"] == {"trusted_hash": "h2"}
    assert data["approvals"] == ["git status", "ls"] and "# safe" in path.read_text()
    assert not set_keys(path, 'hooks.state."/home/me/.codex/hooks.json:start:0"', {"trusted_hash": "h2"})


def test_a_broken_file_is_refused_with_its_place_and_never_touched(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    broken = 'approvals = [\n  "ls",\n\n[provider]\nkind = "offline"\n'
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(UserError) as err:
        set_keys(path, "provider", {"kind": "command"})
    assert str(path) in err.value.message and "line" in err.value.message
    assert path.read_text() == broken


def test_a_new_file_gets_its_section(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert set_keys(path, "provider", {"kind": "command", "command": "claude -p --model sonnet"})
    assert tomllib.loads(path.read_text()) == {"provider": {"kind": "command", "command": "claude -p --model sonnet"}}
