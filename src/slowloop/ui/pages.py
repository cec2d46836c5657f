"""The review page's HTML: server-rendered, plain forms, no script, no remote asset.

Every value from the home is escaped here (``_e``); every form that writes carries the page's
anti-forgery field. A figure the data does not have is left out, never estimated.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from . import chart

TABS = [("", "Lessons"), ("review", "Review"), ("memo", "Memo"), ("skills", "Skills"),
        ("memory", "Memory"), ("history", "History"), ("search", "Search")]


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _u(value: str) -> str:
    return quote(value, safe="")


class Page:
    """One page being written: the agent it is about, the anti-forgery token for its forms."""

    def __init__(self, csrf: str, agent: str | None = None, agents: Iterable[str] = (),
                 here: str = "/") -> None:
        self.csrf = csrf
        self.here = here
        self.agent = agent
        self.agents = list(agents)

    def base(self) -> str:
        return f"/a/{_u(self.agent or '')}"

    def form(self, action: str, button: str, fields: dict[str, Any] | None = None, *,
             extra: str = "", cls: str = "") -> str:
        hidden = "".join(f'<input type="hidden" name="{_e(k)}" value="{_e(v)}">'
                         for k, v in {"csrf": self.csrf, "back": self.here, **(fields or {})}.items())
        return (f'<form method="post" action="{_e(self.base() + action)}" class="{cls}">{hidden}'
                f'{extra}<button type="submit">{_e(button)}</button></form>')

    def frame(self, title: str, body: str, *, tab: str | None = None, waiting: int = 0,
              note: dict[str, str] | None = None) -> str:
        ok, error = (note or {}).get("ok", ""), (note or {}).get("error", "")
        nav = ""
        if self.agent is not None:
            links = []
            for path, label in TABS:
                n = f" ({waiting})" if path == "review" and waiting else ""
                cur = ' aria-current="page"' if path == tab else ""
                links.append(f'<a href="{_e(self.base() + ("/" + path if path else ""))}"{cur}>'
                             f'{_e(label)}{n}</a>')
            nav = f'<nav>{"".join(links)}</nav>'
        others = "".join(f'<a href="/a/{_u(a)}"{" aria-current=page" if a == self.agent else ""}>{_e(a)}</a>'
                         for a in self.agents)
        said = ((f'<p class="ok" role="status">{_e(ok)}</p>' if ok else "") +
                (f'<p class="error" role="alert">{_e(error)}</p>' if error else ""))
        return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{_e(title)} · slowloop</title><link rel="stylesheet" href="/static/style.css">'
                f'</head><body><header><a class="brand" href="/">slowloop</a>'
                f'<span class="agents">{others}</span></header>{nav}<main>'
                f'<h1>{_e(title)}</h1>{said}{body}</main></body></html>')


# -- the home and an agent's lessons ----------------------------------------------------------

def start(page: Page, home: str, summaries: list[dict]) -> str:
    if not summaries:
        return page.frame("Nothing learned yet", f"""
