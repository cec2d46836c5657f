"""The word tables the imperative lint (:mod:`slowloop.safety.lint`) reads, one per language.

English, Chinese, Italian, Portuguese, French, Spanish, German and Japanese: the verbs a clause may
start with, the words that keep it an imperative (politeness, connectors, never/always), triggers
and scopes, hedges, vague advice, and the subjects of a description. Latin-script entries are
casefolded and accent-free ("instálalo" and "instalalo" are one entry); CJK entries are as written.
"""

from __future__ import annotations

import re

__all__ = ["words"]


def words(spec: str) -> str:
    """A whitespace-separated word list → an alternation, longest first (so 'rerun' beats 're')."""
    items = sorted({w.replace("_", " ") for w in spec.split()}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in items)


# --- Latin-script tables (accent-free, lowercase) -----------------------------------------------

VERBS_EN = """
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
take say mask redact paste hide
"""
VERBS_IT = """
usa usare esegui leggi scrivi apri chiudi inserisci aggiorna aggiungi rimuovi elimina cancella
controlla verifica rispondi dai cita riprova metti tieni mantieni evita preferisci chiedi installa
lancia avvia crea copia salva indica includi segui attendi aspetta mostra riporta esporta allega
invia manda riassumi traduci formatta elenca annota registra riavvia ripristina conferma fornisci
inizia comincia termina scegli imposta blocca limita separa ordina raggruppa segnala avvisa salta
carica scarica pubblica rilascia consulta specifica usala usalo
incolla maschera nascondi oscura
"""
VERBS_PT = """
use usa execute executa rode roda escreva leia abra feche insira atualize adicione remova apague
exclua verifique confira responda cite tente coloque mantenha evite prefira pergunte peca instale
crie copie salve indique inclua siga espere aguarde mostre exporte anexe envie faca comece termine
liste registre traduza resuma formate reinicie restaure confirme forneca escolha defina bloqueie
limite separe ordene agrupe avise pule carregue baixe publique consulte informe especifique
cole mascare oculte anote teste documente
"""
VERBS_FR = """
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
affiche affichez masque masquez colle collez informe informez
"""
VERBS_ES = """
usa usad ejecuta ejecute escribe escriba lee lea abre abra cierra cierre inserta actualiza anade
agrega elimina borra verifica comprueba revisa responde responda cita reintenta pon ponga manten
mantenga evita prefiere pregunta pide instala crea copia guarda indica incluye sigue espera muestra
exporta adjunta envia manda empieza comienza termina resume traduce formatea anota registra
reinicia restaura confirma proporciona elige define limita separa ordena agrupa avisa salta carga
descarga publica lanza consulta especifica
informa pega oculta enmascara
"""
VERBS_DE = """
verwende benutze nutze nutz fuhre fuhr schreibe schreib lies offne schliesse fuge trage entferne
losche prufe pruf uberprufe kontrolliere antworte gib nenne zitiere wiederhole setze halte vermeide
bevorzuge frage frag installiere erstelle kopiere speichere folge warte zeige exportiere hange
sende schicke starte beginne fasse ubersetze formatiere notiere protokolliere aktualisiere stelle
lege bestatige wahle definiere begrenze trenne sortiere gruppiere melde warne uberspringe lade
veroffentliche behalte gib_an runde markiere
zeig berichte nimm mach lass maskiere teste baue dokumentiere
"""
# German rules put the verb last, as an infinitive ("`--dry-run` zuerst verwenden"): the imperatives
# above made infinitives, with a separable prefix ("ausführen") or "zu" ("auszuführen") allowed.
DE_INFINITIVE = (r"(?:an|aus|ab|auf|ein|mit|nach|vor|zuruck|weg|hoch|durch|um|fest|bereit|dar)?(?:zu)?(?:"
                 + words(" ".join(w + ("n" if w.endswith("e") else "en")
                                  for w in VERBS_DE.split() if "_" not in w)
                         + " lesen geben nehmen machen lassen zeigen")
                 + r")")
# Verbs a clause may start with, any language; Romance clitics ("installalo", "installe-le").
VERB = (r"(?:re-?)?(?:" + words(" ".join([VERBS_EN, VERBS_IT, VERBS_PT, VERBS_FR, VERBS_ES,
                                             VERBS_DE])) + r")"
         r"(?:-?(?:lo|la|li|le|ne|gli|glielo|los|las|les|o|a|os|as|lui|en|y|mi|me|te|ci))?\b")
# The words before the verb that keep it an imperative: politeness, connectors, adverbs, negation.
LEAD = words("""
please per_favore por_favor s'il_te_plait s'il_vous_plait bitte so then and also instead otherwise
e y et und dann poi quindi entao donc puis luego entonces altrimenti sinon sonst senao
always never only first just sempre mai solo prima nunca so primeiro toujours jamais seulement
d'abord siempre primero immer nie niemals stets nur zuerst erst
do_not don't non nao ne no
""")
# "Remember to run …", "lembre-se de rodar …": the frame is the imperative, any verb may follow.
REMIND = words("""
remember_to don't_forget_to do_not_forget_to make_sure_to be_sure_to ricordati_di ricorda_di
non_dimenticare_di lembre-se_de nao_esqueca_de n'oublie_pas_de no_olvides_de no_olvides
vergiss_nicht
""")
NEG_INF = (r"(?:non|nao)\s+\w+(?:are|ere|ire|ar|er|ir)\b"
           r"|non\s+\w+(?:ar|er|ir)(?:lo|la|li|le|ne|ci|vi|si|gli|glielo)\b")
