"""Observe one turn: count tool calls, find and classify errors, detect corrections — no model.

``observe_turn`` is pure and cheap; ``observe_and_score`` adds the weighted verdict.
"""

from __future__ import annotations

import re

from ..config import Config
from ..transcripts.anthropic import refusal_reason
from ..transcripts.model import Turn
from .corrections import detect_correction
from .errors import find_errors
from .focus import focus
from .forbid import forbidden
from .lessons import ASK_FIRST_STRICT, RETRACTION, person_text, standing_statement
from .model import Correction, ErrorObservation, Observation, ObservedTurn
from .named import named_way
from .redo import (
    COMPARE,
    HOW_ASKED,
    asked_for,
    find_redo,
    follow_up,
    masked,
    parse_cmd,
    points_at,
    rerun_request,
    self_blame,
    shell_text,
    turn_acts,
)
from .reproach import reproach, someone_else
from .said import clause_of, said_redo
from .signals import WeaknessMatcher, score_turn
from .stated import stated


def redo_correction(turn: Turn, previous: Turn | None) -> Correction:
    """A correction shown by what the agent did: right after the person spoke, it undid or redid
    its previous action (another tool for the same job, a name in another style, a commit message
    or a branch rewritten, a file moved) and the person's words point at it — in any language,
    sarcasm included. A follow-up request ("great, now make it async") is not one; nor is the same
    action on another file (that one needs the person's words to say so)."""
    if not turn.person or not turn.user_text:
        return Correction(False)
    before = (turn_acts(previous, rejected=False) if previous is not None else []) + turn_acts(turn, rejected=True)
    after = turn_acts(turn, rejected=False)
    redo = find_redo(before, after)
    text = turn.user_text
    if redo is None and not any(a.kind == "run" for a in after) and not text.rstrip().endswith(("?", "？")) \
            and not rerun_request(text):
        # not redone yet: the person named the way for what the agent just ran ("tests run with
        # tox -e py312" after `python -m pytest`) — not more work asked in the same breath
        said = said_redo(before, person_text(text))
        if said is not None and not asks_more(clause_of(text, said.use)):
            redo = said
    # a positive opener ("great, now …") is a follow-up when the agent then adds; when it replaces
    # what it did (another tool, a name restyled, an action taken back) the words are sarcasm
    additive = redo is not None and (redo.kind in ("flag", "add", "target") or redo.kind == "api" and (
        not redo.gone or asks_more(text)))  # an API put *in place of* another after "na super": sarcasm
    if redo is None or redo.kind == "target" or (follow_up(clause_of(text, redo.use)) and additive) or (
            (rerun_request(text) or COMPARE.search(text)) and redo.kind in ("flag", "add", "value")):
        # another file, more work, a rerun (with a flag): requests. "pls redo" before the agent
        # rewrote its code on another library, or took its work back, asks for it done otherwise.
        return Correction(False)
    # code the agent had just written, rewritten (not added to) right after the person said
    # something that asks for nothing more: "that locks the table for twenty minutes"
    rewrote = redo.kind == "api" or redo.kind == "add" and bool(redo.before)
    if redo.kind in ("api", "add") and rewrote and not asks_more(text) and not text.rstrip().endswith(("?", "？")) \
            and not points_at(redo, text):
        return Correction(True, f"the agent rewrote what it had just written right after: {redo.before[:80]}"
                                f" → {redo.after[:80]}")
    if redo.kind == "rewrite":
        # its fresh code rewritten (not added to) right after the person spoke, no API swap to name:
        # a correction when the words ask for nothing more — the lesson waits for the person's wording
        if asks_more(text) or text.rstrip().endswith(("?", "？")) or follow_up(text) or rerun_request(text):
            return Correction(False)
        return Correction(True, f"the agent rewrote what it had just written right after: {redo.before[:80]}"
                                f" → {redo.after[:80]}")
    if redo.kind in ("undo", "keep") and not asks_more(text) and not text.rstrip().endswith(("?", "？")) \
            and not points_at(redo, text):
        # its action taken back right after the person said something: they objected to it
        return Correction(True, f"the agent took back its action right after: {redo.before[:80]} → {redo.after[:80]}")
    if redo.kind == "add" and not asks_more(text) and not follow_up(text) \
            and not rerun_request(text) and not re.search(r"[?？]", text) and not _MORE_PLEASE.search(text) \
            and not _CURIOUS.search(text) and not someone_else(text):
        # "上周 tar 因为磁盘满失败了，后面的 rm 照样执行" and the agent adds `set -euo pipefail` to the
        # script it had just written: the words say what went wrong, the addition is the fix
        return Correction(True, f"the agent added to what it had just written right after: {redo.after[:80]}")
    if redo.kind == "replace" and (HOW_ASKED.search(text) or rerun_request(text)):
        return Correction(False)  # "how do I look at one process only?" and the agent shows: an answer
    if redo.kind in ("replace", "swap", "flag") and redo.standing and redo.use and not points_at(redo, text) \
            and not asks_more(text) and (redo.kind != "swap" or _same_activity(redo)) \
            and (redo.kind != "flag" or _a_way_flag(redo)) and not _PASTED_ERROR.search(text) \
            and not follow_up(text) and not rerun_request(text) and not COMPARE.search(text) \
            and not _MORE_PLEASE.search(text) and not _CURIOUS.search(text) and not someone_else(text):
        # what it had just done, done another way right after words that ask for nothing more — a
        # consequence, a complaint, sarcasm ("the graviton nodes will hit exec format error"): the
        # redo says what was wrong, in any language
        return Correction(True, f"the agent did its action another way right after: {redo.before[:80]}"
                                f" → {redo.after[:80]}")
    if redo.kind == "add" or not points_at(redo, text):
        return Correction(False)  # an addition the words do not object to: more work
    low = text.lower()
    named = focus(redo, text) if redo.kind == "api" else redo  # what of the change the words name
    if redo.kind == "api" and not (_names_any(redo.gone, low) or named.gone) and not (
            (_names_any(redo.came + redo.context, low) or named.came) and not asks_more(text) and "?" not in text[-3:]):
        # a new API the person asked for as more work ("also cache it with lru_cache"), not one
        # they objected to or stated as the way ("LazyLock is in std now")
        return Correction(False)
    what = "took back" if redo.kind == "undo" else "redid"
    return Correction(True, f"the agent {what} its action right after: {redo.before[:80]} → {redo.after[:80]}")


