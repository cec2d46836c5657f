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
- A message that is only "no" rejects what the agent just did; "No, that's all" / "nein, sonst
  nichts" / "いいえ、以上です" close the exchange and are not corrections. A lone question asking
  why the agent *chose* something ("Why did you use a class here?") asks for an explanation; the
  same question followed by a remark, or about a deletion, still counts.
- Families added after the blind set (tests/data/blind, bench/blind.py), each in every language:
  it broke ("now nothing compiles", "it was working before"), the fix did not take ("same error
  as before"), put it back the way it was, "there is a misunderstanding", "I wanted X, not Y",
  half-done work ("you renamed X but didn't update the callers"), verb + 错 ("you edited the
  wrong …") in Chinese, "wrong file / falsche Datei / mauvais fichier" with a noun.
- Families added for the forms that state the lesson (issue 11, tests/data/blind3): "X, not Y"
  after a verb or a pause ("I said httpx, not requests", "Il branch è main, non master"), "again:",
  "Y again??", "we moved/migrated to X", "from now on use …", "I said", "prefer X to Y", "not Y —
  X", "enough of Y", "don't use Y" in fr/de/zh, Japanese ではなく / に移行 / はやめて. The
  Latin-script ones are tried only when one of their words is in the message (``_FORM_WORDS``).
- Families added for corrections carried by the agent's work (tests/data/blind4, ``_WORK`` and
  ``_PAIRS``): "for the third time:", "close, but …", a bare "Stop." / "fermati" / "¡Para!", "that
  breaks the API", "since your commit half the suite is red", "did you even run the tests?", "not
  how we do it here", "doesn't belong in …", "like everywhere else", "a function would have been
  enough", "non va bene", "yours drops the column"; and pairs that say it only together: a
  requirement with the agent's own doing ("must be UTC … you're saving local time"), a change of
  mind with "what you just did", "remove X, we use Y", an eye-roll at a house rule. A Latin-script
  family is tried only when a word of its language is present (``_WORK_WORDS``, ``_PAIR_HINT``).
- Words of correction aimed elsewhere are set aside: the person's own mistake or the wrong thing
  they handed over ("I was wrong", "ti ho dato il percorso sbagliato"), a sentence scoping the work
  to come ("before you start: …"), a bare "wrong" word whose subject is a third party ("the
  vendor's SDK returns the wrong timezone"), "no, not yet" answers, why-questions marked "just
  curious, it's fine", "exactly what I wanted". The guard runs only on a message that has a cue.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from slowloop.markdown import strip_fenced
from slowloop.observe.lessons import contrast
from slowloop.observe.model import Correction
from slowloop.text import CHINESE_JAPANESE, FULLWIDTH, HAN, KANA, LATIN, trie_pattern

HEAD_CHARS = 600
TAIL_CHARS = 300
LANGUAGES = ("en", "zh", "ja", "it", "pt", "fr", "es", "de")

_I = re.IGNORECASE


_CUE_FLAGS = _I | re.MULTILINE


class _Cue:
    """One cue: its pattern, compiled the first time it is searched. The cues are searched one by
    one only in a message their language's alternation (or its literals) admits, so most are never
    compiled in a run; compiling all of them at import cost about 80 ms of every CLI start."""

    __slots__ = ("pattern", "skip_in_question", "blame", "_rx", "_rx_low")

    def __init__(self, pattern: str, skip_in_question: bool = False, blame: bool = False) -> None:
        self.pattern = pattern
        self.skip_in_question = skip_in_question  # "Is it wrong to…?" asks, it does not correct
        # a bare "wrong" word: "the vendor's SDK returns the wrong timezone" blames the vendor
        self.blame = blame
        self._rx: re.Pattern[str] | None = None
        self._rx_low: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        """The cue as matched against the message (case-insensitive)."""
        if self._rx is None:
            self._rx = re.compile(self.pattern, _CUE_FLAGS)
        return self._rx

    @property
    def rx_low(self) -> re.Pattern[str]:
        """The cue as its language's lowercase alternation holds it (no IGNORECASE)."""
        if self._rx_low is None:
            self._rx_low = re.compile(self.pattern, re.MULTILINE)
        return self._rx_low


def _cues(*patterns: str, question: bool = False, blame: bool = False) -> tuple[_Cue, ...]:
    # MULTILINE: the sentences are matched joined by newlines, so "^" means "a sentence starts".
    return tuple(_Cue(p, question, blame) for p in patterns)


class _Lazy:
    """A pattern compiled the first time it is used: for those only a message with a cue (or a
    rare hint) ever needs, which most runs never compile."""

    __slots__ = ("_pattern", "_flags", "_rx")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._rx: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self._pattern, self._flags)
        return self._rx

    def search(self, text: str) -> re.Match[str] | None:
        return self._get().search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self._get().finditer(text)


# "No, that's all" / "nein, sonst nichts": the user closes the exchange, nothing is rejected.
_THATS_ALL = (r"(?:that'?s (?:all|it)|nothing (?:else|more)|per ora è tutto|è tutto|nient'altro"
              r"|niente (?:altro|di più)|(?:é )?só isso|mais nada|c'est tout|rien d'autre|rien de plus"
              r"|eso es todo|es todo|nada más|das ist alles|das war'?s|sonst nichts|mehr nicht)")
# "No, that's fine" / "nein, passt so" / "não, deixa que eu abro" / "no, por ahora alcanza": the
# person answers the agent's question — it is fine as it is, not needed, or theirs to do.
_NO_BUT_FINE = (r"(?:(?:that'?s|it'?s|this is|all|così|cosi|assim|así|so|ainsi|é|è|c'est|está|esta|es|ist|das ist|das"
                r"|tá|ta|va)\s+){0,2}(?:fine|right|correct|ok|okay|good|perfect|bene|giusto|corretto|bom|boa|certo"
                r"|ótimo|otimo|bien|bon|gut|richtig|passt|in ordnung)\b"
                r"(?!\s+(?:there|here|in|on|at|under|next|là|lì|qui|ali|aqui|aquí|ahí|allí|da|dort|hier)\b)"  # "it's right there"
                r"|(?:not needed|no need|not necessary|pas besoin|pas la peine|non serve|non c'è bisogno|não precisa"
                r"|nao precisa|no hace falta|no es necesario|nicht nötig|brauchst du nicht|braucht'?s nicht)\b"
                r"|(?:i'?ll|i will|let me|i can|lo faccio io|ci penso io|faccio io|deixa(?: que)? eu|eu (?:abro|faço|mesmo)"
                r"|je (?:le |la |les )?(?:fais|ferai|m'en occupe)|je vais le faire|lo hago yo|yo (?:lo|me encargo)"
                r"|mach(?:e)? ich|ich mach)\b"
                r"|(?:for now|per ora|per adesso|por (?:ahora|agora|enquanto|el momento)|pour l'instant|pour le moment"
                r"|fürs erste|erstmal|vorerst)\b")
# A whole message that is only "no" (or "nope", "nein"…) answers the agent's last move.
_BARE_NO = re.compile(r"^\W*(?:no+|nope|nah|nein|non|não|nao|いいえ|いや|不是|不)\W*$", re.IGNORECASE)
# A redo verb whose object is a build / deploy / test run asks for a rerun, not for new work.
_RERUN_OBJECT = (r"(?!\s+(?:(?:il|la|i|le|lo|l'|o|a|os|as|el|los|las|les|des|du|un|une|uno|una|um|uma)\s*)?"
                 r"(?:build|deploy|test|tests|release|rilascio|ci|pipeline|docker|image|immagine"
                 r"|imagem|imagen|compil|bundle|install|migra)\w*)")
# A sentence opening with a bare "no" followed by punctuation: "No, use pnpm" but not "No need…",
# "No problem", "Non merci", "No hay problema".
_OPENING_NO = (r"^(?:no+|nope|nah|nein|non|não|nao)(?:\s*[,!.:;\u2014\u2013-]"
               r"|\s+(?:no|non|nein|não|nao)\b)"
               r"(?!\s*(?:thanks|thank you|grazie|obrigad|merci|gracias|danke))"
               # "no, I haven't deployed it yet" answers the agent's question: nothing is rejected
               r"(?!(?:(?!\byou\b|\btu\b|\bdu\b|\bvocê\b)[^\n]){0,25}?"
               r"\b(?:yet|ancora|pas encore|noch nicht|todavía|aún|ainda)\b)"
               r"(?![^\n]{0,12}?" + _THATS_ALL + ")"
               r"(?!\s*(?:" + _NO_BUT_FINE + "))")

_CUES: dict[str, tuple[_Cue, ...]] = {
    "en": _cues(
        _OPENING_NO, r"^nope\b(?!\s*[,.!]?\s*(?:" + _NO_BUT_FINE + "))", r"^not like that\b", r"^wrong\b",
        r"\b(?:that'?s|this is|it'?s|that is|this was|you'?re|you are|is)\s+(?:\w+\s+)?"
        r"(?:not (?:right|correct|what i (?:asked|wanted|meant|said))|mistaken)",
        r"\b(?:isn'?t|aren'?t|wasn'?t) (?:right|correct|what i)\b",
        r"\b(?:the )?opposite of what\b|\bthe other way (?:a)?round\b|\bbackwards\b|\breversed\b",
        r"\bi meant\b|\bi was (?:talking|referring) (?:about|to)\b",
        r"\byou(?:'ve| have)? (?:overwrote|overwritten|clobbered|wiped|lost|hard-?coded|reverted"
        r"|dropped|duplicated)\b",
        r"\byou(?:'ve| have)? \w+(?:ed|put|set|made|wrote|left|did)\b.{0,60}\bagain\b",
        r"\bnot what i (?:asked|wanted|meant|said)\b",
        r"\bi (?<!what i )(?:said|told you|already told you|asked (?:you )?(?:to|for)|meant|wanted)\b",
        r"\b(?:don'?t|do not|never)\s+(?!forget|worry|hesitate|bother|mind)\w+",
        r"\b(?:stop|quit)\s+\w+ing\b", r"^instead of\b(?!\s+(?:me|us|having to|doing (?:it|this)))",
        r"\byou (?:broke|forgot|missed|deleted|removed|ignored|misunderstood|misread|skipped"
        r"|only fixed|didn'?t|did not|were supposed to|are supposed to|should(?:n'?t| not)? have"
        r"|got (?:it|that|this) wrong|keep \w+ing)\b",
        r"\b(?:revert|undo|roll ?back)\b", r"\bwhy (?:did|do|are|were|would) you\b",
        r"\b(?:should|must|needs? to|has to) be\b[^.;\n]{0,40}?,?\s*not\b",
        r"\bstill (?:doesn'?t|does not|isn'?t|is not|not|fails|failing|broken|wrong)\b",
        r"\b(?:put|bring|change) (?:them|it|that|those) back\b", r"\boff[- ]by[- ]one\b",
        # "you renamed X but didn't update the callers": half-done work.
        r"\byou \w+ed\b[^.\n]{0,80}\bbut (?:didn'?t|did not|forgot|never|not|left)\b",
        # It broke: "now nothing works", "it was working before", "same error as before".
        r"\bnow (?:nothing|none of)\b", r"\b(?:was|were) working (?:fine |perfectly )?before\b",
        r"\b(?:still|again) the same (?:error|problem|issue|failure)\b"
        r"|\bsame (?:error|problem|issue|failure) (?:as before|again)\b",
        r"\b(?:that|this|it|your (?:fix|change|patch)) didn'?t (?:fix|help|work|change anything)\b",
        r"\bthere(?:'s| is| was| might be| may be| seems to be| must be) (?:a |some )?"
        r"misunderstanding\b|\bmisunderstood (?:me|what i)\b",
        r"\b(?:back|leave it|keep it|make it) (?:to )?(?:the way|how|like) it was\b",
    ) + _cues(r"\b(?:wrong|incorrect)\b", question=True, blame=True),
    "zh": _cues(r"错了|錯了|应该是|應該是", question=True, blame=True) + _cues(
        r"(?<![对對])不[对對](?![称稱等])|搞错|搞錯|弄错|弄錯|理解错|理解錯|说错|写错|寫錯|不正确|不正確",
        r"不是.{0,30}?而是", r"应该用|應該用",
        r"不是我(?:想要|要|说)的|我(?:说|說)的是|我(?:说|說)过|我(?:说|說)了|我没让你|我沒讓你|我没有让你",
        r"别动|別動|不要再|别再|別再|不要动|不要改|不要删", r"怎么把|怎麼把|为什么(?:把|要|你)|為什麼(?:把|要|你)",
        r"撤销|撤銷|恢复回|恢復回|还原|還原|改回", r"还是不|還是不|还是失败|還是失敗|这样不行|這樣不行",
        r"重新(?:写|寫|做|改|实现|實現|来|來|设计|設計|弄)",
        r"你又|又把|又用", r"不是这样|不是這樣|反了|相反", r"为什么(?:用|改|删)|為什麼(?:用|改|刪)",
        r"覆盖了|覆蓋了|删掉了我|刪掉了我|你删|你刪|加回去|放回去|改回去",
        r"我要的不是|我指的是|我说的不是|我說的不是",
        # verb + 错 / 坏: "you edited the wrong …", "you broke …"
        r"(?:改|用|放|删|刪|看|找|拼|选|選|装|裝|提交|复制|複製)错(?!别字|別字|字)|(?:搞|弄|改|写|寫)(?:坏|壞)了",
        r"你把.{0,30}?(?:删掉了|刪掉了|删了|刪了|去掉了|弄丢了|弄丟了|覆盖了|覆蓋了|改没了)",
        r"不是(?:这个|這個|那个|那個)意思|撤回|回滚|回滾",
        r"我(?:都|已经|已經|早就)(?:说|說|讲|講)(?:了|过|過)|跟你(?:说|說)过|跟你(?:说|說)過",
        r"之前(?:是|还是|還是)?好(?:的|好的)|本来(?:是)?好(?:的|好的)|之前(?:还|還)?能用",
        r"(?:一样|一樣|同样|同樣)的(?:报错|報錯|错误|錯誤|问题|問題)"
        r"|(?:还是|還是|还|還|仍然|你)没(?:修好|解决|解決)",
        r"误会了|誤會了|误解了|誤解了|你(?:误会|誤會|误解|誤解)",
    ),
    "ja": _cues(r"間違(?!いやすい|えやすい)|まちが(?!いやすい)", question=True, blame=True) + _cues(
        r"違います|違う|ちがう|ちがいます|そうじゃな|そうではな|じゃなくて(?=[、,])",
        r"正しくな|誤って",
        r"元に戻|もとに戻|やり直|(?<!気に)(?<!心配)(?<!無理)(?<!急が)(?:さ|え|ら|わ|け|か)ないで(?!す)",
        r"言ったのに|言いましたよね|言ったように|言ったでしょう|と言いました|頼んでいない|頼んでません|頼んでな",
        r"動きません|動かない|まだ(?:動|エラー|失敗|直って)|直っていない|直ってない",
        r"そういう意味(?:では|じゃ)",
        r"勝手に", r"^(?:いや|いいえ)[、,](?!\s*(?:以上|大丈夫|結構|特に|ありがと|それで|まだ))", r"言った(?:はず|じゃない|よね)", r"^逆です|逆になって|逆でした",
        r"(?:なぜ|どうして|なんで).{0,30}(?:使って|して|した|入れた|追加した|変えた|消した|書いた)",
        r"上書きし|また.{0,40}(?:ていますね|ましたね|てますね)|を戻して|戻してください|無視",
        r"(?:その|この|それ|これ|そっち|こっち).{0,20}(?:じゃ|では)(?:ないです|ありません)",
        r"頼んだの(?:は|と).{0,20}(?:違|じゃな|ではな)",
        r"(?:消し|削除し|変え|変更し|壊し|書き換え|戻し|上書きし)たせい",
        r"さっきまで動|前は動いて|壊しました|壊したの",
        r"(?:誤解|勘違い)(?:して|され|があ)|説明が足りな|ではなく[^。]{0,30}(?:の方|のほう)(?:です|だ)",
        r"同じエラー",
    ),
    "it": _cues(r"\bsbagliat[oaie]\b|\berrat[oaie]\b", question=True, blame=True) + _cues(
        _OPENING_NO, r"\bnon (?:è|e') (?:corretto|giusto|quello che|così)\b", r"^non così\b",
        r"\bhai sbagliato\b|\bhai frainteso\b",
        r"\bti (?:avevo|ho) (?:già )?detto\b|\bte l'ho (?:già )?detto\b|\bcome ti ho chiesto\b",
        r"\bnon ti ho chiesto\b|\bperch[éèe] hai\b|\bannulla\b|\bripristina\b|\brimetti\w*\b",
        r"\bancora non funziona\b|\bnon funziona ancora\b|\bcontinua a non\b",
        r"\bnon (?!preoccup)\w+(?:are|ere|ire)\b|\bsmetti di\b|^invece di\b",
        r"\brifall[oa]\b|\brifai\b" + _RERUN_OBJECT + r"|\briscrivil[oa]\b", r"\bil contrario di\b|\bal contrario\b",
        r"\bintendevo\b|^non è (?:quel|questo|il|la|lo)\b|\binvertit[oa]\b",
        r"\bhai (?:sovrascritto|cancellato|rotto|rimosso|eliminato|ignorato|dimenticato|perso"
        r"|tolto)\b|\bhai di nuovo\b|\bperch[éèe] (?:usi|stai|continui)\b",
        r"\bma non hai\b|\bnon hai (?!bisogno|fretta|tempo)\w+(?:ato|uto|ito)\b",
        r"\bnon funziona più\b|\bprima funzionava\b|\bnon (?:va|funziona) più\b",
        r"\bancora non (?:va|funziona|compila|passa)\b|\b(?:lo )?stesso errore\b",
        r"\b(?:c'è|ci sia|ci dev'essere|c'è stato) un (?:equivoco|malinteso)\b|\bmi hai frainteso\b"
        r"|\bvolevo\b[^.\n]{0,60}\bnon (?:un|una|uno|il|la|lo|i|le|gli|l'|\w+are|\w+ere|\w+ire)\b",
    ),
    "pt": _cues(r"\berrad[oa]s?\b|\bincorret[oa]\b", question=True, blame=True) + _cues(
        _OPENING_NO, r"\bnão (?:é|foi) (?:isso|assim|o que|correto|certo)\b",
        r"\b(?:você )?errou\b|\bentendeu errado\b",
        r"\beu (?:disse|falei|pedi)\b|\bjá (?:te )?falei\b|\bcomo eu pedi\b|\bpor que você\b",
        r"\bdesfaça\b|\bdesfaz\b|\breverta\b|\bde volta\b|\bainda não funciona\b|\bcontinua sem\b",
        r"\bnão (?:use|usa|mexa|mexe|toque|apague|mude|altere|adicione|renomeie)\b",
        r"^(?:para|pare) de \w+r\b|^em vez de\b|\brefaça\b" + _RERUN_OBJECT + r"|\brefaz\b" + _RERUN_OBJECT, r"\bo contrário do\b",
        r"\binvertid[oa]\b|\bao contrário\b|\beu (?:estava falando|quis dizer|me referia)\b"
        r"|^não é (?:esse|este|essa|esta|isso|aquele|o|a)\b",
        r"\bvocê (?:sobrescreveu|apagou|removeu|quebrou|ignorou|esqueceu|perdeu)\b"
        r"|\bvocê \w+(?:ou|eu|iu)\b.{0,60}\bde novo\b|\bpor que (?:está|esta|usou|usa|mudou)\b",
        r"\beu (?:te |lhe )(?:disse|falei|pedi)\b|\bvocê não \w+(?:ou|eu|iu)\b",
        r"\bantes (?:estava|funcionava|passava)\b|\bnão (?:funciona|compila|roda|passa) mais\b"
        r"|\bagora nada (?:funciona|compila|roda|passa|abre)\b",
        r"\bmesmo erro\b|\bnão resolveu\b"
        r"|\b(?:volt|deix|coloc|restaur|põe|ponha)\w* (?:\w+ )?como (?:estava|era)\b",
        r"\b(?:houve|há|tem|teve) (?:um )?mal-?entendido\b|\bme expressei mal\b"
        r"|\b(?:eu queria|era para|era pra)\b[^.\n]{0,60}\bnão (?:o|a|os|as|um|uma|\w+ar|\w+er|\w+ir)\b",
    ),
    "fr": _cues(
        _OPENING_NO, r"\bc'est (?:faux|incorrect|pas (?:ça|bon|correct|juste))\b",
        r"\bce n'est pas (?:ce que|ça|correct|bon|juste)\b", r"^faux\b|^pas comme ça\b",
        r"\btu (?:t'es|t'étais|vous êtes) trompée?\b|\bmal compris\b",
        r"\bje (?:t'avais|t'ai|vous ai) (?:déjà )?(?:dit|demandé)\b|\bje te l'ai (?:déjà )?dit\b"
        r"|\bcomme je l'ai demandé\b|\bje ne t'ai pas demandé\b",
        r"\bpourquoi (?:tu as|t'as|as-tu|vous avez|avez-vous)\b|\bannule\b|\bremets\b|\btoujours pas\b|\barrête de\b",
        r"\bne (?:touche|modifie|supprime|change|utilise|mets|rajoute|renomme) pas\b",
        r"^au lieu d", r"\brefais\b" + _RERUN_OBJECT, r"\bl'inverse de\b|\ble contraire de\b|\bà l'envers\b",
        r"\bje parlais d|\bje voulais dire\b|\bce n'est pas (?:ce|le|la|les|cette)\b",
        r"\b(?:tu as|t'as) (?:encore|écrasé|supprimé|cassé|oublié|ignoré|effacé|perdu)\b"
        r"|\bpourquoi tu \w+(?:es|is)\b",
        r"(?:^|\b(?:le|la|les) )mauvaise?s? (?:fichier|dossier|répertoire|branche|table|base"
        r"|fonction|méthode|classe|variable|version|commande|endroit|chemin|port)\b",
        r"\btu as \w+(?:é|i|u|is|it)e?s?\b[^.\n]{0,80}\bmais (?:pas|sans|tu n'as pas|oublié)\b"
        r"|\btu n'as pas \w+(?:é|i|u|is|it)\b",
        r"\bavant\b.{0,15}\b(?:marchait|fonctionnait|passait|passaient)\b"
        r"|\b(?:marchait|fonctionnait|passaient|passait) avant\b|\bne (?:marche|fonctionne) plus\b",
        r"\bmême erreur\b",
        r"\b(?:il y a|il y a eu|y a) (?:un )?malentendu\b|\bje me suis mal exprimé"
        r"|\bje voulais\b[^.\n]{0,60}\bpas (?:du|de|des|le|la|les|un|une|l'|\w+er|\w+ir)\b",
        r"^non,? non\b",
    ),
    "es": _cues(r"(?<!\bno )\b(?:está|esta) mal\b|\bequivocad[oa]s?\b", question=True, blame=True) + _cues(
        _OPENING_NO, r"\bincorrect[oa]\b|\bno es (?:correcto|lo que|así)\b",
        r"\bte equivocaste\b|\b(?:lo )?entendiste mal\b",
        r"\bte (?:lo )?dije\b|\bcomo te pedí\b|\bno te pedí\b|\bya te lo dije\b",
        r"\bpor qu[ée] (?:\w+aste|\w+iste)\b|\bdeshaz\b|\brevierte\b|\bvuelve a ponerl",
        r"\bsigue sin funcionar\b|\btodavía no funciona\b|^así no\b|\bdeja de\b",
        r"\bno (?:toques|cambies|uses|borres|agregues|añadas|modifiques)\b",
        r"^en (?:lugar|vez) de\b", r"\brehaz\w*\b" + _RERUN_OBJECT + r"|\bhazlo (?:otra vez|de nuevo)\b",
        r"\blo contrario de\b|\bal revés\b|\binvertid[oa]\b|\bme refería\b|\bquise decir\b",
        r"\bno es (?:el|la|lo|ese|esa|eso|este|esta)\b", r"\b(?:sobrescribiste|borraste|rompiste|olvidaste|ignoraste"
        r"|quitaste|eliminaste|perdiste)\b|\botra vez \w+(?:aste|iste)\b"
        r"|\bpor qué (?:usas|sigues|estás|cambiaste)\b",
        r"\bno vuelvas a\b|\bno (?!(?:ex|cons|ins|res|as|pers|des|subs)iste\b)(?:\w+aste|\w+iste)\b",
        r"\bantes funcionaba\b|\bya no (?:funciona|arranca|compila|anda)\b"
        r"|\bahora (?:no (?:funciona|arranca|compila|anda) nada|nada (?:funciona|arranca|compila|anda))\b",
        r"\b(?:el )?mismo error\b|\bno se arregló\b"
        r"|\b(?:déj|dej|vuelv|pon|restaur|regrés)\w* (?:\w+ )?como (?:estaba|era)\b",
        r"\b(?:hay|hubo|ha habido) un malentendido\b|\bme expliqué mal\b|\bno me expliqué\b"
        r"|\bquería\b[^.\n]{0,60}\bno (?:con|el|la|los|las|un|una|en|lo|de|\w+ar|\w+er|\w+ir)\b",
    ),
    "de": _cues(
        _OPENING_NO, r"\bdas ist (?:falsch|nicht (?:das|was|richtig|korrekt))\b|^falsch\b",
        r"\bstimmt nicht\b|\bnicht das,? was ich\b|\bfalsch verstanden\b",
        r"\b(?:die|den|das) falschen?\b",
        r"\bich hatte (?:doch )?gesagt\b|\bich habe (?:doch |dir )?(?:schon )?gesagt\b"
        r"|\bhab(?:e)? ich (?:doch |dir )?(?:schon )?gesagt\b|\bwie ich gesagt habe\b"
        r"|\bich habe nicht gesagt\b",
        r"\b(?:warum|wieso|weshalb) hast du\b|\brückgängig\b|\bwieder her\b|\bimmer noch nicht\b",
        r"^nicht so\b|\bhör auf\b|^statt\b|\bnochmal neu\b|\bneu schreiben\b|\bnicht anfassen\b",
        r"\bverkehrt\b|\bfalsch herum\b|\bich meinte\b|\bdas ist nicht (?:die|der|den)\b",
        r"\bdas gegenteil\b|\bschon wieder\b|\bwarum (?:benutzt|nimmst|machst|verwendest) du\b",
        r"\bdu hast .{0,40}(?:überschrieben|gelöscht|kaputt gemacht|vergessen|ignoriert|entfernt)\b",
        r"^falsche[rsn]? (?:datei|ordner|verzeichnis|branch|pfad|tabelle|funktion|methode|klasse"
        r"|variable|version|befehl|stelle|port|repo|umgebung)\b", r"\bich hab(?:e)? (?:es )?(?:dir|euch|ihnen)? ?(?:doch |schon |\w+mal )*gesagt\b"
        r"|\bhatte ich (?:dir |doch |schon )*gesagt\b|\bdu sollst (?:doch )?(?:nicht|kein)",
        r"\bvorher (?:ging|lief|hat es funktioniert|funktionierte)|\bgeht (?:gar )?nichts mehr\b"
        r"|\bfunktioniert (?:gar )?nicht mehr\b",
        r"\b(?:gleiche[nr]?|derselbe|denselben) fehler\b",
        r"\bein missverständnis\b|\bmissverstanden\b"
        r"|\b(?:ich wollte|wollte ich)\b[^.\n]{0,60}\b(?:kein\w*|nicht (?:die|der|das|den|ein\w*))\b",
        r"^nein,? nein\b",
    ),
}

# Forms that state the lesson itself (issue 11, measured on tests/data/blind3): "X, not Y" after a
# verb or a pause, "again: …", "we moved to X", "from now on use …", "Y again?? we use X", "I said",
# "prefer X to Y". Each is narrow on purpose: "we moved the meeting to Thursday", "from now on we
# work on the login page", "Again, thanks" and "No está mal" are not corrections.
_NAME = r"[A-Za-z0-9_][\w./@+#-]*"
_FORMS: dict[str, tuple[_Cue, ...]] = {
    "en": _cues(r"^again\s*[:!]|^again,(?!\s*(?:thanks|thank))|\bagain\s*[?!]{2,}|^once more\b",
                r"\b(?:second|third|fourth|fifth|\d+(?:nd|rd|th)) time\b",
                r"\bwe(?:'ve| have)?\s+(?:moved|migrated|switched|changed)\s+(?:over\s+)?to\b",
                r"\bwe(?:'re| are)\s+(?:phasing out|retiring|sunsetting)\s+(?!the |a |an |our |this |that )" + _NAME,
                r"\bfrom now on,?\s+(?:please\s+)?(?:use|always|never|run|don'?t|do not|write|put|keep|stick)\b"
                r"|\buse (?:it|that|them|this) from now on\b|\bgoing forward,?\s+(?:use|always|never)\b"),
    "it": _cues(r"^di nuovo\s*[:!,]|^ancora\s+" + _NAME + r"\s*[?!]|\bdi nuovo\s*[?!]{2,}",
                r"\bsiamo (?:passati|migrati) ad?\b|\babbiamo (?:migrato|cambiato) (?:a|in)\b",
                r"\b(?:lo |la )?stiamo (?:dismettendo|abbandonando)\b",
                r"\b(?:d'ora in poi|da (?:ora|adesso) in poi)\b", r"\bho detto\b", r"^basta (?:con )?\S+\s*[,;.!]",
                r"\bpreferisco " + _NAME + r" a " + _NAME),
    "pt": _cues(r"^de novo\s*[:!,]|\bde novo\s*[?!]{2,}",
                r"\b(?:mudamos|migramos|passamos) para\b", r"^chega de\b",
                r"\bestamos (?:abandonando|descontinuando|aposentando) (?:o |a )?" + _NAME,
                r"\ba partir de agora,?\s+(?:\w+\s+){0,2}?(?:use|usa|utilize|sempre|nunca|não)\b"
                r"|\b(?:use|usa) \w+ a partir de agora\b", r"\bprefir[ao] " + _NAME + r" a " + _NAME),
    "fr": _cues(r"^encore\s*[:!,]|^encore\s+" + _NAME + r"\s*[?!]",
                r"\b(?:on est|nous sommes) pass[ée]e?s? à (?!la |l'|une |un )|\bon a migré (?:vers|à)\b",
                r"\bon abandonne " + _NAME + r"\s*[,;.]",
                r"\bdésormais,?\s+(?:\w+\s+)?(?:utilise|toujours|jamais|ne|n')|\butilise\S* à partir de maintenant\b",
                r"\bj'ai dit\b", r"^plus de \S+\s*[,;.!]\s*(?:utilise|on utilise|prends)\b", r"\bn'utilise[sz]? (?:pas|plus)\b|\barrête[sz]? d'", r"^mauvaise?s? \w+",
                r"\bje préfère " + _NAME + r" à " + _NAME),
    "es": _cues(r"^otra vez\s*[:!,]|\botra vez\s*[?!]{2,}", r"\b(?:nos pasamos|migramos|cambiamos) a\b",
                r"\bestamos (?:abandonando|deprecando|retirando) " + _NAME,
                r"\b(?:de ahora en adelante|a partir de ahora),?\s+(?:\w+\s+)?(?:usa|úsalo|utiliza|siempre|nunca|no)\b"
                r"|\ba partir de ahora úsalo\b", r"^dije\b|\bya (?:te )?dije\b", r"^basta de\b", r"\bprefiero " + _NAME + r" a " + _NAME),
    "de": _cues(r"\b" + _NAME + r" sein,\s+nicht\b", r"^nochmal\s*[:!]",
                r"\b(?:auf|zu) \S+ (?:umgestiegen|gewechselt|migriert)\b",
                r"\bab (?:jetzt|sofort)\b.{0,40}\b(?:verwenden|nutzen|benutzen|nehmen|immer|nie)\b",
                r"\bich sagte\b", r"\bkein(?:e|en)? \S+ mehr\b", r"\b(?:benutze|verwende|nimm|nutze)\s+(?:kein|keine|keinen|nicht)\b",
                r"^falsche[rsn]? \w+", r"\blieber " + _NAME + r" als " + _NAME),
    "zh": _cues(r"不要用|别用|別用|又是|又用|再说一遍|再說一遍|说了多少遍", rf"[，,]\s*(?:(?:不是|不在|而不是)\s*[A-Za-z0-9_{HAN}]|不用\s*[A-Za-z])",
                r"换成|換成|迁移到|切换到|改用", r"以后(?:都|就)?用|今后(?:都)?用|以後(?:都)?用"),
    "ja": _cues(r"[A-Za-z0-9_.-]\s*(?:ではなく|じゃなくて|の代わりに|では(?:ありません|ない)|じゃない)",
                r"^また\S{1,20}[？?]|もう一度言|何度も言", r"に移行|に切り替え", r"[A-Za-z0-9_.-]より\S{1,20}を優先",
                r"これからは.{0,20}(?:使って|使います|使用)|今後は.{0,30}(?:使って|使用)",
                r"はやめて|をやめて|は使わないで|を使わないで", r"でないとダメ|じゃないとダメ") + _cues(r"べきです", question=True),
}
# Corrections carried by what the agent just did (tests/data/blind4; families, each in every
# language): "for the third time", "close, but …", a bare "Stop." / "fermati" / "para tudo", "that
# breaks the API", "since your commit the suite is red", "did you even run the tests?", "that's not
# how we do it here", "doesn't belong in …", "like everywhere else", "doesn't follow the naming",
# "a function would have been enough", "what are you doing?!", "non va bene", "yours drops the
# column" (a possessive pronoun standing for the agent's work with a verb of what it does wrong).
_WORK: dict[str, tuple[_Cue, ...]] = {
    "en": _cues(r"^(?:close|almost|nearly)(?: there)?\s*[,.!—–-]*\s*but\b", r"^stop\s*(?:[.!,]|$)",
                r"\bwhat (?:the hell |on earth )?are you doing\b",
                r"^(?:that'?s |this is |it'?s )?not (?:good|ok|okay|acceptable)\b",
                r"\byours (?:drops|deletes|removes|breaks|loses|ignores|skips|fails|doesn'?t|does not|isn'?t"
                r"|is not|won'?t|has no|lacks|misses|uses|returns)\b",
                # "since your commit" with what broke ("since" alone may mean "because")
                r"\b(?:since|after) your (?:last |latest )?(?:commit|change|changes|edit|edits|push|merge|refactor"
                r"|pr|fix|patch)\b(?=[^\n]{0,60}\b(?:red|fail\w*|broke\w*|break\w*|crash\w*|errors?|regress\w*)\b)"
                r"|\b(?:red|fail\w*|broken|crash\w*|errors?)\b[^\n]{0,60}\b(?:since|after) your (?:last |latest )?"
                r"(?:commit|change|changes|edit|edits|push|merge|refactor|pr|fix|patch)\b",
                r"\b(?:did|have) you (?:even|actually|ever) (?:run|ran|test|tried|try|read|check|look|open"
                r"|compile|build)\w*\b",
                r"\bnot how we\b|\bwe don'?t do (?:it|that|things) (?:like that|that way)\b",
                r"\b(?:doesn'?t|does not|don'?t|do not) (?:belong|go) (?:in|into|there|here)\b",
                r"\ball i (?:needed|wanted|asked for) was\b|\bwould have (?:been enough|sufficed)\b",
                r"\b(?:doesn'?t|does not|don'?t|do not) follow (?:the|our)\b") + _cues(
                r"(?:\w|,)\s+(?:like|as) everywhere else\b|,\s*(?:just )?(?:like|as in) the rest of the (?:code|project|codebase"
                r"|repo)\b|,\s*(?:just )?like (?:the|all the) others\s*[.!]?$", question=True) + _cues(
                r"\b(?:that|this|it|your (?:\w+ )?(?:change|fix|code|version|patch))(?:'ll| will| would| just)?"
                r" (?:breaks?|broke)\b(?! (?:nothing|anything)\b)", question=True),
    "it": _cues(r"\bper la (?:seconda|terza|quarta|quinta|\d+a?) volta\s*[:,;!—–-]",
                r"^ancora (?:con|co'|coi|col|a)\b[^\n]{0,40}[?!]{2,}", r"\bti (?:avevo|ho) (?:già )?chiesto\b",
                r"\bfermati\b|^fermo\s*[!.,]", r"\bma che (?:fai|combini|stai facendo|hai fatto)\b",
                r"^non va (?:mica )?bene\b(?! \w+(?:are|ere|ire)\b)|\bcosì non va\b", r"\bnon (?:segue|rispetta)\b",
                r"\bbastava\b|\bsarebbe bastat[oa]\b",
                r"\bnon (?:è )?(?:così )?come (?:facciamo|lavoriamo|si fa)\b|\bnon si fa così\b",
                r"\bnon c'entra (?:niente|nulla)\b",
                r"\bcosì (?:nascondi|rompi|perdi|cancelli|ignori|rischi|spacchi)\b",
                r"\b(?:dal|dopo il) tuo (?:ultimo )?(?:commit|cambiamento|push|merge|refactor|fix)\b",
                r"\bnon (?:va|vanno) (?:(?:messo|messi|messa|messe) )?(?:nel|nella|nei|negli|nelle)\b|\bnon (?:va|vanno) (?:messo|messi|messa|messe) in\b") + _cues(
                r"\b(?:così|questo) (?:rompe|rompi|spacca)\b",
                r"(?:\w|,)\s+come (?:ovunque|dappertutto)\b|,\s*come (?:in |nel )?(?:tutto )?il resto\b", question=True),
    "fr": _cues(r"\bpour la (?:deuxième|troisième|quatrième|cinquième|\d+e) fois\s*[:,;!—–-]", r"^encore\s*[?!]",
                r"\bj'ai demandé\b[^.\n]{0,60}\bpas\b", r"^(?:arrête|stop|stoppe)\s*[,.!]",
                r"\b(?:c'est pas|ce n'est pas) comme ça qu'on\b|\bon (?:ne )?fait pas (?:comme )?ça\b",
                r"\bne (?:suit|respecte) pas\b",
                r"\bil suffisait\b|\baurait suffi\b", r"\btu \w+ (?:le|la|les) mauvaise?s?\b",
                r"\bdepuis (?:ton|votre) (?:dernier )?(?:commit|changement|push|merge|refacto|fix)\b",
                r"\b(?:tu as|t'as|as-tu)\b[^?\n]{0,40}\bau moins\b") + _cues(
                r"\b(?:ça|cela|ceci) (?:va )?cass(?:e|er)\b", r"(?:\w|,)\s+comme partout\b|,\s*comme (?:dans )?le reste\b",
                question=True),
    "de": _cues(r"\bzum (?:zweiten|dritten|vierten|fünften|\d+\.) mal\s*[:,;!—–-]", r"^stopp?\s*[,.!]|^halt\s*!",
                r"\bdamit (?:brichst|machst|zerstörst) du\b", r"\bhast du\b[^?\n]{0,40}\büberhaupt\b",
                r"\bseit (?:deinem|deiner|ihrem|ihrer) (?:letzten )?(?:commit|änderung|push|merge|refactoring|fix)\b",
                r"\bgehör(?:t|en) (?:hier |da )?nicht\b",
                r"(?:^|\bso )machen wir (?:das|es) (?:hier )?nicht\b|\bmachen wir (?:hier )?nicht so\b",
                r"\bnicht \w+en[,;] (?:wir|bei uns)\b",
                r"\bfolgt nicht\b|\bhält sich nicht an\b", r"\bhätte (?:doch )?(?:gereicht|genügt)\b",
                r"(?:^|,\s*|\b(?:und|aber) )deine[rs]? (?:löscht|entfernt|bricht|ignoriert|verliert|nutzt|verwendet"
                r"|macht|hat kein)") + _cues(r"\bdas (?:bricht|zerstört)\b", r"(?:\w|,)\s+wie überall\b|,\s*wie (?:im|der) rest\b",
                                   question=True),
    "es": _cues(r"\bpor (?:segunda|tercera|cuarta|quinta|\d+ª?) vez\s*[:,;!—–-]", r"\bse te (?:olvid[óo]|pas[óo])\b",
                r"(?:^|[,;:]\s*)(?:y |pero |porfa,? |por favor,? )?no (?:l[oa]s? |me |le |les |se )?"
                r"(?!(?:tienes|puedes|sabes|debes|quieres|necesitas|crees|estás|eres|vas|das|ves|todas|muchas|pocas"
                r"|otras|nuestras|esas|estas|preocupes|molestes|olvides|dudes)\b)\w{3,}(?:es|as) (?:el|la|los|las|al"
                r"|del|en|con|nada|eso|esto|esa|ese|un|una|por|porfa)\b",
                r"\b(?:la tuya|el tuyo|los tuyos|las tuyas) (?:no |borra|elimina|quita|rompe|ignora|pierde|usa"
                r"|devuelve|hace|tiene|deja)", r"\b(?:pedí|te pedí)\b[^.\n]{0,60}\bno\b",
                r"\bno (?:va|van) (?:en (?:el|la|los|las)|dentro)\b",
                r"\bbastaba\b|\bhabría bastado\b", r"^¡?(?:para|detente|alto)(?: ya)?\s*!|^(?:detente|alto)[,.]",
                r"\bdesde (?:tu|su) (?:último )?(?:commit|cambio|push|merge|refactor|fix)\b",
                r"\b(?:siquiera|al menos) (?:corriste|probaste|ejecutaste|leíste|revisaste|compilaste)\b"
                r"|\b(?:corriste|probaste|ejecutaste|leíste|revisaste)\b[^?\n]{0,30}\b(?:siquiera|al menos)\b",
                r"\bno es como (?:lo )?hacemos\b|\basí no (?:lo )?hacemos\b|\baquí no se hace así\b",
                r"^no (?:está|esta) bien\b") + _cues(
                r"\b(?:eso|esto|así) (?:rompe|va a romper|romperá|rompería)\b", r"\bno (?:sigue|respeta) (?:el|la|los|las)\b",
                r",\s*(?:como (?:en )?|igual que )(?:el resto|los demás)\b", question=True),
    "pt": _cues(r"\bpela (?:segunda|terceira|quarta|quinta|\d+ª?) vez\s*[:,;!—–-]",
                r"^(?:você |vc )?esqueceu\b|\b(?:você|vc|tu) \w+(?:ou|eu|iu)\b[^\n]{0,60}\bde novo\b",
                r"^nunca (?!(?:fue|tuve|hubo|había|pude|supe|quise|vale|sale|pasa|entra|funciona|tenha|esteja|seja)\b)"
                r"\w{2,}(?:a|e)\b",
                r"\bnão é (?:assim )?como (?:a gente|nós) (?:faz|fazemos)\b|\bnão (?:é assim que|fazemos assim)\b"
                r"|\ba gente não faz assim\b",
                r"^quase(?: lá| isso)?\s*[,.!]*\s*(?:mas|só que)\b", r"^(?:para tudo|pare)\s*[,.!]|^para!",
                r"\bdesde (?:o )?(?:seu|teu) (?:último )?(?:commit|push|merge|refactor|fix)\b",
                r"\b(?:pelo menos|sequer) (?:rodou|testou|executou|leu)\b"
                r"|\b(?:rodou|testou|executou)\b[^?\n]{0,30}\b(?:pelo menos|sequer)\b",
                r"^(?:assim )?não (?:tá|está) bom\b", r"\bbastava\b", r"\bnão (?:segue|respeita) (?:o|a|os|as)\b") + _cues(
                r"\b(?:isso|isto|assim) (?:quebra|vai quebrar|quebraria)\b",
                r",\s*(?:igual (?:às|aos|ao|à|as|os) (?:outr|demais|rest)\w*|como (?:no|o) resto)\b", question=True),
    "zh": _cues(r"第[二三四五六七八九十2-9](?:次|遍)了|说了[两二三几]遍|說了[兩二三幾]遍",
                r"不是(?:这么|這麼)(?:做|写|寫|命名|弄|搞|用|起)", r"你(?:提交|改|合并|合併|推)了?(?:之后|以后|以後|之後)",
                r"^你?[别別](?!担心|擔心|急|着急|著急|客气|客氣|管|怕|介意|忘|人|的|处|處|家)\s*\S",
                r"(?:这样|這樣|这个|這個|这|這)(?:会|會|就)?(?:破坏|破壞|弄坏|弄壞|搞坏|搞壞|打破)", r"你为什么|你為什麼",
                r"把你刚(?:才)?(?:写|寫|改|加|做|建)的.{0,20}(?:改|删|刪|换|換|重写|重寫)"),
    "ja": _cues(r"(?:[二三四五2-9２-９]回目|何回目|何度目)(?:です|だ|[、,！!])", r"^惜しい", r"ないと(?:ダメ|だめ)",
                r"(?:それ|これ)(?:だと|では).{0,25}(?:壊れ|消え|落ち|動かな|失敗)",
                r"(?:コミット|変更|修正|マージ|プッシュ)(?:して|されて|した)(?:から|以来|後).{0,20}(?:落ち|壊れ|失敗|エラー|赤|動かな)",
                r"しないで(?<!心配しないで)(?<!無理しないで)(?<!気にしないで)(?<!遠慮しないで)(?!す|いい|も)", r"また.{0,30}忘れ",
                r"うちでは.{0,30}(?:しない|しません|使わない|使いません|使ってない|やらない)", r"ない(?:ルール|決まり)",
                r"さっき(?:書|作|追加|入れ|直)[いっしれ]た.{0,30}(?:書き直|直し|変え|戻し|消し)"),
}
# Chinese and Japanese ones join their language's cues (only CJK text is tried against them); a
# Latin-script family is tried only when one of its language's words below is in the message (each
# of its cues needs one of them), so a message pays for the languages it could be in, not for all.
for _lang in ("zh", "ja"):
    _CUES[_lang] = _CUES[_lang] + _WORK.pop(_lang)
_WORK_WORDS = {
    "en": "close|almost|nearly|stop|are you doing|not good|not ok|not acceptable|yours|since your|after your"
          "|you even|you actually|you ever|not how we|we don|belong|t go |not go |all i |would have"
          "|everywhere else|the rest of|the others|follow|break|broke",
    "it": "volta|ancora|chiesto|ferm|che fai|che combini|che stai|che hai fatto|non va|segue|rispetta|ovunque"
          "|dappertutto|il resto|bastava|bastat|facciamo|lavoriamo|si fa|c'entra|così|tuo |rompe|rompi|spacca",
    "fr": "fois|encore|demandé|arrête|stop|comme ça|fait pas|partout|le reste|suit pas|respecte pas|suffi"
          "|mauvais|depuis|au moins|cass",
    "de": "zum |stop|halt|damit |überhaupt|seit |gehör|machen wir|, wir|; wir|, bei uns|; bei uns|überall"
          "|im rest|der rest|folgt nicht|nicht an|hätte|deine|bricht|zerstör",
    "es": "vez|se te |no |tuy|pedí|resto|demás|bastaba|bastado|para!|para ya|detente|alto|desde"
          "|siquiera|al menos|hacemos|se hace|no est|romp|sigue|respeta",
    "pt": "vez|esqueceu|de novo|nunca|faz|é assim que|igual|resto|quase"
          "|para tudo|pare|para!|desde|pelo menos|sequer|bom|bastava|segue|respeita|quebr",
}
_WORK_HINT = {lang: re.compile("|".join(re.escape(w) for w in words.split("|")))
              for lang, words in _WORK_WORDS.items()}
# Any language's work word: most messages hold none, and then no language's hint is searched.
_WORK_HINT_ANY = re.compile(trie_pattern(w for words in _WORK_WORDS.values() for w in words.split("|")))
# Chinese and Japanese forms join their language's cues (only CJK text is ever tried against them).
# The Latin-script forms are tried only when one of these words is in the message: each form needs
# one of them to match, and a few substring tests cost far less than a scan with every form, on
# every message, in every language (observing must not get slower for them).
for _lang in ("zh", "ja"):
    _CUES[_lang] = _CUES[_lang] + _FORMS.pop(_lang)
_FORM_WORDS = tuple("""
, not |, non |, não |, pas |, no |, nicht |—|–|again|once more| time|moved|migrated|switched|changed
|from now on|going forward|di nuovo|ancora|passati|migrati|migrato|cambiato|in poi|ho detto|preferisco
|de novo|mudamos|migramos|passamos|a partir de|partir de maintenant|prefir|encore|passé|passe|migré|désormais|j'ai dit
|n'utilise|arrête|mauvais|préfère|otra vez|pasamos|cambiamos|de ahora en adelante|dije|prefiero
|sein, nicht|nochmal|basta|chega de|plus de|mehr|umgestiegen|gewechselt|migriert|ab jetzt|ab sofort|ich sagte|benutze|verwende
|nimm|nutze|falsch|lieber|phasing out|retiring|sunsetting|dismettendo|abbandonando|abandonne|abandonando|deprecando|retirando|descontinuando|aposentando""".replace("\n", "").split("|"))
# one scan, as a trie: at each position one branch per possible next letter, not one per word
_FORM_HINT = re.compile(trie_pattern(_FORM_WORDS))

# Two parts that each say little but together say "what you did is not what is required" (blind4):
# a requirement and the agent's own doing in the same message ("the dates must be UTC, you're saving
# local time", "tem que retornar 404, você colocou 500"), a change of mind applied to the agent's
# work ("from now on we use uv, including what you just did"), an eye-roll at a house rule ("dans ce
# repo c'est pnpm 🙄"). A requirement alone is a request; the agent's doing alone is a description.
_YOU_DID: dict[str, tuple[str, str]] = {
    "en": (r"\b(?:must|should|has to|have to|needs? to|is supposed to|are supposed to)\b",
           r"\byou(?:'re| are) (?!(?:going|getting|doing|working|looking|planning|about)\b)\w+ing\b|\byours\b"
           r"|(?:^|[,;:—–-]\s*|\bbut\s+)you (?:put|set|used|made|wrote|returned|added|changed|saved|stored|left)\b"),
    "it": (r"\b(?:devono|deve|dovrebbe|dovrebbero|vanno|bisogna)\b",
           r"\btu (?:l[aeoi] |gli |ne |ci )?(?:stai \w+ndo|hai \w+[aiu]t[oaie]|\w+i)\b(?<!\bhai)"
           r"|\bhai (?:messo|usato|scritto|fatto|salvato|passato|lasciato)\b"),
    "fr": (r"\b(?:doit|doivent|devrait|devraient|faut)\b",
           r"\btu (?:l[ae] |les |l')?(?:as|es en train)\b|\bt'as\b|\b(?:la tienne|le tien|les tiens|les tiennes)\b"),
    "de": (r"\b(?:muss|müssen|soll|sollte|sollen)\b", r"(?:^|[,;:—–-]\s*)du hast\b(?! recht\b)"),
    "es": (r"\b(?:tiene que|tienen que|debe|deben|debería|deberían|hay que)\b",
           r"\b(?:la tuya|el tuyo|los tuyos|las tuyas)\b|\b(?:pusiste|usaste|dejaste|hiciste|escribiste|guardaste"
           r"|pasaste|devolviste|metiste|cambiaste)\b|\bestás \w+ndo\b"),
    "pt": (r"\b(?:tem que|têm que|tem de|deve|devem|deveria|precisa)\b",
           r"\b(?:você|vc|tu) (?:colocou|pôs|usou|deixou|fez|escreveu|salvou|passou|retornou|mudou"
           r"|(?:tá|está) \w+ndo)\b"),
}
_PAIRS: tuple[tuple[_Lazy, _Lazy], ...] = tuple(
    (_Lazy(a, re.MULTILINE), _Lazy(b, re.MULTILINE)) for a, b in _YOU_DID.values()) + (
    (_Lazy(r"\bfrom now on\b|\bgoing forward\b|\bchanged my mind\b|\binstead of\b|\bà partir de maintenant\b"
                r"|\bdésormais\b|\bau lieu de\b|\bon passe à\b|\ba partir de ahora\b|\bde ahora en adelante\b"
                r"|\ben (?:vez|lugar) de\b|\bcambié de (?:idea|opinión)\b|\bmudei de ideia\b|\ba partir de agora\b"
                r"|\bem vez de\b|\bao invés de\b|\bd'ora in poi\b|\bda (?:ora|adesso) in poi\b|\bho cambiato idea\b"
                r"|\binvece di\b|\bab (?:jetzt|sofort)\b|\bstattdessen\b|\bdoch lieber\b", re.MULTILINE),
     _Lazy(r"\bwhat you(?:'ve)? (?:just )?(?:did|done|wrote|written|made|added)\b|\byou(?:'ve)? just (?:wrote|written"
                r"|did|done|made|added|created)\b|\bque tu viens d'|\b(?:que|lo que) acabas de\b"
                r"|\bo que (?:você|vc) (?:acabou de |já )?(?:fez|escreveu)\b|\b(?:che|quello che) hai appena\b"
                r"|\b(?:was|die|den|das) du (?:gerade|eben)\b", re.MULTILINE)),
    (_Lazy(r"^(?:remove|drop|delete|get rid of|take out|togli|leva|rimuovi|elimina|enlève|retire|supprime|vire"
                r"|quita|saca|borra|tira|apaga|arranca|entfern\w*|lösch\w*)\b", re.MULTILINE),
     # the house rule as it stands, not a change announced "now"
     _Lazy(r"(?:\bwe (?:use|test against)\b|\busiamo\b|\bqui si usa\b|\bon (?:utilise|teste contre)\b"
                r"|\bwir (?:nutzen|verwenden|testen gegen|benutzen)\b|\b(?:usamos|probamos contra)\b|\ba gente (?:usa|testa)\b)"
                r"(?![^\n]*\b(?:now|anymore|ahora|agora|maintenant|désormais|adesso|ora|jetzt|mehr)\b)", re.MULTILINE)),
    (_Lazy(r"[\U0001f644\U0001f926]"),
     _Lazy(r"\b(?:here|in this (?:repo|project|codebase)|ici|dans ce (?:repo|projet|dépôt)|chez nous|qui|in questo"
                r" (?:repo|progetto)|aquí|en este (?:repo|proyecto)|aqui|nesse projeto|neste projeto|hier|bei uns)\b",
                re.MULTILINE)),
)
# A message is tried against the pairs only when one of these is in it (a single literal scan).
_PAIR_HINT = re.compile(trie_pattern((
    "must|should|has to|have to|need to|needs to|supposed to|devono|deve|dovrebbe|vanno|bisogna|doit|devrait"
    "|faut|muss|müssen|soll|tiene que|tienen que|debe|hay que|tem que|têm que|tem de|precisa|just|viens d'|acabas de"
    "|acabou de|fez|escreveu|appena|gerade|eben|we use|we test|we always|we never|usiamo|si usa|on utilise|on teste"
    "|wir nutzen|wir verwenden|wir testen|wir benutzen|usamos|probamos|a gente|\U0001f644|\U0001f926").split("|")))


# Praise in the message ("you did great work, it should also …") makes a pair a request, not a reproach.
_PRAISE = _Lazy(r"\b(?:good|great|nice|thanks|perfect|gute?|super|toll|danke|ottim\w*|perfett\w*|grazie|bravo"
                     r"|bien|parfait|merci|genial|perfecto|gracias|bom|ótimo|perfeito|obrigad\w*)\b")


def _paired(low: str) -> str | None:
    if not _PAIR_HINT.search(low) or _PRAISE.search(low):
        return None
    for first, second in _PAIRS:
        if first.search(low):
            for m in second.finditer(low):
                end = low.find("\n", m.end())
                if not low[:end if end != -1 else len(low)].rstrip().endswith(("?", "？")):
                    return m.group(0).strip()
    return None


# "Why did you use a dict here?" alone asks the agent to explain a choice; "Why did you use npm?
# This repo uses yarn." or "Why did you delete the tests?" react to something done wrong.
_WHY = _Lazy(r"^\W*(?:why|perché|perchè|perche|por ?que|por qué|pourquoi|warum|wieso|weshalb"
                  r"|为什么|為什麼|なぜ|どうして|なんで)|(?:为什么|為什麼|なぜ|どうして|なんで)", _I)
_CHOICE_VERB = _Lazy(
    r"\b(?:use|used|using|choose|chose|chosen|pick|picked|go with|went with|opt(?:ed)?|prefer(?:red)?"
    r"|decide|decided|usato|usi|usare|scelto|preferito|deciso|optato|usou|usa|usar|escolheu|optou"
    r"|preferiu|decidiu|choisi|utilisé|utilises|utiliser|pris|préféré|opté|décidé|usaste|usas"
    r"|elegiste|escogiste|optaste|preferiste|decidiste|benutzt|verwendet|gewählt|genommen"
    r"|entschieden|nimmst|verwendest)\b|用|选|選|使っ|使う|選ん|採用", _I)


_WHY_ANY = _Lazy(r"\b(?:why|perch[éèe]|por ?qu[ée]|pourquoi|warum|wieso|weshalb)\b|为什么|為什麼|なぜ|どうして|なんで", _I)


class _ChoiceQuestion:
    """Does the message only ask why the agent chose something? Asked only of a cue holding "why"
    (rare), so most messages never pay for it."""

    def __init__(self, joined: str) -> None:
        self.joined = joined
        self.answer: bool | None = None

    def __call__(self) -> bool:
        if self.answer is None:
            self.answer = _asks_about_a_choice(self.joined) or bool(
                _JUST_CURIOUS.search(self.joined) and _WHY_ANY.search(self.joined))
        return self.answer


def _asks_about_a_choice(joined: str) -> bool:
    """The whole message is one question asking why the agent chose something."""
    lone = joined.strip()
    return ("\n" not in lone and lone.endswith(("?", "？")) and bool(_WHY.search(lone))
            and bool(_CHOICE_VERB.search(lone)))


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
_KANA = re.compile(f"[{KANA}]")
_HAN = re.compile(f"[{HAN}]")
_WORD = re.compile(r"[\w']+")

_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|\u201c[^\u201d\n]{1,200}\u201d|\u300c[^\u300d\n]{0,200}\u300d"
                     r"|(?<![\w])'[^'\n]{1,120}'(?![\w])|\u2018[^\u2019\n]{1,120}\u2019")
