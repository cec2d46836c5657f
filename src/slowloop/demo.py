"""``slowloop demo``: the whole loop on bundled example transcripts, in a throw-away home.

observe → score → reflect (offline distiller, no model, no network) → skills and memo → the next
session's bootstrap, printing at each step what happened and why.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .config import load_config
from .ingest import expand_paths, observe_file, record_observed
from .paths import AgentLayout, agent_dir
from .store import open_store
from .store.db import URL_VARIABLE
from .transcripts.model import ParseReport

DEMO_AGENT = "demo"


def examples_dir() -> Path:
    return Path(str(resources.files("slowloop") / "examples"))


@dataclass
class DemoResult:
    home: Path
    observed: int = 0
    reflect_worthy: int = 0
    outcome: object | None = None
    bootstrap: str = ""
    learned_files: list[Path] = field(default_factory=list)


def run_demo(home: Path | None = None, *, out: Callable[[str], None] = print,
             task: str = "add a date-formatting library to the webshop") -> DemoResult:
    # The demo's ledger is the throw-away home's own SQLite file, even where the person's ledger
    # is on a shared PostgreSQL server: example turns must not land in a team's database.
    saved = os.environ.pop(URL_VARIABLE, None)
    try:
        return _run_demo(home, out=out, task=task)
    finally:
        if saved is not None:
            os.environ[URL_VARIABLE] = saved


def _run_demo(home: Path | None, *, out: Callable[[str], None], task: str) -> DemoResult:
    from .bootstrap import build_bootstrap
    from .reflect.cycle import reflect_agent

    home = Path(home) if home else Path(tempfile.mkdtemp(prefix="slowloop-demo-"))
    cfg = load_config(home)
    res = DemoResult(home=home)
    files = expand_paths([examples_dir()])
    out(f"slowloop demo — home {home} (a throw-away folder; nothing else on this machine is touched)\n")
    out("1. OBSERVE — every turn of the example transcripts, counted locally, no model call:")
    with open_store(home=home) as store:
        for path in files:
            report = ParseReport()
            for ot in observe_file(path, cfg, report=report):
                record_observed(store, DEMO_AGENT, ot)
                res.observed += 1
                t, o, s = ot.turn, ot.observation, ot.score
                task_line = " ".join(t.user_text.split())[:70]
                flags = []
                if o.corrected:
                    flags.append(f"corrected ({o.correction.evidence})")
                for e in o.errors:
                    flags.append(f"{e.kind} error: {e.evidence}")
                if o.recovered:
                    flags.append("recovered")
                if o.aborted:
                    flags.append("aborted by the user")
                verdict = "REFLECT" if s.reflect else "pass"
                sig = " + ".join(f"{x.name} {x.weight:g}" for x in s.signals) or "no signal"
                out(f"   {path.name} #{t.index}: “{task_line}”")
                out(f"      {o.tool_calls} tool call(s); {'; '.join(flags) or 'nothing notable'}")
                out(f"      {sig} = {s.score:g} (threshold {s.threshold:g}) → {verdict}")
                res.reflect_worthy += int(s.reflect)
        out(f"\n   {res.observed} turns observed, {res.reflect_worthy} worth reflecting on. "
            "The network timeout is TRANSIENT: it never counts as a lesson.\n")

        out("2. REFLECT — the offline distiller (no model configured, nothing leaves the machine):")
        outcome = reflect_agent(DEMO_AGENT, home=home, store=store, cfg=cfg, provider=None, force=True)
        res.outcome = outcome
        for a in outcome.applied:
            act = a["action"]
            what = act.get("text") or act.get("new") or act.get("body", "").strip().splitlines()[-1]
            where = (f"memo / {act['section']}" if act["type"] == "update_memo"
                     else f"skill {act.get('name')}")
            out(f"   + {act['type']} → {where}")
            out(f"     rule: {what.lstrip('- ')}")
            out(f"     why:  {act['reason']}")
        for r in outcome.rejected:
            out(f"   - rejected: {r['reason']}")
        for n in outcome.notes:
            out(f"   · {n}")
        out(f"   status: {outcome.status}; sent to: {outcome.sent_to}")
        if outcome.limits:
            out(f"   limits: {outcome.limits}")

    adir = agent_dir(DEMO_AGENT, base=home)
    res.learned_files = sorted([p for p in [AgentLayout(adir).memo, *AgentLayout(adir).skill_files()]
                                if p.exists()])
    out("\n3. WHAT WAS LEARNED — plain Markdown you can open and edit:")
    for p in res.learned_files:
        out(f"   {p}")
    out("\n4. THE NEXT SESSION'S BOOTSTRAP — what the agent reads first "
        f"(task: “{task}”):\n")
    boot = build_bootstrap(DEMO_AGENT, task=task, home=home)
    res.bootstrap = boot.text
    out("   " + boot.text.replace("\n", "\n   "))
    out(f"\n   ({boot.tokens} tokens; skills shown: {', '.join(boot.skills_shown) or 'none'})")
    out("\nExplore it:")
    out(f"   export SLOWLOOP_HOME={home}")
    out("   slowloop skills list --agent demo; slowloop memo show --agent demo; "
        "slowloop history --agent demo; slowloop history undo R1 --agent demo")
    return res
