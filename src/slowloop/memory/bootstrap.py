"""What a session reads from the memory, within a token budget; and every entry, for recall.

``memory_bootstrap`` renders, in this order, where we are — the last session's entry, the open
debts, the state — then how we got here: the cycle's earlier entries and the past summary.
When the whole does not fit ``budget_tokens`` it trims in this stated order, each step only as far
as needed, and leaves a one-line marker saying what was cut and where to find it:

1. the past summary, from its end (the oldest cycles go first), down to nothing;
2. the chronicle, oldest entries first (the newest entry goes last);
3. the debts: deferred ones first, then the rest from the end of the register;
4. the state, from its end.

The rationale: the state and what is still open are what an agent cannot resume without; the recent
chain of causes comes next; the compressed past is one `memory dig` away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .. import markdown
from ..tokens import estimate_tokens, truncate_to_tokens
from . import debts as debts_mod, sections
from .archive import list_layers
from .files import CHRONICLE, DEBTS, STATE, SUMMARY, Memory

EntryKind = Literal["chronicle", "debt", "state", "summary"]
TRIM_ORDER: tuple[str, ...] = ("past summary", "chronicle (oldest first)", "deferred then other debts", "state")
SHOW_BUDGET = 1_000_000


@dataclass(frozen=True)
class MemoryEntry:
    kind: EntryKind
    path: Path
    line: int
    at: str | None  # ISO time for chronicle entries and debts (opened); None for state and summary
    text: str
    layer: str | None = None  # "past/0003-2025-01-09-v1" or None for the root


def _body(text: str) -> str:
    """Drop the role header (line 1) and demote headings one level to nest under ours."""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    # a "# comment" inside a code block is code: it stays as written
    return "\n".join("#" + x if not code and markdown.heading(x) else x
                     for x, code in markdown.code_lines(lines)).strip("\n")


def _render_debt(d: debts_mod.Debt) -> str:
    since = f" (since {d.opened[:10]})" if d.opened else ""
    notes = [n for n in d.notes if not n.startswith(debts_mod.AUTO_NOTE)]  # slowloop's bookkeeping
    return "\n".join([f"- {d.id} [{d.status}] {d.text}{since}"] + [f"  {n}" for n in notes])


def _as_memory(mem: Memory | Path | str) -> Memory:
    return mem if isinstance(mem, Memory) else Memory(Path(mem))


def memory_bootstrap(mem: Memory | Path, budget_tokens: int) -> str:
    """The memory root as a session should read it, at most ``budget_tokens`` (estimated) tokens.

    ``mem`` is a ``Memory`` or the path of a memory root. A missing memory gives ``""``.
    """
    mem = _as_memory(mem)
    if budget_tokens <= 0 or not mem.exists():
        return ""
    with mem.lock(shared=True):
        state = _body(mem.read(STATE)[0])
        dfile = debts_mod.parse_debts(mem.read(DEBTS)[0], str(mem.path(DEBTS)))
        chron_pre, entries = sections.chronicle_entries(mem.read(CHRONICLE)[0])
        summary = _body(mem.read(SUMMARY)[0])
        cycle = len(list_layers(mem)) + 1
    open_debts = [d for d in dfile.debts if d.status != "closed"]
    cycle_line = "\n".join(x for x in chron_pre[1:] if x.strip())
    title = f"# Operational memory · cycle {cycle} · {mem.root}"

    cut: dict[str, str] = {}

    def render(st: str, debts: list[debts_mod.Debt], ents: list[sections.ChronicleEntry], summ: str) -> str:
        # where we are first: the last session, what is still open, the truth of today; then how
        # we got here
        parts = [title]
        last = f"### {ents[-1].at}\n{ents[-1].text}".rstrip() if ents else ""
        parts.append("## Last session (chronicle.md)\n" + (last or cut.get("last", "(no entries yet)")))
        dl = "\n".join(_render_debt(d) for d in debts) or "(none open)"
        parts.append(f"## Open debts (debts.md) · {len(open_debts)}\n" + dl + cut.get("debts", ""))
        parts.append("## State (system-state.md)\n" + (st or "(empty)") + cut.get("state", ""))
        ch = [cycle_line] if cycle_line else []
        ch += [f"### {e.at}\n{e.text}".rstrip() for e in ents[:-1]]
        if ch or cut.get("chronicle"):
            parts.append("## Earlier in this cycle (chronicle.md)\n" + cut.get("chronicle", "") + "\n\n".join(ch))
        if summ or cut.get("summary"):
            parts.append("## Past summary (past-summary.md)\n" + summ + cut.get("summary", ""))
        return "\n\n".join(parts) + "\n"

    st, debts, ents, summ = state, list(open_debts), list(entries), summary
    text = render(st, debts, ents, summ)
    if estimate_tokens(text) <= budget_tokens:
        return text

    # 1. past summary, from its end, whole lines
    cut["summary"] = "\n[… past summary cut to fit; read past-summary.md or `slowloop memory dig`]"
    summ = _longest_prefix(summ, lambda x: estimate_tokens(render(st, debts, ents, x)) <= budget_tokens)
    text = render(st, debts, ents, summ)
    # 2. chronicle, oldest entries first
    dropped = 0
    while estimate_tokens(text) > budget_tokens and ents:
        ents.pop(0)
        dropped += 1
        cut["chronicle"] = f"[… {dropped} older entries cut to fit; read chronicle.md]\n"
        cut["last"] = "(cut to fit; read chronicle.md)"
        text = render(st, debts, ents, summ)
    # 3. debts: deferred first, then from the end
    while estimate_tokens(text) > budget_tokens and debts:
        deferred = [i for i, d in enumerate(debts) if d.status == "deferred"]
        debts.pop(deferred[-1] if deferred else -1)
        cut["debts"] = (f"\n[… {len(open_debts) - len(debts)} more open debts cut to fit; "
                        "`slowloop memory debt list`]")
        text = render(st, debts, ents, summ)
    # 4. state, from its end
    if estimate_tokens(text) > budget_tokens:
        cut["state"] = "\n[… state cut to fit; read system-state.md]"
        st = _longest_prefix(st, lambda x: estimate_tokens(render(x, debts, ents, summ)) <= budget_tokens)
        text = render(st, debts, ents, summ)
    # The estimate is not exactly additive; the last resort keeps the promise of the budget.
    return truncate_to_tokens(text, budget_tokens)


def _longest_prefix(text: str, fits: Callable[[str], bool]) -> str:
    """The longest run of whole leading lines of ``text`` that ``fits`` (binary search)."""
    lines = text.splitlines()
    lo, hi = 0, len(lines)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits("\n".join(lines[:mid])):
            lo = mid
        else:
            hi = mid - 1
    return "\n".join(lines[:lo])


def show_text(mem: Memory) -> str:
    """``memory show``: the bootstrap text with a budget nothing in a sane root reaches."""
    return memory_bootstrap(mem, SHOW_BUDGET)


def _file_entries(root: Path, layer: str | None) -> Iterator[MemoryEntry]:
    p = root / CHRONICLE
    if p.is_file():
        pre, entries = sections.chronicle_entries(p.read_text(encoding="utf-8", errors="replace"))
        lead = "\n".join(pre[1:]).strip()  # the cycle line, and anything a person wrote above the entries
        if lead:
            yield MemoryEntry("chronicle", p, 2, None, lead, layer)
        for e in entries:
            yield MemoryEntry("chronicle", p, e.line, e.at, e.text, layer)
    p = root / DEBTS
    if p.is_file():
        for d in debts_mod.parse_debts(p.read_text(encoding="utf-8", errors="replace"), str(p)).debts:
            yield MemoryEntry("debt", p, d.line, d.opened, _render_debt(d)[2:], layer)
    kinds: tuple[tuple[str, EntryKind], ...] = ((STATE, "state"), (SUMMARY, "summary"))
    for name, kind in kinds:
        p = root / name
        if p.is_file():
            pre, secs = sections.split_sections(p.read_text(encoding="utf-8", errors="replace"))
            lead = "\n".join(pre[1:]).strip()
            if lead:
                yield MemoryEntry(kind, p, 2, None, lead, layer)
            for s in secs:
                yield MemoryEntry(kind, p, s.line, None, f"{s.title}\n{s.body}".strip(), layer)


def iter_entries(mem: Memory | Path) -> Iterator[MemoryEntry]:
    """Every indexable entry: archived layers oldest first, then the root (chronological order).

    ``mem`` is a ``Memory`` or the path of a memory root; a missing memory yields nothing.

    State sections and open debts are carried forward at each archive, so the same text can appear
    in several layers; ``layer`` and ``path`` tell the copies apart.
    """
    mem = _as_memory(mem)
    if not mem.root.is_dir():
        return
    # Read everything under the lock, then yield: a caller may write to the memory while iterating.
    with mem.lock(shared=True):
        out: list[MemoryEntry] = []
        for layer in list_layers(mem):
            out.extend(_file_entries(layer.path, f"past/{layer.name}"))
        out.extend(_file_entries(mem.root, None))
    yield from out