# A sentence ends at . ! ? ; only when a space or the end follows ("config.py" stays whole).
_SENTENCE = re.compile(r"(?:[^.!?;\n\u3002\uff01\uff1f]|[.!?;](?=[^\s.!?;]))+"
                       r"[.!?;\u3002\uff01\uff1f]*")
_LEAD_FILLER = re.compile(r"^(?:hmm+|um+|uh+|ok(?:ay)?|oh|ugh|well|so|wait|allora|bueno|bon|also"
                          r"|na ja|ebbene|olha|então)\b[,\s]*", _I)
# The user blames themselves: whatever else the sentence says, it does not correct the agent.
_GUARD = _Lazy(
    r"\bi(?:'ve| have)? (?:gave|given|sent|told|pasted|used) you the wrong\b|\bmy (?:mistake|bad|fault)\b"
    r"|\bcolpa mia\b|\berrore mio\b|\bmi sono sbagliat|\bfoi mal\b|\berro meu\b|\bculpa minha\b"
    r"|\bme enganei\b|\bma faute\b|\bje me suis trompé|\bmon erreur\b|\bculpa mía\b"
    r"|\berror mío\b|\bme equivoqué\b|\bmein fehler\b|\bich hab(?:e)? mich vertan\b"
    r"|我(?:搞|弄|说|說|给|給|写|寫|看|改|用|放|选|選|记|記)错|是我的错|是我的錯|私の(?:ミス|間違い)|こちらの(?:ミス|間違い)"
    # ... or was wrong, or handed the agent the wrong thing ("ti ho dato il percorso sbagliato")
    r"|\bi was (?:wrong|mistaken)\b|\bmi sbagliavo\b|\bavevo torto\b|\bho sbagliato io\b|\bj'avais tort\b"
    r"|\bje me trompais\b|\bich lag falsch\b|\bich hatte unrecht\b|\bich hab(?:e)? mich geirrt\b"
    r"|\bestaba equivocad[oa]\b|\beu estava errad[oa]\b|(?:私|僕|こちら)の勘違い|(?:私|僕)が(?:間違|勘違い)"
    r"|\bti (?:ho|avevo) (?:dato|passato|mandato|scritto|indicato|incollato) (?:il |la |lo |l'|i |gli |le |un |una )?"
    r"\w+ sbagliat|\bje (?:t'ai|vous ai) (?:donné|passé|envoyé|indiqué|collé|filé) (?:le |la |les |l'|un |une )?mauvais"
    r"|\bich hab(?:e)? (?:dir|ihnen|euch) (?:den|die|das|einen|eine|ein) falsche"
    r"|\bte (?:pasé|di|mandé|envié) (?:mal|(?:el|la|los|las|un|una) \w+ (?:mal|equivocad|incorrect|errad))"
    r"|\bte (?:passei|dei|mandei|enviei) (?:o|a|os|as|um|uma) \w+ errad|間違えて(?:伝え|送|貼|書い|教え)"
    # A sentence opening "before you start" scopes the work to come: it cannot correct what was done.
    r"|^(?:before (?:you|we) start|before starting|prima di (?:iniziare|cominciare)|avant de commencer"
    r"|bevor du (?:loslegst|anfängst|beginnst)|antes de (?:empezar|comenzar|começar)|在?开始之前|始める前に)", _I)
