"""``slowloop lint``: flag learned lines that describe instead of instruct."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import DataError, UserError
from ..paths import agent_dir
from .common import agent_option, echo_json, get_app, json_option


def _default_paths(agent: str, base: Path) -> list[Path]:
    root = agent_dir(agent, base)
    paths = sorted((root / "skills").glob("*/SKILL.md"))
    if (root / "memo.md").is_file():
        paths.append(root / "memo.md")
    return paths


def _expand(paths: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        p = Path(raw).expanduser()
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.md") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise UserError(f"{raw}: no such file or folder",
                            hint="pass a SKILL.md, memo.md or a folder of .md files")
    return out


@click.command("lint")
@click.argument("paths", nargs=-1, type=click.Path())
@agent_option
@json_option
def lint(paths: tuple[str, ...], agent: str, as_json: bool) -> None:
    """Flag lines in skills and the memo that describe instead of instruct.

    A line passes when it is an imperative with a concrete trigger or scope ("When replying in a
    family-office context, always give the conclusion first"); descriptions, hedges and vague
    advice ("The user seems to prefer concise output") are flagged with the reason. A SKILL.md is
    linted as a skill: its lines are scoped by the skill and need no trigger of their own. Without PATH,
    lints the agent's skills (<home>/agents/<agent>/skills/*/SKILL.md) and memo.md. Exit code 1
    when any line is flagged, so it can gate CI; 2 when a path does not exist.

    \b
    Example:
      slowloop lint
      slowloop lint skills/ memo.md --json
    """
    files = _expand(paths) if paths else _default_paths(agent, get_app().home)
    if not files and not paths:
        click.echo(f"nothing to lint: agent {agent!r} has no skills or memo yet", err=True)
    from ..safety.lint import lint_text

    findings = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"not UTF-8 text ({exc.reason})", path=str(path),
                            hint="lint reads Markdown files saved as UTF-8") from None
        findings.extend(lint_text(text, str(path), skill=path.name == "SKILL.md"))
    flagged = [f for f in findings if not f.actionable]
    if as_json:
        echo_json([f.to_dict() for f in findings])
    else:
        for f in flagged:
            click.echo(f"{f.path}:{f.line}: {f.text}\n    {f.reason}")
        click.echo(f"{len(findings)} lines checked in {len(files)} files, "
                   f"{len(flagged)} not actionable", err=True)
    if flagged:
        sys.exit(1)
