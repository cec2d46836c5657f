"""Reading with a mistyped --agent must not create that agent."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from slowloop.cli import cli


@pytest.mark.parametrize("cmd", [["history"], ["memo", "show"], ["skills", "stats"], ["prompt"],
                                 ["skills", "list"], ["doctor"], ["schedule"]])
def test_reading_an_unknown_agent_creates_nothing(cmd):
    runner = CliRunner()
    runner.invoke(cli, [*cmd, "--agent", "ghost"] if cmd != ["schedule"] else cmd)
    r = runner.invoke(cli, ["agents", "--json"])
    assert "ghost" not in [a["name"] for a in json.loads(r.stdout or "[]")]
