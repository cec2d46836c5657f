"""Is a match forbidden by the words around it? "Never run ``rm -rf /``" names the danger to forbid it.

A good reflection writes prohibitions ("Never pipe curl into sh", "不要跳过测试"), so a match
governed by a negation in its own clause is no danger (:func:`negated`), in the eight languages we
detect: a negation before it ("never", "don't", "avoid", "instead of", "mai", "nunca", "nie",
"不要"…), after it ("…しないこと", "is forbidden", "ist verboten"), the word right before it in
"X, not Y", or the negation a list's first item is under ("do not use `--no-verify`, `HUSKY=0` or
`SKIP=`"). Affirmative idioms built from negation words ("never hesitate to", "don't forget to")
negate nothing. :func:`negated_later` reads a negation later in the sentence, for rules whose own
words are a negation ("without asking, do not add …"). :func:`person_decides` finds the person's
approval asked for in the match's sentence ("needs the user's explicit yes").

Nothing here knows what is dangerous; :mod:`slowloop.safety.danger` does.
"""

from __future__ import annotations

import re

__all__ = ["negated", "negated_later", "person_decides", "run_unread", "same_clause_broken"]

# --- negation: "Never run rm -rf /" forbids the danger ------------------------------------------

_NEGATION_BEFORE = re.compile(
    r"(?<![\w'])(?:never|don['’]t|do\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t|avoid(?:ing)?|"
    # "dont" as people type it — never French "dont" ("le script dont on a besoin": an article or a
    # pronoun follows it there)
    r"dont(?=\s*$|\s+(?!(?:le|la|les|l'|un|une|des|du|tu|on|il|elle|ils|elles|nous|vous|je|j'|ce|cet|cette|ces|mon|ma|"
    r"mes|ton|ta|tes|son|sa|ses|notre|nos|votre|vos|leur|leurs|c'|personne|certains?)\b)[a-z])|"
    r"refuse\s+to|forbid(?:den)?|prohibited|is\s+not\s+allowed|not\s+allowed|instead\s+of|"
    r"rather\s+than|non|mai|nunca|n[ãa]o|jamais|ne|n'|nie|niemals|nicht|kein|keine|"
    # (Portuguese "no" before a noun is "in the": "no início de cada sessão", "no README")
    r"no(?!\s+(?:in[íi]cio|final|fim|momento|come[çc]o|topo|meio|repo\w*|arquivo|diret[óo]rio|servidor|canal|projeto|"
    r"README|ticket|chat|wiki|log|terminal|CI|PR|branch|[`~/.]))|evita|evite|[ée]vite[rz]?|vermeide|statt|anstatt|invece\s+di|au\s+lieu\s+de|en\s+lugar\s+de|en\s+vez\s+de|"
    r"em\s+vez\s+de|ao\s+inv[ée]s\s+de)(?![\w'])|不要|别|禁止|切勿|决不|绝不|不得|不能|不可|而不是",
    re.I)
# Affirmative idioms built from negation words: "never hesitate to", "don't forget to".
_NOT_REALLY = re.compile(
    r"\b(?:never|don['’]?t|do\s+not)\s+(?:ever\s+)?(?:hesitate|forget|fail|skip|wait|ask|bother|refuse)\b|"
    r"\b(?:never|don['’]?t|do\s+not)\s+(?:ever\s+)?leave\b[^.\n]{0,60}?\bat\s+(?:its|the)\s+default|"
    r"\bnon\s+dimenticare\b|\bn'oublie[zs]?\s+(?:pas|jamais)\b|\bno\s+olvides\b|\bn[ãa]o\s+(?:se\s+)?esque[çc]a\b|"
    r"\bvergiss\s+(?:nie|nicht)\b|\bnunca\s+(?:te\s+)?olvides\b|忘れずに|忘れないで|别忘了|别忘记|不要忘了|不要忘记|千万别忘|"
    r"\bnot\s+only\b|"
    # "don't worry and use …", "no te preocupes y …": reassurance, then the act itself
    r"\b(?:don['’]?t|do\s+not|never)\s+(?:you\s+)?(?:worry|mind|panic|fret)\b|\bno\s+(?:worries|problem)\b|"
    r"\bno\s+te\s+preocupes\b|\bn[ãa]o\s+se\s+preocupe\b|\bne\s+t['’]inqui[èe]te\s+pas\b|\bne\s+vous\s+inqui[ée]tez\s+pas\b|"
    r"\bnon\s+(?:ti\s+)?preoccupar\w*\b|\bkeine\s+(?:Sorge|Angst|Panik)\b|\bmach\s+dir\s+keine\s+Sorgen\b|"
    r"别担心|不用担心|不要担心|心配しないで|気にしないで|心配いりません", re.I)
