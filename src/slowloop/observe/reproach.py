"""A reproach of what the agent just did, told by its consequence or by irony, with no redo after it.

"SERIAL wraps at 2^31 with the volume we have", "-auto-approve on prod, bold move", "random.randint
for an API key, very cryptographic", "as any で握りつぶし、型安全とは何だったのか": no "no", no
"wrong", and the agent may only answer in words. Two pieces of evidence must agree:

- **the action**: the message names something the agent's last turn used — a program, a flag, a
  package, an image, a name from the code it wrote (`-auto-approve`, `lodash`, `SERIAL`, `randint`);
- **the judgement**: a consequence (it wraps, overflows, runs out of memory, loses data, gets
  rejected, breaks, is deprecated) or the irony people use for one ("bold move", "what could go
  wrong", "very retro", "nobody will ever read it", "seguridad nivel experto"), in 8 languages.

Either alone is not enough: "lodash is in the lockfile already" names the action and judges
nothing; "that OOM is the GPU job Luca runs" judges without naming what the agent did. Words
blaming someone else — a teammate by name, the vendor, "not your change" — set it aside.
"""

from __future__ import annotations

import re

from ..transcripts.model import Turn
from .redo import turn_acts, words_of

# Consequences and the irony that stands for them. Each entry is a judgement on its own; the
# action named beside it says what it is about.
_JUDGEMENT = re.compile(
    # en
    r"\b(?:wraps? (?:at|around)|overflows?|out of memory|oom(?:s|ed)?\b|data loss|loses? (?:data|rows|the)|"
    r"gonna (?:bounce|fail|break|reject|blow)|(?:will|would|is going to) (?:bounce|fail|break|reject|blow up|leak)"
    r"|bounce[sd]? (?:it|that|on)|rejects? (?:anything|it|that|every)|is deprecated|deprecated (?:in|since|there)"
    r"|bold move|living dangerously|what could (?:possibly )?go wrong|nobody (?:will|would) (?:ever )?(?:read|notice|know)"
    r"|vintage|very retro|so retro|thread-safe too|in 20\d\d\b|good luck (?:with|debugging)|enjoy debugging"
    r"|leaks? (?:the|every|all|our)|full table scan|scans? (?:the whole|every|all)|locks? the (?:whole )?table"
    r"|takes? (?:prod|production|the site|everything) down|pages? (?:everyone|the on-?call)"
    # it
    r"|va in oom|andrà in oom|esplode|si rompe|non lo sapremo|nessuno (?:lo )?(?:leggerà|saprà)|ottimo per (?:il|la|i|le)"
    r"|complimenti per|che coraggio|cosa potrebbe mai andare storto|perdiamo (?:i|le|tutti|tutto)|blocca la tabella"
    # fr
    r"|on découvrira|ça va (?:casser|exploser|planter)|très pratique|belle manière|quel courage|personne ne (?:le )?lira"
    r"|qu'est-ce qui pourrait mal tourner|bonne chance pour"
    # de
    r"|was soll (?:da )?schon passieren|(?:das )?liest (?:bestimmt|eh) keiner|weiß keiner mehr|mutig|viel spaß beim"
    r"|läuft (?:sofort |gleich )?voll|fliegt (?:uns )?um die ohren|sperrt die (?:ganze )?tabelle"
    # es
    r"|nivel experto|va a (?:gritar|explotar|reventar|romper)|se (?:nos )?(?:caiga|caigan|cae|caen) (?:todo|todos)"
    r"|sin avisar|qué podría salir mal|buena suerte (?:con|depurando)|nadie (?:lo )?(?:va a leer|leerá)"
    # pt
    r"|chora no|muito \w+ isso|vai dar ruim|vai (?:estourar|quebrar|explodir)|o que poderia dar errado"
    r"|boa sorte (?:com|debugando)|ninguém (?:vai )?(?:ler|notar)|adoro descobrir)\b"
    # zh / ja (no word boundaries)
    r"|会炸|就炸了|全表扫|扫全表|解析不了|就不\s*flaky|锁表|丢数据|溢出|过时了|废弃了"
    r"|いい度胸|何だったのか|懐かしい|鳴りまくって|溢れ|落ちます|非推奨|全件スキャン|ロックされ", re.I)