<p>The home <code>{_e(home)}</code> has no agent yet: an agent appears with its first recorded turn.</p>
<ol class="steps">
<li>In a project you work on with Claude Code: <code>slowloop hooks install claude-code --project --agent myproj</code>
(Codex: <code>slowloop hooks install codex --project --agent myproj --trust</code>), then go back to work.</li>
<li>Or record the transcripts you have: <code>slowloop ingest ~/.claude/projects/myproj --agent myproj</code>.</li>
<li>Or see the whole loop on bundled examples first: <code>slowloop demo --home /tmp/sl-demo</code>, then
<code>SLOWLOOP_HOME=/tmp/sl-demo slowloop ui</code>.</li>
</ol><p>When you correct your agent, what it learned shows here, with your words, and waits for you when it should.</p>""")
    rows = "".join(
        f'<tr><td><a href="/a/{_u(s["agent"])}">{_e(s["agent"])}</a></td><td>{s["turns"]}</td>'
        f'<td>{_e(_last(s))}</td><td>{s["waiting"]["proposals"]}</td><td>{_e(s["next_reflection"])}</td></tr>'
        for s in summaries)
    return page.frame("Your agents", f'<table><thead><tr><th>agent</th><th>turns</th><th>last learned</th>'
                      f'<th>waiting for you</th><th>next reflection</th></tr></thead><tbody>{rows}</tbody></table>')


def _last(s: dict) -> str:
    ll = s.get("last_learned")
    return f"R{ll['id']} at {ll['finished_at']}" if ll else "nothing yet"


def overview(page: Page, s: dict, timeline: list[dict], note: dict[str, str] | None = None) -> str:
    w = s["waiting"]
    parts = [f'<section class="status"><p><b>{s["turns"]}</b> turn(s) recorded'
             f'{", last at " + _e(s["last_turn_at"]) if s["last_turn_at"] else ""}. '
             f'Next reflection: {_e(s["next_reflection"])}.</p>']
    if w["proposals"]:
        unl = f", {w['unlearned']} of them a correction no rule was learned from" if w["unlearned"] else ""
        parts.append(f'<p class="waiting"><a href="{_e(page.base())}/review">{w["proposals"]} proposal(s) '
                     f'wait for you</a>{unl}.</p>')
    parts.append("</section>")
    parts.append(chart.weekly(s.get("weeks") or [], chart.repeat_series(s)))
    parts.append("<h2>What was learned, newest first</h2>")
    if not timeline:
        parts.append("<p>No reflection has changed anything yet. When one does, each lesson shows here "
                     "with the words that taught it.</p>")
    parts += [_lesson(page, r) for r in timeline]
    return page.frame(s["agent"], "".join(parts), tab="", waiting=w["proposals"], note=note)


def _lesson(page: Page, r: dict) -> str:
    evidence = "".join(_said(ev) for ev in r["evidence"]) or (
        '<p class="muted">No correction among the turns this reflection read: it learned from errors '
        'the agent recovered from, or from long tasks.</p>')
    lessons = "".join(f"<li>{_e(x)}</li>" for x in r["lessons"]) or "<li class=muted>(all of it undone since)</li>"
    live = [c for c in r["changes"] if not c["undone_by"]]
    undo = page.form("/undo", f"Undo R{r['id']} whole", {"change": f"R{r['id']}"}, cls="inline") if live else ""
    return (f'<article class="lesson" id="R{r["id"]}"><h3>R{r["id"]} · {_e(r["finished_at"])}</h3>'
            f'<div class="evidence"><h4>What you said</h4>{evidence}</div>'
            f'<h4>What it learned</h4><ul>{lessons}</ul>'
            f'<p class="muted">Proposed by {_e(r["proposer"])}. {len(r["changes"])} change(s), '
            f'{len(r["changes"]) - len(live)} undone.</p>{undo}</article>')


def _said(ev: dict) -> str:
    did = "".join(f"<li><code>{_e(a)}</code></li>" for a in ev["agent_did"])
    before = f'<p class="muted">Just before, the agent ran:</p><ul>{did}</ul>' if did else ""
    read = "; ".join(ev["read"])
    return (f'<blockquote>{_e(ev["words"])}</blockquote>{before}'
            f'<p class="muted">turn {ev["turn"]}, session {_e(ev["session"])}, {_e(ev["at"])}'
            f'{" — read as " + _e(read) if read else ""}</p>')


# -- deciding ---------------------------------------------------------------------------------

def _quarantined(page: Page, h: dict) -> str:
    """A teammate's change a sync refused: who wrote it, why it was refused, accept or drop."""
    if not h.get("acceptable"):
        accept = f'<p class="muted">It cannot be taken in ({_e(h["kind"])}): ask its author to change it.</p>'
    elif h.get("dangerous"):
        accept = page.form(f"/quarantine/{h['id']}/accept", "Take it in anyway", {"dangerous": "yes"}, cls="danger")
    else:
        accept = page.form(f"/quarantine/{h['id']}/accept", "Take it in")
    drop = page.form(f"/quarantine/{h['id']}/drop", "Drop it")
    return (f'<article class="proposal" id="Q{h["id"]}"><h3>Q{h["id"]} · {_e(h["path"])} · from {_e(h["by"])}</h3>'
            f'<p class="why">Refused by the sync because: {_e(h["reason"])}</p>'
            f'<div class="actions">{accept}{drop}</div></article>')


def review(page: Page, rows: list[dict], decided: list[dict], note: dict[str, str] | None = None,
           quarantined: list[dict] | None = None) -> str:
    parts = []
    if quarantined:
        parts.append("<h2>From a teammate, refused by the sync</h2>" + "".join(_quarantined(page, h) for h in quarantined))
    if not rows and not quarantined:
        parts.append("<p>Nothing waits for you. Rules learned from your words that touch a danger class, "
                     "corrections no rule could be built from, and changes to text you wrote wait here.</p>")
    for p in rows:
        edit = ""
        if p["wording"] is not None and p["action"].get("op") in ("add", "replace"):
            edit = page.form(f"/review/{p['id']}/approve", "Accept this wording", extra=(
                f'<label>Your wording<textarea name="text" rows="2">{_e(p["wording"])}</textarea></label>'),
                cls="edit")
        accept = page.form(f"/review/{p['id']}/approve", "Accept")
        reject = page.form(f"/review/{p['id']}/decline", "Reject", cls="danger")
        parts.append(
            f'<article class="proposal" id="P{p["id"]}"><h3>P{p["id"]}'
            f'{" · R" + str(p["reflection_id"]) if p["reflection_id"] else ""} · {_e(p["at"])}</h3>'
            f'<p class="rule">{_e(p["summary"])}</p><p class="why">Waits because: {_e(p["reason"])}</p>'
            f'<div class="actions">{accept}{reject}</div>{edit}</article>')
    if decided:
        parts.append("<h2>Decided</h2><ul>" + "".join(
            f'<li>P{d["id"]} {_e(d["status"])} at {_e(d["decided_at"])}: {_e(d["summary"])} — {_e(d["outcome"])}</li>'
            for d in decided) + "</ul>")
    return page.frame("Waiting for you", "".join(parts), tab="review", waiting=len(rows) + len(quarantined or []),
                      note=note)


