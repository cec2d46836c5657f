"""``slowloop memory …``: the operational memory (state, debts, chronicle, recursive past)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from .common import agent_option, echo_json, get_app, json_option, warn


def dir_option(fn: Callable) -> Callable:
    return click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path),
                        help="A project folder: the memory lives in DIR/memory instead of the agent's directory.")(fn)


def memory_options(fn: Callable) -> Callable:
    return agent_option(dir_option(fn))


def open_memory(agent: str, directory: Path | None):
    """``--dir``'s memory; else, with no ``--agent`` given, the memory of the project installed
    around the working folder (``hooks install --project``): its own when it keeps one, else its
    agent's; else the agent's."""
    from ..memory import Memory

    app = get_app()
    if directory is not None:
        return Memory.for_dir(directory, config=app.config)
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.get_parameter_source("agent") == click.core.ParameterSource.DEFAULT:
        from ..places.targets import install_around

        found = install_around(app.home)
        if found is not None:
            from ..sessions import memory_for

            return memory_for(app.home, str(found["agent"]), app.config, Path(found["project"]))
    return Memory.for_agent(agent, home=app.home, config=app.config)


def _read_text_arg(words: tuple[str, ...]) -> str:
    text = " ".join(words)
    if text == "-":
        text = sys.stdin.read()
    return text


@click.group()
def memory() -> None:
    """The operational memory: where the work stands, what is still open, how we got here.

    Five names with strict roles: system-state.md (the truth of today), debts.md (what is open),
    chronicle.md (the recent causal chain), past-summary.md (the compressed past) and past/ (earlier
    cycles, layer under layer). By default in the agent's directory; --dir keeps it in a project.
    Inside a project installed with `slowloop hooks install … --project`, no flag is needed: the
    commands use the project's memory (or its agent's, when the project keeps none).

    \b
    Example:
      slowloop memory init --dir .
      slowloop memory note --dir . "moved CI to arm64 because x86 runners queue for hours"
      slowloop memory show --dir .
    """


@memory.command("init")
@memory_options
@json_option
def init_cmd(agent: str, directory: Path | None, as_json: bool) -> None:
    """Create the memory files (each with a one-line role header); existing files are kept.

    \b
    Example:
      slowloop memory init --agent my-assistant
      slowloop memory init --dir ~/code/myproject
    """
    mem = open_memory(agent, directory)
    created = mem.init()
    if as_json:
        echo_json({"root": str(mem.root), "created": list(created)})
        return
    click.echo(f"memory at {mem.root}: " + (f"created {', '.join(created)}" if created else "already there"))


@memory.command("show")
@memory_options
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="Token budget (default: no limit; the bootstrap uses bootstrap.memory_tokens).")
@json_option
def show_cmd(agent: str, directory: Path | None, budget: int | None, as_json: bool) -> None:
    """Print the root as an agent reads it at session start: state, open debts, chronicle, past summary.

    \b
    Example:
      slowloop memory show --budget 2500
    """
    from ..memory import memory_bootstrap, show_text

    mem = open_memory(agent, directory)
    mem.require()
    text = memory_bootstrap(mem, budget) if budget else show_text(mem)
    if as_json:
        from ..tokens import estimate_tokens

        echo_json({"root": str(mem.root), "text": text, "tokens": estimate_tokens(text)})
    else:
        click.echo(text, nl=False)


@memory.command("status")
@memory_options
@json_option
def status_cmd(agent: str, directory: Path | None, as_json: bool) -> None:
    """Sizes against their caps, open debts, the cycle number and the archived layers.

    \b
    Example:
      slowloop memory status --json
    """
    from ..memory import status

    st = status(open_memory(agent, directory))
    if as_json:
        echo_json(st.to_json())
        return
    if not st.exists:
        click.echo(f"no memory at {st.root} (create it with `slowloop memory init`)")
        return
    click.echo(f"memory {st.root} · cycle {st.cycle} · auto-archive {'on' if st.auto_archive else 'off'}")
    for name, f in st.files.items():
        caps = ", ".join(f"{f[k]}/{v} {k}" for k, v in f["caps"].items()) or f"{f['lines']} lines"
        click.echo(f"  {name:<16} {caps}")
    click.echo("  debts            " + ", ".join(f"{n} {k}" for k, n in st.debts.items()))
    click.echo(f"  layers           {len(st.layers)}" +
               (f" (latest past/{st.layers[-1]['name']})" if st.layers else ""))
    for item in st.over_caps:
        click.echo(f"  over cap: {item}")
    for item in st.errors:
        warn(f"error: {item}")


@memory.command("note")
@memory_options
@click.argument("text", nargs=-1, required=True)
@json_option
def note_cmd(agent: str, directory: Path | None, text: tuple[str, ...], as_json: bool) -> None:
    """Append a timestamped entry to the chronicle ("-" reads it from stdin).

    When the chronicle passes memory.chronicle_max_lines or memory.chronicle_max_tokens (and
    memory.auto_archive is on) the cycle is archived right after.

    \b
    Example:
      slowloop memory note "switched the cache key to include the arch, because arm64 jobs were flaky"
    """
    mem = open_memory(agent, directory)
    res = mem.note(_read_text_arg(text))
    if as_json:
        echo_json({"at": res.at, "text": res.text,
                   "archived": res.archived.layer.to_json() if res.archived else None})
        return
    click.echo(f"noted in {mem.path('chronicle.md')} at {res.at}")
    if res.archived:
        warn(f"the chronicle passed its threshold: cycle archived into past/{res.archived.layer.name}/")


@memory.group("debt")
def debt() -> None:
    """The debt register (debts.md): what is open, in progress or deferred, with stable ids.

    \b
    Example:
      slowloop memory debt add "CI cache ignores the runner arch"
      slowloop memory debt update D-0001 --status closed
    """


@debt.command("add")
@memory_options
@click.argument("text", nargs=-1, required=True)
@click.option("--status", type=click.Choice(["open", "in-progress", "deferred", "closed"]), default="open",
              show_default=True)
@json_option
def debt_add(agent: str, directory: Path | None, text: tuple[str, ...], status: str, as_json: bool) -> None:
    """Register a debt; it gets the next free id (D-0001, D-0002, … across all layers).

    \b
    Example:
      slowloop memory debt add "nightly backup not verified since the move"
    """
    d = open_memory(agent, directory).add_debt(_read_text_arg(text), status=status)
    if as_json:
        echo_json(d.to_json())
    else:
        click.echo(f"{d.id} [{d.status}] {d.text}")


@debt.command("update")
@memory_options
@click.argument("debt_id")
@click.option("--status", type=click.Choice(["open", "in-progress", "deferred", "closed"]))
@click.option("--text", help="A new one-line description.")
@click.option("--note", help="Add an indented note line under the debt.")
@json_option
def debt_update(agent: str, directory: Path | None, debt_id: str, status: str | None, text: str | None,
                note: str | None, as_json: bool) -> None:
    """Change a debt's status or text, or add a note. Closed debts stay until the next archive.

    \b
    Example:
      slowloop memory debt update D-0003 --status in-progress --note "repro on arm64 only"
    """
    from ..errors import UserError

    if status is None and text is None and note is None:
        raise UserError("nothing to update", hint="give --status, --text or --note")
    d = open_memory(agent, directory).update_debt(debt_id, status=status, text=text, note=note)
    if as_json:
        echo_json(d.to_json())
    else:
        click.echo(f"{d.id} [{d.status}] {d.text}")


@debt.command("list")
@memory_options
@click.option("--all", "show_all", is_flag=True, help="Include closed debts.")
@json_option
def debt_list(agent: str, directory: Path | None, show_all: bool, as_json: bool) -> None:
    """List the debts of the root (open, in progress, deferred; --all adds closed ones).

    \b
    Example:
      slowloop memory debt list --json
    """
    mem = open_memory(agent, directory)
    mem.require()
    debts = mem.debts(include_closed=show_all)
    if as_json:
        echo_json([d.to_json() for d in debts])
        return
    for d in debts:
        click.echo(f"{d.id} [{d.status}] {d.text}" + (f"  (since {d.opened[:10]})" if d.opened else ""))
        for n in d.notes:
            click.echo(f"    {n}")
    if not debts:
        click.echo("no open debts", err=True)


@memory.group("state")
def state() -> None:
    """The truth of today (system-state.md), one ## section at a time.

    \b
    Example:
      slowloop memory state set "CI" "GitHub Actions on arm64 runners; x86 only for releases"
    """


@state.command("set")
@memory_options
@click.argument("section")
@click.argument("text", nargs=-1, required=True)
@json_option
def state_set(agent: str, directory: Path | None, section: str, text: tuple[str, ...],
              as_json: bool) -> None:
    """Replace one section of the state (created if missing); "-" reads the text from stdin.

    \b
    Example:
      slowloop memory state set "Sources of truth" "the deploy config lives in infra/, not in the wiki"
    """
    mem = open_memory(agent, directory)
    mem.set_state(section, _read_text_arg(text))
    if as_json:
        echo_json({"section": section, "path": str(mem.path("system-state.md"))})
        return
    click.echo(f"state section {section!r} set in {mem.path('system-state.md')}")


@state.command("show")
@memory_options
@json_option
def state_show(agent: str, directory: Path | None, as_json: bool) -> None:
    """Print the state's sections.

    \b
    Example:
      slowloop memory state show --json
    """
    mem = open_memory(agent, directory)
    mem.require()
    secs = mem.state_sections()
    if as_json:
        echo_json([{"section": s.title, "text": s.body, "line": s.line} for s in secs])
    else:
        click.echo(mem.text("system-state.md"), nl=False)


@memory.command("archive")
@memory_options
@click.option("--force", is_flag=True, help="Archive even when the chronicle is under its thresholds.")
@click.option("--milestone", help="Name the layer after a milestone that just closed (implies archiving).")
@click.option("--model/--no-model", "use_model", default=True, show_default=True,
              help="Write past-summary.md with the configured [provider] (offline: always extractive).")
@json_option
def archive_cmd(agent: str, directory: Path | None, force: bool, milestone: str | None, use_model: bool,
                as_json: bool) -> None:
    """Move the current cycle into past/<NNNN>-<date>[-<milestone>]/ and start a fresh chronicle.

    State and open debts carry forward; closed debts stay in the layer; past-summary.md is
    regenerated under memory.summary_max_chars — by the configured model, else (or when the model
    fails) extractively: decisions, reasons, headings, closed debts. Atomic; nothing is deleted.
    Archives triggered by `memory note` never call a model: they stay fast and offline.

    \b
    Example:
      slowloop memory archive --milestone v1.0
    """
    mem = open_memory(agent, directory)
    res = mem.archive(force=force, milestone=milestone, summarize=_model_summarizer() if use_model else None)
    if res.warning:
        warn(res.warning)
    if as_json:
        echo_json({"layer": res.layer.to_json(), "reason": res.reason, "summary_by": res.summary_by,
                   "entries_archived": res.entries_archived, "debts_carried": res.debts_carried,
                   "debts_closed": res.debts_closed})
        return
    click.echo(f"archived cycle {res.layer.number} into {res.layer.path} "
               f"({res.entries_archived} entries, {res.debts_closed} closed debts kept there, "
               f"{res.debts_carried} open debts carried forward; summary: {res.summary_by})")




def _model_summarizer() -> Callable[[str], str] | None:
    """``summarize(text) -> str`` over the configured provider, or None when offline."""
    from ..memory.summary import SUMMARY_SYSTEM
    from ..providers import get_provider

    provider = get_provider(get_app().config)
    if provider is None:
        return None
    warn(f"summarising with {provider.name}: {provider.destination()}")
    return lambda text: provider.complete(SUMMARY_SYSTEM, text).text


@memory.command("dig")
@memory_options
@click.argument("layer", required=False)
@click.option("--file", "file_name", type=click.Choice(["chronicle.md", "debts.md", "system-state.md",
                                                         "past-summary.md"]),
              help="Print one file of the layer.")
@json_option
def dig_cmd(agent: str, directory: Path | None, layer: str | None, file_name: str | None,
            as_json: bool) -> None:
    """Walk down the past: no LAYER lists the layers; a LAYER shows its summary and files.

    \b
    Example:
      slowloop memory dig
      slowloop memory dig 2
      slowloop memory dig 2 --file chronicle.md
    """
    from ..errors import UserError
    from ..memory import find_layer, summary_of

    mem = open_memory(agent, directory)
    mem.require()
    if layer is None:
        if file_name:
            raise UserError("--file needs a LAYER", hint="e.g. slowloop memory dig 1 --file chronicle.md")
        layers = mem.layers()
        if as_json:
            echo_json([x.to_json() for x in layers])
            return
        if not layers:
            click.echo("no archived layers yet (cycle 1)")
        for x in layers:
            lines = sum(f.lines for f in x.files.values())
            tokens = sum(f.tokens for f in x.files.values())
            extra = f" · milestone {x.milestone}" if x.milestone else ""
            extra += f" · {x.reason}" if x.reason and x.reason != "milestone" else ""
            click.echo(f"{x.number:>4}  past/{x.name}/  {x.date}{extra} · {lines} lines, ~{tokens} tokens")
        return
    found = find_layer(mem, layer)
    if file_name:
        p = found.path / file_name
        if not p.exists():
            raise UserError(f"{p} does not exist", hint="`slowloop memory dig LAYER` lists its files")
        text = p.read_text(encoding="utf-8")
        if as_json:
            echo_json({"layer": found.name, "file": str(p), "text": text})
        else:
            click.echo(text, nl=False)
        return
    spath, summary = summary_of(mem, found)
    if as_json:
        echo_json({"layer": found.to_json(), "summary_path": str(spath), "summary": summary})
        return
    click.echo(f"layer {found.number}: {found.path}/ · archived {found.archived_at or found.date}"
               + (f" · milestone {found.milestone}" if found.milestone else ""))
    click.echo(f"summary written when it was archived ({spath}):\n")
    click.echo(summary.rstrip("\n") + "\n")
    click.echo("files:")
    for name, f in found.files.items():
        click.echo(f"  {name:<16} {f.lines} lines, ~{f.tokens} tokens")
    click.echo(f"\nnext: slowloop memory dig {found.number} --file chronicle.md"
               + (f"   or deeper: slowloop memory dig {found.number - 1}" if found.number > 1 else ""))


@memory.command("check")
@memory_options
@json_option
def check_cmd(agent: str, directory: Path | None, as_json: bool) -> None:
    """Flag role violations: history in the state, open items in the chronicle, a root over its caps.

    Exits 1 when something is flagged, 0 when the root is clean.

    \b
    Example:
      slowloop memory check || echo "the memory needs tidying"
    """
    from ..memory import check

    found = check(open_memory(agent, directory))
    if as_json:
        echo_json([v.to_json() for v in found])
    else:
        for v in found:
            click.echo(str(v))
        if not found:
            click.echo("memory roles are clean")
    if found:
        sys.exit(1)  # SystemExit passes through click and CliRunner alike
