"""Is a learned line an executable instruction, or a description dressed up as one?

Reflection must write rules an agent can act on (SPEC §1.5): "When replying in a family-office
context, always give the conclusion first" — not "The user seems to prefer concise output". This
module judges one line at a time with word lists, no model: a line is *actionable* when it carries
an imperative (a verb at the head of a clause, a never/always form, a must-modal) with a concrete
trigger or scope (when / if / before / after / in this repo / for X / a `command`), is not hedged,
and names an action rather than a feeling ("be careful", "remember that quality matters").

The tables below cover English, Chinese, Italian, Portuguese, French, Spanish, German and
Japanese. Latin-script text is matched casefolded and without accents, so one entry covers
"instálalo" and "instalalo"; CJK text is matched as written. Precision and recall are measured on
``tests/data/lint.jsonl`` by ``tests/test_lint.py``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..text import CHINESE_JAPANESE, HAN_COMPAT, KANA

__all__ = ["LintResult", "LintFinding", "lint_line", "lint_text"]


@dataclass(frozen=True)
class LintResult:
    actionable: bool
    reason: str


@dataclass(frozen=True)
class LintFinding:
    path: str
    line: int
    text: str
    actionable: bool
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "text": self.text,
                "actionable": self.actionable, "reason": self.reason}


# --- text normalisation -------------------------------------------------------------------------

# Latin-1 + Latin Extended-A letters to their base letter; leaves CJK untouched (unlike NFKD,
# which would split Japanese dakuten).
_ACCENTS = {
    cp: base for cp in range(0xC0, 0x180)
    if (base := unicodedata.normalize("NFD", chr(cp))[0]).isascii() and base != chr(cp)
}
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_NUMBERED = re.compile(r"^\s*(?:\d{1,3}|[a-z])[.)]\s+|^\s*[0-9０-９]{1,3}[．。、]\s*", re.I)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\[[ xX]\])\s+(?:\[[ xX]\]\s+)?")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_CJK = re.compile(f"[{CHINESE_JAPANESE}{HAN_COMPAT}]")
_KANA = re.compile(f"[{KANA}]")


def _words(spec: str) -> str:
    """A whitespace-separated word list → an alternation, longest first (so 'rerun' beats 're')."""
    items = sorted({w.replace("_", " ") for w in spec.split()}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items)


# --- Latin-script tables (accent-free, lowercase) -----------------------------------------------

_VERBS_EN = """
use run write read ask check open close add remove delete keep avoid prefer start stop lead reply
answer respond give put set tag quote cite export attach copy move rename format install uninstall
upgrade downgrade update create make build test verify validate confirm include exclude list show
print log record send email call wait retry rerun restart restore commit push pull merge rebase
review summarize summarise explain translate mention name link limit split sort group mark label
return pass skip follow apply load save store cache pin lock search look find fetch download upload
deploy release report notify tell convert round stay switch choose pick select enter fill type paste
insert append prepend replace wrap escape measure compare clean lint compile document define declare
import refresh reload sync flush finish begin state draft ensure double-check reread re-read re-run
warn alert raise catch handle escalate schedule benchmark annotate highlight leave bump prefix strip
trim truncate shorten condense expand treat reuse respect cap offer suggest stick default abort
cancel request require sign note ignore open lead group state open reply_with respond_with
"""
_VERBS_IT = """
usa usare esegui leggi scrivi apri chiudi inserisci aggiorna aggiungi rimuovi elimina cancella
controlla verifica rispondi dai cita riprova metti tieni mantieni evita preferisci chiedi installa
lancia avvia crea copia salva indica includi segui attendi aspetta mostra riporta esporta allega
invia manda riassumi traduci formatta elenca annota registra riavvia ripristina conferma fornisci
inizia comincia termina scegli imposta blocca limita separa ordina raggruppa segnala avvisa salta
carica scarica pubblica rilascia consulta specifica usala usalo
"""
_VERBS_PT = """
use usa execute executa rode roda escreva leia abra feche insira atualize adicione remova apague
exclua verifique confira responda cite tente coloque mantenha evite prefira pergunte peca instale
crie copie salve indique inclua siga espere aguarde mostre exporte anexe envie faca comece termine
liste registre traduza resuma formate reinicie restaure confirme forneca escolha defina bloqueie
limite separe ordene agrupe avise pule carregue baixe publique consulte informe especifique
"""
_VERBS_FR = """
utilise utilisez lance lancez execute executez ecris ecrivez lis lisez ouvre ouvrez ferme fermez
insere inserez mets mettez ajoute ajoutez supprime supprimez verifie verifiez reponds repondez
donne donnez cite citez relance relancez garde gardez evite evitez prefere preferez demande
demandez installe installez cree creez copie copiez enregistre enregistrez indique indiquez inclus
incluez suivez attends attendez montre montrez exporte exportez joins joignez envoie envoyez
reporte reportez commence commencez resume resumez traduis traduisez formate formatez listez note
notez redemarre redemarrez restaure restaurez confirme confirmez fournis fournissez choisis
choisissez definis definissez limite limitez separe separez trie triez signale signalez previens
prevenez saute sautez charge chargez telecharge telechargez publie publiez consulte consultez
precise precisez conserve conservez termine terminez place placez reessaie reessayez depasse
depassez
"""
_VERBS_ES = """
usa usad ejecuta ejecute escribe escriba lee lea abre abra cierra cierre inserta actualiza anade
agrega elimina borra verifica comprueba revisa responde responda cita reintenta pon ponga manten
mantenga evita prefiere pregunta pide instala crea copia guarda indica incluye sigue espera muestra
exporta adjunta envia manda empieza comienza termina resume traduce formatea anota registra
reinicia restaura confirma proporciona elige define limita separa ordena agrupa avisa salta carga
descarga publica lanza consulta especifica
"""
_VERBS_DE = """
verwende benutze nutze nutz fuhre fuhr schreibe schreib lies offne schliesse fuge trage entferne
losche prufe pruf uberprufe kontrolliere antworte gib nenne zitiere wiederhole setze halte vermeide
bevorzuge frage frag installiere erstelle kopiere speichere folge warte zeige exportiere hange
sende schicke starte beginne fasse ubersetze formatiere notiere protokolliere aktualisiere stelle
lege bestatige wahle definiere begrenze trenne sortiere gruppiere melde warne uberspringe lade
veroffentliche behalte gib_an runde markiere
"""
# Verbs a clause may start with, any language; Romance clitics ("installalo", "installe-le").
_VERB = (r"(?:re-?)?(?:" + _words(" ".join([_VERBS_EN, _VERBS_IT, _VERBS_PT, _VERBS_FR, _VERBS_ES,
                                             _VERBS_DE])) + r")"
         r"(?:-?(?:lo|la|li|le|ne|gli|glielo|los|las|les|o|a|os|as|lui|en|y|mi|me|te|ci))?\b")
# The words before the verb that keep it an imperative: politeness, connectors, adverbs, negation.
_LEAD = _words("""
please per_favore por_favor s'il_te_plait s'il_vous_plait bitte so then and also instead otherwise
e y et und dann poi quindi entao donc puis luego entonces altrimenti sinon sonst senao
always never only first just sempre mai solo prima nunca so primeiro toujours jamais seulement
d'abord siempre primero immer nie niemals stets nur zuerst erst
do_not don't non nao ne no
""")
# "Remember to run …", "lembre-se de rodar …": the frame is the imperative, any verb may follow.
_REMIND = _words("""
remember_to don't_forget_to do_not_forget_to make_sure_to be_sure_to ricordati_di ricorda_di
non_dimenticare_di lembre-se_de nao_esqueca_de n'oublie_pas_de no_olvides_de no_olvides
vergiss_nicht
""")
_NEG_INF = r"(?:non|nao)\s+\w+(?:are|ere|ire|ar|er|ir)\b"
# Spanish negative imperatives use the subjunctive ("no uses"): listed, since "no" is English too.
_NEG_ES = r"no\s+(?:" + _words("""
uses pongas ejecutes modifiques cambies borres elimines hagas escribas instales subas envies
compartas incluyas abras toques reintentes olvides agregues anadas publiques guardes muestres
confirmes respondas des digas pidas inventes asumas mezcles superes excedas sobrepases pases
""") + r")\b" + r"|no\s+\w+(?:es|as)\s+(?:nunca|jamas)\b"
# French declaratives need a subject before "ne"; a clause opening with "ne … pas/jamais" is an
# imperative whatever its verb ("ne dépasse jamais 5 puces").
_NEG_FR = r"n(?:e\s+|')\w+\s+(?:pas|jamais|plus)\b"
# "dê"/"dé"/"da" (give) lose their accent to collide with "de"/"da" (of): matched with the
# accent and only before an article or an always-word.
_GIVE = re.compile(r"^(?:dê|dé|dá|da|dai|dà)\s+(?:sempre|siempre|primero|prima|primeiro|a|o|la|el|"
                   r"il|le|los|las|os|as|un|una|um|uma)\b", re.I)
_MODAL = _words("""
you_must you_should you_need_to you_have_to you_shall the_agent_must the_agent_should
the_assistant_must the_assistant_should agents_must we_must
devi bisogna occorre si_deve voce_deve deves e_preciso precisa il_faut tu_dois vous_devez
debes hay_que tienes_que du_musst man_muss du_sollst
""")
# A never/always word heading a clause is an imperative form by itself ("Never log API keys").
_ALWAYS_NEVER = _words("""
always never don't do_not sempre mai nunca toujours jamais siempre immer nie niemals stets nicht
""")
_NOT_WHENEVER = r"(?!\s+(?:que|che)\b)"
_TRIGGER = _words("""
when whenever if before after once unless while until during each_time every_time as_soon_as
in_case on_every for_every
quando se prima_di prima_che dopo ogni_volta appena finche mentre in_caso salvo
antes_de antes_que depois_de depois_que apos ao sempre_que assim_que enquanto ate caso
lorsque lorsqu quand si s'il avant_de avant apres chaque_fois des_que pendant tant_que sauf
cuando antes despues_de al cada_vez siempre_que en_cuanto mientras hasta
wenn falls bevor vor nach nachdem sobald wahrend solange bei
without senza sem sans sin ohne
""")
_SCOPE = _words("""
in_this in_the in_every in_each in_all in_our in_your in_any in_ci on_main on_every for_this
for_the for_every for_each for_all for_any within inside across per
in_questo in_questa nel nella nei negli per_le per_i per_il per_la per_ogni per_questo per_questa
neste nesta nestes em_relatorios em_todo em_cada para_este para_esta para_os para_as para_o para_a
dans_ce dans_cette dans_les dans_le dans_la pour_les pour_le pour_la pour_ce pour_chaque pour_tout
en_este en_esta en_los en_las en_el en_la en_cada para_las para_los para_el para_la para_cada
every each ogni cada chaque jeden jede jedem jeder
in_diesem in_dieser in_diesen im fur_jeden fur_jede fur_alle fur_das fur_die fur_den bei
""")
_HEDGE = _words("""
might may maybe perhaps possibly probably could would_be it'd_be seems seem seemed try_to tries_to
ideally somewhat kind_of sort_of
forse potrebbe potrebbero sembra sembrano magari probabilmente sarebbe cerca_di prova_a
talvez pode_ser poderia poderiam parece parecem provavelmente seria
peut-etre pourrait pourraient semble semblent probablement serait il_vaudrait essaie_de essayez_de
quizas quiza tal_vez podria podrian parecen probablemente intenta_ser trata_de
vielleicht konnte konnten scheint scheinen wahrscheinlich ware eventuell moglicherweise versuche
""")
_VAGUE = _words("""
be_careful be_mindful be_aware be_more be_less be_better remember_that keep_in_mind pay_attention
take_care consider think_about best_judgement best_judgment common_sense as_needed as_appropriate
properly appropriately carefully note_that forget_that do_better a_better_job better
make_sure_everything quality_matters
fai_attenzione presta_attenzione stai_attento sii ricorda_che ricordati_che tieni_a_mente
tieni_presente migliore meglio considera
tenha_cuidado preste_atencao fique_atento seja lembre-se_de_que lembre-se_que lembre_que
tenha_em_mente melhor considere
fais_attention faites_attention prete_attention sois soyez rappelle-toi souviens-toi
garde_a_l'esprit meilleur mieux considere
ten_cuidado tenga_cuidado presta_atencion recuerda_que recuerde_que ten_en_cuenta mejor
sei_vorsichtig seien_sie achte_auf achten_sie pass_auf denk_daran denke_daran beachte besser
besseren bedenke berucksichtige
""")
# "Test more." / "testare di più": a verb whose only object is "more".
_VAGUE_TAIL = r"\b(?:more|less|harder|di\s+piu|mais|davantage|plus|mas|mehr)\s*[.!]?\s*$"
_SUBJECT_USER = _words("""
the_user the_users users user l'utente all'utente gli_utenti o_usuario os_usuarios ao_usuario
l'utilisateur les_utilisateurs el_usuario al_usuario los_usuarios der_nutzer die_nutzer dem_nutzer
der_benutzer der_user
""")
_SUBJECT_AGENT = _words("""
the_agent the_agent's the_assistant the_model answers the_answers l'agente le_risposte o_agente
as_respostas l'agent les_reponses el_agente las_respuestas der_agent die_antworten
""")
_SUBJECT_SELF = _words("i we i'm tendo costumo j'oublie je j' nous suelo ich wir")
_PAST = _words("""
yesterday ago last_week last_time was were failed happened took had did discussed created corrected
ieri ha_corretto e_fallita e_fallito ontem falhou corrigiu hier a_echoue a_corrige ayer fallo
corrigio gestern fehlgeschlagen korrigiert
""")
# "Report generation failed": a verb-looking head followed by a finite verb is a noun phrase.
_FINITE_EARLY = re.compile(r"^\S+(?:\s+\S+)?\s+(?:is|are|was|were|has|have|had|failed|took|"
                           r"happened|seems|looks|helps|works|fails|breaks|takes|needs|returns|"
                           r"causes|happens|gets|"
                           r"goes|comes|times\s+out|crashes|hangs)\b")

# --- CJK tables ---------------------------------------------------------------------------------

_ZH_STRONG = "总是|始终|一律|永远不要|永远|绝不|绝对不要|不要|别|切勿|禁止|务必|必须|一定要|最多|至少|只用|只能|应当|应该"
_ZH_VERBS = ("使用|用|运行|执行|打开|填入|填写|检查|保留|等待|阅读|读|修改|写|回复|回答|列出|提交|安装|删除|"
             "添加|更新|引用|确认|记录|询问|问|给出|把|将|附上|导出|复制|发送|保存|标注|注明|遵循|采用|避免|"
             "跳过|重试|报告|告诉|创建|新建|生成|统一|先|加上|说明")
_ZH_LEAD = "请|然后|并且|并|再|先|就|也|都"
_ZH_TRIGGER = ("时[，,]|时候|如果|若|假如|要是|在.{0,24}?(?:之前|以前|之后|以后|前|后|时|中)|每次|每当|遇到|"
               "一旦|除非|之前|之后|前[，,]|后[，,]|对于|针对")
_ZH_HEDGE = "也许|可能|似乎|或许|大概|好像|看起来|不妨|尽量"
_ZH_VAGUE = "小心|注意|记住|牢记|更好|更有条理|做得更|很重要|用心|谨慎"
_ZH_SUBJECT = {"user": "用户|使用者", "agent": "代理|助手|回答", "self": "我"}

_JA_STRONG = "必ず|常に|決して|絶対に|いつでも|てはいけない|てはならない|ないこと|禁止"
_JA_END = r"(?:こと|ください|下さい|せよ|しろ|なさい|ないで|べし|べきだ|べき)$"
_JA_TRIGGER = ("ときは|時は|ときに|とき、|場合は|場合に|場合、|前に|後は|後に|後、|際は|際に|たら|なら|には|"
               "たびに|ごとに|までに|では|せずに|ずに")
_JA_HEDGE = "かもしれ|だろう|でしょう|ようだ|ようです|らしい|ほうがいい|方がいい|かも|と思う|みたい"
_JA_VAGUE = "気をつけ|気を付け|注意|忘れないよう|もっと|うまく|良いコード|しっかり|きちんと|丁寧に"
_JA_SUBJECT = {"user": "ユーザー|利用者", "agent": "エージェント|回答", "self": "私|僕"}


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_RX = {
    "clause_split": _c(r"[,;:.!?()\"“”«»¿¡]+|\s[-–—]\s|\bthen\b|\s(?:and|e|y|et|und)\s(?=(?:"
                       + _VERB[:-2] + r")\b)"),
    "directive": _c(rf"^(?:(?:{_LEAD})\s+|n')*(?:{_VERB}|{_NEG_INF}|{_NEG_ES})|^{_NEG_FR}"),
    "remind": _c(rf"^(?:{_REMIND})\s+\w"),
    "modal": _c(rf"^(?:(?:{_LEAD})\s+)*(?:{_MODAL})\b"),
    "always_never": _c(rf"^(?:(?:{_LEAD})\s+|n')*(?:{_ALWAYS_NEVER}){_NOT_WHENEVER}\s+\w"),
    "trigger": _c(rf"(?<![\w'-])(?:{_TRIGGER})(?![\w-])"),
    "scope": _c(rf"(?<![\w'-])(?:{_SCOPE})(?![\w-])"),
    # A line that opens with a prepositional phrase opens with its scope ("For tax questions, …").
    # A purpose clause scopes the action: "use a table to compare options", "pour comparer".
    "purpose": _c(rf"\s(?:to|in\s+order\s+to)\s+{_VERB}"
                  r"|\s(?:pour|para|per)\s+[a-z]+(?:er|ir|ar|re)\b"
                  r"|\bum\s.+\szu\s"),
    "scope_lead": _c(r"^(?:for|per|pour|para|fur|in|on|im|nel|nei|nella|em|no|na|en|dans|bei)"
                     r"\s+\w"),
    "marker": _c(rf"(?<![\w'-])(?:{_ALWAYS_NEVER}|only|solo|somente|seulement|nur)"
                 rf"{_NOT_WHENEVER}(?![\w-])"),
    "hedge": _c(rf"(?<![\w'-])({_HEDGE})(?![\w-])"),
    "vague": _c(rf"(?<![\w'-])({_VAGUE})(?![\w-])"
                r"|^(?:always\s+|never\s+|don't\s+|do\s+not\s+)?(be)\s+\w+"),
    "vague_tail": _c(_VAGUE_TAIL),
    "user": _c(rf"^(?:{_SUBJECT_USER})\b"),
    "agent": _c(rf"^(?:{_SUBJECT_AGENT})\b"),
    "self": _c(rf"^(?:{_SUBJECT_SELF})\b"),
    "past": _c(rf"(?<![\w'-])(?:{_PAST})(?![\w-])"),
    # German rules are often written with the infinitive: "Bei Steuerfragen immer … angeben."
    "de_infinitive": _c(r"^(?!(?:der|die|das|dem|den|es|ich|wir|er|sie|man)\s)"
                        r"(?:bei|vor|nach|immer|nie|niemals|stets|zuerst|im|in|nicht|keine|kein)\b"
                        r".*\b[a-z]+(?:en|ern|eln)\s*[.!]?\s*$"),
    "zh_split": re.compile(r"[，,；;。.！!？?：:]+"),
    "zh_directive": re.compile(rf"^请|^(?:(?:{_ZH_LEAD}))*(?:{_ZH_VERBS})|{_ZH_STRONG}"),
    "zh_strong": re.compile(_ZH_STRONG),
    "zh_trigger": re.compile(_ZH_TRIGGER),
    "zh_hedge": re.compile(f"({_ZH_HEDGE})"),
    "zh_vague": re.compile(f"({_ZH_VAGUE})"),
    "zh_past": re.compile(r"了$|昨天|上次|上周"),
    "ja_split": re.compile(r"[。！!？?]+"),
    "ja_strong": re.compile(_JA_STRONG),
    "ja_end": re.compile(_JA_END),
    "ja_plain": re.compile(r"(?<!てい)(?<!でい)(?<!で)[うくぐすつぬぶむる]$"),
    "ja_topic": re.compile(r"^[^、]*?(?:は|が)"),
    "ja_trigger": re.compile(_JA_TRIGGER),
    "ja_hedge": re.compile(f"({_JA_HEDGE})"),
    "ja_vague": re.compile(f"({_JA_VAGUE})"),
    "ja_past": re.compile(r"た$|昨日|先週|前回"),
}
_ZH_SUBJECT_RX = {k: re.compile(f"^(?:{v})") for k, v in _ZH_SUBJECT.items()}
_JA_SUBJECT_RX = {k: re.compile(f"^(?:{v})") for k, v in _JA_SUBJECT.items()}

_DESCRIBES = {
    "user": "describes the user instead of instructing: no imperative verb",
    "agent": "describes the agent instead of instructing: no imperative verb",
    "self": "describes the agent itself instead of instructing: no imperative verb",
}
_HOW = " (write e.g. 'When …, always …')"


@dataclass(frozen=True)
class _Features:
    directive: bool
    numbered: bool
    trigger: str  # the word that gives a trigger or scope, "" when none
    hedge: str
    vague: str
    subject: str  # "user" | "agent" | "self" | ""
    past: bool


def _prepare(text: str) -> tuple[str, bool, bool]:
    """Strip Markdown list syntax and emphasis; code spans become CODE. → (text, numbered, code)."""
    s = text.strip()
    numbered = bool(_NUMBERED.match(s))
    s = _NUMBERED.sub("", s, count=1) if numbered else _BULLET.sub("", s, count=1)
    has_code = bool(_CODE_SPAN.search(s))
    s = _CODE_SPAN.sub(" CODE ", s)
    s = _EMPHASIS.sub("", s)
    return " ".join(s.split()), numbered, has_code


def _latin(s: str, numbered: bool, has_code: bool) -> _Features:
    low = s.casefold().translate(_ACCENTS).replace("’", "'")
    clauses = [c.strip() for c in _RX["clause_split"].split(low) if c and c.strip()]
    directive = False
    original = [c.strip() for c in _RX["clause_split"].split(s.casefold()) if c and c.strip()]
    for clause in clauses:
        if _FINITE_EARLY.match(clause):
            continue
        if (_RX["directive"].match(clause) or _RX["modal"].match(clause)
                or _RX["always_never"].match(clause) or _RX["de_infinitive"].match(clause)
                or _RX["remind"].match(clause)):
            directive = True
            break
    else:
        directive = any(_GIVE.match(c) for c in original)
    trigger = ""
    for name in ("trigger", "marker", "scope", "scope_lead", "purpose"):
        m = _RX[name].search(low)
        if m:
            trigger = m.group(0).strip()
            break
    if not trigger and has_code:
        trigger = "`…`"
    hedge = _first_group(_RX["hedge"].search(low))
    vague = _first_group(_RX["vague"].search(low))
    if not vague and directive and not trigger and (tail := _RX["vague_tail"].search(low)):
        vague = tail.group(0).strip(" .!")
    subject = next((k for k in ("user", "agent", "self") if _RX[k].match(low)), "")
    return _Features(directive, numbered, trigger, hedge, vague, subject,
                     bool(_RX["past"].search(low)))


def _cjk(s: str, numbered: bool, has_code: bool) -> _Features:
    ja = bool(_KANA.search(s.replace("CODE", "")))
    split = _RX["ja_split"] if ja else _RX["zh_split"]
    sentences = [p.strip() for p in split.split(s) if p.strip()]
    directive = False
    if ja:
        for sent in sentences:
            if _RX["ja_strong"].search(sent) or _RX["ja_end"].search(sent):
                directive = True
            elif _RX["ja_plain"].search(sent) and not sent.endswith("です") and (
                    not _RX["ja_topic"].match(sent) or _RX["ja_trigger"].search(sent)):
                directive = True
    else:
        directive = any(_RX["zh_directive"].search(c) for c in sentences)
    p = "ja" if ja else "zh"
    m = _RX[f"{p}_trigger"].search(s) or _RX[f"{p}_strong"].search(s)
    trigger = m.group(0).strip("，,、") if m else ("`…`" if has_code else "")
    subjects = _JA_SUBJECT_RX if ja else _ZH_SUBJECT_RX
    subject = next((k for k, rx in subjects.items() if rx.match(s)), "")
    past = any(_RX[f"{p}_past"].search(x) for x in sentences)
    return _Features(directive, numbered, trigger, _first_group(_RX[f"{p}_hedge"].search(s)),
                     _first_group(_RX[f"{p}_vague"].search(s)), subject, past)


def _first_group(m: re.Match[str] | None) -> str:
    if not m:
        return ""
    return next((g for g in m.groups() if g), m.group(0)).strip()


def lint_line(text: str) -> LintResult:
    """Judge one line (a rule, a bullet, a numbered step, a sentence) of a skill or the memo."""
    s, numbered, has_code = _prepare(text)
    if not s.replace("CODE", "").strip():
        return LintResult(False, "empty: nothing to act on")
    f = _cjk(s, numbered, has_code) if _CJK.search(s) else _latin(s, numbered, has_code)
    problems: list[str] = []
    if not f.directive and f.subject:
        problems.append(_DESCRIBES[f.subject])
    if f.hedge:
        problems.append(f"hedged: '{f.hedge}' — state the rule without hedging")
    if f.vague:
        problems.append(f"no concrete action: '{f.vague}' does not say what to do")
    if not f.directive and not problems:
        if f.past:
            problems.append("an observation in the past tense, not an instruction" + _HOW)
        else:
            problems.append("states a fact instead of instructing: no imperative verb" + _HOW)
    if problems:
        return LintResult(False, "; ".join(problems[:2]))
    if f.numbered:
        return LintResult(True, "imperative step in a numbered procedure")
    if not f.trigger:
        return LintResult(False, "no trigger or scope: add when/if/before…" + _HOW)
    return LintResult(True, f"imperative with a trigger or scope: '{f.trigger}'")


# --- whole files --------------------------------------------------------------------------------

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")
_TABLE = re.compile(r"^\s*\|")
_ITEM = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)")
_BARE_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s*$")
_LABEL = re.compile(r"^\s*(?:[-*+•]\s+)?\**[^.!?。]{0,60}[:：]\**\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“«(¿¡]?[A-ZÀ-ÝĀ-Ž`])|(?<=[。！？])")


def _blocks(text: str) -> list[tuple[int, str, bool]]:
    """Lines worth judging → [(first line number, text, is_list_item)].

    Skips frontmatter, fenced code, headings, rules, tables, HTML comments, labels ending in ':'
    and bare list markers; joins soft-wrapped continuation lines onto their item or paragraph.
    """
    lines = text.splitlines()
    out: list[list] = []
    i = 0
    from ..markdown import split_frontmatter

    fm = split_frontmatter(text)
    if fm.text is not None:
        i = fm.body_line - 1
    from ..markdown import code_lines

    in_comment = False
    current: list | None = None
    # one fence reader for every Markdown file: a ```` fence closes only on ````
    for n, (raw, in_code) in enumerate(code_lines(lines[i:]), start=i):
        stripped = raw.strip()
        if in_code:
            current = None
            continue
        if in_comment:
            in_comment = "-->" not in stripped
            continue
        if stripped.startswith("<!--"):
            in_comment, current = "-->" not in stripped, None
            continue
        if (not stripped or _HEADING.match(raw) or _RULE.match(raw) or _TABLE.match(raw)
                or _BARE_ITEM.match(raw) or _LABEL.match(raw)):
            current = None
            continue
        if _ITEM.match(raw):
            current = [n + 1, stripped, True]
            out.append(current)
        elif current is not None:
            current[1] += " " + stripped
        else:
            current = [n + 1, stripped, False]
            out.append(current)
    return [(b[0], b[1], b[2]) for b in out]


def _sentences(paragraph: str) -> list[str]:
    masked = _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", paragraph)
    parts, start = [], 0
    for m in _SENTENCE_END.finditer(masked):
        parts.append(paragraph[start:m.start()].strip())
        start = m.end()
    parts.append(paragraph[start:].strip())
    return [p for p in parts if p]


def lint_text(text: str, path: str = "") -> list[LintFinding]:
    """Judge every list item and every prose sentence of a Markdown document."""
    findings: list[LintFinding] = []
    for line_no, block, is_item in _blocks(text):
        for sentence in ([block] if is_item else _sentences(block)):
            result = lint_line(sentence)
            findings.append(LintFinding(path, line_no, sentence, result.actionable, result.reason))
    return findings
