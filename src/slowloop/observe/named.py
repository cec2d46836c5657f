"""The things a person's words name in code form — backticked code, a program with its subcommand
and flags as the agent's commands spell them, a call with its argument, a flag, a dotted name — and
the way a message names one the agent had not used with a mark that it lasts. Language-free but for
the marks: what the words name is matched against what the agent did."""

from __future__ import annotations

import re

from .redo import COMMON_WORDS

_CODE_TOKEN = re.compile(r"`([^`\n]{2,80})`|(?<![\w`])(#!\s?/[\w/.-]+(?: [a-z][\w.-]*)?|--?[A-Za-z][\w-]*(?:=[^\s,;]+)?"
                         r"|(?:[./~](?=[A-Za-z_]))?[A-Za-z_$@#:][\w$@#:.\-/]*(?:\[[^\]\s]{0,40}\]|\([^()\s]{0,40}\))?(?:\.[\w$]+(?:\([^()\s]{0,40}\))?)*"
                         r"(?:=[\w\"'.:\[\]-]+)?)")
# a call, an argument, a dotted name, a path: a name with only dashes or underscores may be this task's
# value (a namespace, a bucket, a table) — taken only as a flag or as part of a command
_CODE_MARK = re.compile(r"[.()=:/\[\]@#$]")


_CJK_PUNCT = re.compile(r"\s*([，。、；：！？（）「」『』【】])\s*")
_CJK_EDGE = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff])(?=[A-Za-z0-9`#./-])|(?<=[A-Za-z0-9`.)])(?=[\u3040-\u30ff\u3400-\u9fff])")


def spaced(text: str) -> str:
    """Words as spaces part them, in Chinese and Japanese too: "都用 git pull --rebase，别产生" parts
    `--rebase` from what follows, so the command the words name can be read whole."""
    return " ".join(_CJK_EDGE.sub(" ", _CJK_PUNCT.sub(r" \1 ", text)).split())


# words that end a command the words name: its flag's value is never "to", "the", "so" …
_FUNCTION = frozenset("a an the to so if when then as at by of is it that this these those be "
                      "di da il la le lo les des du de et ou el los las y o e um uma do da".split())


# words that open a clause before a flag without being a program: "nie --style angeben", "nunca --allow-all"
_NOT_PROGRAM = frozenset("no not never dont without always use add pass with nie nicht kein keine ohne immer bitte "
                         "mai non niente senza sempre usa metti jamais pas sans toujours utilise mets ajoute nunca "
                         "sin siempre nada pon sem sempre nao não coloca usar only just solo seulement nur so".split())


def code_spans(text: str, commands: list[str]) -> list[tuple[int, str]]:
    """(position, span) of the things in code form the words name: backticked code, a program with
    its subcommand and flags as the agent's commands spell them, a call, a flag, a dotted name."""
    low = " ".join(text.split()).lower()
    text = " ".join(text.split())
    out: list[tuple[int, str]] = []
    for cmd in commands:  # the longest prefix of a command the words repeat ("aws s3 sync")
        words = cmd.split()
        for n in range(min(len(words), 5), 0, -1):
            head = " ".join(words[:n]).lower()
            if n == 1 and (len(head) < 3 or head in COMMON_WORDS):
                continue
            i = low.find(head)
            if i >= 0 and (i == 0 or not low[i - 1].isalnum()) and (i + len(head) == len(low) or not low[i + len(head)].isalnum()):
                # with the flags the words put after it: "gh pr create --draft" for `gh pr create --fill`
                tail = re.match(r"(?:\s+--?[A-Za-z][\w-]*(?:=[^\s,;，。]+)?)*", text[i + len(head):])
                out.append((i, text[i:i + len(head)] + (tail.group(0) if tail else "")))
                break
    # a program the agent never ran, opening a clause with its flags: "jq -S にしてください"
    for m in re.finditer(r"(?:^|[.,;:!?、，。]\s*)([a-z][a-z0-9_-]{1,15}(?: --?[A-Za-z][\w-]*)+)", text):
        if m.group(1).split()[0] not in COMMON_WORDS and m.group(1).split()[0] not in _NOT_PROGRAM:
            out.append((m.start(1), m.group(1)))
    for m in _CODE_TOKEN.finditer(text):
        span = (m.group(1) or m.group(2) or "").rstrip(".,:;!?")
        if m.group(1) and " " in span.strip() and not re.fullmatch(r"[a-z][\w.-]*(?: [^\s:]+){1,5}", span.strip()):
            continue  # a quoted sentence or a pasted error line ("Error: Permission denied @ …"), not code
        if m.group(1) or _CODE_MARK.search(span[1:-1] if len(span) > 2 else span) or span.startswith("-"):
            if len(span) >= 2 and re.search(r"[A-Za-z]", span) and not re.fullmatch(r"https?://\S+|\d[\d.,:]*\w{0,3}", span):
                out.append((m.start(), span))
    return sorted(set(out))