_CURIOUS = re.compile(r"\b(?:just curious|curious|not objecting|out of curiosity|curiosità|per curiosità|par curiosité"
                      r"|simple curiosité|curiosidad|por curiosidad|curiosidade|por curiosidade|neugierig|aus neugier"
                      r"|nur neugier)\b|好奇|纯属好奇|純粋に気になって|気になっただけ", re.I)
# a rerun that also states the way ("no, redo it with pnpm, never npm here") is still a correction
_STANDS = re.compile(r"(?<![\w-])(?:no|not|never|nope|wrong|instead|nein|non|não|nunca|jamais|mai|nie|falsch|sbagliato"
                     r"|errado)(?![\w-])"
                     r"|不要|别|不对|じゃなく|ではなく|違う"
                     # a tool being left: "on abandonne dbmate, tu la refais ?" is a change of mind, not a rerun
                     r"|\b(?:phasing out|on abandonne|stiamo dismettendo|estamos (?:abandonando|deprecando|descontinuando))\b", re.I)


# "…, otherwise …" in eight languages (not Spanish "si no" before a verb: "if we don't")
_OTHERWISE = re.compile(r"[,;—–-]\s*(?:(?:otherwise|or else|else)\b|sinon\b|senn[òo]\b|altrimenti\b|sonst\b|sen[ãa]o\b"
                        r"|si no,|de lo contrario\b|caso contr[áa]rio\b)|，?(?:不然|否则)|(?:でないと|じゃないと)", re.I)


# An error the person pasted: they report what happened to them, the agent's next run answers it.
_PASTED_ERROR = re.compile(r"Traceback \(most recent call last\)|^\s*File \"|\b\w*(?:Error|Exception)\b[:(]|^\s*(?:error|fatal|E)\b[:\[]",
                           re.M)


