"""Sessions as the operational memory keeps them: a digest of each (what was asked, what changed,
how it ended) and the debts it left open or closed — from observed turns, at zero model cost."""

from .digest import SessionDigest, digest, session_tag
from .keep import KeepResult, keep_memory, memory_for

__all__ = ["KeepResult", "SessionDigest", "digest", "keep_memory", "memory_for", "session_tag"]