_STOP_AFTER = frozenset("instead of rather than not no in on for with and or but invece al posto au lieu plutot plutôt "
                        "en vez lugar ao em vez statt anstatt nicht kein pas dans sur avec per con para com mit".split())


def widen(text: str, prog: str, commands: list[str], start: int = 0) -> str:
    """A program the words name with what follows it as the agent's commands spell it, and its flags:
    "use aws s3 sync instead of …" names `aws s3 sync`, "utilise curl -fsSL" names `curl -fsSL`."""
    words = spaced(text).split(" ")
    low = [w.lower().rstrip(".,;:!?") for w in words]
    pw = prog.split()
    at = [k for k in range(start, len(low) - len(pw) + 1) if low[k:k + len(pw)] == pw]
    if not at:
        return ""
    i = at[0]
    out = [w.rstrip(".,;:!?") for w in words[i:i + len(pw)]]
    spelled = [c.lower().split() for c in commands]
    extra = True
    for j in range(i + len(pw), min(len(words), i + len(pw) + 5)):
        w, raw = low[j], words[j]
        if not w or w in _STOP_AFTER:
            break
        cut = raw != raw.rstrip(".,;:!?")
        if w.startswith("-") and re.fullmatch(r"--?[a-z][\w-]*", w):
            out.append(raw.rstrip(".,;:!?"))
        elif w == "--" and j + 1 < len(low) and low[j + 1].startswith("-"):
            out.append(w)  # the end of the program's options, before the flags it passes on ("cargo clippy -- -D warnings")
        elif re.fullmatch(r"-[a-z]", out[-1].lower()) and re.fullmatch(r"[a-z0-9][\w./:=-]*", w) \
                and w not in _FUNCTION and w not in COMMON_WORDS:
            out.append(raw.rstrip(".,;:!?"))  # a one-letter flag's value: `-D warnings`, `-o wide`
        elif any(c[:len(out) + 1] == [x.lower() for x in out] + [w] for c in spelled):
            out.append(raw.rstrip(".,;:!?"))
        elif extra and re.fullmatch(r"[a-z][a-z0-9-]{1,14}", w) and w not in COMMON_WORDS \
                and any(c[:len(out)] == [x.lower() for x in out] for c in spelled) and len(out) >= 2:
            out.append(raw.rstrip(".,;:!?"))  # the subcommand in place of the agent's ("aws s3 sync" for "aws s3 cp")
            extra = False
        else:
            break
        if cut:
            break
    return " ".join(out) if len(out) > len(pw) or len(pw) == 1 and len(out) > 1 else ""


def mentions(span: str, hay: str) -> bool:
    s = span.lower().strip("`")
    return bool(s) and re.search(rf"(?<![\w-]){re.escape(s)}(?![\w])", hay) is not None




# A mark that the way named lasts, or is asked for politely: always / never / every / here / we, and
# please — in the 8 languages. Said with a thing in code form the agent had not used, it teaches.
_LASTS = re.compile(
    r"\b(?:always|never|every|each|all (?:the |our )?\w+s|from now on|next time|in this (?:repo|project|codebase|team)"
    r"|here we|we (?:always |never )?(?:use|do|run|write|keep|put|pass|sign|follow)|our \w+s? (?:are|is|use|go|live|run)"
    r"|please|pls"
    r"|sempre|mai|ogni|tutt[ie]|da noi|qui (?:si|usiamo|da noi)|la prossima volta|per favore"
    r"|toujours|jamais|chaque|tous|toutes|chez nous|ici (?:on|aucun\w*)|la prochaine fois|stp|svp|s'il te pla[iî]t"
    r"|siempre|nunca|cada|todos|todas|aca|acá|aquí|nosotros|la próxima vez|la proxima vez|por favor"
    r"|todo|aqui|a gente|nossos?|nossas?|da próxima vez|da proxima vez"
    r"|immer|nie|niemals|jede[rsn]?|alle|bei uns|wir (?:nutzen|verwenden|machen|schreiben)|nächstes mal|naechstes mal|bitte)\b"
    r"|总是|永远|一律|统一|所有|每次|我们|团队|别|不要|请|以后"
    r"|いつも|必ず|全部|すべて|うち[のは]|毎回|ないで|てください|でください|次から", re.I)