# A "wrong" word whose subject is someone else ("the vendor's SDK returns the wrong timezone", "il
# cliente ha sbagliato il formato") blames a third party, unless the sentence also names the agent.
_THIRD_PARTY = _Lazy(
    r"\b(?:vendor'?s?|supplier|provider|third[- ]party|upstream|customer|client|gateway|sdk|fornitore|cliente"
    r"|fournisseur|prestataire|proveedor|fornecedor|zulieferer|anbieter|kunde|linter)\b|第三方|供应商|供應商|客户|客戶", _I)
_SECOND_PERSON = _Lazy(r"\b(?:you|your|yours|tu|tuo|tua|ton|ta|tes|du|dein\w*|você|vc|seu|sua|tú|tus)\b|你", _I)
# "Why did you pick a deque? just curious, it's fine" asks for an explanation, explicitly.
_JUST_CURIOUS = _Lazy(
    r"\bjust curious\b|\bit'?s fine\b|\bfine as is\b|\bno need to change\b|\bchiedo solo\b|\bsolo per capire\b"
    r"|\bva bene così\b|\bpar curiosité\b|\bjuste (?:pour )?comprendre\b|\bc'est bien comme ça\b"
    r"|\bsolo por curiosidad\b|\bestá bien así\b|\bsó por curiosidade\b|\b(?:tá|está) bom assim\b|\bnur neugierig\b"
    r"|\bnur verstehen\b|\bpasst so\b|只是好奇|不用改|修正は不要|気になっただけ|勉強のため", _I)


