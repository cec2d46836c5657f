"""Marks in the ledger's words that several places read: kept here, light to import (a session
start reads them in its few milliseconds)."""

# The mark a held proposal's reason carries when it is a correction no rule was learned from (a
# wording waits for the person; `status` and the session note count them).
UNLEARNED = "an unlearned correction"
