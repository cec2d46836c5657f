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


# "No, that's all" / "nein, sonst nichts": the user closes the exchange, nothing is rejected.
_THATS_ALL = (r"(?:that'?s (?:all|it)|nothing (?:else|more)|per ora è tutto|è tutto|nient'altro"
              r"|niente (?:altro|di più)|(?:é )?só isso|mais nada|c'est tout|rien d'autre|rien de plus"
              r"|eso es todo|es todo|nada más|das ist alles|das war'?s|sonst nichts|mehr nicht)")
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
               r"(?![^\n]{0,12}?" + _THATS_ALL + ")")

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
    ) + _cues(r"\b(?:wrong|incorrect)\b", question=True),
    "zh": _cues(r"错了|錯了|应该是|應該是", question=True) + _cues(
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
    "ja": _cues(r"間違(?!いやすい|えやすい)|まちが(?!いやすい)", question=True) + _cues(
        r"違います|違う|ちがう|ちがいます|そうじゃな|そうではな|じゃなくて(?=[、,])",
        r"正しくな|誤って",
        r"元に戻|もとに戻|やり直|(?<!気に)(?<!心配)(?<!無理)(?<!急が)(?:さ|え|ら|わ|け|か)ないで",
        r"言ったのに|言いましたよね|言ったように|言ったでしょう|と言いました|頼んでいない|頼んでません",
        r"動きません|動かない|まだ(?:動|エラー|失敗|直って)|直っていない|直ってない",
        r"そういう意味(?:では|じゃ)",
        r"勝手に", r"^(?:いや|いいえ)[、,](?!\s*(?:以上|大丈夫|結構|特に|ありがと|それで))", r"言った(?:はず|じゃない|よね)", r"^逆です|逆になって|逆でした",
        r"なぜ.{0,30}(?:使って|して|した)|どうして.{0,30}(?:使って|して|した)",
        r"上書きし|また.{0,40}(?:ていますね|ましたね|てますね)|を戻して|戻してください|無視",
        r"(?:その|この|それ|これ|そっち|こっち).{0,20}(?:じゃ|では)(?:ないです|ありません)",
        r"頼んだの(?:は|と).{0,20}(?:違|じゃな|ではな)",
        r"(?:消し|削除し|変え|変更し|壊し|書き換え|戻し|上書きし)たせい",
        r"さっきまで動|前は動いて|壊しました|壊したの",
        r"(?:誤解|勘違い)(?:して|され|があ)|説明が足りな|ではなく[^。]{0,30}(?:の方|のほう)(?:です|だ)",
        r"同じエラー",
    ),
    "it": _cues(r"\bsbagliat[oaie]\b|\berrat[oaie]\b", question=True) + _cues(
        _OPENING_NO, r"\bnon (?:è|e') (?:corretto|giusto|quello che|così)\b", r"^non così\b",
        r"\bhai sbagliato\b|\bhai frainteso\b",
        r"\bti (?:avevo|ho) (?:già )?detto\b|\bte l'ho (?:già )?detto\b|\bcome ti ho chiesto\b",
        r"\bnon ti ho chiesto\b|\bperché hai\b|\bannulla\b|\bripristina\b|\brimetti\w*\b",
        r"\bancora non funziona\b|\bnon funziona ancora\b|\bcontinua a non\b",
        r"\bnon (?!preoccup)\w+(?:are|ere|ire)\b|\bsmetti di\b|^invece di\b",
        r"\brifall[oa]\b|\brifai\b" + _RERUN_OBJECT + r"|\briscrivil[oa]\b", r"\bil contrario di\b|\bal contrario\b",
        r"\bintendevo\b|^non è (?:quel|questo|il|la|lo)\b|\binvertit[oa]\b",
        r"\bhai (?:sovrascritto|cancellato|rotto|rimosso|eliminato|ignorato|dimenticato|perso"
        r"|tolto)\b|\bhai di nuovo\b|\bperché (?:usi|stai|continui)\b",
        r"\bma non hai\b|\bnon hai (?!bisogno|fretta|tempo)\w+(?:ato|uto|ito)\b",
        r"\bnon funziona più\b|\bprima funzionava\b|\bnon (?:va|funziona) più\b",
        r"\bancora non (?:va|funziona|compila|passa)\b|\b(?:lo )?stesso errore\b",
        r"\b(?:c'è|ci sia|ci dev'essere|c'è stato) un (?:equivoco|malinteso)\b|\bmi hai frainteso\b"
        r"|\bvolevo\b[^.\n]{0,60}\bnon (?:un|una|uno|il|la|lo|i|le|gli|l'|\w+are|\w+ere|\w+ire)\b",
    ),
    "pt": _cues(r"\berrad[oa]s?\b|\bincorret[oa]\b", question=True) + _cues(
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
        r"\bje (?:t'avais|t'ai|vous ai) (?:déjà )?dit\b|\bje te l'ai (?:déjà )?dit\b"
        r"|\bcomme je l'ai demandé\b|\bje ne t'ai pas demandé\b",
        r"\bpourquoi (?:tu as|as-tu)\b|\bannule\b|\bremets\b|\btoujours pas\b|\barrête de\b",
        r"\bne (?:touche|modifie|supprime|change|utilise|mets|rajoute|renomme) pas\b",
        r"^au lieu d", r"\brefais\b" + _RERUN_OBJECT, r"\bl'inverse de\b|\ble contraire de\b|\bà l'envers\b",
        r"\bje parlais d|\bje voulais dire\b|\bce n'est pas (?:ce|le|la|les|cette)\b",
        r"\btu as (?:encore|écrasé|supprimé|cassé|oublié|ignoré|effacé|perdu)\b"
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
    "es": _cues(r"(?<!\bno )\b(?:está|esta) mal\b", question=True) + _cues(
        _OPENING_NO, r"\bincorrect[oa]\b|\bno es (?:correcto|lo que|así)\b",
        r"\bte equivocaste\b|\bequivocad[oa]\b|\b(?:lo )?entendiste mal\b",
        r"\bte (?:lo )?dije\b|\bcomo te pedí\b|\bno te pedí\b|\bya te lo dije\b",
        r"\bpor qué (?:\w+aste|\w+iste)\b|\bdeshaz\b|\brevierte\b|\bvuelve a ponerl",
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
        r"\bwarum hast du\b|\brückgängig\b|\bwieder her\b|\bimmer noch nicht\b",
        r"^nicht so\b|\bhör auf\b|^statt\b|\bnochmal neu\b|\bneu schreiben\b|\bnicht anfassen\b",
        r"\bverkehrt\b|\bfalsch herum\b|\bich meinte\b|\bdas ist nicht (?:die|der|den)\b",
        r"\bdas gegenteil\b|\bschon wieder\b|\bwarum (?:benutzt|nimmst|machst|verwendest) du\b",
        r"\bdu hast .{0,40}(?:überschrieben|gelöscht|kaputt gemacht|vergessen|ignoriert|entfernt)\b",
        r"^falsche[rsn]? (?:datei|ordner|verzeichnis|branch|pfad|tabelle|funktion|methode|klasse"
        r"|variable|version|befehl|stelle|port|repo|umgebung)\b", r"\bich hab(?:e)? (?:es )?(?:dir|euch|ihnen)? ?(?:doch |schon )*gesagt\b"
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
_CONTRAST = (r"(?:[:—–]\s*|\b(?:no|non|não|nein|nope)\s*[,!—–-]\s*|\b(?:is|are|be|said|in|into|with|using|detto|è|essere"
             r"|nel|nella|disse|é|ser|estar|em|no|na|dit|est|c'est|être|dans|dije|es|está en|en|sagte|ist|in|im"
             r"|lives in|goes in|go in|use|usa|usiamo|usamos|utilise|utilisons|nimm|nutze|nutzen|verwende|verwenden"
             r"|nehmen)\s+)(?:here\s+|qui\s+|aqui\s+|aquí\s+|ici\s+|hier\s+)?(?:en\s+|de\s+)?" + _NAME + r"(?:\s+" + _NAME + r"){0,2},\s+"
             r"(?:not|non|não|pas|no|nicht)\s+(?!(?:è|é|e'|est|es|ist|is|sono|são|c'|only|just|bad|male|mal|schlecht"
             r"|problem\w*|serve|hay|need\w*|necessar\w*|changes|colpa|culpa|faute|schuld)\b)(?:with\s+|in\s+|con\s+|nel\s+|com\s+|no\s+|na\s+|dans\s+|en\s+"
             r"|mit\s+|im\s+|o\s+|a\s+|la\s+|el\s+|l'|le\s+|il\s+)?[^\s,.!?;]+(?:\s+[^\s,.!?;]+){0,2}"
             r"\s*(?:[.!;,]|$)")
_FORMS: dict[str, tuple[_Cue, ...]] = {
    # _CONTRAST names the negation of every Latin-script language: it is tried once, with English
    # (which every message is tried against), not once per language.
    "en": _cues(_CONTRAST, r"^(?:not|non|não|pas|nicht)\s+" + _NAME + r"\s*[—–-]+\s*" + _NAME + r"\s*[.!]?$", r"^again\s*[:!]|^again,(?!\s*(?:thanks|thank))|\bagain\s*[?!]{2,}|^once more\b",
                r"\b(?:second|third|fourth|fifth|\d+(?:nd|rd|th)) time\b",
                r"\bwe(?:'ve| have)?\s+(?:moved|migrated|switched|changed)\s+(?:over\s+)?to\b",
                r"\bfrom now on,?\s+(?:please\s+)?(?:use|always|never|run|don'?t|do not|write|put|keep|stick)\b"
                r"|\buse (?:it|that|them|this) from now on\b|\bgoing forward,?\s+(?:use|always|never)\b"),
    "it": _cues(r"^di nuovo\s*[:!,]|^ancora\s+" + _NAME + r"\s*[?!]|\bdi nuovo\s*[?!]{2,}",
                r"\bsiamo (?:passati|migrati) a\b|\babbiamo (?:migrato|cambiato) (?:a|in)\b",
                r"\b(?:d'ora in poi|da (?:ora|adesso) in poi)\b", r"\bho detto\b", r"^basta (?:con )?\S+\s*[,;.!]",
                r"\bpreferisco " + _NAME + r" a " + _NAME),
    "pt": _cues(r"^de novo\s*[:!,]|\bde novo\s*[?!]{2,}",
                r"\b(?:mudamos|migramos|passamos) para\b", r"^chega de\b",
                r"\ba partir de agora,?\s+(?:\w+\s+){0,2}?(?:use|usa|utilize|sempre|nunca|não)\b"
                r"|\b(?:use|usa) \w+ a partir de agora\b", r"\bprefir[ao] " + _NAME + r" a " + _NAME),
    "fr": _cues(r"^encore\s*[:!,]|^encore\s+" + _NAME + r"\s*[?!]",
                r"\b(?:on est|nous sommes) pass[ée]e?s? à (?!la |l'|une |un )|\bon a migré (?:vers|à)\b",
                r"\bdésormais,?\s+(?:\w+\s+)?(?:utilise|toujours|jamais|ne|n')|\butilise\S* à partir de maintenant\b",
                r"\bj'ai dit\b", r"^plus de \S+\s*[,;.!]\s*(?:utilise|on utilise|prends)\b", r"\bn'utilise[sz]? (?:pas|plus)\b|\barrête[sz]? d'", r"^mauvaise?s? \w+",
                r"\bje préfère " + _NAME + r" à " + _NAME),
    "es": _cues(r"^otra vez\s*[:!,]|\botra vez\s*[?!]{2,}", r"\b(?:nos pasamos|migramos|cambiamos) a\b",
                r"\b(?:de ahora en adelante|a partir de ahora),?\s+(?:\w+\s+)?(?:usa|úsalo|utiliza|siempre|nunca|no)\b"
                r"|\ba partir de ahora úsalo\b", r"^dije\b|\bya (?:te )?dije\b", r"^basta de\b", r"\bprefiero " + _NAME + r" a " + _NAME),
    "de": _cues(r"\b" + _NAME + r" sein,\s+nicht\b", r"^nochmal\s*[:!]",
                r"\b(?:auf|zu) \S+ (?:umgestiegen|gewechselt|migriert)\b",
                r"\bab (?:jetzt|sofort)\b.{0,40}\b(?:verwenden|nutzen|benutzen|nehmen|immer|nie)\b",
                r"\bich sagte\b", r"\bkein(?:e|en)? \S+ mehr\b", r"\b(?:benutze|verwende|nimm|nutze)\s+(?:kein|keine|keinen|nicht)\b",
                r"^falsche[rsn]? \w+", r"\blieber " + _NAME + r" als " + _NAME),
    "zh": _cues(r"不要用|别用|別用|又是|又用|再说一遍|再說一遍|说了多少遍", r"[，,]\s*(?:(?:不是|不在|而不是)\s*[A-Za-z0-9_\u4e00-\u9fff]|不用\s*[A-Za-z])",
                r"换成|換成|迁移到|切换到|改用", r"以后(?:都|就)?用|今后(?:都)?用|以後(?:都)?用"),
    "ja": _cues(r"[A-Za-z0-9_.-]\s*(?:ではなく|じゃなくて|の代わりに|では(?:ありません|ない)|じゃない)",
                r"^また\S{1,20}[？?]|もう一度言|何度も言", r"に移行|に切り替え", r"[A-Za-z0-9_.-]より\S{1,20}を優先",
                r"これからは.{0,20}(?:使って|使います|使用)|今後は.{0,30}(?:使って|使用)",
                r"はやめて|をやめて|は使わないで|を使わないで", r"でないとダメ|じゃないとダメ") + _cues(r"べきです", question=True),
}
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
|nimm|nutze|falsch|lieber""".replace("\n", "").split("|"))
# one scan: every branch opens with a literal, so the engine skips ahead to a possible first letter
_FORM_HINT = re.compile("|".join(re.escape(w) for w in _FORM_WORDS))


# "Why did you use a dict here?" alone asks the agent to explain a choice; "Why did you use npm?
# This repo uses yarn." or "Why did you delete the tests?" react to something done wrong.
_WHY = re.compile(r"^\W*(?:why|perché|perche|por ?que|por qué|pourquoi|warum|wieso|weshalb"
                  r"|为什么|為什麼|なぜ|どうして)|(?:为什么|為什麼|なぜ|どうして)", _I)
_CHOICE_VERB = re.compile(
    r"\b(?:use|used|using|choose|chose|chosen|pick|picked|go with|went with|opt(?:ed)?|prefer(?:red)?"
    r"|decide|decided|usato|usi|usare|scelto|preferito|deciso|optato|usou|usa|usar|escolheu|optou"
    r"|preferiu|decidiu|choisi|utilisé|utilises|utiliser|pris|préféré|opté|décidé|usaste|usas"
    r"|elegiste|escogiste|optaste|preferiste|decidiste|benutzt|verwendet|gewählt|genommen"
    r"|entschieden|nimmst|verwendest)\b|用|选|選|使っ|使う|選ん|採用", _I)


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
    r"|我(?:搞|弄|说|說|给|給|写|寫|看|改|用|放|选|選|记|記)错|是我的错|是我的錯|私の(?:ミス|間違い)|こちらの(?:ミス|間違い)", _I)


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


def _any_cue(cues: tuple[_Cue, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{c.rx.pattern})" for c in cues), cues[0].rx.flags)


# One alternation per language answers "could any cue match?" in a single pass; most messages
# are not corrections, and trying each cue in turn made this the costliest step of observing.
_ANY: dict[str, re.Pattern[str]] = {lang: _any_cue(cues) for lang, cues in _CUES.items()}


_HAS_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
_HAS_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")


def _script_can_match(lang: str, joined: str) -> bool:
    """Chinese and Japanese cues are written in CJK characters, the others in Latin letters: a
    message without that script cannot match them (a cheap test before the costly ones)."""
    if lang in ("zh", "ja"):
        return bool(_HAS_CJK.search(joined))
    return bool(_HAS_LATIN.search(joined))


_ANY_FORM: dict[str, re.Pattern[str]] = {lang: _any_cue(cues) for lang, cues in _FORMS.items()}
# The same alternations without IGNORECASE, searched in the lowercased message: a case-insensitive
# scan costs about a fifth more, and this one runs for every message in every language. The cue
# patterns hold no uppercase letter (tests/test_corrections.py checks it), so a cue that matches
# the message matches its lowercase form too; the cues themselves then run as written.
_ANY_LOW: dict[str, re.Pattern[str]] = {lang: re.compile(rx.pattern, re.MULTILINE) for lang, rx in _ANY.items()}
_ANY_FORM_LOW: dict[str, re.Pattern[str]] = {lang: re.compile(rx.pattern, re.MULTILINE)
                                             for lang, rx in _ANY_FORM.items()}


def _match(lang: str, joined: str, choice_question: bool, forms: bool = False,
           low: str | None = None) -> str | None:
    if not _script_can_match(lang, joined):
        return None
    hit = _ANY_LOW[lang].search(low) if low is not None else _ANY[lang].search(joined)
    cue = _first(_CUES[lang], joined, choice_question) if hit else None
    if cue is None and forms and lang in _FORMS and (
            _ANY_FORM_LOW[lang].search(low) if low is not None else _ANY_FORM[lang].search(joined)):
        cue = _first(_FORMS[lang], joined, choice_question)
    return cue


def _first(cues: tuple[_Cue, ...], joined: str, choice_question: bool) -> str | None:
    for cue in cues:
        for m in cue.rx.finditer(joined):
            if choice_question and _WHY.search(m.group(0)):
                continue
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
    if _BARE_NO.match(cleaned):
        return Correction(corrected=True, evidence=cleaned.strip(), language=language)
    # A sentence where the user owns the mistake ("I gave you the wrong file") is skipped.
    joined = "\n".join(x for x in _sentences(cleaned) if not _GUARD.search(x))
    choice_question = _asks_about_a_choice(joined)
    lowered = joined.lower()
    forms = _FORM_HINT.search(lowered) is not None
    # a letter whose lowercase is longer ("İ"): scan as written
    low = lowered if len(lowered) == len(joined) else None
    order = [language] if language else []
    order += [lang for lang in ("en",) + LANGUAGES if lang not in order]
    seen: set[str] = set()
    for lang in order:
        if lang in seen:
            continue
        seen.add(lang)
        cue = _match(lang, joined, choice_question, forms, low)
        if cue:
            return Correction(corrected=True, evidence=cue, language=language or lang)
    return Correction(corrected=False, language=language)
