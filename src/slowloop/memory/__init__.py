"""Operational memory (seed 004): state, debts, chronicle, a recursive past, and contexts.

Files are the truth a person edits; this package reads them, changes them safely, archives the
cycle into ``past/`` layer by layer, and renders the root for the session bootstrap.
"""

from .archive import ArchiveResult, Layer, find_layer, list_layers, summary_of
from .bootstrap import MemoryEntry, iter_entries, memory_bootstrap, show_text
from .check import MemoryStatus, Violation, check, status
from .contexts import Context, Contexts, context_text
from .debts import Debt, DebtStatus
from .files import Memory, MemorySettings, NoteResult

__all__ = [
    "ArchiveResult", "Context", "Contexts", "Debt", "DebtStatus", "Layer", "Memory", "MemoryEntry",
    "MemorySettings", "MemoryStatus", "NoteResult", "Violation", "check", "context_text", "find_layer",
    "iter_entries", "list_layers", "memory_bootstrap", "show_text", "status", "summary_of",
]
