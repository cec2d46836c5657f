"""Contexts: named instruction sets loaded on demand, one folder with a CONTEXT.md each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from slowloop.cli import cli
from slowloop.errors import DataError, UserError
from slowloop.memory import Contexts, context_text
from slowloop.tokens import estimate_tokens


def test_new_list_show_in_the_agent_dir(slowloop_home: Path) -> None:
    ctxs = Contexts.for_agent("coder")
    c = ctxs.new("blog-writer", "Plan the article, write it, then stop for review")
    assert c.path == slowloop_home / "agents" / "coder" / "contexts" / "blog-writer" / "CONTEXT.md"
    assert c.path.read_text().startswith("---\nname: blog-writer\ndescription: Plan the article")
    ctxs.new("crisp")
    assert [x.name for x in ctxs.list()] == ["blog-writer", "crisp"]
    assert ctxs.get("blog-writer").description == "Plan the article, write it, then stop for review"
    with pytest.raises(UserError, match="already exists"):
        ctxs.new("crisp")
    with pytest.raises(UserError, match=r"no context 'tazpod' .*\(contexts: blog-writer, crisp\)"):
        ctxs.get("tazpod")


@pytest.mark.parametrize("bad", ["../escape", "Blog", "a/b", "-x", "x-", "a--b", "", "é", "x" * 65])
def test_names_are_validated_so_nothing_escapes_the_folder(bad: str, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="context name"):
        Contexts(tmp_path / "contexts").new(bad)
    with pytest.raises(UserError, match="context name"):
        Contexts(tmp_path / "contexts").get(bad)
    assert not (tmp_path / "escape").exists()


def test_a_hand_written_context_without_frontmatter_and_a_broken_one(tmp_path: Path) -> None:
    root = tmp_path / "contexts"
    (root / "tazpod").mkdir(parents=True)
    (root / "tazpod" / "CONTEXT.md").write_text("# TazPod\n\nThe CLI, its critical paths, how to push.\n")
    (root / "notes").mkdir()  # a folder without CONTEXT.md is not a context
    assert [(c.name, c.description) for c in Contexts(root).list()] == [
        ("tazpod", "The CLI, its critical paths, how to push.")]
    (root / "broken").mkdir()
    (root / "broken" / "CONTEXT.md").write_text("---\nname: [unclosed\n---\nbody\n")
    with pytest.raises(DataError, match="not valid YAML") as exc:
        Contexts(root).get("broken")
    assert exc.value.path.endswith("broken/CONTEXT.md")


def test_context_text_fits_its_budget_and_says_it_was_cut(tmp_path: Path) -> None:
    c = Contexts.for_dir(tmp_path).new("big", "a big one")
    c.path.write_text(c.path.read_text() + "\n".join(f"- rule {i}: never do thing {i}" for i in range(300)))
    full = context_text("big", 100_000, directory=tmp_path)
    assert full.startswith("# Context: big") and "rule 299" in full and "name: big" not in full
    short = context_text("big", 120, directory=tmp_path)
    assert estimate_tokens(short) <= 120 and "cut to fit" in short and "rule 0:" in short


def test_ctx_cli(tmp_path: Path) -> None:
    r = CliRunner()
    d = str(tmp_path)
    out = r.invoke(cli, ["ctx", "new", "--dir", d, "crisp", "--description", "Research and design only"])
    assert out.exit_code == 0 and out.output.strip().endswith("contexts/crisp/CONTEXT.md")
    listed = json.loads(r.invoke(cli, ["ctx", "list", "--dir", d, "--json"]).output)
    assert listed[0]["name"] == "crisp" and listed[0]["description"] == "Research and design only"
    shown = r.invoke(cli, ["ctx", "show", "--dir", d, "crisp"])
    assert shown.exit_code == 0 and "## Rules" in shown.output
    bad = r.invoke(cli, ["ctx", "show", "--dir", d, "../etc"])
    assert bad.exit_code == 2 and "context name '../etc' is not valid" in bad.output