def _a_way_flag(redo) -> bool:
    """A long option that says how a tool works (`--remote-branch`, `--frozen-lockfile`), not the
    upstream of a first push, this run's tests, or a short letter the words could not have meant."""
    return redo.use.startswith("--") and len(redo.use) >= 8 and not redo.before.startswith("git ") \
        and redo.use not in ("--tests", "--set-upstream", "--verbose", "--watch", "--force")


def _same_activity(redo) -> bool:
    """The tool swapped in does what the one it replaced did (`docker buildx build --push` for
    `docker push`), not the work's next step (`cargo test` after `cargo build`)."""
    b, a = parse_cmd(redo.before), parse_cmd(redo.after)
    return b is not None and a is not None and b.activity == a.activity and (bool(b.activity) or b.prog == a.prog)


def _names_any(tokens: tuple[str, ...], low: str) -> bool:
    """A token said as written, or the module or the method of a dotted one (`cur.fetchall`: "fetchall")."""
    return any(t.lower() in low or "." in t and len(t.rsplit(".", 1)[0]) >= 2
               and t.rsplit(".", 1)[0].lower() in low
               or "." in t and len(t.rsplit(".", 1)[1]) >= 5 and re.search(
                   rf"(?<![\w.]){re.escape(t.rsplit('.', 1)[1].lower())}(?![\w])", low) is not None
               for t in tokens)


_MORE = re.compile(
    r"^\W*(?:(?:now|also|and|next|then|ok(?:ay)?|great|thanks|nice|cool|perfect|top|bene|ottimo|parfait|super|genau|perfecto"
    r"|perfeito|ótimo|adesso|ora|poi|agora|maintenant|ahora|jetzt|dann|noch)\b[\s,.!]*)*"
    r"(?:the same (?:for|on|in|with)|lo stesso (?:per|su|anche)|la même chose (?:pour|sur)|dasselbe (?:für|bei|auch)"
    r"|lo mismo (?:para|en)|o mesmo (?:para|no|na))\b|"
    r"^\W*(?:(?:now|also|and|next|then|ok(?:ay)?|great|thanks|nice|cool|perfect|top|bene|ottimo|parfait|super|genau"
    r"|perfecto|perfeito|ótimo|adesso|ora|poi|agora|maintenant|ahora|jetzt|dann|noch)\b[\s,.!]*)*"
    r"(?:add|also|now|make|let'?s|can you|could you|please add|aggiungi|rendi|rendilo|fai|ajoute|rends|fais|añade|agrega|haz"
    r"|hazlo|adiciona|acrescenta|faz|deixa|ergänz\w*|füg\w*|mach\w*|bau\w*)\b"
    r"|^\W*(?:现在|再|顺便|另外|然后)?(?:加|加上|补|补上|再加|改成可)|^\W*(?:あと|次に|ついでに)|(?:追加して|も追加|にしてください$)", re.I)


# more work asked politely or in passing, in the languages the openers above miss
_MORE_PLEASE = re.compile(r"お願いします|お願い。|してもらえ|して(?:ください|下さい)|足して|追加して|も(?:出|入れ|付け)て|再加|也加|还要|"
                          r"\b(?:ahora\s+tambi[ée]n|tambi[ée]n|agrega(?:s|r)?|a[ñn]ade|adiciona|tamb[ée]m|auch\s+noch|anche)\b", re.I)


def asks_more(text: str) -> bool:
    """"also cache it with lru_cache", "now add retries": more work, not something else."""
    return bool(_MORE.search(text)) or follow_up(text)


def named_by(turn: Turn, previous: Turn | None) -> tuple[str, str] | None:
    """(what to use, what not to) when the person's message, right after the agent acted, names with a
    mark that it lasts (or a please) a thing in code form the agent had not used — "metti sempre
    timeout-minutes sui job", "jq -r にしてください" — and is no rerun, question, follow-up, slip of their
    own or someone else's doing. None otherwise."""
    if previous is None or not turn.person or not turn.user_text:
        return None
    text = person_text(turn.user_text)
    if not text.strip() or text.rstrip().endswith(("?", "？")) or rerun_request(text) or COMPARE.search(text) \
            or asks_more(text) or self_blame(text) or someone_else(text) or _CURIOUS.search(text):
        return None
    before = turn_acts(previous, rejected=False)
    if not before:
        return None
    had = "\n".join(f"{a.command}\n{a.new}" for a in before).lower()
    return named_way(text, [a.command for a in before if a.kind == "run"], had)