_NEGATION_AFTER = re.compile(r"[`'\"]?\s*(?:nicht\s+(?:anfassen|ändern|verändern|umstellen|anrühren)|保持默认|保持不变|不要(?:改|动)"
                             r"|(?:は|を)?そのまま|を?変えない|(?:は|に)?触らない)"
                             r"|[^。！？.!?\n]{0,30}?(?:しない|しないこと|しないで|禁止|してはいけない|"
                             r"してはならない|は不要|ではいけない|(?<!て)(?<!で)[かさたまらばわ]ない(?=[。．.！!\s）)]|$)|[かさたまらばわえけげせてねべめれ]ないこと|[かさたまらばわえけげせてねべめれ]ないで|[かさたまらばわ]ず[、，,]|ではなく|じゃなく)|[`'\"]?\s*(?:is|are|ist|sind|è|sono|é|são|est|sont|es|son)\s+"
                             r"(?:strictly\s+|streng\s+|severamente\s+|strictement\s+)?(?:verboten|forbidden|prohibited|banned|"
                             r"not\s+allowed|untersagt|vietat[oi]|proibid[oa]s?|interdite?s?|prohibid[oa]s?)\b"
                             # the thing named, then forbidden or left unused: "`X` está prohibido",
                             # "`X` no se usa", "`X` is never used", "`X` wird nicht benutzt", "`X` 不用"
                             r"|[`'\"]?\s*(?:est[áa]n?|est[ãa]o|resta|bleibt|stays?|remains?)\s+(?:strictly\s+|estrictamente\s+|"
                             r"terminantemente\s+|severamente\s+)?(?:prohibid[oa]s?|proibid[oa]s?|vietat[oi]|verboten|forbidden|banned|interdite?s?)\b"
                             r"|[`'\"]?\s*(?:(?:is|are)\s+(?:never|not)\s+used|(?:isn|aren)['’]t\s+used|no\s+se\s+(?:usa|utiliza|emplea)n?|"
                             r"n[ãa]o\s+(?:se\s+)?(?:usa|utiliza)m?|non\s+si\s+(?:usa|utilizza)(?:no)?|n['’]est\s+(?:jamais\s+|pas\s+)utilis[ée]e?|"
                             r"ne\s+s['’]utilise\s+(?:pas|jamais)|wird\s+(?:nie|nicht|niemals)\s+(?:benutzt|verwendet|genutzt)|"
                             r"(?:就)?不(?:用|使用|再用))(?![\w])", re.I)
# (a period or colon inside a word — `~/.profile`, `https://` — ends no clause, nor does an ellipsis: `SKIP=…`)
_CLAUSE_START = re.compile(r"(?<!\.\.)[.!?:](?!\S)|[;,\n。！？；，：]|\s[-–—]\s|\b(?:but|then|and then|otherwise)\b", re.I)


_SENTENCE_END = re.compile(r"[.!?;\n。！？；]")


def same_clause_broken(text: str, start: int, end: int) -> bool:
    """Whether a clause ends between ``start`` and ``end``."""
    return bool(_CLAUSE_START.search(text, start, end))


def negated_later(text: str, end: int) -> bool:
    """A negation later in the same sentence ("without consent, do not add …", "…しないこと")."""
    stop = _SENTENCE_END.search(text, end)
    rest = text[end:stop.start() if stop else len(text)]
    neg = _NEGATION_BEFORE.search(rest)
    return bool((neg and not _NOT_REALLY.search(rest[neg.start():]))
                or re.search(r"しない|しないこと|しないで|禁止|してはいけない|してはならない", rest))