def _clean(text: str) -> str:
    if len(text) > 8 * (HEAD_CHARS + TAIL_CHARS):  # bound the work on huge pasted logs
        text = text[:6 * HEAD_CHARS] + "\n" + text[-6 * TAIL_CHARS:]
    text = strip_fenced(text)
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


def _any_cue(cues: tuple[_Cue, ...], flags: int | None = None) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{c.pattern})" for c in cues), _CUE_FLAGS if flags is None else flags)


class _PerLanguage(dict[str, re.Pattern[str]]):
    """lang → one alternation of that language's cues, compiled the first time a message in that
    language needs it. The eight languages' alternations, in both case forms, took about 65 ms to
    compile at import — paid by every CLI start that observes, though a person writes in one or two
    languages. A language the table does not have is a KeyError, as with a plain dict; iterating
    compiles every language (only the tests do)."""

    def __init__(self, table: dict[str, tuple[_Cue, ...]], flags: int | None = None) -> None:
        super().__init__()
        self._table = table
        self._flags = flags

    def __missing__(self, lang: str) -> re.Pattern[str]:
        rx = _any_cue(self._table[lang], self._flags)
        self[lang] = rx
        return rx

    def __contains__(self, lang: object) -> bool:
        return lang in self._table

    def items(self):  # every language, compiled on the way
        return [(lang, self[lang]) for lang in self._table]


