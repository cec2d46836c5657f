"""The operational memory's files: their names and the one-line role header each starts with."""

from __future__ import annotations

STATE = "system-state.md"
DEBTS = "debts.md"
CHRONICLE = "chronicle.md"
SUMMARY = "past-summary.md"
PAST = "past"
ROLE_FILES: tuple[str, ...] = (STATE, DEBTS, CHRONICLE, SUMMARY)

# The one-line role header each file starts with: it tells a person (and an agent) what belongs there.
HEADERS: dict[str, str] = {
    STATE: "# System state — the truth of today: current model of the system, caveats, sources of truth. "
           "No history here (that is chronicle.md).",
    DEBTS: "# Debts — the canonical register of what is open, in progress or deferred. "
           "One `- D-0001 [open] text` line per debt.",
    CHRONICLE: "# Chronicle — the recent causal chain: what happened in the last sessions and why. "
               "Open items go to debts.md.",
    SUMMARY: "# Past summary — compressed older history: the big decisions and turns that still matter. "
             "Dig deeper with `slowloop memory dig`.",
}
