"""``slowloop skills new|read|show|list|patch|retire|restore|stats``."""

from __future__ import annotations

import click

from .common import agent_option, echo_json, get_app, json_option, warn


def _lib(agent: str):
    from ..skills import SkillLibrary

    app = get_app()
    return SkillLibrary(agent, home=app.home, store=app.store, config=app.config)


@click.group()
def skills() -> None:
    """Skills: SKILL.md files the agent writes for itself (Agent Skills format).

    \b
    Example:
      slowloop skills list
      slowloop skills read weekly-report-export
    """


@skills.command("new")
@click.argument("name")
@click.option("--description", "-d", required=True, help="What the skill does and when to use it.")
@click.option("--body-file", "-f", required=True, type=click.File("r", encoding="utf-8"),
              help="Markdown file with the steps or key points ('-' for stdin).")
@click.option("--title", help="A human title (kept in metadata.title).")
@agent_option
@json_option
def new(name: str, description: str, body_file, title: str | None, agent: str,
        as_json: bool) -> None:
    """Add a skill. Past the cap, the least recently used skill is archived (and named).

    \b
    Example:
      slowloop skills new weekly-report-export \\
        --description "Compile this week's data into the weekly report. Use when asked for it." \\
        --body-file steps.md
    """
    body = body_file.read()
    lib = _lib(agent)
    result = lib.create(name, description, body, title=title)
    _lint_warnings(body, str(result.skill.path))
    if as_json:
        echo_json({"created": result.skill.name, "path": str(result.skill.path),
                   "evicted": [{"name": ev.name, "reason": ev.reason} for ev in result.evicted]})
        return
    click.echo(f"created {result.skill.name} ({result.skill.path})")
    for ev in result.evicted:
        click.echo(f"evicted {ev.name}: {ev.reason} (archived; `slowloop skills restore {ev.name}`)")


def _lint_warnings(body: str, path: str, only: str | None = None) -> None:
    """Warn (stderr, not fatal: a person's words are theirs) on body lines that describe instead
    of instruct; with ``only``, just the lines that contain that text (what a patch wrote)."""
    from ..safety.lint import lint_text

    for f in lint_text(body, path, skill=True):
        if f.actionable or (only is not None and only.strip() not in f.text and f.text not in only):
            continue
        warn(f"warning: {path} (body line {f.line}): describes instead of instructing: "
             f"{f.text.strip()!r} ({f.reason})")


@skills.command("read")
@click.argument("name")
@agent_option
@json_option
def read(name: str, agent: str, as_json: bool) -> None:
    """Print a skill's body and count an invocation (what an agent calls before a task).

    \b
    Example:
      slowloop skills read weekly-report-export
      slowloop skills read weekly-report-export --json | jq -r .body
    """
    lib = _lib(agent)
    body = lib.read(name, source="cli")
    if as_json:
        echo_json({"name": name, "path": str(lib.path_of(name)), "body": body})
    else:
        click.echo(body, nl=False)


@skills.command("show")
@click.argument("name")
@agent_option
@json_option
def show(name: str, agent: str, as_json: bool) -> None:
    """Show one skill: frontmatter, metrics, each rule's evidence and outcomes, and its body (does
    not count as a use).

    \b
    Example:
      slowloop skills show weekly-report-export --json
    """
    from ..rules import rules_report
    from ..rules.report import describe

    lib = _lib(agent)
    lib.list()  # records a person's hand edits first
    skill = lib.get(name)
    m = lib.metrics([name])[name]
    d = lib.describe(skill, m)
    app = get_app()
    # the rule lines of the skill (``- When …``): what taught each, what it changed since
    d["rules"] = [v for v in rules_report(app.store, agent, app.home, app.config)
                  if v["kind"] == "skill" and v["target"] == name]
    if as_json:
        d["body"] = skill.body
        echo_json(d)
        return
    head = skill.name if skill.title in ("", skill.name) else f"{skill.name} — {skill.title}"
    click.echo(f"{head}\n{skill.description}\n{skill.path}")
    for k, v in d["metadata"].items():
        click.echo(f"  {k}: {v}")
    click.echo(f"  impressions {m.impressions}, invocations {m.invocations} "
               f"(rate {m.invocation_rate:.0%}), edited after use {m.edit_after_use_rate:.0%}, "
               f"ineffective {m.ineffective_rate:.0%} of {m.judged_invocations}")
    for v in d["rules"]:
        click.echo(f"  rule: {v['text']}")
        for line in describe(v):
            click.echo(f"    {line}")
    click.echo("\n" + skill.body.rstrip())


