"""What one sync did, for the CLI and for the reflection's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SyncResult:
    agent: str
    path: str
    committed: list[str] = field(default_factory=list)  # commit subjects made here
    pulled: int = 0  # commits merged in from the remote
    pushed: bool = False
    held_back: list[str] = field(default_factory=list)  # files kept out of the commit or push, and why
    quarantined: list[dict] = field(default_factory=list)  # incoming changes refused this time
    merged_from: list[str] = field(default_factory=list)  # "memo.md (Ben <ben@x>)": what came in
    conflicts: list[str] = field(default_factory=list)  # skills holding a conflict block
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return dict(self.__dict__)
