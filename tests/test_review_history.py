"""Review regression: `slowloop undo` after a person deleted the file by hand."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from slowloop.cli import cli
from slowloop.skills import SkillLibrary

# The ledger's storage, concurrency and crash behaviour, on SQLite and on PostgreSQL.
pytestmark = pytest.mark.usefixtures("ledger_backend")

BODY = "## Steps\n1. When deploying, always run make deploy.\n"


def test_undo_after_a_hand_deletion_names_the_way_back(slowloop_home):
    # History said the hand-deleted skill was "archived" — there is no archived copy; the only way
    # back is undoing the noticed deletion, which the message must say.
    lib = SkillLibrary(home=slowloop_home)
    lib.create("deploying", "When deploying: the steps.", BODY)
    lib.patch("deploying", "make deploy", "make deploy-prod")
    shutil.rmtree(lib.skills_dir / "deploying")
    r = CliRunner()
    refused = r.invoke(cli, ["undo", "2"])
    assert refused.exit_code != 0 and "change 3 (person delete)" in refused.output
    shown = r.invoke(cli, ["history"]).output
    line = next(ln for ln in shown.splitlines() if ln.split()[:1] == ["3"])
    assert "deleted by hand" in line and "slowloop history undo 3" in line and "archived" not in line
    assert r.invoke(cli, ["undo", "3"]).exit_code == 0
    assert r.invoke(cli, ["undo", "2"]).exit_code == 0
    assert "make deploy-prod" not in lib.get("deploying").body
    assert "make deploy." in lib.get("deploying").body