# Spanish negative imperatives use the subjunctive ("no uses"): listed, since "no" is English too.
NEG_ES = r"no\s+(?:" + words("""
uses pongas ejecutes modifiques cambies borres elimines hagas escribas instales subas envies
compartas incluyas abras toques reintentes olvides agregues anadas publiques guardes muestres
confirmes respondas des digas pidas inventes asumas mezcles superes excedas sobrepases pases
""") + r")\b" + r"|no\s+\w+(?:es|as)\s+(?:nunca|jamas)\b"
# French declaratives need a subject before "ne"; a clause opening with "ne … pas/jamais" is an
# imperative whatever its verb ("ne dépasse jamais 5 puces").
NEG_FR = (r"n(?:e\s+|')(?:(?:l'|m'|t'|s'|y\s+|en\s+|(?:le|la|les|lui|leur|me|te|se)\s+)\s*)*"
          r"\w+\s+(?:pas|jamais|plus|rien|aucune?|personne)\b")
# "dê"/"dé"/"da" (give) lose their accent to collide with "de"/"da" (of): matched with the
# accent and only before an article or an always-word.
GIVE = re.compile(r"^(?:dê|dé|dá|da|dai|dà)\s+(?:sempre|siempre|primero|prima|primeiro|a|o|la|el|"
                   r"il|le|los|las|os|as|un|una|um|uma)\b", re.I)
# a clause that is only commands run one after another ("`git fetch` puis `git rebase`")
THEN = words("then and puis et dann und poi e depois luego y")
MODAL = words("""
you_must you_should you_need_to you_have_to you_shall the_agent_must the_agent_should
the_assistant_must the_assistant_should agents_must we_must
devi bisogna occorre si_deve voce_deve deves e_preciso precisa il_faut tu_dois vous_devez
debes hay_que tienes_que du_musst man_muss du_sollst
""")
# A never/always word heading a clause is an imperative form by itself ("Never log API keys").
ALWAYS_NEVER = words("""
always never don't do_not sempre mai nunca toujours jamais siempre immer nie niemals stets nicht
""")
NOT_WHENEVER = r"(?!\s+(?:que|che)\b)"
TRIGGER = words("""
when whenever if before after once unless while until during each_time every_time as_soon_as
in_case on_every for_every
quando se prima_di prima_che dopo ogni_volta appena finche mentre in_caso salvo
antes_de antes_que depois_de depois_que apos ao sempre_que assim_que enquanto ate caso
lorsque lorsqu quand si s'il avant_de avant apres chaque_fois des_que pendant tant_que sauf
cuando antes despues_de al cada_vez siempre_que en_cuanto mientras hasta
wenn falls bevor vor nach nachdem sobald wahrend solange bei
without senza sem sans sin ohne
""")
SCOPE = words("""
in_this in_the in_every in_each in_all in_our in_your in_any in_ci on_main on_every for_this
for_the for_every for_each for_all for_any within inside across per
in_questo in_questa nel nella nei negli per_le per_i per_il per_la per_ogni per_questo per_questa
neste nesta nestes em_relatorios em_todo em_cada para_este para_esta para_os para_as para_o para_a
dans_ce dans_cette dans_les dans_le dans_la pour_les pour_le pour_la pour_ce pour_chaque pour_tout
en_este en_esta en_los en_las en_el en_la en_cada para_las para_los para_el para_la para_cada
every each ogni cada chaque jeden jede jedem jeder
in_diesem in_dieser in_diesen im fur_jeden fur_jede fur_alle fur_das fur_die fur_den bei
""")
HEDGE = words("""
might may maybe perhaps possibly probably could would_be it'd_be seems seem seemed try_to tries_to
ideally somewhat kind_of sort_of
forse potrebbe potrebbero sembra sembrano magari probabilmente sarebbe cerca_di prova_a
talvez pode_ser poderia poderiam parece parecem provavelmente seria
peut-etre pourrait pourraient semble semblent probablement serait il_vaudrait essaie_de essayez_de
quizas quiza tal_vez podria podrian parecen probablemente intenta_ser trata_de
vielleicht konnte konnten scheint scheinen wahrscheinlich ware eventuell moglicherweise versuche
""")
VAGUE = words("""
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
stare_attenti stare_attento essere_prudenti ter_cuidado ser_cuidadoso etre_prudent etre_prudents
faire_attention tener_cuidado ser_prudente vorsichtig_sein aufpassen
""")
# A skill may state where a concrete thing is or what it needs ("the token lives in `secret/app`",
# "a `DROP TABLE` needs the user's yes"): facts its steps rely on, unlike "`x` is slow"
WHERE_NEEDS = words("""
lives live is_kept are_kept is_stored are_stored sits sit needs need requires require belongs belong
sta stanno si_trova si_trovano vive vivono richiede richiedono serve servono
fica ficam esta estao mora vivem exige exigem precisa precisam requer
est_dans sont_dans se_trouve se_trouvent vit vivent necessite necessitent
estan viven se_guarda se_guardan requiere requieren necesita necesitan
liegt liegen steht stehen braucht brauchen erfordert erfordern gehort gehoren
""")
ZH_JA_WHERE_NEEDS = "存放在|放在|位于|保存在|需要|にある|に置いてある|に保存されて|が必要|を必要と"
# "Test more." / "testare di più": a verb whose only object is "more".
VAGUE_TAIL = r"\b(?:more|less|harder|di\s+piu|mais|davantage|plus|mas|mehr)\s*[.!]?\s*$"
SUBJECT_USER = words("""
the_user the_users users user l'utente all'utente gli_utenti o_usuario os_usuarios ao_usuario
l'utilisateur les_utilisateurs el_usuario al_usuario los_usuarios der_nutzer die_nutzer dem_nutzer
der_benutzer der_user
""")
SUBJECT_AGENT = words("""
the_agent the_agent's the_assistant the_model answers the_answers l'agente le_risposte o_agente
as_respostas l'agent les_reponses el_agente las_respuestas der_agent die_antworten
""")
SUBJECT_SELF = words("we i'm tendo costumo j'oublie je j' nous suelo ich wir") + (
    r"|i(?=\s+(?:am|was|have|had|will|would|can|could|do|did|don't|often|usually|always|never|"
    r"sometimes|tend|like|prefer|think|forget|forgot|need|want|feel|keep|made|make|broke|ran|wrote|"
    r"just|also|really|should|must)\b)")