# One alternation per language answers "could any cue match?" in a single pass; most messages
# are not corrections, and trying each cue in turn made this the costliest step of observing.
_ANY = _PerLanguage(_CUES)


_HAS_CJK = re.compile(f"[{CHINESE_JAPANESE}{FULLWIDTH}]")
_HAS_LATIN = re.compile(f"[{LATIN}]")


def _script_can_match(lang: str, joined: str) -> bool:
    """Chinese and Japanese cues are written in CJK characters, the others in Latin letters: a
    message without that script cannot match them (a cheap test before the costly ones)."""
    if lang in ("zh", "ja"):
        return bool(_HAS_CJK.search(joined))
    return bool(_HAS_LATIN.search(joined))


_ANY_FORM = _PerLanguage(_FORMS)
_ANY_WORK = _PerLanguage(_WORK)
# The same alternations without IGNORECASE, searched in the lowercased message: a case-insensitive
# scan costs about a fifth more, and this one runs for every message in every language. The cue
# patterns hold no uppercase letter (tests/test_corrections.py checks it), so a cue that matches
# the message matches its lowercase form too; the cues themselves then run as written.
_ANY_LOW = _PerLanguage(_CUES, re.MULTILINE)
_ANY_FORM_LOW = _PerLanguage(_FORMS, re.MULTILINE)
_ANY_WORK_LOW = _PerLanguage(_WORK, re.MULTILINE)