# "X, not Y" / "…, nicht Y": the word right before the match says what not to use
# "niente `--index-url` né `--trusted-host`", "weder X noch Y": the second item shares the negation
_NOR = re.compile(r"\b(?:not|no|non|niente|nessun\w*|nada\s+de|pas\s+de|aucun\w*|kein\w*|weder|never|nunca|mai|jamais|nie)\b"
                  r"[^,;.\n]{0,60}?\s(?:né|nè|ni|nem|nor|noch)\s*[`'\"]?\s*$", re.I)
_NOT_THIS = re.compile(r"\b(?:not|nicht|non|pas|no|não|nem|ni|niente|nada de|kein\w*|jamais de|mai|weder|neither)"
                       r"(?:\s+(?:with|via|through|using|by|from|con|avec|par|mit|über|com|por|tramite|de|d'|du|des))?\s*[`'\"]?\s*$", re.I)
# a list under one negation: "do not use `--no-verify`, `HUSKY=0` or `SKIP=`"
_LIST_ITEM = re.compile(r"^\s*(?:(?:or|and|nor|o|ou|oder|y|e|und|ni|nem|或|和)\s+)?[`'\"]?[^\s,;:。，、]{0,40}[`'\"]?\s*"
                        r"(?:(?:or|and|nor|o|ou|oder|y|e|und|ni|nem|或|和)\s+)?[`'\"]?$", re.I)


_LIST_OPEN = re.compile(r"^\s*(?:[`'\"]?[^\s,;:。，、]{1,40}[`'\"]?\s+)?(?:or|and|nor|o|ou|oder|y|e|und|ni|nem|或|和)\s+"
                        r"[`'\"]?$|^\s*[`'\"]?$", re.I)


# a clause that sets a condition or a place: "Si no hay respuesta en un minuto,", "No resumo de …,"
_CONDITION = re.compile(r"\s*(?:if|when|unless|si|se|wenn|falls|quand|lorsque|cuando|quando|caso|als|"
                        r"no\s+(?:resumo|relat[óo]rio|caso|dia|passo|fim|final))\b|\s*(?:如果|要是|假如|もし)", re.I)


# the match is what "without" leaves out: "commit without `--no-verify`" avoids it, but "do not
# commit without `--no-verify`" — two negations — demands it
_WITHOUT = re.compile(r"(?<![\w'])(?:without|sans|senza|sem|sin|ohne)\s+(?:the\s+|a\s+|o\s+|le\s+|la\s+|il\s+|el\s+|"
                      r"den\s+|die\s+|das\s+)?[`'\"]?$", re.I)


# "if `X=0` appears anywhere, remove it": the match is what is to be taken out
_REMOVED_AFTER = re.compile(
    r"\S{0,12}?\s*(?:appears|shows\s+up|turns\s+up|is\s+(?:set|present|found|there)|exists)\b[^.\n]{0,60}?"
    r"\b(?:remove|delete|drop|unset|revert|strip)\s+(?:it|them|that)\b"
    r"|\S{0,12}?\s*(?:appara[iî]t|est\s+pr[ée]sent)[^.\n]{0,60}?\b(?:supprime|retire|enl[èe]ve)-(?:le|la|les)\b"
    r"|\S{0,12}?\s*(?:compare|appare|[èe]\s+presente)[^.\n]{0,60}?\b(?:rimuovil|eliminal|toglil)[oaie]\b"
    r"|\S{0,12}?\s*(?:aparece|est[áa]\s+presente)[^.\n]{0,60}?\b(?:elim[íi]nal|qu[íi]tal|b[óo]rral)[oa]s?\b"
    r"|\S{0,12}?\s*(?:aparecer|aparece|estiver\s+presente)[^.\n]{0,60}?\b(?:remova|apague|tire)-[oa]s?\b"
    r"|\S{0,12}?\s*(?:auftaucht|vorkommt|gesetzt\s+ist|steht)\b[^.\n]{0,60}?\b(?:entferne|lösche)\s+(?:es|ihn|sie)\b"
    r"|\S{0,12}?\s*出现[^。\n]{0,20}?(?:删除|删掉|去掉|移除)|\S{0,12}?\s*(?:があれば|が見つかったら|があったら)[^。\n]{0,20}?(?:削除|消)",
    re.I)