def memo(page: Page, view: dict, note: dict[str, str] | None = None) -> str:
    parts = [f'<p class="muted">{_e(view["path"])} — the agent reads this at the start of each session.</p>']
    for section, d in view["sections"].items():
        parts.append(f'<h2>{_e(d["heading"])} <small>{d["chars"]}/{d["cap"]} characters</small></h2>')
        if not d["entries"]:
            parts.append('<p class="muted">(empty)</p>')
        for n, entry in enumerate(d["entries"], start=1):
            parts.append(_rule(page, section, n, entry, d))
    return page.frame("Memo", "".join(parts), tab="memo", note=note)


def _rule(page: Page, section: str, n: int, entry: Any, d: dict) -> str:
    text, extra = _entry(entry, d, n)
    keep = {"section": section, "n": n, "expect": text}
    edit = page.form("/memo/replace", "Save wording", keep, cls="edit", extra=(
        f'<label>Wording<textarea name="text" rows="2">{_e(text)}</textarea></label>'))
    retire = page.form("/memo/remove", "Retire", keep, cls="danger inline")
    return (f'<article class="rule" id="{_e(section)}-{n}"><p><b>{n}.</b> {_e(text)}</p>'
            f'{_details("Evidence", extra.get("evidence"))}{_outcomes(extra.get("outcomes"))}'
            f'<details><summary>Edit or retire</summary>{edit}{retire}</details></article>')


def _entry(entry: Any, d: dict, n: int = 0) -> tuple[str, dict]:
    """A memo entry's text and what the ledger gives for it (evidence, outcomes): ``memo show
    --json``'s per-section ``rules``, one per entry in order (None for a line that is no rule)."""
    rules = d.get("rules") or []
    if 0 < n <= len(rules) and len(rules) == len(d.get("entries") or []):
        r = rules[n - 1]
        return str(entry), r if isinstance(r, dict) else {}
    return str(entry), {}


def _details(title: str, value: Any) -> str:
    if not value:
        return ""
    if isinstance(value, dict):
        inner = "".join(f"<dt>{_e(k.replace('_', ' '))}</dt><dd>{_e(v)}</dd>" for k, v in value.items()
                        if v not in (None, "", [], {}))
        inner = f"<dl>{inner}</dl>"
    elif isinstance(value, list):
        inner = "".join(_details("", v) if isinstance(v, dict) else f"<p>{_e(v)}</p>" for v in value)
    else:
        inner = f"<p>{_e(value)}</p>"
    return f'<div class="evidence">{f"<h4>{_e(title)}</h4>" if title else ""}{inner}</div>'


def _outcomes(value: Any) -> str:
    if isinstance(value, str) and value:
        return f'<p class="outcomes muted">{_e(value)}</p>'  # "not checkable"
    if not isinstance(value, dict) or not value:
        return ""
    cells = "".join(f'<span class="outcome {_e(k)}">{_e(k.replace("_", " "))} <b>{_e(v)}</b></span>'
                    for k, v in value.items() if not isinstance(v, dict | list))
    return f'<p class="outcomes">{cells}</p>'


def skills(page: Page, rows: list[dict], note: dict[str, str] | None = None) -> str:
    if not rows:
        return page.frame("Skills", "<p>No skill yet: a reflection writes one when a task went through a "
                          "real error and a recovery.</p>", tab="skills", note=note)
    head = ("<tr><th>skill</th><th>shown</th><th>used</th><th>use rate</th><th>edited after use</th>"
            "<th>ineffective</th><th>last used</th></tr>")
    body = "".join(
        f'<tr class="{"retired" if r["retired"] else ""}"><td><a href="{_e(page.base())}/skills/{_u(r["name"])}">'
        f'{_e(r["name"])}</a>{" (retired)" if r["retired"] else ""}<br><small>{_e(r["description"][:160])}</small></td>'
        f'<td>{m.get("impressions", 0)}</td><td>{m.get("invocations", 0)}</td>'
        f'<td>{_pct(m.get("invocation_rate"))}</td><td>{_pct(m.get("edit_after_use_rate"))}</td>'
        f'<td>{_pct(m.get("ineffective_rate"))} of {m.get("judged_invocations", 0)}</td>'
        f'<td>{_e(r["metadata"].get("lastUsedAt", "never"))}</td></tr>'
        for r in rows for m in [r["metrics"]])
    return page.frame("Skills", f"<table><thead>{head}</thead><tbody>{body}</tbody></table>", tab="skills", note=note)