def source_hash(tables: dict[str, dict[str, tuple[str, ...]]]) -> str:
    """Identifies the cue patterns a literal table was made from (table → language → patterns)."""
    h = hashlib.sha256()
    for name in sorted(tables):
        for lang in sorted(tables[name]):
            h.update(f"\0{name}\0{lang}\0".encode())
            for p in tables[name][lang]:
                h.update(p.encode("utf-8") + b"\0\1")
    return h.hexdigest()[:32]


def cue_patterns() -> dict[str, dict[str, tuple[str, ...]]]:
    """table → language → its cue patterns, in order (what ``_cue_literals.py`` is made from)."""
    return {name: {lang: tuple(c.pattern for c in cues) for lang, cues in table.items()}
            for name, table in (("cues", _CUES), ("forms", _FORMS), ("work", _WORK))}


def _load_literals() -> dict[str, dict[str, list]]:
    """The literal table, when it was made from the cues as they are now; else empty (every
    alternation is then searched as it is, only slower)."""
    import json

    from . import _cue_literals

    if _cue_literals.SOURCE != source_hash(cue_patterns()):
        return {}
    table: dict[str, dict[str, list]] = json.loads(_cue_literals.DATA)
    return table


_LITERALS = _load_literals()


class _Admits:
    """Does any cue of a table's language match the lowercased message? The same answer as that
    language's lowercase alternation (``_ANY_LOW`` …), found cheaply: a cue can only match a text
    holding one of its literals (``literals.py``), so one search for all of them (a trie) rules
    out nearly every message, and the few it lets through are tried only with the cues whose
    literals they hold. Nothing is compiled for a message that holds no literal."""

    def __init__(self, name: str, table: dict[str, tuple[_Cue, ...]],
                 alternation: _PerLanguage) -> None:
        self._table = table
        self._alternation = alternation
        self._literals = _LITERALS.get(name, {})
        self._quick: dict[str, re.Pattern[str] | None] = {}

    def __call__(self, lang: str, low: str, padded: str) -> bool:
        entry = self._literals.get(lang)
        if entry is None:
            return self._alternation[lang].search(low) is not None
        if lang not in self._quick:
            self._quick[lang] = re.compile(entry[0]) if entry[0] is not None else None
        quick = self._quick[lang]
        if quick is not None and quick.search(padded) is None:
            return False
        for cue, lits in zip(self._table[lang], entry[1], strict=True):
            if (lits is None or any(x in padded for x in lits)) and cue.rx_low.search(low):
                return True
        return False


