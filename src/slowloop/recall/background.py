"""Bring an agent's search index up to date in a process of its own.

``slowloop ingest`` starts one after recording many turns (``refresh_in_background``): the command
returns when the turns are recorded, and indexing them for search (tokenising every turn's text,
about a second per few thousand turns) goes on here. Whoever searches meanwhile waits for it on
the index's lock and then finds it current; a refresh that fails is one line in
``<home>/logs/recall.log``, and the next search does the work itself.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

MODULE = "slowloop.recall.background"
LOG = "recall.log"


def refresh_in_background(agent: str, home: Path) -> int:
    """Start the refresh of ``agent``'s index detached; its pid."""
    from ..proc import spawn_detached

    env = dict(os.environ)
    env["SLOWLOOP_HOME"] = str(home)
    return spawn_detached(Path(home), ["-m", MODULE, "--agent", agent, "--home", str(home)], LOG, env)


def main(argv: list[str] | None = None) -> int:
    from ..proc import append_log

    args = list(sys.argv[1:] if argv is None else argv)
    try:
        agent = args[args.index("--agent") + 1]
        home = Path(args[args.index("--home") + 1])
    except (ValueError, IndexError):
        print(f"usage: python -m {MODULE} --agent NAME --home DIR", file=sys.stderr)
        return 2
    try:
        from .api import refresh

        stats = refresh(agent, home)
    except Exception:  # noqa: BLE001 - logged; the next search refreshes the index itself
        append_log(home, LOG, f"{agent}: refresh failed: {traceback.format_exc().strip()}")
        return 1
    append_log(home, LOG, f"{agent}: {stats.added} added, {stats.updated} updated, "
                          f"{stats.removed} removed; {stats.total} entries in {stats.seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
