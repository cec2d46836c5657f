"""``slowloop mcp``: serve the library's operations to an MCP client over stdio."""

from __future__ import annotations

from pathlib import Path

import click

from .common import agent_option, get_app


@click.command()
@agent_option
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A project folder whose own memory and contexts the tools use (default: the project "
                   "installed with `slowloop hooks install --project` around the working directory).")
def mcp(agent: str, directory: Path | None) -> None:
    """Run slowloop as an MCP server on stdin/stdout (needs: pip install 'slowloop[mcp]').

    Tools: list_skills, read_skill, show_memo, show_memory, append_memory, list_debts,
    update_debt, list_contexts, load_context, search, record_turn, record_edit.

    \b
    Example:
      claude mcp add slowloop -- slowloop mcp --agent myproj
      codex mcp add slowloop -- slowloop mcp
    """
    from ..integrations.mcp_server import serve

    serve(agent, get_app().home, directory)