def _match(lang: str, joined: str, choice_question: _ChoiceQuestion, forms: bool = False,
           low: str | None = None, padded: str = "", script: bool | None = None,
           work: bool = True) -> str | None:
    """``script``: whether the message holds the language's script (None: find out); ``work``:
    False when no language's work words are in the message (``_WORK_HINT_ANY``)."""
    if not (_script_can_match(lang, joined) if script is None else script):
        return None
    hit = _ADMITS_CUE(lang, low, padded) if low is not None else _ANY[lang].search(joined)
    cue = _first(_CUES[lang], joined, choice_question) if hit else None
    if cue is None and forms and lang in _FORMS and (
            _ADMITS_FORM(lang, low, padded) if low is not None else _ANY_FORM[lang].search(joined)):
        cue = _first(_FORMS[lang], joined, choice_question)
    if cue is None and work and lang in _WORK and _WORK_HINT[lang].search(low if low is not None else joined.lower()) and (
            _ADMITS_WORK(lang, low, padded) if low is not None else _ANY_WORK[lang].search(joined)):
        cue = _first(_WORK[lang], joined, choice_question)
    return cue


_ADMITS_CUE = _Admits("cues", _CUES, _ANY_LOW)
_ADMITS_FORM = _Admits("forms", _FORMS, _ANY_FORM_LOW)
_ADMITS_WORK = _Admits("work", _WORK, _ANY_WORK_LOW)


