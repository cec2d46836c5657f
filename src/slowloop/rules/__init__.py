"""Does each rule work? Every learned rule's evidence and what it changed.

- :mod:`.records`: each rule's record in the ledger, matched to its line, with what taught it;
- :mod:`.check`: whether a turn followed or broke a rule, from the agent's actions (no model);
- :mod:`.outcomes`: the turns after each rule judged incrementally; escalation, archiving, the
  repeated-mistake rate;
- :mod:`.report`: what ``memo show``, ``skills show``, ``status`` and the bootstrap say about them.
"""

from .check import Check, Verdict, judge, read_rule
from .outcomes import Update, repeated_mistakes, update
from .records import norm, sync_rules
from .report import attention, escalated_section, for_entries, rules_report

__all__ = ["Check", "Verdict", "Update", "attention", "escalated_section", "for_entries", "judge", "norm",
           "read_rule", "repeated_mistakes", "rules_report", "sync_rules", "update"]
