"""Check each proposed action's content before anything is planned or written.

Shape and names were checked when parsing (reflect.actions). Here: the imperative lint (vague lines
are rejected), no lesson drawn from a transient error, no dangerous instruction, and — against the
agent's current skills and memo — no hallucinated skill, no clobbering, one change per target.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..safety.danger import scan
from ..safety.lint import lint_text
from .actions import Action

# A rule that blames the network, or tells the agent to avoid / distrust a tool because of it, is
# a lesson drawn from a transient error — the design's first exemption (SPEC §1.2). A certificate
# that fails to verify is no flake (the rule that keeps verification on is a safety rule), nor is
# a test that is flaky by itself ("mark it flaky and open an issue"): only a flaky network is.
_TRANSIENT_LESSON = re.compile(
    r"\b(time[ds]?[ -]?out|timing out|connection (?:reset|refused|aborted|error)|network|dns|"
    r"rate[ -]?limit(?:ed|s|ing)?|throttl\w*|overloaded|too many requests|unreachable|"
    r"service unavailable|bad gateway|gateway time-?out|flaky (?:network|connection|wi-?fi|vpn|proxy|dns)|"
    r"(?:network|connection) (?:is )?flak\w*|intermittent\w*|"
    r"ECONNRESET|ETIMEDOUT|ECONNREFUSED|EAI_AGAIN|(?:TLS|SSL) handshake|socket hang up|"
    r"HTTP (?:408|429|500|502|503|504|529)|\b(?:408|429|502|503|504|529)\b|"
    r"网络|超时|限流|タイムアウト|ネットワーク|rete\b|réseau|red\b|Netzwerk|Zeitüberschreitung)",
    re.I)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""


def check_content(action: Action) -> Verdict:
    if action.type in ("nothing", "retire_skill"):
        text = action.reason
        dangers = scan(text) if action.type == "retire_skill" else []
        return Verdict(not dangers, f"dangerous content: {dangers[0].kind} ({dangers[0].evidence})"
                       if dangers else "")
    texts = action.texts()
    for text in texts:
        dangers = scan(text)
        if dangers:
            d = dangers[0]
            return Verdict(False, f"dangerous content: {d.kind} ({d.evidence})")
    for text in texts:
        m = _TRANSIENT_LESSON.search(text)
        if m:
            return Verdict(False, f"draws a lesson from a transient, network-class error "
                                  f"({m.group(0)!r}); those are the environment's fault")
    # (a skill's lines are scoped by the skill: safety/lint.py)
    lint_targets: list[tuple[str, bool]] = []
    if action.type == "update_memo" and action.text:
        lint_targets.append((action.text, False))
    elif action.type in ("create_skill", "merge_skills"):
        lint_targets.append((action.body, True))
    elif action.type == "patch_skill":
        lint_targets.append((action.new, True))
    for text, skill in lint_targets:
        vague = [f for f in lint_text(text, skill=skill) if not f.actionable]
        if vague:
            f = vague[0]
            return Verdict(False, f"vague line (not an executable imperative): {f.text[:120]!r} — "
                                  f"{f.reason}")
    return Verdict(True)