PAST = words("""
yesterday ago last_week last_time was were failed happened took had did discussed created corrected
ieri ha_corretto e_fallita e_fallito ontem falhou corrigiu hier a_echoue a_corrige ayer fallo
corrigio gestern fehlgeschlagen korrigiert
""")
# "Report generation failed": a verb-looking head followed by a finite verb is a noun phrase.
FINITE_EARLY = re.compile(r"^\S+(?:\s+\S+)?\s+(?:is|are|was|were|has|have|had|failed|took|"
                           r"happened|seems|looks|helps|works|fails|breaks|takes|needs|returns|"
                           r"causes|happens|gets|"
                           r"goes|comes|times\s+out|crashes|hangs)\b")

# --- CJK tables ---------------------------------------------------------------------------------

ZH_STRONG = "总是|始终|一律|永远不要|永远|绝不|绝对不要|不要|别|切勿|禁止|务必|必须|一定要|最多|至少|只用|只能|应当|应该"
ZH_VERBS = ("使用|用|运行|执行|打开|填入|填写|检查|保留|等待|阅读|读|修改|写|回复|回答|列出|提交|安装|删除|"
             "添加|更新|引用|确认|记录|询问|问|给出|把|将|附上|导出|复制|发送|保存|标注|注明|遵循|采用|避免|"
             "跳过|重试|报告|告诉|创建|新建|生成|统一|先|加上|说明")
ZH_LEAD = "请|然后|并且|并|再|先|就|也|都|如实|直接|立即|立刻|马上|只|仅|优先|总是|始终|一律"
ZH_TRIGGER = ("时[，,]|时候|如果|若|假如|要是|在.{0,24}?(?:之前|以前|之后|以后|前|后|时|中)|每次|每当|遇到|"
               "一旦|除非|之前|之后|前[，,]|后[，,]|对于|针对")
ZH_HEDGE = "也许|可能|似乎|或许|大概|好像|看起来|不妨|尽量"
ZH_VAGUE = "小心|注意|记住|牢记|更好|更有条理|做得更|很重要|用心|谨慎"
ZH_SUBJECT = {"user": "用户|使用者", "agent": "代理|助手|回答", "self": "我"}

JA_STRONG = "必ず|常に|決して|絶対に|いつでも|てはいけない|てはならない|ないこと|禁止"
JA_END = r"(?:こと|ください|下さい|せよ|しろ|なさい|ないで|べし|べきだ|べき)$"
JA_TRIGGER = ("てから|でから|ときは|時は|ときに|とき、|場合は|場合に|場合、|前に|後は|後に|後、|際は|際に|たら|なら|には|"
               "たびに|ごとに|までに|では|せずに|ずに")
JA_HEDGE = "かもしれ|だろう|でしょう|ようだ|ようです|らしい|ほうがいい|方がいい|かも|と思う|みたい"
JA_VAGUE = "気をつけ|気を付け|注意|忘れないよう|もっと|うまく|良いコード|しっかり|きちんと|丁寧に"
JA_SUBJECT = {"user": "ユーザー|利用者", "agent": "エージェント|回答", "self": "私|僕"}