# "When a vendor documents `curl … | sh`, use `curl -fsSLo install.sh` instead": what the next
# clause uses instead replaces the match ("use X instead of Y" chooses X, and "run X and push
# there instead" is one clause: not these)
_REPLACED_LATER = re.compile(r"[^\n,，]{0,40}?[,，](?:(?![.;!?。；](?:\s|$))[^\n]){0,100}?(?:\binstead\b(?!\s+of)|\binvece\b(?!\s+di)|\bau\s+lieu\b(?!\s+d)|"
                             r"\ben\s+su\s+lugar\b|\bem\s+vez\s+disso\b|\bstattdessen\b|代わりに|改为|改用)", re.I)


# "leave `core.hooksPath` at its default": the setting named to be left alone
_LEAVE = re.compile(r"\b(?:leave|keep|lascia|laisse[rz]?|deja|deixe|deixa|lass|mant[ée]n|mantieni|mantenha|garde[rz]?|behalte)"
                    r"\s+[`'\"]?$", re.I)
_ALONE = re.compile(r"[`'\"]?\s+(?:at\s+(?:its|the)\s+default|untouched|alone|unset|as\s+it\s+is|as\s+is|unchanged|"
                    r"como\s+est[áa]|tal\s+(?:como|cual)\s+est[áa]|com['’]?\s*[èe]|cos[ìi]\s+com['’]?\s*[èe]|invariat[oa]|"
                    r"tel(?:le)?\s+quel(?:le)?|comme\s+(?:il|elle)\s+est|(?:so\s+)?wie\s+(?:es|er|sie)\s+ist|unver[äa]ndert|"
                    r"in\s+Ruhe|intact[oa]?|al\s+(?:suo\s+)?default|"
                    r"par\s+d[ée]faut|por\s+defecto|no\s+padr[ãa]o|(?:auf\s+dem\s+)?Standard(?:wert)?|beim\s+Standard)\b", re.I)


# "don't skip tests with `@pytest.mark.skip`": the match is how the skipping is done, so the
# negation forbids it ("don't skip" alone is the idiom "do run")
_BY_MEANS_OF = re.compile(r"\b(?:skip|skipping)\b[^,;.\n]{0,40}?\b(?:with|using|via|by|through)\s+[`'\"]?$", re.I)
_JA_WITHOUT_FORBIDDEN = re.compile(r"[`'\"]?\s*(?:を)?(?:付けずに|つけずに|使わずに|なしで|無しで)[^。\n]{0,20}?"
                                   r"(?:してはいけない|してはならない|しないこと|禁止)")


# "instead of", "statt": they negate what follows them at once, not a clause's later words
_INSTEAD_OF = re.compile(r"instead\s+of|rather\s+than|statt|anstatt|invece\s+di|au\s+lieu\s+de|en\s+lugar\s+de|en\s+vez\s+de|"
                         r"em\s+vez\s+de|ao\s+inv[ée]s\s+de|而不是", re.I)
# ... and what comes after their object, "simply", is what is done
_SIMPLY = re.compile(r"\b(?:simply|just|directly|einfach|lieber|direkt|simplement|plut[ôo]t|directement|simplemente|mejor|"
                     r"directamente|simplesmente|melhor|diretamente|semplicemente|meglio|direttamente)\b|直接|干脆", re.I)
# "prefer `git revert` over `git reset --hard`": what is preferred over is what is not done
_PREFER_OVER = re.compile(r"\b(?:prefer\w*|pick|choose|use)\b[^,;\n]{0,60}?\bover\s*[`'\"]?$"
                          r"|\b(?:prefir\w*|prefier\w*|pr[ée]f[èée]r\w*|preferisc\w*)\b[^,;\n]{0,60}?\s(?:a|à|al|ao|alla)\s*[`'\"]?$"
                          r"|\bbevorzug\w*\b[^,;\n]{0,60}?\b(?:gegenüber|vor)\s*[`'\"]?$", re.I)