# what the person says not to use: a negation just before the thing, or "no more" just after it
_NOT_BEFORE = re.compile(r"(?:\b(?:no|not|never|don'?t|without|kein\w*|nicht|ohne|non|pas|sans|jamais|sin|nunca|sem|mai"
                         r"|niente|nada|nessun\w*|aucun\w*)\b|别|不要|不用|不|没有|禁止)\W*(?:\w+\W+){0,2}$", re.I)
_NOT_AFTER = re.compile(r"^\W*(?:\w+\W+){0,3}(?:gibt?s\b.*\bnicht|nicht mehr|no more|non più|non piu|plus\b|ya no|não mais"
                        r"|nao mais)|^\s*(?:は|を)?(?:使わない|禁止|じゃなく|ではなく|やめ)", re.I)
# a lasting mark: "please" alone asks for this once as often as for good — it teaches only a way of
# writing code or running a program, never a file or a folder of this task ("… ja.json の方です")
_STRONG = re.compile(
    r"\b(?:always|never|every|each|all (?:the |our )?\w+s|from now on|next time|in this (?:repo|project|codebase|team)"
    r"|here we|we (?:always |never )?(?:use|do|run|write|keep|put|pass|sign|follow)|our \w+s? (?:are|is|use|go|live|run)"
    r"|sempre|mai|ogni|tutt[ie]|da noi|la prossima volta|toujours|jamais|chaque|tous|toutes|chez nous|la prochaine fois"
    r"|siempre|nunca|cada|todos|todas|nosotros|la próxima vez|la proxima vez|todo|a gente|nossos?|nossas?"
    r"|da próxima vez|da proxima vez|immer|nie|niemals|jede[rsn]?|alle|bei uns|nächstes mal|naechstes mal)\b"
    r"|总是|永远|一律|统一|所有|每次|我们|团队|以后|いつも|必ず|全部|すべて|うち[のは]|毎回|次から", re.I)
# what went wrong, not a way: an exception's or an error code's name ("Order.DoesNotExist")
_SYMPTOM = re.compile(r"(?:Error|Exception|DoesNotExist|NotFound|Timeout|Refused|Denied|Failed|Failure)\b"
                      r"|\b[A-Z]{2,}(?:_[A-Z]+)+\b|\b[A-Z]+[0-9]{3,}\b")
_PATHLIKE = re.compile(r"/|\.(?:[a-z]{1,5})$", re.I)


def named_way(text: str, commands: list[str], had: str) -> tuple[str, str] | None:
    """(what to use, what not to) when ``text`` names, with a mark that it lasts or a please, a thing in
    code form the agent had not used (``had``: what its actions wrote and ran, lowercased), and maybe
    one it had used — "metti sempre timeout-minutes sui job", "jq -r にしてください"; else None."""
    if not _LASTS.search(text):
        return None
    flat = " ".join(text.split())
    spans = code_spans(flat, commands)
    strong = bool(_STRONG.search(flat))

    def negated(i: int, sp: str) -> bool:
        return bool(_NOT_BEFORE.search(flat[max(0, i - 30):i]) or _NOT_AFTER.search(flat[i + len(sp):i + len(sp) + 30]))

    new = [sp for i, sp in spans if not mentions(sp, had) and len(sp.strip("`")) >= 3 and not negated(i, sp)
           and not _SYMPTOM.search(sp) and flat[i - 1:i] not in ('"', "'")
           and (strong or sp.startswith("#!") or not _PATHLIKE.search(sp.strip("`")))]
    if not new:
        return None
    use = new[0]
    gone = [sp for i, sp in spans if (mentions(sp, had) or negated(i, sp)) and sp.lower() not in use.lower()
            and use.lower() not in sp.lower()]
    return use.strip("`"), gone[0].strip("`") if gone else ""