def _first(cues: tuple[_Cue, ...], joined: str, choice_question: _ChoiceQuestion) -> str | None:
    for cue in cues:
        for m in cue.rx.finditer(joined):
            if _WHY.search(m.group(0)) and choice_question():
                continue
            if cue.skip_in_question:
                end = joined.find("\n", m.end())
                sentence_end = joined[:end if end != -1 else len(joined)].rstrip()
                if sentence_end.endswith(("?", "？")):
                    continue
                sentence = joined[joined.rfind("\n", 0, m.start()) + 1:end if end != -1 else len(joined)]
                if cue.blame and _THIRD_PARTY.search(sentence) and not _SECOND_PERSON.search(sentence):
                    continue
            return m.group(0).strip()
    return None


def detect_correction(text: str) -> Correction:
    """Whether this user message corrects the agent, with the cue that matched and the language."""
    if not text or not text.strip():
        return Correction(corrected=False)
    cleaned = _clean(text)
    language = detect_language(cleaned)
    if _BARE_NO.match(cleaned):
        return Correction(corrected=True, evidence=cleaned.strip(), language=language)
    sentences = _sentences(cleaned)
    found = _find_cue("\n".join(sentences), language)
    if found is None:  # most messages: no cue, and no sentence to set aside
        return _contrasted(sentences, language)
    # A sentence where the user owns the mistake ("I gave you the wrong file") or scopes the work to
    # come ("before you start: …") is set aside, and the rest read again. Only a message with a cue
    # pays for this test: a cue matches within a sentence, so without one there is nothing to undo.
    kept = [x for x in sentences if not _GUARD.search(x)]
    if len(kept) != len(sentences):
        found = _find_cue("\n".join(kept), language)
        if found is None:
            return _contrasted(kept, language)
    cue, lang = found
    return Correction(corrected=True, evidence=cue, language=language or lang)


def _contrasted(sentences: list[str], language: str | None) -> Correction:
    """"I said httpx, not requests" / "il branch è main, non master" / "not npm — pnpm": the lesson
    stated as one thing instead of another, read by the learner's own reader of that form."""
    kept = [x for x in sentences if not _GUARD.search(x)]
    pair = contrast(" ".join(kept)) if kept else None
    if pair is None:
        return Correction(corrected=False, language=language)
    return Correction(corrected=True, evidence=f"{pair[0]}, not {pair[1]}", language=language)


def _find_cue(joined: str, language: str | None) -> tuple[str, str] | None:
    choice_question = _ChoiceQuestion(joined)
    lowered = joined.lower()
    forms = _FORM_HINT.search(lowered) is not None
    # a letter whose lowercase is longer ("İ"): scan as written
    low = lowered if len(lowered) == len(joined) else None
    padded = f"\n{lowered}\n"  # ^ and $ of a cue stand for a newline in its literals
    # each asked once per message, not once per language
    cjk, latin = _HAS_CJK.search(joined) is not None, _HAS_LATIN.search(joined) is not None
    work = _WORK_HINT_ANY.search(lowered) is not None
    order = [language] if language else []
    order += [lang for lang in ("en",) + LANGUAGES if lang not in order]
    seen: set[str] = set()
    for lang in order:
        if lang in seen:
            continue
        seen.add(lang)
        cue = _match(lang, joined, choice_question, forms, low, padded,
                     cjk if lang in ("zh", "ja") else latin, work)
        if cue:
            return cue, lang
    cue = _paired(lowered)
    return (cue, language or "en") if cue else None