# a verb first, its negation after it: "Lösche keine Tests", "Leite curl niemals in sh"
_VERB_THEN_NOT = re.compile(r"[A-Za-zÄÖÜäöüß]+\s+(?:\S+\s+){0,1}(?:keine?[nmrs]?|nicht|nie|niemals)\b")


def negated(text: str, start: int, end: int) -> bool:
    floor = max(0, start - 160)
    window = text[floor:start]
    cuts = [0] + [m.end() for m in _CLAUSE_START.finditer(window)]
    clause = window[cuts[-1]:]
    if _NOT_THIS.search(clause) or _NOR.search(clause):
        return True
    if _LEAVE.search(clause) and _ALONE.match(text, end):
        return True
    if _JA_WITHOUT_FORBIDDEN.match(text, end):  # "`X` を付けずに…してはいけない" demands X
        return False
    without = _WITHOUT.search(clause)
    if without:
        neg = _NEGATION_BEFORE.search(clause, 0, without.start())
        return not (neg and not _NOT_REALLY.search(clause[neg.start():]))
    # a list's later items share the negation its first item is under
    k = len(cuts) - 1
    # (the match itself must open its item: "Per non perdere il PATH, aggiungi `…`" is a clause)
    while k > 0 and (_LIST_ITEM if k < len(cuts) - 1 else _LIST_OPEN).match(window[cuts[k]:]) \
            and window[cuts[k] - 1:cuts[k]] in (",", "、", "，") \
            and not _CONDITION.match(window[cuts[k - 1]:cuts[k]]):
        # (a condition before the comma is no list head: "if there is no answer, take it as yes")
        k -= 1
        clause = window[cuts[k]:]
    neg = _NEGATION_BEFORE.search(clause)
    if neg and _INSTEAD_OF.fullmatch(neg.group(0)) and _SIMPLY.search(clause, neg.end()):
        # "statt der CA-Datei einfach `X` setzen": what is replaced is the CA file, not X
        neg = _NEGATION_BEFORE.search(clause, neg.end())
    if neg and (not _NOT_REALLY.search(clause[neg.start():]) or _BY_MEANS_OF.search(clause)):
        return True
    if _PREFER_OVER.search(clause) or _VERB_THEN_NOT.match(text, start):
        return True
    return bool(_NEGATION_AFTER.match(text, end) or _REMOVED_AFTER.match(text, end)
                or _REPLACED_LATER.match(text, end))




