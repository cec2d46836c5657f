"""What observing a turn produces: errors with their evidence, the correction verdict, signals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..transcripts.model import Turn

ErrorKind = Literal["transient", "real"]
SignalName = Literal["user_correction", "skill_ineffective", "error_recovery", "known_weakness",
                     "complex_task"]
SIGNAL_NAMES: tuple[SignalName, ...] = ("user_correction", "skill_ineffective", "error_recovery",
                                        "known_weakness", "complex_task")


@dataclass(frozen=True)
class ErrorObservation:
    kind: ErrorKind
    evidence: str  # what decided it: "HTTP 503", "exit code 1", "is_error flag", "ECONNRESET"…
    tool: str | None = None
    excerpt: str = ""  # a short slice of the output around the evidence
    step: int | None = None  # index into Turn.steps


@dataclass(frozen=True)
class Correction:
    corrected: bool
    evidence: str | None = None  # the cue that matched ("actually …", "不对", "invece")
    language: str | None = None


@dataclass(frozen=True)
class Signal:
    name: SignalName
    weight: float
    why: str


@dataclass(frozen=True)
class Observation:
    """Everything counted from one turn, with no model call."""

    tool_calls: int
    errors: tuple[ErrorObservation, ...]
    correction: Correction
    aborted: bool
    rejected: int
    skills_read: tuple[str, ...]
    recovered: bool  # a real error happened and the agent got past it (a later success / answer)
    ended_in_real_error: bool  # the turn's last tool outcome was a real error

    @property
    def corrected(self) -> bool:
        return self.correction.corrected

    @property
    def transient_errors(self) -> tuple[ErrorObservation, ...]:
        return tuple(e for e in self.errors if e.kind == "transient")

    @property
    def real_errors(self) -> tuple[ErrorObservation, ...]:
        return tuple(e for e in self.errors if e.kind == "real")


@dataclass(frozen=True)
class Score:
    signals: tuple[Signal, ...]
    score: float
    threshold: float

    @property
    def reflect(self) -> bool:
        return self.score >= self.threshold - 1e-9


@dataclass(frozen=True)
class ObservedTurn:
    turn: Turn
    observation: Observation
    score: Score
    extra: dict = field(default_factory=dict)