def observe_turn(turn: Turn, previous: Turn | None = None) -> Observation:
    """``previous``: the turn before it in the same session, when known — what the agent did that
    the person may be reacting to."""
    errors = find_errors(turn)
    # Only the person's own words can correct the agent (a turn an agent reported has none).
    correction = (detect_correction(turn.user_text) if turn.user_text and turn.person
                  else Correction(False))
    if correction.corrected and (self_blame(turn.user_text) or someone_else(turn.user_text)
                                 or _CURIOUS.search(turn.user_text)
                                 or (rerun_request(correction.evidence or "") or COMPARE.search(turn.user_text))
                                 and not _STANDS.search(turn.user_text)):
        # the person's own mistake, someone else's doing ("è il runner di gitlab, non dipende da te"),
        # a question asked out of curiosity, a rerun asked for ("rifallo con --no-cache"): no correction
        correction = Correction(False)
    if not correction.corrected and not self_blame(turn.user_text or ""):
        correction = redo_correction(turn, previous)
    if not correction.corrected and turn.person and turn.user_text and not self_blame(turn.user_text):
        judged = reproach(turn, previous)
        if judged:
            correction = Correction(True, f"a reproach of the agent's last action: {judged}")
    if not correction.corrected and turn.person and turn.user_text and previous is not None and previous.person \
            and self_blame(turn.user_text):
        # "あ、すみません、やっぱり merge のままで大丈夫でした" right after their own correction (or the
        # request that named what now goes), and the agent redoes its work again: the person takes
        # that correction back — their slip was asking for it
        back = find_redo(turn_acts(previous, rejected=False), turn_acts(turn, rejected=False))
        gone = ([w for w in back.words if len(w) >= 4] if back is not None and back.kind in ("undo", "keep")
                else (back.avoid or back.before).strip("`").split()[-1:] if back is not None else [])
        asked = detect_correction(previous.user_text or "").corrected or asked_for(gone, previous)
        if asked and back is not None and back.kind in ("swap", "undo", "keep", "api", "rewrite", "value", "flag"):
            correction = Correction(True, "a retraction: the person takes back their last correction")
    if not correction.corrected and turn.person and turn.user_text and RETRACTION.search(person_text(turn.user_text)):
        # "never mind, your way was fine, put it back": the person takes back a correction — a
        # correction of the agent's last change all the same, and the learner retracts its rule
        correction = Correction(True, "a retraction: the person takes back their last correction")
    if not correction.corrected and turn.person and turn.user_text and not self_blame(turn.user_text):
        said = standing_statement(turn.user_text)
        if said:
            correction = Correction(True, f"a convention stated: {said[:100]}")
    if not correction.corrected and turn.person and turn.user_text and not self_blame(turn.user_text):
        # a convention or a change of mind the agent's actions confirm ("we migrated off fly,
        # everything goes out with kamal now" and it ran `kamal deploy`); a session's first message
        # only when the words themselves say what is left — a first request names no convention
        way = stated(turn.user_text, turn_acts(previous, rejected=False) if previous is not None else [],
                     turn_acts(turn, rejected=False))
        if way is not None and (previous is not None or way.strong):
            what = f"use {way.use}" + (f", no longer {way.avoid}" if way.avoid else "")
            correction = Correction(True, f"{'a change of mind' if way.change else 'a convention stated'}: {what}")
    if not correction.corrected and turn.person and turn.user_text and previous is not None \
            and not self_blame(turn.user_text):
        # "no --no-verify here!!", "non usare sudo", "reset --hard は使わないで": the words forbid a
        # thing of the agent's last command — a correction in any language, told by the action
        nope = forbidden(turn, previous)
        if nope is not None:
            correction = Correction(True, f"the agent's last action forbidden: {nope.thing}"
                                    + (" (ask first)" if nope.ask else ""))
    if not correction.corrected and turn.person and turn.user_text and previous is not None \
            and turn_acts(previous, rejected=False) and ASK_FIRST_STRICT.search(person_text(turn.user_text)) \
            and not turn.user_text.rstrip().endswith(("?", "？")) and not self_blame(turn.user_text):
        # "la próxima vez enséñame la lista antes de borrar ramas": right after the agent acted, the
        # person wants to be asked first — a correction even when no word of the command is said
        correction = Correction(True, "the person asks to be asked before the agent's last action")
    if not correction.corrected and turn.person and turn.user_text and previous is not None \
            and turn_acts(previous, rejected=False) and _OTHERWISE.search(person_text(turn.user_text)) \
            and not turn.user_text.rstrip().endswith(("?", "？")) and not self_blame(turn.user_text) \
            and not someone_else(turn.user_text) and not _CURIOUS.search(turn.user_text):
        # "metti catchup=False nei DAG, sennò ti fa due anni di backfill": right after the agent acted,
        # how to do it and what goes wrong otherwise — the person correcting the way it was done
        correction = Correction(True, "the person says how, and what goes wrong otherwise")
    if not correction.corrected and turn.person and turn.user_text and previous is not None:
        way_named = named_by(turn, previous)
        if way_named is not None:
            correction = Correction(True, f"a way named: use {way_named[0]}" + (f", not {way_named[1]}" if way_named[1] else ""))
    if correction.corrected and turn.user_text and (someone_else(turn.user_text) or _CURIOUS.search(turn.user_text)):
        correction = Correction(False)  # whatever the actions show: a teammate's doing, or a question of curiosity
    rejected = turn.rejected_calls
    if not correction.corrected and turn.person:
        # A tool use the user refused *with a reason* ("no — use a migration instead") is the
        # user correcting the agent mid-turn.
        for r in rejected:
            reason = refusal_reason(r.output)
            if reason:
                c = detect_correction(reason)
                if c.corrected:
                    correction = Correction(True, f"rejected {r.name or 'tool use'}: {c.evidence}",
                                            c.language)
                    break
    recovered, ended_real = _recovery(turn, errors)
    return Observation(
        tool_calls=len(turn.tool_calls),
        errors=errors,
        correction=correction,
        aborted=turn.aborted,
        rejected=len(rejected),
        skills_read=tuple(turn.skills_read),
        recovered=recovered,
        ended_in_real_error=ended_real,
    )


