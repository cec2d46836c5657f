"""Did the user, in this message, tell the agent it was wrong? A multilingual local heuristic.

A signal, not a verdict (SPEC §1.1): it is weighed with other signals, so an occasional miss is
acceptable — but its precision and recall are measured (``bench/detectors.py``) on labelled
messages in eight languages, hard negatives included.

How it reads a message:

- Pasted material is not the user's voice: fenced code blocks, ``> quoted`` lines, inline code and
  quoted strings ("…", '…', 「…」) are dropped before matching, so ``What does 'wrong number of
  arguments' mean?`` or a log line ``ERROR: wrong credentials`` is not a correction.
- Only the first ~600 characters and the last ~300 are read: a correction is said up front ("No,
  that's wrong…") or as the closing remark after a pasted log.
- Cues are phrases that say *you were wrong / do it differently than you did*: a sentence opening
  with "No," / "Nein," / "Non,"…, "that's wrong", "I said…", "you misunderstood", "why did you…",
  "undo / revert", "don't <verb>" (except "don't forget / don't worry"), "should be X, not Y",
  "still doesn't work", 不对 / 错了 / 应该是 / 不是…而是 / 重新写, 違います / そうじゃなくて /
  元に戻して…
- Words the seed lists that are *not* enough on their own, by decision: "actually" ("actually,
  that works now"), "instead" / "而不是" / "ではなく" inside a request ("use a list instead of a
  dict for the output" may well be a first request; the detector cannot tell, and a false
  correction costs a reflection). "Instead of X, do Y" *opening* a message does count: it reacts
  to something. "重新" counts only with a verb of making (重新写 / 重新做 / 重新来), never with one
  of running (重新运行测试 is a rerun, not a complaint); the same holds for "rifallo", "refais-le",
  "refaça", "hazlo de nuevo", "nochmal neu", "やり直して" against "re-run", "rilancia", "relance"….
- A question about wrongness ("Is it wrong to use a global here?", "O que tem de errado…?") is a
  question, not a correction: bare "wrong" words do not count in a sentence ending with "?". "Why
  did you delete the tests?" is a correction: its cue is "why did you", not a "wrong" word.
- A user owning the mistake ("Sorry, I gave you the wrong file name", "colpa mia") is not
  correcting the agent: such a sentence is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slowloop.observe.model import Correction

HEAD_CHARS = 600
TAIL_CHARS = 300
LANGUAGES = ("en", "zh", "ja", "it", "pt", "fr", "es", "de")

_I = re.IGNORECASE


@dataclass(frozen=True)
class _Cue:
    rx: re.Pattern[str]
    skip_in_question: bool = False  # "Is it wrong to…?" asks, it does not correct


def _cues(*patterns: str, question: bool = False) -> tuple[_Cue, ...]:
    # MULTILINE: the sentences are matched joined by newlines, so "^" means "a sentence starts".
    return tuple(_Cue(re.compile(p, _I | re.MULTILINE), question) for p in patterns)


# A sentence opening with a bare "no" followed by punctuation: "No, use pnpm" but not "No need…",
# "No problem", "Non merci", "No hay problema".
_OPENING_NO = (r"^(?:no+|nope|nah|nein|non|não|nao)(?:\s*[,!.:;\u2014\u2013-]|\s+no\b)"
               r"(?!\s*(?:thanks|thank you|grazie|obrigad|merci|gracias|danke))")

_CUES: dict[str, tuple[_Cue, ...]] = {
    "en": _cues(
        _OPENING_NO, r"^nope\b", r"^not like that\b", r"^wrong\b",
        r"\b(?:that'?s|this is|it'?s|that is|this was|you'?re|you are|is)\s+(?:\w+\s+)?"
        r"(?:not (?:right|correct|what i (?:asked|wanted|meant|said))|mistaken)",
        r"\b(?:isn'?t|aren'?t|wasn'?t) (?:right|correct|what i)\b",
        r"\b(?:the )?opposite of what\b|\bthe other way (?:a)?round\b|\bbackwards\b|\breversed\b",
        r"\bi meant\b|\bi was (?:talking|referring) (?:about|to)\b",
        r"\byou(?:'ve| have)? (?:overwrote|overwritten|clobbered|wiped|lost|hard-?coded|reverted"
        r"|dropped|duplicated)\b",
        r"\byou(?:'ve| have)? \w+(?:ed|put|set|made|wrote|left|did)\b.{0,60}\bagain\b",
        r"\bnot what i (?:asked|wanted|meant|said)\b",
        r"\bi (?:said|told you|already told you|asked (?:you )?(?:to|for)|meant|wanted)\b",
        r"\b(?:don'?t|do not|never)\s+(?!forget|worry|hesitate|bother|mind)\w+",
        r"\b(?:stop|quit)\s+\w+ing\b", r"^instead of\b",
        r"\byou (?:broke|forgot|missed|deleted|removed|ignored|misunderstood|misread|skipped"
        r"|only fixed|didn'?t|did not|were supposed to|are supposed to|should(?:n'?t| not)? have"
        r"|got (?:it|that|this) wrong|keep \w+ing)\b",
        r"\b(?:revert|undo|roll ?back)\b", r"\bwhy (?:did|do|are|were|would) you\b",
        r"\b(?:should|must|needs? to|has to) be\b[^.;\n]{0,40}?,?\s*not\b",
        r"\bstill (?:doesn'?t|does not|isn'?t|is not|not|fails|failing|broken|wrong)\b",
        r"\b(?:put|bring|change) (?:them|it|that|those) back\b", r"\boff[- ]by[- ]one\b",
    ) + _cues(r"\b(?:wrong|incorrect)\b", question=True),
    "zh": _cues(r"错了|錯了", question=True) + _cues(
        r"不对|不對|搞错|搞錯|弄错|弄錯|理解错|理解錯|说错|写错|寫錯|不正确|不正確",
        r"不是.{0,30}?而是", r"应该是|應該是|应该用|應該用",
        r"不是我(?:想要|要|说)的|我(?:说|說)的是|我(?:说|說)过|我(?:说|說)了|我没让你|我沒讓你|我没有让你",
        r"别动|別動|不要再|别再|別再|不要动|不要改|不要删", r"怎么把|怎麼把|为什么(?:把|要|你)|為什麼(?:把|要|你)",
        r"撤销|撤銷|恢复回|恢復回|还原|還原|改回", r"还是不|還是不|还是失败|還是失敗|这样不行|這樣不行",
        r"重新(?:写|寫|做|改|实现|實現|来|來|设计|設計|弄)",
        r"你又|又把|又用", r"不是这样|不是這樣|反了|相反", r"为什么(?:用|改|删)|為什麼(?:用|改|刪)",
        r"覆盖了|覆蓋了|删掉了我|刪掉了我|你删|你刪|加回去|放回去|改回去",
        r"我要的不是|我指的是|我说的不是|我說的不是",
    ),
    "ja": _cues(r"間違(?!いやすい|えやすい)|まちが(?!いやすい)", question=True) + _cues(
        r"違います|違う|ちがう|ちがいます|そうじゃな|そうではな|じゃなくて(?=[、,])",
        r"正しくな|誤って",
        r"元に戻|もとに戻|やり直|(?<!気に)(?<!心配)(?<!無理)(?<!急が)(?:さ|え|ら|わ|け|か)ないで",
        r"言ったのに|言いましたよね|言ったように|言ったでしょう|と言いました|頼んでいない|頼んでません",
        r"動きません|動かない|まだ(?:動|エラー|失敗|直って)|直っていない|直ってない",
        r"そういう意味(?:では|じゃ)",
        r"勝手に", r"^(?:いや|いいえ)[、,]", r"言った(?:はず|じゃない|よね)", r"^逆です|逆になって|逆でした",
        r"なぜ.{0,30}(?:使って|して|した)|どうして.{0,30}(?:使って|して|した)",
        r"上書きし|また.{0,40}(?:ていますね|ましたね|てますね)|を戻して|戻してください|無視",
        r"(?:その|この|それ|これ|そっち|こっち).{0,20}(?:じゃ|では)(?:ないです|ありません)",
    ),
    "it": _cues(r"\bsbagliat[oaie]\b|\berrat[oaie]\b", question=True) + _cues(
        _OPENING_NO, r"\bnon (?:è|e') (?:corretto|giusto|quello che|così)\b", r"^non così\b",
        r"\bhai sbagliato\b|\bhai frainteso\b",
        r"\bti (?:avevo|ho) (?:già )?detto\b|\bte l'ho (?:già )?detto\b|\bcome ti ho chiesto\b",
        r"\bnon ti ho chiesto\b|\bperché hai\b|\bannulla\b|\bripristina\b|\brimetti\w*\b",
        r"\bancora non funziona\b|\bnon funziona ancora\b|\bcontinua a non\b",
        r"\bnon (?!preoccup)\w+(?:are|ere|ire)\b|\bsmetti di\b|^invece di\b",
        r"\brifall[oa]\b|\brifai\b|\briscrivil[oa]\b", r"\bil contrario di\b|\bal contrario\b",
        r"\bintendevo\b|^non è (?:quel|questo|il|la|lo)\b|\binvertit[oa]\b",
        r"\bhai (?:sovrascritto|cancellato|rotto|rimosso|eliminato|ignorato|dimenticato|perso"
        r"|tolto)\b|\bhai di nuovo\b|\bperché (?:usi|stai|continui)\b",
    ),
    "pt": _cues(r"\berrad[oa]s?\b|\bincorret[oa]\b", question=True) + _cues(
        _OPENING_NO, r"\bnão (?:é|foi) (?:isso|assim|o que|correto|certo)\b",
        r"\b(?:você )?errou\b|\bentendeu errado\b",
        r"\beu (?:disse|falei|pedi)\b|\bjá (?:te )?falei\b|\bcomo eu pedi\b|\bpor que você\b",
        r"\bdesfaça\b|\bdesfaz\b|\breverta\b|\bde volta\b|\bainda não funciona\b|\bcontinua sem\b",
        r"\bnão (?:use|usa|mexa|mexe|toque|apague|mude|altere|adicione|renomeie)\b",
        r"^(?:para|pare) de \w+r\b|^em vez de\b|\brefaça\b|\brefaz\b", r"\bo contrário do\b",
        r"\binvertid[oa]\b|\bao contrário\b|\beu (?:estava falando|quis dizer|me referia)\b"
        r"|^não é (?:esse|este|essa|esta|isso|aquele|o|a)\b",
        r"\bvocê (?:sobrescreveu|apagou|removeu|quebrou|ignorou|esqueceu|perdeu)\b"
        r"|\bvocê \w+(?:ou|eu|iu)\b.{0,60}\bde novo\b|\bpor que (?:está|esta|usou|usa|mudou)\b",
    ),
    "fr": _cues(
        _OPENING_NO, r"\bc'est (?:faux|incorrect|pas (?:ça|bon|correct|juste))\b",
        r"\bce n'est pas (?:ce que|ça|correct|bon|juste)\b", r"^faux\b|^pas comme ça\b",
        r"\btu (?:t'es|t'étais|vous êtes) trompée?\b|\bmal compris\b",
        r"\bje (?:t'avais|t'ai|vous ai) (?:déjà )?dit\b|\bje te l'ai (?:déjà )?dit\b"
        r"|\bcomme je l'ai demandé\b|\bje ne t'ai pas demandé\b",
        r"\bpourquoi (?:tu as|as-tu)\b|\bannule\b|\bremets\b|\btoujours pas\b|\barrête de\b",
        r"\bne (?:touche|modifie|supprime|change|utilise|mets|rajoute|renomme) pas\b",
        r"^au lieu d", r"\brefais\b", r"\bl'inverse de\b|\ble contraire de\b|\bà l'envers\b",
        r"\bje parlais d|\bje voulais dire\b|\bce n'est pas (?:ce|le|la|les|cette)\b",
        r"\btu as (?:encore|écrasé|supprimé|cassé|oublié|ignoré|effacé|perdu)\b"
        r"|\bpourquoi tu \w+(?:es|is)\b",
    ),
    "es": _cues(
        _OPENING_NO, r"\b(?:está|esta) mal\b|\bincorrect[oa]\b|\bno es (?:correcto|lo que|así)\b",
        r"\bte equivocaste\b|\bequivocad[oa]\b|\b(?:lo )?entendiste mal\b",
        r"\bte (?:lo )?dije\b|\bcomo te pedí\b|\bno te pedí\b|\bya te lo dije\b",
        r"\bpor qué (?:\w+aste|\w+iste)\b|\bdeshaz\b|\brevierte\b|\bvuelve a ponerl",
        r"\bsigue sin funcionar\b|\btodavía no funciona\b|^así no\b|\bdeja de\b",
        r"\bno (?:toques|cambies|uses|borres|agregues|añadas|modifiques)\b",
        r"^en (?:lugar|vez) de\b", r"\brehaz\w*\b|\bhazlo (?:otra vez|de nuevo)\b",
        r"\blo contrario de\b|\bal revés\b|\binvertid[oa]\b|\bme refería\b|\bquise decir\b",
        r"\bno es (?:el|la|lo|ese|esa|eso|este|esta)\b", r"\b(?:sobrescribiste|borraste|rompiste|olvidaste|ignoraste"
        r"|quitaste|eliminaste|perdiste)\b|\botra vez \w+(?:aste|iste)\b"
        r"|\bpor qué (?:usas|sigues|estás|cambiaste)\b",
    ),
    "de": _cues(
        _OPENING_NO, r"\bdas ist (?:falsch|nicht (?:das|was|richtig|korrekt))\b|^falsch\b",
        r"\bstimmt nicht\b|\bnicht das,? was ich\b|\bfalsch verstanden\b",
        r"\b(?:die|den|das) falschen?\b",
        r"\bich hatte (?:doch )?gesagt\b|\bich habe (?:doch |dir )?(?:schon )?gesagt\b"
        r"|\bhab(?:e)? ich (?:doch |dir )?(?:schon )?gesagt\b|\bwie ich gesagt habe\b"
        r"|\bich habe nicht gesagt\b",
        r"\bwarum hast du\b|\brückgängig\b|\bwieder her\b|\bimmer noch nicht\b",
        r"^nicht so\b|\bhör auf\b|^statt\b|\bnochmal neu\b|\bneu schreiben\b|\bnicht anfassen\b",
        r"\bverkehrt\b|\bfalsch herum\b|\bich meinte\b|\bdas ist nicht (?:die|der|den)\b",
        r"\bdas gegenteil\b|\bschon wieder\b|\bwarum (?:benutzt|nimmst|machst|verwendest) du\b",
        r"\bdu hast .{0,40}(?:überschrieben|gelöscht|kaputt gemacht|vergessen|ignoriert|entfernt)\b",
    ),
}

# Cheap language guess, only to report the message's language and try its cues first.
_STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the you that this is it to and of not use please i we with what"
                    " why don't can".split()),
    "it": frozenset("il lo la che non di è e per con hai ti ho una un usa questo perché"
                    " gli sono".split()),
    "pt": frozenset("o a que não de é e para com você eu um uma isso os está por se"
                    " ao".split()),
    "fr": frozenset("le la les que ne pas de est et pour avec tu je un une ce c'est ça"
                    " des".split()),
    "es": frozenset("el la los que no de es y para con te yo un una eso esto está por"
                    " lo".split()),
    "de": frozenset("der die das und nicht ist du ich ein eine mit für zu auf es wie"
                    " dass hast".split()),
}
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[\w']+")

_FENCE = re.compile(r"(?:```|~~~)[\s\S]*?(?:```|~~~|\Z)")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|\u201c[^\u201d\n]{1,200}\u201d|\u300c[^\u300d\n]{0,200}\u300d"
                     r"|(?<![\w])'[^'\n]{1,120}'(?![\w])|\u2018[^\u2019\n]{1,120}\u2019")
# A sentence ends at . ! ? ; only when a space or the end follows ("config.py" stays whole).
_SENTENCE = re.compile(r"(?:[^.!?;\n\u3002\uff01\uff1f]|[.!?;](?=[^\s.!?;]))+"
                       r"[.!?;\u3002\uff01\uff1f]*")
_LEAD_FILLER = re.compile(r"^(?:hmm+|um+|uh+|ok(?:ay)?|oh|ugh|well|so|wait|allora|bueno|bon|also"
                          r"|na ja|ebbene|olha|então)\b[,\s]*", _I)
# The user blames themselves: whatever else the sentence says, it does not correct the agent.
_GUARD = re.compile(
    r"\bi(?:'ve| have)? (?:gave|given|sent|told|pasted|used) you the wrong\b|\bmy (?:mistake|bad|fault)\b"
    r"|\bcolpa mia\b|\berrore mio\b|\bmi sono sbagliat|\bfoi mal\b|\berro meu\b|\bculpa minha\b"
    r"|\bme enganei\b|\bma faute\b|\bje me suis trompé|\bmon erreur\b|\bculpa mía\b"
    r"|\berror mío\b|\bme equivoqué\b|\bmein fehler\b|\bich hab(?:e)? mich vertan\b"
    r"|我(?:搞|弄|说|說|给|給|写|寫)错|是我的错|是我的錯|私の(?:ミス|間違い)|こちらの(?:ミス|間違い)", _I)


def _clean(text: str) -> str:
    if len(text) > 8 * (HEAD_CHARS + TAIL_CHARS):  # bound the work on huge pasted logs
        text = text[:6 * HEAD_CHARS] + "\n" + text[-6 * TAIL_CHARS:]
    text = _FENCE.sub("\n", text)
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith(">")]
    text = "\n".join(lines)
    text = _INLINE_CODE.sub(" X ", text)
    text = _QUOTED.sub(" X ", text)
    if len(text) > HEAD_CHARS + TAIL_CHARS:
        text = text[:HEAD_CHARS] + "\n" + text[-TAIL_CHARS:]
    return text


def _sentences(text: str) -> list[str]:
    out = []
    for m in _SENTENCE.finditer(text):
        s = m.group(0).strip()
        if s:
            out.append(_LEAD_FILLER.sub("", s))
    return out


def detect_language(text: str) -> str | None:
    """A cheap guess among the eight supported languages; None when there is nothing to go on."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return None
    scores = {lang: sum(1 for w in words if w in sw) for lang, sw in _STOPWORDS.items()}
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] > 0 else None


def _match(lang: str, joined: str) -> str | None:
    for cue in _CUES[lang]:
        for m in cue.rx.finditer(joined):
            if cue.skip_in_question:
                end = joined.find("\n", m.end())
                sentence_end = joined[:end if end != -1 else len(joined)].rstrip()
                if sentence_end.endswith(("?", "？")):
                    continue
            return m.group(0).strip()
    return None


def detect_correction(text: str) -> Correction:
    """Whether this user message corrects the agent, with the cue that matched and the language."""
    if not text or not text.strip():
        return Correction(corrected=False)
    cleaned = _clean(text)
    language = detect_language(cleaned)
    # A sentence where the user owns the mistake ("I gave you the wrong file") is skipped.
    joined = "\n".join(x for x in _sentences(cleaned) if not _GUARD.search(x))
    order = [language] if language else []
    order += [lang for lang in ("en",) + LANGUAGES if lang not in order]
    seen: set[str] = set()
    for lang in order:
        if lang in seen:
            continue
        seen.add(lang)
        cue = _match(lang, joined)
        if cue:
            return Correction(corrected=True, evidence=cue, language=language or lang)
    return Correction(corrected=False, language=language)
