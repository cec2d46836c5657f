"""``slowloop explain``: why a turn would (not) be reflected on. Writes nothing."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import click

from ..errors import DataError
from ..ingest import expand_paths, observe_file, observed_to_dict
from ..observe.model import ObservedTurn
from ..paths import layout
from ..transcripts.model import ParseReport
from .common import agent_option, get_app, json_option, warn


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--all", "all_turns", is_flag=True, help="Explain every turn, not only the last one.")
@agent_option
@json_option
def explain(files: tuple[Path, ...], all_turns: bool, agent: str, as_json: bool) -> None:
    """Explain, for each transcript, its last turn (or every turn): tool calls, errors (transient or
    real, with evidence), correction, abort, the signals that fired, the score and the verdict.

    Nothing is recorded. Formats are detected: Claude Code, Codex, Gemini CLI, OpenAI or Anthropic
    message lists. With --json, one JSON object per turn per line, in input order. Exits 3 when a
    file is not a transcript (the others are still explained).

    \b
    Example:
      slowloop explain ~/.claude/projects/myproj/*.jsonl --all
      slowloop explain session.jsonl --json | jq .score
    """
    app = get_app()
    cfg = app.config
    weakness = _weakness(agent, app)
    unreadable = 0
    for path in expand_paths(files):
        report = ParseReport()
        try:
            turns = observe_file(path, cfg, report=report, weakness=weakness)
            chosen = list(turns) if all_turns else list(deque(turns, maxlen=1))
        except DataError as exc:
            warn(f"error: {exc}")
            unreadable += 1
            continue
        for problem in report.problems:
            warn(f"warning: {problem} (line skipped)")
        if not chosen:
            warn(f"{path}: no turns found")
            continue
        for ot in chosen:
            if as_json:
                click.echo(json.dumps(observed_to_dict(ot, file=str(path)), ensure_ascii=False))
            else:
                click.echo(render(ot, str(path)))
    if unreadable:  # a file that is not a transcript is bad input: say so in the exit code too
        click.get_current_context().exit(3)


def _weakness(agent: str, app):
    memo_path = layout(agent, app.home).memo
    if not memo_path.exists():
        return None
    from ..ingest import default_weakness

    return default_weakness(agent, home=app.home)


def render(ot: ObservedTurn, path: str) -> str:
    t, obs, sc = ot.turn, ot.observation, ot.score
    lines = [f"{path} — turn {t.index}" + (f" ({t.started_at})" if t.started_at else "")]
    task = " ".join(t.user_text.split())
    lines.append(f"  user: {task[:160]}{'…' if len(task) > 160 else ''}")
    lines.append(f"  tool calls: {obs.tool_calls}")
    if obs.errors:
        for e in obs.errors:
            label = "TRANSIENT (environment, never a lesson)" if e.kind == "transient" else "REAL"
            lines.append(f"  error: {label} in {e.tool or 'tool'} — evidence: {e.evidence}")
    else:
        lines.append("  errors: none")
    if obs.recovered:
        lines.append("  recovered: yes, a later tool call succeeded after the real error")
    lines.append(f"  corrected: {'yes — ' + repr(obs.correction.evidence) if obs.corrected else 'no'}")
    lines.append(f"  aborted: {'yes — ' + (t.abort_evidence or '') if obs.aborted else 'no'}")
    if obs.rejected:
        lines.append(f"  rejected tool uses: {obs.rejected}")
    if obs.skills_read:
        lines.append(f"  skills read: {', '.join(obs.skills_read)}")
    if sc.signals:
        for s in sc.signals:
            lines.append(f"  signal {s.name} +{s.weight:g}: {s.why}")
    else:
        lines.append("  signals: none fired")
    verdict = "REFLECT — worth learning from" if sc.reflect else "let it pass"
    lines.append(f"  score {sc.score:g} vs threshold {sc.threshold:g} → {verdict}")
    return "\n".join(lines)