_PERSON_DECIDES = re.compile(
    r"\b(?:ask|asks|asking)\s+(?:the\s+)?(?:user|person)\s+(?:first|before|to\b)|\bchied\w*\s+all'utente\s+di\b|"
    r"\bdemande[rz]?\s+à\s+l'utilisateur\s+de\b|\bp[íi]d\w*\s+al\s+usuario\s+que\b|\bpe[çc]a\s+ao\s+usu[áa]rio\s+(?:para|que)\b|"
    r"\bbitte\s+den\s+(?:Nutzer|Benutzer)\b|请用户|让用户自己|ユーザーに(?:依頼|頼)|\b(?:the\s+)?(?:user|person)'s\s+(?:explicit\s+)?"
    r"(?:yes|approval|consent|go-?ahead|ok)\b|\bafter\s+the\s+(?:user|person)\s+(?:agrees|approves|confirms|says\s+yes)"
    r"|\bchied\w*\s+(?:conferma\s+)?all'utente\b|\bconferma\s+dell'utente|\bpergunt\w*\s+ao\s+usu[áa]rio\s+antes"
    r"|\bconfirma[çc][ãa]o\s+do\s+usu[áa]rio|\bdemande[rz]?\s+(?:la\s+)?(?:confirmation\s+)?à\s+l'utilisateur|"
    r"\baccord\s+de\s+l'utilisateur|\bpregunt\w*\s+al\s+usuario\s+antes|\bconfirmaci[óo]n\s+del\s+usuario|"
    r"\bfrag\w*\s+(?:den\s+)?(?:Nutzer|Benutzer)\s+(?:vorher|zuerst)|\bZustimmung\s+des\s+(?:Nutzers|Benutzers)|"
    r"先问用户|用户同意后|征得用户同意|经用户确认|ユーザーに確認してから|ユーザーの(?:許可|承認|同意)を(?:得て|取って)"
    # asked in other words: "pide permiso al usuario antes de", "den Benutzer fragen", "ユーザーの了承を得る",
    # "before X, show the user what it would do"
    r"|\b(?:pid\w*|solicit\w*)\s+(?:permiso|confirmaci[óo]n|autorizaci[óo]n)\s+al\s+usuario\b"
    r"|\bpe[çc]a\s+(?:permiss[ãa]o|confirma[çc][ãa]o|autoriza[çc][ãa]o)\s+ao\s+usu[áa]rio\b"
    r"|\bdemande[rz]?\s+(?:la\s+)?(?:permission|confirmation|autorisation)\s+à\s+l'utilisateur\b"
    r"|\bchied\w*\s+(?:il\s+)?(?:permesso|conferma)\s+all'utente\b"
    r"|\b(?:den|die)\s+(?:Benutzer|Nutzer|Anwender)\w*\s+(?:vorher\s+|zuerst\s+)?(?:fragen|um\s+Erlaubnis\s+bitten)\b"
    r"|\bfrag\w*\s+(?:vorher\s+|zuerst\s+)?(?:den|die)\s+(?:Benutzer|Nutzer|Anwender)\b"
    r"|ユーザーの(?:了承|了解|確認|許可|承認|同意)を(?:得る|得て|取る|取って|もらう|もらって)"
    r"|\b(?:show|tell|ask)\s+the\s+(?:user|person)\b(?=[^.\n]{0,80}?\b(?:first|before|dry[- ]run|-n\b|--dry-run|what\s+it\s+would))"
    r"|\bbefore\s+[`'\"]?[^,\n]{0,60}?[,;]\s*(?:show|ask|tell)\s+the\s+(?:user|person)\b"
    # waiting for the yes, or asking before the act: "show `git clean -ndx` and wait for a yes",
    # "Pregunta siempre antes de un `git push --force`", "Frag vor jedem … nach", "ask first"
    r"|\bwait\s+for\s+(?:a\s+|an\s+|the\s+|their\s+)?(?:(?:user|person|owner|human)'s\s+)?(?:yes|ok|okay|go-?ahead|approval|confirmation|sign-?off)\b|\bask\s+first\b"
    r"|\besper[ae]\s+(?:el\s+|o\s+|a\s+|la\s+|um\s+|un\s+)?(?:visto\s+bueno|ok|okay|aprobaci[óo]n|confirmaci[óo]n|aprova[çc][ãa]o|"
    r"confirma[çc][ãa]o|sim|s[íi])\b|\battend[sz]?\s+(?:l'accord|la\s+confirmation|le\s+feu\s+vert|un\s+oui|la\s+validation)"
    r"|\baspett\w*\s+(?:il\s+|la\s+|un\s+)?(?:via\s+libera|conferma|ok|s[iì])\b|\bwarte\b[^.\n]{0,30}?(?:Freigabe|Bestätigung|Zustimmung|OK|Ja)\b"
    r"|\b(?:ask|pergunte|pregunta|demande|chiedi)\s+(?:always\s+|sempre\s+|siempre\s+|toujours\s+)?(?:before|antes\s+de|avant|prima\s+di)\b"
    r"|\bfrag\w*\s+(?:immer\s+)?(?:vor|bevor)\b|\b(?:zeigen|zeige)\s+und\s+fragen\b"
    r"|等(?:待)?用户(?:同意|确认)|用户(?:同意|确认)后|了承を得|ユーザーに確認する|承認を得|確認を取"
    # "demande toujours à l'utilisateur", "ask the user first"; "Pide permiso antes de …"
    r"|\b(?:demande[rz]?|chied\w*|pregunt\w*|pergunt\w*|frag\w*|ask)\s+(?:toujours|always|sempre|siempre|immer|first"
    r"|d'abord|prima|primero|antes|zuerst|vorher|jedes\s+Mal)\s+(?:à\s+l'utilisateur|all'utente|al\s+usuario"
    r"|ao\s+usu[áa]rio|(?:den|die)\s+(?:Nutzer|Benutzer|Anwender)\w*|the\s+(?:user|person))"
    r"|\b(?:pid\w*|solicit\w*)\s+(?:permiso|autorizaci[óo]n|confirmaci[óo]n)\s+antes\b"
    r"|\bpe[çc]a\s+(?:permiss[ãa]o|autoriza[çc][ãa]o|confirma[çc][ãa]o)\s+antes\b"
    r"|\bdemande[rz]?\s+(?:la\s+)?(?:permission|autorisation|confirmation)\s+avant\b"
    r"|\bchied\w*\s+(?:il\s+)?(?:permesso|conferma)\s+prima\b|\bask\s+(?:for\s+)?(?:permission|approval)\s+(?:first|before)\b"
    r"|\bum\s+(?:Erlaubnis|Freigabe)\s+(?:fragen|bitten)\b"
    # the person's answer waited for, their explicit yes, the act going through them: "then wait for
    # their reply", "attends sa réponse", "nur nach ausdrücklichem Ja des Nutzers", "并等待确认"
    r"|\bwait\s+for\s+(?:their|his|her|the\s+(?:user|person)['’]s)\s+(?:reply|answer|response|word)\b"
    r"|\battend[sz]?\s+(?:sa|leur)\s+r[ée]ponse\b|\baspett\w*\s+(?:la\s+sua|una)\s+risposta\b"
    r"|\besper[ae]\s+(?:su|sua|a\s+sua)\s+respuesta\b|\besper[ae]\s+(?:a\s+)?(?:sua\s+)?resposta\b"
    r"|\bwarte\s+(?:auf\s+)?(?:seine|ihre|die)\s+Antwort\b"
    r"|\b(?:explicit|express)\s+(?:yes|ok|okay|go-?ahead)\b|\bausdr[üu]cklich\w*\s+(?:Ja|OK|Okay|Zustimmung|Freigabe)\b"
    r"|\boui\s+explicite\b|\bs[iì]\s+esplicito\b|\bs[íi]\s+expl[íi]cito\b|\bsim\s+expl[íi]cito\b"
    r"|\bpasse\s+par\s+l['’]utilisateur\b|\bpasa\s+por\s+el\s+usuario\b|\bpassa\s+pelo\s+usu[áa]rio\b"
    r"|\bpassa\s+(?:dall['’]|per\s+l['’])utente\b|\bgoes\s+through\s+the\s+(?:user|person)\b"
    r"|等待(?:用户)?(?:确认|同意|回复|答复)|(?:返事|返答|回答|確認|承認)を待"
    r"|\bshown?\s+to\s+the\s+(?:user|person)\s+(?:first|before)\b",
    re.I)


