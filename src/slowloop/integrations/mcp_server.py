"""``slowloop mcp``: the library's operations as MCP tools over stdio.

Each tool is a thin wrapper over one library function, named like the CLI command that does the
same. Arguments are validated by the library (a bad one comes back as a tool error that names the
value and what to do). The ``mcp`` package is an optional extra, imported only here.

The client is an agent, and possibly one a web page or a README has talked into something: every
result passes the redaction layer before it reaches the model behind the client, text it writes
where future sessions read it passes the safety gate, and the turns it records are its own account
(``reported_by_agent``), never the person's corrections.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..errors import SlowloopError, UserError
from ..paths import home as default_home, validate_agent_name

EXTRA_HINT = "install it with: pip install 'slowloop[mcp]'"


def _mcp():
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise UserError("the MCP server needs the `mcp` package (version 2)", hint=EXTRA_HINT) from None
    return MCPServer, ToolError


def _tool(server, tool_error, description: str):
    """Register a tool whose slowloop errors reach the client with their message and hint (the
    SDK would replace any other exception's text with a generic "error executing tool")."""
    def register(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return _redacted(fn(*args, **kwargs))
            except SlowloopError as exc:
                raise tool_error(str(exc)) from exc
        return server.tool(description=description)(wrapper)
    return register


def _redacted(value: Any) -> Any:
    """A tool result as it may reach the model behind the client: no secret in any string."""
    from ..providers.boundary import outgoing

    if isinstance(value, str):
        return outgoing(value)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


def _gated(text: str | None, where: str) -> None:
    if text:
        from ..safety.gate import check

        check(text, where=where, hint="a person can write it with `slowloop memory` at the CLI")


def build_server(agent: str = "default", home: Path | None = None, project: Path | None = None):
    """An MCP server whose tools act on ``agent`` in ``home``; with ``project`` (or a project
    install around the working directory), the memory tools use the project's own memory when it
    has one (``slowloop memory init --dir``) and its contexts are listed and loadable."""
    validate_agent_name(agent)
    h = Path(home) if home is not None else default_home()
    from ..places.targets import project_around

    project = Path(project) if project is not None else project_around(h)
    server_class, tool_error = _mcp()
    server = server_class(
        name="slowloop", version=_version(), log_level="WARNING",
        instructions=(f"slowloop's memory of how agent {agent!r} works: its learned skills, its "
                      "self-understanding memo, its operational memory (state, debts, chronicle) and "
                      "a search over everything past. Read a skill before the task it fits."))

    def lib():
        from ..skills import SkillLibrary

        return SkillLibrary(agent, home=h)

    def memory():
        from ..memory import Memory

        if project is not None and (project / "memory" / "system-state.md").is_file():
            return Memory.for_dir(project)
        return Memory.for_agent(agent, home=h)

    def contexts():
        from ..memory.contexts import Contexts

        found = {c.name: c for c in Contexts.for_agent(agent, h).list()}
        if project is not None:
            found.update({c.name: c for c in Contexts.for_dir(project).list()})
        return found

    @_tool(server, tool_error, "List the contexts (named instruction sets for a kind of work) of this "
                             "agent and of the project: name and when to load each.")
    def list_contexts() -> list[dict[str, str]]:
        return [{"name": c.name, "description": c.description} for c in contexts().values()]

    @_tool(server, tool_error, "Load one context by name: its rules, layout and how work is done there.")
    def load_context(name: str) -> str:
        found = contexts()
        if name not in found:
            raise tool_error(f"no context named {name!r} (contexts: {', '.join(sorted(found)) or 'none'})")
        return found[name].body

    @_tool(server, tool_error, "List the skills this agent has learned: name and when to use each.")
    def list_skills() -> list[dict[str, str]]:
        return [{"name": s.name, "description": s.description} for s in lib().list()]

    @_tool(server, tool_error, "Read one learned skill (its steps). Read it before starting the task "
                             "it fits; each read counts as a use of the skill.")
    def read_skill(name: str) -> str:
        return lib().read(name, source="mcp")

    @_tool(server, tool_error, "Show the self-understanding memo: strengths and pitfalls, and the "
                             "plays worked out for this user and domain.")
    def show_memo() -> str:
        from ..memo import Memo

        return Memo(agent, home=h).render() or "(the memo is empty: nothing learned about how I work yet)"

    @_tool(server, tool_error, "Show the operational memory root: system state, open debts, recent "
                             "chronicle and past summary.")
    def show_memory() -> str:
        from ..memory import show_text

        mem = memory()
        mem.require()
        return show_text(mem)

    @_tool(server, tool_error, "Append a note to the chronicle: what happened in this session and "
                             "why (one or two sentences).")
    def append_memory(text: str) -> dict[str, Any]:
        _gated(text, "the chronicle")
        res = memory().note(text)
        return {"at": res.at, "text": res.text, "archived": res.archived is not None}

    @_tool(server, tool_error, "List the debts register: what is open, in progress or deferred "
                             "(closed ones too with include_closed).")
    def list_debts(include_closed: bool = False) -> list[dict[str, Any]]:
        mem = memory()
        mem.require()
        return [d.to_json() for d in mem.debts(include_closed=include_closed)]

    @_tool(server, tool_error, "Register something left open (a debt) in debts.md: one line saying "
                             "what is open; it gets a stable id (D-0007) a later session closes.")
    def add_debt(text: str) -> dict[str, Any]:
        _gated(text, "the debts register")
        mem = memory()
        mem.require()
        return mem.add_debt(text).to_json()

    @_tool(server, tool_error, "Set one section of system-state.md, the truth of today (what the "
                             "project uses now, its caveats, its sources of truth): no history there.")
    def set_state(section: str, text: str) -> dict[str, Any]:
        _gated(section, "the system state")
        _gated(text, "the system state")
        mem = memory()
        mem.set_state(section, text)
        return {"section": section, "path": str(mem.path("system-state.md"))}

    @_tool(server, tool_error, "Update one debt by id (e.g. D-0003): its status (open, in-progress, "
                             "deferred, closed), its text, or add a note line.")
    def update_debt(debt_id: str, status: str | None = None, text: str | None = None,
                    note: str | None = None) -> dict[str, Any]:
        _gated(text, "the debts register")
        _gated(note, "the debts register")
        return memory().update_debt(debt_id, status=status, text=text, note=note).to_json()

    @_tool(server, tool_error, "Search everything past (turns, chronicle, debts, skills, memo) for "
                             "a question like 'when did we last see this CI failure?'. Best first.")
    def search(query: str, k: int = 10, kinds: list[str] | None = None) -> list[dict[str, Any]]:
        from ..recall import refresh, search as recall_search

        refresh(agent, home=h)
        return [hit.to_dict() for hit in recall_search(query, agent, kinds=kinds, k=k, home=h,
                                                       mode="lexical")]

    @_tool(server, tool_error, "Record a finished conversation turn for learning: an OpenAI- or "
                             "Anthropic-style message list (format 'openai', 'anthropic' or omitted "
                             "to detect). Give session_id to keep conversations apart.")
    def record_turn(messages: list[dict[str, Any]], format: str | None = None,
                    session_id: str | None = None) -> list[dict[str, Any]]:
        from ..transcripts import message_format
        from .api import observe_messages

        return observe_messages(messages, agent=agent, format=message_format(format),
                                session_id=session_id, home=h,
                                reported_by_agent=True)

    @_tool(server, tool_error, "Tell slowloop the user changed the result of a skill-assisted answer "
                             "(name the skill, or omit it for the skills read last).")
    def record_edit(skill: str | None = None, note: str = "") -> list[str]:
        return lib().record_edit(skill, note)

    return server


def _version() -> str:
    from .. import __version__

    return __version__


def serve(agent: str = "default", home: Path | None = None, project: Path | None = None) -> None:
    """Run the server on stdin/stdout until the client closes it."""
    build_server(agent, home, project).run("stdio")
