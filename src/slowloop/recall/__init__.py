"""Recall: search by meaning over everything past (SPEC §3, the seed's "Mnemosyne").

Memory is for resuming; recall is for finding. See docs/recall.md.
"""

from .api import add_paths, refresh, reindex, remove_paths, search, status
from .model import KINDS, Entry, Hit, IndexStats

__all__ = ["search", "refresh", "reindex", "add_paths", "remove_paths", "status",
           "Hit", "IndexStats", "Entry", "KINDS"]