def _recovery(turn: Turn, errors: tuple[ErrorObservation, ...]) -> tuple[bool, bool]:
    """(recovered, ended_in_real_error) from the order of tool outcomes.

    Recovered: a real error was followed, later in the turn, by a tool result that was not an
    error (the agent found a way past it). Ended in a real error: the last tool outcome of the turn
    was a real error. Rejected tool uses are the user's choice, not outcomes, and are ignored.
    """
    by_step = {e.step: e for e in errors if e.step is not None}
    seen_real = False
    recovered = False
    last_kind: str | None = None
    # a success with its exit code masked (`|| true`) says nothing: it is no way past an error
    hollow = {s.call.id for s in turn.steps if s.kind == "tool_call" and s.call is not None and s.call.id
              and masked(shell_text(s.call))}
    for i, step in enumerate(turn.steps):
        if step.kind != "tool_result" or step.result is None or step.result.rejected:
            continue
        err = by_step.get(i)
        if err is None and step.result.call_id in hollow:
            continue
        if err is None:
            last_kind = "ok"
            if seen_real:
                recovered = True
        else:
            last_kind = err.kind
            if err.kind == "real":
                seen_real = True
    return recovered, last_kind == "real"


def observe_and_score(turn: Turn, cfg: Config, *, weakness: WeaknessMatcher | None = None,
                      previous: Turn | None = None) -> ObservedTurn:
    obs = observe_turn(turn, previous)
    return ObservedTurn(turn, obs, score_turn(obs, turn, cfg, weakness=weakness))