def _pct(x: Any) -> str:
    return f"{x:.0%}" if isinstance(x, int | float) else "–"


def skill(page: Page, s: dict, note: dict[str, str] | None = None) -> str:
    base = f"/skills/{_u(s['name'])}"
    edit = page.form(f"{base}/edit", "Save", cls="edit", extra=(
        f'<label>Body (Markdown)<textarea name="body" rows="16">{_e(s["body"])}</textarea></label>'))
    retire = "" if s["retired"] else page.form(f"{base}/retire", "Retire", {"back": page.base() + "/skills"},
                                               cls="danger", extra=(
        '<label>Why <input name="reason" placeholder="kept in the history"></label>'))
    meta = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in s["metadata"].items())
    return page.frame(s["name"], f'<p>{_e(s["description"])}</p><p class="muted">{_e(s["path"])}</p>'
                      f'<dl>{meta}</dl>{_outcomes(s["metrics"])}{edit}{retire}', tab="skills", note=note)


# -- the rest of what it knows ----------------------------------------------------------------

def memory(page: Page, m: dict, note: dict[str, str] | None = None) -> str:
    if not m["exists"]:
        body = (f'<p>No operational memory at <code>{_e(m["root"])}</code> yet: '
                f'<code>slowloop memory init --agent {_e(page.agent)}</code> creates it.</p>')
    else:
        debts = ", ".join(f"{n} {k}" for k, n in m["debts"].items())
        errors = "".join(f'<p class="error">{_e(x)}</p>' for x in m["errors"])
        body = (f'<p class="muted">{_e(m["root"])} · debts: {_e(debts)}</p>{errors}'
                f'<pre class="markdown">{_e(m["text"])}</pre>')
    return page.frame("Operational memory", body, tab="memory", note=note)


def history(page: Page, rows: list[dict], note: dict[str, str] | None = None) -> str:
    if not rows:
        return page.frame("History", "<p>No change yet.</p>", tab="history", note=note)
    items = []
    for r in rows:
        refl = f" R{r['reflection_id']}" if r["reflection_id"] else ""
        state = (f'<span class="muted">undone by {r["undone_by"]}</span>' if r["undone_by"] else
                 page.form("/undo", "Undo", {"change": r["id"]}, cls="inline"))
        diff = _diff(r["before"], r["after"])
        items.append(f'<li id="c{r["id"]}"><b>{r["id"]}</b> {_e(r["at"])} · {_e(r["actor"])}{refl} · {_e(r["op"])} '
                     f'{_e(r["kind"])} <code>{_e(r["target"])}</code>{" — " + _e(r["note"]) if r["note"] else ""} '
                     f'{state}<details><summary>diff</summary><pre class="diff">{diff}</pre></details></li>')
    return page.frame("History", f'<ul class="history">{"".join(items)}</ul>', tab="history", note=note)


def _diff(before: str | None, after: str | None) -> str:
    import difflib

    lines = difflib.unified_diff((before or "").splitlines(), (after or "").splitlines(),
                                 "before", "after", lineterm="", n=1)
    out = []
    for ln in lines:
        cls = "add" if ln.startswith("+") else "del" if ln.startswith("-") else ""
        out.append(f'<span class="{cls}">{_e(ln)}</span>')
    return "\n".join(out) or "(no text change)"


def search(page: Page, query: str, hits: list[dict] | None, problems: list[str], note: dict[str, str] | None = None) -> str:
    form = (f'<form method="get" action="{_e(page.base())}/search" class="search">'
            f'<input type="search" name="q" value="{_e(query)}" placeholder="the CI failure with the flaky cache">'
            f'<button type="submit">Search</button></form>')
    out = [form] + [f'<p class="error">{_e(p)}</p>' for p in problems]
    if hits is not None and not hits:
        out.append(f"<p>No match for {_e(query)!s}.</p>")
    for h in hits or []:
        snippet = _e(h.get("snippet", "")).replace("«", "<mark>").replace("»", "</mark>")
        out.append(f'<article class="hit"><p class="muted">[{_e(h.get("kind"))}] {_e((h.get("time") or "")[:16])} '
                   f'{_e(h.get("source"))}</p><p>{snippet}</p></article>')
    return page.frame("Search everything past", "".join(out), tab="search", note=note)


def refused(reason: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>refused · slowloop</title>'
            f'</head><body><h1>Refused</h1><p>{_e(reason)}</p><p>Open the address <code>slowloop ui</code> '
            f'printed (it carries this session\'s token).</p></body></html>')