# a sentence of prose: a line soft-wrapped inside a paragraph goes on ("Ask the user to add
# themselves to the group\n(`sudo usermod -aG docker $USER`)"); a blank line or a list item ends it
_PROSE_END = re.compile(r"[.!?;。！？；](?=\s|$)|\n\s*(?:\n|[-*+]\s|\d{1,3}[.)]\s|#)")


_PERSON_DECIDES = re.compile(_PERSON_DECIDES.pattern.replace("'", "'?"), re.I)


def person_decides(text: str, m: re.Match[str]) -> bool:
    """"A `DROP TABLE` needs the user's explicit yes", "用户同意后再 `git clean -f`", "ask the user
    to run …": the person's approval, or their own doing, in the match's sentence is what the
    rule asks for."""
    starts = [e.end() for e in _PROSE_END.finditer(text, 0, m.start())]
    stop = _PROSE_END.search(text, m.end())
    return bool(_PERSON_DECIDES.search(text, starts[-1] if starts else 0, stop.start() if stop else len(text)))



# A script fetched and run (in words) is read first when the sentence says so: "download it, read
# it, check its checksum, then run it"; "without reading it" and "as is" say the opposite.
_UNREAD = re.compile(
    r"\b(?:without|sans|sin|sem|senza|ohne)\s+(?:\w+\s+){0,3}?(?:read|review|look|check|inspect|open|relire|lire|"
    r"regarder|v[ée]rifier|ouvrir|revisar\w*|leer\w*|mirar\w*|abrir|ler|olhar|verificar|leggerl\w*|leggere|controllar\w*|"
    r"aprirl\w*|anzusehen|anschauen|lesen|zu\s+lesen|prüfen|zu\s+prüfen|öffnen)\w*"
    r"|\b(?:as\s+is|blindly|unread|immediately|straight\s+away|right\s+away|tel\s+quel|imm[ée]diatement|directement|"
    r"directamente|de\s+inmediato|inmediatamente|imediatamente|diretamente|subito|immediatamente|direttamente|sofort|"
    r"unbesehen|ungelesen|direkt)\b"
    r"|不需要先?看|不用先?看|不看|不要看|立即|马上|直接|読まずに|確認せずに|すぐに|そのまま", re.I)