@skills.command("list")
@click.option("--retired", is_flag=True, help="Include retired (archived) skills.")
@agent_option
@json_option
def list_(retired: bool, agent: str, as_json: bool) -> None:
    """List skills with their frontmatter and metrics (broken files skipped: see `slowloop doctor`).

    \b
    Example:
      slowloop skills list --json
    """
    lib = _lib(agent)
    items = lib.list(include_retired=retired)
    metrics = lib.metrics([s.name for s in items])
    rows = [lib.describe(s, metrics.get(s.name)) for s in items]
    _, broken = lib.scan()
    if broken:
        warn(f"{len(broken)} skill file(s) skipped because they are broken: run `slowloop doctor`")
    if as_json:
        echo_json(rows)
        return
    if not rows:
        archived = 0 if retired else len(lib.list(include_retired=True))
        click.echo(f"no active skills ({archived} retired: see `slowloop skills list --retired`)"
                   if archived else "no skills yet")
    for r in rows:
        m = r["metrics"]
        flag = " [retired]" if r["retired"] else ""
        click.echo(f"{r['name']}{flag}: {r['description'][:100]}")
        click.echo(f"    used {m.get('invocations', 0)}x, last {r['metadata'].get('lastUsedAt', 'never')}, "
                   f"patched {r['metadata'].get('patchCount', '0')}x")


@skills.command("patch")
@click.argument("name")
@click.option("--old", required=True, help="The exact text to replace (must occur exactly once).")
@click.option("--new", "new_text", required=True, help="The replacement text.")
@agent_option
@json_option
def patch(name: str, old: str, new_text: str, agent: str, as_json: bool) -> None:
    """Change one span of a skill: patchCount + 1, updatedAt refreshed.

    \b
    Example:
      slowloop skills patch weekly-report-export --old "5 bullets" --new "3 bullets"
    """
    skill = _lib(agent).patch(name, old, new_text)
    _lint_warnings(skill.body, str(skill.path), only=new_text)
    if as_json:
        echo_json({"patched": skill.name, "path": str(skill.path),
                   "patch_count": skill.patch_count})
        return
    click.echo(f"patched {skill.name} (patch {skill.metadata.get('patchCount')})")


@skills.command("retire")
@click.argument("name")
@click.option("--reason", default="", help="Why (kept in history).")
@agent_option
@json_option
def retire(name: str, reason: str, agent: str, as_json: bool) -> None:
    """Archive a skill (never deleted; `slowloop skills restore NAME` brings it back).

    \b
    Example:
      slowloop skills retire old-deploy-steps --reason "we moved to CI deploys"
    """
    _lib(agent).retire(name, reason=reason)
    if as_json:
        echo_json({"retired": name})
        return
    click.echo(f"retired {name}")


@skills.command("restore")
@click.argument("name")
@agent_option
@json_option
def restore(name: str, agent: str, as_json: bool) -> None:
    """Bring back the latest archived copy of a retired or evicted skill.

    \b
    Example:
      slowloop skills restore old-deploy-steps
    """
    skill = _lib(agent).restore(name)
    if as_json:
        echo_json({"restored": skill.name, "path": str(skill.path)})
        return
    click.echo(f"restored {skill.name} ({skill.path})")


@skills.command("stats")
@agent_option
@json_option
def stats(agent: str, as_json: bool) -> None:
    """Per-skill metrics: impressions, invocations and rate, edit-after-use, ineffective rate.

    \b
    Example:
      slowloop skills stats --json
    """
    rows = _lib(agent).stats()
    if as_json:
        echo_json([m.to_dict() for m in rows])
        return
    if not rows:
        click.echo("no skills yet")
        return
    click.echo(f"{'skill':40s} {'impr':>6s} {'inv':>5s} {'rate':>6s} {'edit%':>6s} {'ineff%':>7s}  last used")
    for m in rows:
        click.echo(f"{m.name[:40]:40s} {m.impressions:6d} {m.invocations:5d} {m.invocation_rate:6.0%} "
                   f"{m.edit_after_use_rate:6.0%} {m.ineffective_rate:7.0%}  {m.last_invoked_at or 'never'}")


__all__ = ["skills"]