# Someone else is the cause: a teammate by name, the vendor, "not your change".
_NOT_YOU = re.compile(
    r"\bnot (?:your|you|the agent'?s?)\b|\bnothing to do with you\b|\bnon c'entri\b|\bnon dipende da te\b"
    r"|\bnon è (?:colpa )?tua\b|\bpas (?:toi|ta faute|ton code)\b|\bnicht (?:dein|deine|du)\b"
    r"|\bno es (?:tu|culpa tuya)\b|\bnão (?:é )?(?:seu|sua|culpa sua|nada no seu)\b|不是你|あなたのせいでは"
    # not the code's doing ("CircleCI が今障害中みたいです、コードのせいではないです"), or an outage
    r"|\bnot (?:the|our) code(?:'s fault)?\b|\bnon è (?:colpa del |il )codice\b|\bpas (?:la faute du |le )code\b"
    r"|\bliegt nicht am code\b|\bno es (?:culpa del |el )código\b|\bnão é (?:culpa do |o )código\b"
    r"|(?:コード|こちら|実装)のせいでは|(?:コード|実装)のせいじゃ|不是代码的(?:问题|锅)|[跟和与](?:我们的?)?代码(?:无关|没关系)"
    r"|\b(?:is|was|seems|looks) down\b|\b(?:an|the|having an|has an) outage\b|\ben panne\b|\bstörung\b|\bcaído\b"
    r"|障害(?:中|が発生)|宕机|挂了"
    # "あなたの変更はまだ本番に出てないので関係ないです", "跟你的改动没关系"
    r"|(?:あなた|君)の(?:変更|コード|修正)[^。！？]{0,20}関係(?:ない|ありません)|跟你(?:的改动|的代码)?(?:无关|没关系)"
    r"|\b(?:nichts|nix) mit dein\w* (?:change|änderung|code|commit) zu tun\b|\brien à voir avec (?:ton|ta|votre) \w+"
    r"|\bnon c'entra (?:niente|nulla) con (?:la tua|il tuo) \w+|\bno tiene nada que ver con tu \w+"
    r"|\bnão tem nada a ver com (?:a sua|o seu|sua|seu|tua|teu) \w+|\bnothing to do with your \w+"
    r"|不是你的(?:问题|改动|锅)|\b(?:your|the agent'?s) (?:change|code|fix)\b[^.!?]{0,30}\b(?:unrelated|not related|nothing to do)\b", re.I)
_ELSEWHERE = re.compile(
    r"\b[A-Z][a-zà-ÿ]{2,}(?:'s (?:flaky|change|test|branch|job)| (?:broke|is on it|l'a|lo ha|la ha|hat (?:es|das|den)"
    r"|que metió|que trocou|foi que|changed|cambió|a changé|geändert))|\bvon [A-Z][a-zà-ÿ]+\b|さんが|小[王李张刘陈赵]", re.U)


def someone_else(text: str) -> bool:
    """The words put the cause on someone or something else: a teammate, the vendor, "not you"."""
    return bool(_ELSEWHERE.search(text or "") or _NOT_YOU.search(text or ""))


def reproach(turn: Turn, previous: Turn | None) -> str | None:
    """The judgement and the name of the agent's action it is about, when the person's words
    reproach what the agent just did; None otherwise."""
    text = turn.user_text or ""
    if previous is None or not turn.person or not text.strip() or text.rstrip().endswith(("?", "？")):
        return None
    judged = _JUDGEMENT.search(text)
    if judged is None or _ELSEWHERE.search(text) or _NOT_YOU.search(text):
        return None
    done = " ".join(a.command + " " + a.new for a in turn_acts(previous, rejected=False))
    named = sorted(words_of(text) & words_of(done), key=len, reverse=True)
    if not named:
        # a flag said as written (`-auto-approve`), which the words' tokens strip of its dashes
        named = [f for f in re.findall(r"(?<![\w-])--?[a-z][\w-]+", text) if f in done]
    if not named:
        return None
    return f"{judged.group(0).strip()!r} of {named[0]!r}, which the agent had just used"