_READ_FIRST = re.compile(
    r"\b(?:read|review|inspect|check|verify|audit|diff|look\s+(?:at|over|through)|relis|lis|v[ée]rifie|inspecte|"
    r"revisa|lee|comprueba|verifica|leia|confira|inspecione|leggi|controlla|prüf\w*|lies|sieh\b[^.\n]{0,20}\ban)\w*"
    r"|\b(?:lesen|gelesen|durchsehen|ansehen|anschauen|lire|relire|leer|ler|leggere|leggerlo|rev[ií]s\w*)\b"
    r"|\bl[ée]el[oa]s?\b|\b(?:sha256|sha512|checksum|signature|gpg|cosign)\w*"
    r"|检查|查看|审查|审阅|审核|过目|阅读|读一遍|看一遍|確認|読ん|読む|目を通|レビュー", re.I)


def run_unread(m: re.Match[str]) -> bool:
    """Whether a script fetched and run in words is run unread: the sentence says it is not read
    ("without reading it", "as is", "sofort"), or it says nothing of reading it at all."""
    text = m.string
    if "\n" in m.group(0) or "`" in m.group(0):  # a command saved, then run: read between?
        return bool(_UNREAD.search(m.group(0)) or not _READ_FIRST.search(m.group(0)))
    starts = [e.end() for e in _RUN_SENTENCE_END.finditer(text, 0, m.start())]
    stop = _RUN_SENTENCE_END.search(text, m.end())
    end = stop.start() if stop else len(text)
    # what is said of the script comes once it is fetched: "…; download it and run it as is"
    if not _SCRIPTISH.search(text, max(starts[-1] if starts else 0, m.start() - 20), min(len(text), m.end() + 12)):
        return False  # "download the notes before you run the upgrade": two things
    if _UNREAD.search(text, m.start(), end):
        return True
    return not _READ_FIRST.search(text, starts[-1] if starts else 0, end)


# what is run is what was fetched: a script named between, or the run's object a pronoun for it
_SCRIPTISH = re.compile(
    r"\b(?:scripts?|installers?|helpers?|fix|patch\w*|hotfix|tool|binary|bootstrap\w*|setup|Skript\w*|Installer|"
    r"Reparatur\w*|correctif|outil|install\w*|parche|instalador|utilit[áa]rio|corre[çc][ãa]o|strumento|programma)\b"
    r"|(?:\b(?:run|execute|exec|launch|source)\s+(?:it|them|that)\b|\b\w+(?:lo|la|los|las|-o|-a|-le|-la|-les)\b"
    r"|\b(?:es|ihn|sie)\b[^.\n]{0,20}?\baus\b)"
    r"|脚本|补丁|安装程序|工具|スクリプト|インストーラ|パッチ|ツール", re.I)


_RUN_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|[。！？；\n]")
