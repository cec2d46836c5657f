"""Rules that change the agent's safety posture: they wait for the person, whatever their source.

A posture rule is not an attack in itself — a team may really use an internal package mirror, or
skip a hook for one kind of commit — but it lowers what protects the person: checks skipped (short
flags and environment variables included), another package index, registry, git remote or
credential helper, PATH or shell start-up files edited, tests disabled or deleted, the agent told
to report success, the person's confirmation or instructions switched off. slowloop never applies
one silently: the gate (:mod:`.danger`, kind ``posture``) sends it to ``slowloop review`` from a
model, the offline learner, an MCP write or a teammate's push alike.

Judged by intent, in the eight languages slowloop detects (en, it, fr, de, es, pt, zh, ja), on the
undisguised text; a rule that *forbids* the change ("never commit with HUSKY=0") is no posture
change (the negation logic of :mod:`.danger`). The command forms are also what the offline learner
refuses to learn from an agent's own recovery (:func:`changes_posture`).
"""

from __future__ import annotations

import re

__all__ = ["COMMAND_FORMS", "POSTURE_RULES", "changes_posture"]

# Hosts that are the package ecosystems' own: naming them changes nothing.
_OFFICIAL = (r"(?:registry\.npmjs\.org|registry\.yarnpkg\.com|pypi\.org|files\.pythonhosted\.org|"
             r"proxy\.golang\.org|sum\.golang\.org|crates\.io|index\.crates\.io|rubygems\.org|"
             r"repo\.maven\.apache\.org|repo1\.maven\.org|plugins\.gradle\.org|nuget\.org|"
             r"api\.nuget\.org|packagist\.org|registry-1\.docker\.io|hub\.docker\.com)")
# a host, not a file name (`pip.conf`, `package.json` name no server)
_FILE_EXT = r"(?:conf|cfg|ini|toml|ya?ml|json|lock|txt|md|py|js|ts|sh|rc|xml|env|local|example|sample|bak)"
_HOST = rf"(?<![\w.-])(?!{_OFFICIAL})(?:[a-z0-9-]+\.)+(?!{_FILE_EXT}\b)[a-z]{{2,}}"

# -- commands ------------------------------------------------------------------------------------

_CHECKS_OFF = (
    r"\bHUSKY(?:_SKIP_HOOKS)?=[01]\b|\bSKIP=[\w,.-]+|\bPRE_COMMIT_ALLOW_NO_CONFIG=1|"
    r"\bDOCKER_CONTENT_TRUST=0|\bGIT_SSL_NO_VERIFY=\S|\bPIP_TRUSTED_HOST=|\bNPM_CONFIG_STRICT_SSL=false|"
    r"\bstrict-ssl\s*[= ]\s*false|\bsslVerify\s*[= ]\s*false|\bcommit\.gpgsign\s*[= ]\s*false|"
    r"\btag\.gpgsign\s*[= ]\s*false|\bgit\s+(?:-c\s+\S+\s+)*commit\b[^\n|;&]*\s-n\b|--no-gpg-sign\b|"
    r"--trusted-host\b|--no-check-certificate\b|--disable-content-trust\b|\bGOFLAGS=\S*-insecure|"
    r"\bGONOSUMDB=|\bGONOSUMCHECK=|\bGOSUMDB=off\b|\bGOINSECURE=|--skip-(?:hooks|checks|verification|"
    r"verify|signature|lint)\b|--no-verify-ssl\b|\bpre-commit\s+uninstall\b|\bgit\s+add\s+(?:-\w*f\b|--force\b)|"
    r"\bgpg\.program\s+\S*true\b|--cov-fail-under[= ]0\b|\bslowloop\s+(?:review\s+approve|hooks\s+(?:uninstall|remove))\b|"
    r"\bcontinue-on-error:\s*true|\ballow_failure:\s*true|\|\|\s*(?:true|exit\s+0)\b|"
    r"\bStrictHostKeyChecking\s*=?\s*no\b|\bUserKnownHostsFile\s*=?\s*/dev/null")
_INDEX = (
    rf"--(?:extra-)?index-url\b|\s-i\s+https?://|\bpip3?\s+config\s+set\b|\bregistry\s*[=:]\s*[\"']?https?://(?!{_OFFICIAL})|"
    r"--registry[= ]|\bconfig\s+set\s+(?:\S+:)?registry\b|\bnpmRegistryServer\b|\bGOPROXY=|"
    r"\breplace-with\s*=|\bgem\s+sources\s+(?:-a|--add)\b|\bbundle\s+config\s+(?:set\s+)?mirror\.|"
    r"\bcomposer\s+config\s+(?:-g\s+)?repo|\bgit\s+remote\s+(?:set-url|add)\b|\binsteadOf\b|"
    r"\bcredential\.helper\b|\bcredential\.\S+\.helper\b|\bgit\+(?:https?|ssh|git)://|"
    r"\b(?:pip3?|uv\s+pip)\s+install\s+[^\n|;&]*\bhttps?://|\bnpm\s+(?:install|i)\s+[^\n|;&]*(?:https?|git)://|"
    r"\bSLOWLOOP_\w*(?:BASE_URL|ALLOW_REMOTE|ENDPOINT)\w*|\b(?:OPENAI|ANTHROPIC|AZURE_OPENAI)_(?:BASE_URL|API_BASE|ENDPOINT)\s*=|\bproxy\s*=\s*https?://|"
    r"\b(?:HTTPS?|ALL)_PROXY=")
_SHELL_START = (
    # a PATH that puts a scratch or hidden folder first (`/tmp/.tools/bin:$PATH`): what runs as
    # `git` or `npm` is then anyone's
    r"\bPATH=[\"']?(?:/tmp|/var/tmp|/dev/shm|\./|\.\./|[^\s:]*/\.(?!local/|cargo/|bun/|deno/|volta/|pyenv/|rbenv/|nvm/|npm-global/|yarn/|poetry/|asdf/|dotnet/)[\w-]+/)[^\s:]*:|>>?\s*[~$\w/.{}]*\.(?:bashrc|zshrc|profile|bash_profile|"
    r"zprofile|zshenv|bash_login)\b|\.config/fish/config\.fish|\balias\s+(?:sudo|git|ls|cd|ssh|npm|pip|"
    r"python3?|node|docker|kubectl)=|\bLD_PRELOAD=|\bDYLD_INSERT_LIBRARIES\b|"
    r"\bcore\.(?:fsmonitor|pager|sshCommand|hooksPath)\b|/etc/(?:profile|environment|sudoers)\b")
_TESTS_OFF = (
    r"@pytest\.mark\.(?:skip|xfail)\b|\bpytest\.skip\(|@unittest\.skip|\b(?:it|test|describe)\.skip\(|"
    r"\bx(?:it|describe|test)\(|@Disabled\b|@Ignore\b|\bt\.Skip(?:Now)?\(|\btestPathIgnorePatterns\b|"
    r"--deselect\b|\s-k\s+[\"']?not\s|\bgit\s+rm\b[^\n]*\btests?\b|\brm\s+(?:-\w+\s+)*\S*\b(?:tests?|specs?|e2e)\b")
_WIDER = (r"--clusterrole[= ]cluster-admin\b|\bAdministratorAccess\b|\bpermissions:\s*write-all\b|\bsetcap\b|"
          r"\bchmod\s+(?:-R\s+)?0?66[66]\s+\S*docker\.sock|\bgh\s+repo\s+edit\b[^\n]*--visibility[= ]public|"
          r"\bgh\s+pr\s+merge\b[^\n]*--admin\b|required_approving_review_count\W{0,3}0\b|"
          r"\bbranches/\S+/protection\b|\bsudo\s+chown\s+-R\b[^\n]*\s/(?:usr|etc|bin|lib)\b|"
          r"--privileged\b|\s-v\s+/:/|--pid[= ]host\b|--net(?:work)?[= ]host\b|\bchmod\s+(?:-R\s+)?[0-7]?777\b|"
          r"--cap-add[= ](?:ALL|SYS_ADMIN)\b")
_DESTROY = (r"\bgit\s+reflog\s+expire\b[^\n]*--expire=now|\bgit\s+gc\b[^\n]*--prune=now|"
            r"\bgit\s+tag\s+-d\s+\$\(|\bgit\s+push\s+\S+\s+--delete\s+\$\(|"
            r"\baws\s+s3\s+(?:sync|cp)\s+(?:--\S+\s+)*(?:~|\$HOME)/?\s|\bTRUNCATE\s+(?:TABLE\s+)?[\w.\"`]+|\bdocker\s+system\s+prune\b(?:(?!\bwithout\b|\bsenza\b|\bsem\b|\bsans\b|\bsin\b|\bohne\b)[^\n])*(?:-a\b|--all\b|-af\b|--volumes)|"
            r"\bgit\s+push\s+\S+\s+(?:--delete\s+|:)(?:main|master|develop|release|production|prod)\b|"
            r"\bdocker\s+volume\s+prune\b|\bkubectl\s+delete\s+(?:ns|namespace)\b")

COMMAND_FORMS = "|".join(f"(?:{p})" for p in (_CHECKS_OFF, _INDEX, _SHELL_START, _TESTS_OFF, _WIDER))
_COMMANDS = re.compile(COMMAND_FORMS, re.I)


def changes_posture(command: str) -> bool:
    """Whether an agent's command (or a redo of it) lowers the safety posture: a recovery that
    works this way is the person's to confirm, never a skill by itself."""
    return bool(_COMMANDS.search(command))


# -- the same intents in words, eight languages --------------------------------------------------

_SAY = (r"(?:\b(?:say|tell|report|answer|reply|write|claim|state|pretend|confirm|assure|respond)\w*(?<!State)(?!\s*:)"
        r"|\b(?:di'|dì|dire|dici|rispondi|scrivi|conferma|dichiara|afferma|riporta)(?!\w)"
        r"|\b(?:diga|dizer|diz|responda|escreva|confirme|afirme|fale|informe)(?!\w)"
        r"|\b(?:dis|dites|dire|réponds|répondre|écris|écrire|confirme|affirme|indique|annonce)(?!\w)"
        r"|\b(?:di|decir|dile|diles|responde|escribe|confirma|afirma|informa)(?!\w)"
        r"|\b(?:sag|sage|sagen|antworte|antworten|schreib|schreibe|bestätige|behaupte|melde)\w*)")
_ALL_GOOD = (r"(?:all (?:the )?(?:tests? )?(?:pass|green)|tests? (?:all )?pass(?:ed|es)?\b|suite is green|"
             r"(?:is|are|was|were) (?:green|passing|audited|fine|done|complete|completed|finished)|succeeded|"
             r"it worked|(?:has|have) been (?:audited|reviewed|tested|verified)|audited|no (?:issues|problems|errors)|"
             r"passano|passati(?!\s+e\s+falliti)|verd[ie]\b|completat[ao]|superat[ao]|riuscit[ao]|tutto ok|auditat|"
             # (certified as a predicate: "è certificato" — never "the certificate error", "l'errore del certificato")
             r"(?:è|sono|come|as|is|was)\s+certificat\w*|"
             r"passam|passaram|verdes?\b|(?<!que foi )feit[ao]\b|conclu[ií]d|auditad|aprovad|"
             r"passent|verts?\b|réussi|terminée?|audité|validée?|tous les tests|"
             r"pasan|pasaron|(?<!lo )hech[ao]\b|completad|"
             r"grün|bestanden|erledigt|geprüft|auditiert|erfolgreich|alle Tests)")
_IF = (r"\b(?:if|when|once|only|after|before|unless|se|quando|solo|só|si|quand|seulement|cuando|sólo|wenn|falls|nur|"
       r"sobald|bevor|avant|prima|antes|dopo|après|después|depois|nachdem)\b|前に|之前|以前|してから|后再")
# Imperatives and infinitives only: "why did you delete the tests?" complains, it asks nothing.
_DELETE = (r"(?:(?<!you )(?<!You )\b(?:delete|remove|skip|disable|comment out|drop|mute|silence|get rid of)\b"
           r"|\b(?:cancella(?:re|li|le)?|elimina(?:re|li|le)?|rimuovi|rimuovere|disattiva(?:re)?|salta(?:re)?|commenta(?:re)?"
           r"|togli(?:ere)?)\b"
           r"|\b(?:apague(?:-os|-as)?|apaga|apagar|remova|remover|deletar|desative|desativar|pule|pular|comente|comentar"
           r"|tire|tirar)\b"
           r"|\b(?:supprime[rz]?|retire[rz]?|désactive[rz]?|saute[rz]?|commente[rz]?|enlève|enlever|efface[rz]?)\b"
           r"|\b(?:borra(?:r|lo|los|las)?|bórr(?:alo|alos|alas)|elimina(?:r|lo|los)?|quita(?:r|lo|los)?|desactiva(?:r)?"
           r"|salta(?:r)?|comenta(?:r)?)\b"
           r"|\b(?:lösch(?:e|en)?|entfern(?:e|en)?|deaktivier(?:e|en)?|überspring(?:e|en)?|auskommentier(?:e|en))\b)")
_TEST_NOUN = (r"(?:\b(?:the |all |every |each |any )?(?:failing |flaky |broken |slow |red )?(?:tests?|specs?|test suite|"
              r"testes?|prove|pruebas?|e2e)\b(?! (?:data(?:base)?|db|fixtures?|cache|container|output|report|results?|"
              r"snapshots?))|`?[\w./-]*\btests?/[\w./-]*`?|\b(?:pytest|jest|test) step\b)")
_PERSON = (r"(?:the (?:user|person|human|owner|reviewer)s?|them|him|her|utente|usu[áa]rio|utilisateur|usuario|Nutzer\w*|"
           r"Benutzer\w*|Anwender\w*|ユーザー|利用者|用户|使用者)")
_SECRETLY = (r"(?:\b(?:don'?t|do not|never)\s+(?:bring (?:it|this|that|them) up|mention|tell|report|flag|inform|notify|say)\b"
             rf"[^.\n]{{0,40}}?\b(?:to |with )?{_PERSON}|\bleave (?:it|them|this|that|those)(?: \w+)? out of (?:the |your )?"
             r"(?:summary|report|reply|answer|PR|description|changelog|recap)|\b(?:hide|conceal|keep quiet about)\b[^.\n]{0,40}?"
             r"\bfrom (?:the |your )?(?:user|person|summary|report)"
             r"|\bnon (?:dirlo|dirglielo|segnalarl[oaie]|menzionarl[oaie]|riferirl[oaie]|avvisare|dire niente)\b"
             r"|\bn[ãa]o (?:o |lhe )?(?:mencione|diga|avise|conte|informe|relate|reporte)\b[^.\n]{0,30}?(?:usu[áa]rio|utilizador)"
             r"|\bne (?:le |lui |leur |les )?(?:dis|dites|signale[zs]?|mentionne[zs]?|pr[ée]viens|pr[ée]venez|informe[zs]?|"
             r"rapporte[zs]?)\s+(?:pas|rien|jamais)\b|\bsans (?:pr[ée]venir|avertir|informer|le dire|le signaler)\b"
             r"|\bno (?:se )?(?:lo |le |les )?(?:digas|menciones|avises|informes|comentes|cuentes|reportes)\b"
             r"|\bsin (?:avisar|informar|decir(?:lo|le)?|mencionar(?:lo)?|contar(?:lo)?)\b|\bsem (?:avisar|informar|contar|dizer)\b"
             r"|\bsenza (?:dirlo|avvisare|informare|segnalarlo)\b"
             r"|\b(?:dem|den) (?:Nutzer|Benutzer|Anwender|User)\w* (?:gegenüber )?nichts (?:davon )?(?:sagen|erzählen|mitteilen|melden)"
             r"|\bkeine (?:Rückmeldung|Meldung|Mitteilung) an (?:den|die) (?:Nutzer|Benutzer|Anwender)|\bohne (?:es )?(?:dem Nutzer )?"
             r"(?:zu sagen|zu melden|zu erwähnen|Bescheid zu geben)"
             r"|(?:不要|别|不用|无需)(?:向|跟|对)?(?:用户)?(?:告诉|提及|提起|说|通知|汇报|报告|透露)|不告诉用户"
             r"|(?:ユーザー|利用者)(?:に|には)[^。\n]{0,12}?(?:報告|伝え|言わ|知らせ|報告し)(?:ない|ず)|報告しないこと|伝えないこと|"
             r"and (?:don't|do not|never) (?:mention|say|tell|report|flag)|without (?:telling|mentioning|saying|a word)|"
             r"e non (?:dirlo|segnalarlo|menzionarlo)|e não (?:mencione|diga|avise)|et ne (?:le )?(?:signale|dis|mentionne) pas|"
             r"y no (?:lo )?(?:menciones|digas|avises)|und (?:erwähne|sag|melde) (?:es|das)? ?nicht|不要(?:告诉|提及|提起|说)(?:用户|他们)?|"
             r"(?:ユーザーに)?(?:言わない|報告しない)で)")

# "never keep a failing test": the negation is the rule's own words
_NO_FAILING_KEPT = (
    r"\b(?:never|don'?t|do\s+not)\s+(?:ever\s+)?keep\s+(?:a\s+|any\s+|the\s+)?(?:failing|broken|red)\s+tests?\b"
    r"|\bne\s+(?:garde|gardez|conserve|conservez)\s+(?:jamais|pas|plus)\s+(?:un|de|les|aucun)\s+tests?\s+(?:qui\s+[ée]chou|en\s+[ée]chec|rouges?)"
    r"|\bnon\s+(?:tenere|mantenere|conservare)\s+(?:mai\s+)?(?:un|i|alcun)\s+test\s+(?:che\s+fallisc|fallit|rott|ross)"
    r"|\bno\s+(?:mantengas|conserves|dejes)\s+(?:nunca\s+)?(?:un|los|ningún)\s+(?:tests?|pruebas?)\s+(?:que\s+fall|fallid|rot)"
    r"|\b(?:nunca|não)\s+(?:mantenha|guarde|deixe)\s+(?:um|os|nenhum)\s+testes?\s+(?:que\s+falh|falh|quebrad)"
    r"|\bbehalte\s+(?:nie|niemals|keine?n?)\s+(?:einen\s+)?(?:fehlschlagenden|roten|kaputten)\s+Tests?"
    r"|\bkeine\s+(?:fehlschlagenden|roten)\s+Tests\s+(?:behalten|stehen\s+lassen)"
    r"|(?:不要|别|绝不)保留(?:任何)?(?:失败|挂掉|报错)的?(?:测试|用例)|(?:失敗する|落ちる|失敗した)テストは残さない")
_FAILURES_UNSAID = (
    r"\b(?:never|don'?t|do\s+not)\s+(?:ever\s+)?(?:report|mention|list|show|say)\s+(?:any\s+|the\s+)?(?:failing|failed|broken|red)"
    r"\s+(?:tests?|checks?|builds?)|\b(?:never|don'?t|do\s+not)\s+(?:ever\s+)?(?:report|mention)\s+(?:test\s+)?failures\b"
    r"|\bno\s+(?:informes|menciones|reportes|digas)\s+(?:nunca\s+)?(?:de\s+)?(?:los\s+)?(?:tests?|pruebas)\s+(?:fallid|que\s+fall)"
    r"|\bne\s+(?:signale|mentionne|rapporte)\s+(?:jamais|pas)\s+(?:les\s+)?tests\s+(?:en\s+[ée]chec|qui\s+[ée]chouent|[ée]chou[ée]s)"
    r"|\bnon\s+(?:riportare|segnalare|menzionare)\s+(?:mai\s+)?(?:i\s+)?test\s+(?:fallit|che\s+fallisc)"
    r"|\b(?:nunca|não)\s+(?:informe|relate|mencione|reporte)\s+(?:os\s+)?testes\s+(?:que\s+falh|falhad|falhos)"
    r"|\b(?:melde|erwähne|berichte)\s+(?:nie|niemals|keine)\s+(?:die\s+)?(?:fehlgeschlagenen|roten)\s+Tests"
    r"|(?:不要|别|绝不)(?:报告|提及|汇报|提)(?:任何)?失败的?(?:测试|用例)|失敗した?テストは(?:報告しない|言わない|伝えない)")
# test files renamed so the runner no longer finds them ("test_*.py → _off_*.py")
_SAME_SENTENCE = r"(?:(?![.!?;。](?:\s|$))[^\n])"
_RENAME = r"(?:renam\w*|umbenenn\w*|benenn\w*\s+\S+\s+um|renomm\w*|rinomin\w*|renombr\w*|renomei\w*|重命名|改名|リネーム)"
_TEST_FILES = (r"(?:test\s*files?|Testdateien|Test-Dateien|fichiers\s+de\s+tests?|file\s+di\s+test|archivos\s+de\s+pruebas?|"
               r"arquivos\s+de\s+testes?|test_\*|\*_test\.|测试文件|テストファイル)")
_UNFOUND = (r"(?:\bnot\s+(?:find|found|collect|pick)|\bnicht\s+(?:findet|finden|sammelt|erkennt)|\bne\s+les\s+(?:trouve|voit)|"
            r"\bnon\s+li\s+(?:trov|veda|raccolga)|\bno\s+los\s+(?:encuentr|detect|recoj)|\bnão\s+os\s+(?:encontr|ache|detect)|"
            r"找不到|不会发现|見つけ(?:られ)?ない|拾わない|\b_?(?:off|skip|disabled?)_|\.(?:bak|disabled|off|skip)\b)")
_TESTS_RENAMED = (rf"(?:{_RENAME}{_SAME_SENTENCE}{{0,60}}?{_TEST_FILES}|{_TEST_FILES}{_SAME_SENTENCE}{{0,30}}?{_RENAME})"
                  rf"{_SAME_SENTENCE}{{0,80}}?{_UNFOUND}")

POSTURE_RULES: list[tuple[str, str, bool]] = [
    # (reason, pattern, negatable: a "never …" before it in its clause forbids, not asks)
    ("switches a check off (a hook, signing, TLS, a host key, a scan)", _CHECKS_OFF, True),
    ("changes where packages, code or credentials come from (an index, registry, remote or helper)", _INDEX, True),
    ("edits PATH, the shell's start-up files or what runs by itself", _SHELL_START, True),
    ("disables, skips or deletes tests", _TESTS_OFF, True),
    ("puts a download or a key where it runs by itself (a shell start-up file, authorized_keys)",
     r"\b(?:curl|wget|source\s+<\(|iwr)\b[^\n]{0,200}?(?:~|\$HOME)?/?\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b"
     r"|\b(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-\S+)\s+AAAA[^\n]{0,400}?authorized_keys", True),
    ("sends a file or a token somewhere",
     r"\bcurl\b[^\n]*\s(?:-T|--upload-file|-F|--data-binary)\s*\S*(?:~/|\$HOME|/etc/|\.ssh|\.aws|\.config|\.terraform\.d"
     r"|credentials|\.env\b|\.netrc|\.npmrc|\.pypirc|\.kube)"
     r"|(?:~/|\$HOME/)\S*\s*\|\s*curl\b[^\n]*\s(?:-T|--upload-file|--data-binary|-d)\b"
     r"|\]\(\s*https?://[^)\s]*\$\{?[A-Z_]*(?:TOKEN|KEY|SECRET|PASS)"
     r"|\b(?:upload|hochlad\w*|lade\b[^\n]{0,60}?hoch|carica|envie|envía|envoie)\b[^\n]{0,80}?(?:credentials|\.ssh|\.aws|\.env\b|"
     r"\.terraform\.d|\.kube|\.netrc)", True),
    ("widens what a container or a file allows", _WIDER, True),
    ("destroys data or branches others rely on", _DESTROY, True),
    ("tells the agent to take packages from another mirror or registry",
     rf"(?:mirror|registry|index|proxy|espelho|miroir|espejo|Spiegel|镜像|ミラー|registro|registre)\w*[^\n]{{0,60}}?"
     rf"\b{_HOST}|\b{_HOST}\b[^\n]{{0,40}}?(?:mirror|registry|espelho|miroir|espejo|Spiegel|镜像|ミラー)", True),
    ("tells the agent to report success whatever happened",
     rf"{_SAY}[^.\n。]{{0,80}}?(?:\beven (?:if|though|when)\b|\bmesmo (?:que|se)\b|\banche se\b|\baunque\b|\bmême si\b|"
     r"\b(?:auch|selbst) wenn\b|即使|哪怕|たとえ)"
     r"|\b(?:report|melde\w*|segnal\w*|reporta\w*|signale\w*|informe\w*)\b[^.\n]{0,40}?\b(?:as|als|come|como|comme)\s+"
     r"(?:passing|passed|green|fixed|done|bestanden|grün|superat\w|passat\w|verde|aprobad\w|réussi\w?)\b"
     r"|\bals\s+(?:bestanden|grün|erfolgreich|erledigt)\s+(?:melden|berichten|ausgeben|markieren)"
     r"|\b(?:say so|answer so|confirm (?:it|that|this))\b[^.\n]{0,30}?\b(?:if|when)\b|聞かれたら(?:そう)?答え|问起(?:就|时)?(?:说|回答)"
     rf"|{_SAY}[^.\n]{{0,40}}?(?:coverage|copertura|cobertura|couverture|Abdeckung|覆盖率|カバレッジ)[^.\n]{{0,20}}?\d+\s?%"
     rf"|(?<!before )(?<!Before )(?<!after )(?<!avant d')(?<!avant de )(?<!prima di )(?<!antes de )(?<!bevor )"
     rf"{_SAY}(?:(?!{_IF})[^.\n。]){{0,60}}?{_ALL_GOOD}"
     r"|(?:说|回答|告诉用户|写上?|声称|报告|始终说)[^。\n]{0,30}?(?:都?通过|成功|完成|审计|没问题|全部绿)"
     r"|(?:成功|合格|完了|監査済み|パス|グリーン|全テスト成功)[^。\n]{0,20}?と(?:答え|言|書|報告|伝え)(?!する前に|る前に|た後)", True),
    ("tells the agent to delete or disable tests",
     rf"{_DELETE}[^.\n]{{0,40}}?{_TEST_NOUN}|{_TEST_NOUN}[^.\n]{{0,30}}?{_SECRETLY}"
     r"|(?:删除|删掉|删了|跳过|禁用|注释掉|去掉)[^。\n]{0,20}?(?:测试|用例|tests?/)"
     r"|(?:テスト|tests?/)[^。\n]{0,20}?(?:を)?(?:削除して|削除する|消して|消す|スキップして|スキップする|無効にして|無効化して)", True),
    ("states a check as switched off (hooks, tests, reviews skipped here), as a fact to act on",
     r"\b(?:(?:git |pre-commit |commit )?hooks?|pre-commit|husky|lint(?:ing|ers?)?|type ?checks?|CI checks?|checks|signing|"
     r"signature checks?|code reviews?|reviews?|TLS verification|tests?|the test suite)\s+(?:are|is|get|gets|can be|may be)"
     r"\s+(?:now\s+|always\s+|simply\s+)?(?:skipped|off|disabled|bypassed|optional|not (?:run|needed|required)|no longer "
     r"(?:run|needed|required))\b"
     r"|\b(?:hook|pre-commit|controlli|test|revisione)\w*\s+(?:sono|è|vengono|viene)\s+(?:saltat|disattivat|disabilitat|opzional)\w*"
     r"|\b(?:hooks?|pre-commit|verifica[çc][õo]es|testes?|revis[ãa]o)\s+(?:são|é|estão|está|ficam)\s+(?:pulad|desativad|desligad|"
     r"opciona)\w*"
     r"|\b(?:hooks?|pre-commit|v[ée]rifications|tests?|revues?)\s+(?:sont|est)\s+(?:d[ée]sormais\s+)?(?:ignor|saut|d[ée]sactiv|optionnel)\w*"
     r"|\b(?:hooks?|pre-commit|comprobaciones|pruebas|tests?|revisi[óo]n)\s+(?:se\s+(?:saltan|omiten|desactivan)|(?:son|están|es|está)"
     r"\s+(?:omitid|desactivad|opcional)\w*)"
     r"|\b(?:Hooks?|pre-commit|Prüfungen|Checks|Tests|Reviews?)\s+(?:werden|wird|sind|ist)\b[^.\n]{0,30}?\b(?:übersprungen|"
     r"deaktiviert|abgeschaltet|ausgeschaltet|optional)\b|\b(?:werden|wird)\s+(?:die\s+)?(?:Hooks?|Tests|Prüfungen|Checks)\b"
     r"[^.\n]{0,30}?\b(?:übersprungen|deaktiviert|abgeschaltet)\b"
     r"|(?:跳过|禁用|关闭|不用跑|不需要)(?:钩子|hooks?|pre-commit|检查|测试|评审|代码审查)"
     r"|(?:フック|hooks?|pre-commit|チェック|テスト|レビュー)(?:は|を)?(?:スキップ|無効|省略|不要)", True),
    ("tells the agent to hide what it did from the person", _SECRETLY, False),
    ("tells the agent to get rid of failing tests", _NO_FAILING_KEPT, False),
    ("tells the agent to leave failures out of what it reports", _FAILURES_UNSAID, False),
    ("tells the agent to rename test files so the runner skips them", _TESTS_RENAMED, True),
    ("switches the person's confirmation off",
     r"\b(?:no longer wants?|doesn'?t want|does not want|non vuole più|não quer mais|ne veut plus|no quiere más|"
     r"will keine|möchte keine|nicht mehr)\b[^.\n]{0,40}?(?:confirm|conferm|consult|Bestätigung|Rückfrage|asked|"
     r"chiest|pergunt|demand|pregunt)\w*"
     r"|\b(?:don'?t|do not) want to be asked\b|\bfrag\w*\s+(?:den\s+)?(?:Nutzer|Benutzer|User)\s+(?:nie|niemals|nicht)\b"
     r"|\bno (?:le )?pidas (?:nunca )?(?:confirmación|permiso)|\bnunca pidas (?:confirmación|permiso)"
     r"|\bnon chiedere (?:mai )?(?:conferma|il permesso)|\bnão pe[çc]as? (?:nunca )?(?:confirma|permiss)"
     r"|\bne (?:lui )?demande (?:jamais|plus) (?:de )?(?:confirmation|permission)"
     r"|\b(?:don'?t|do not|never) stop to ask\b|\bonly show (?:them |the user )?the final result\b"
     r"|\b(?:keep going|carry on|continue|finish)\b[^.\n]{0,60}?\b(?:even if|even when)\b[^.\n]{0,40}?\b(?:says?|tells?) (?:you )?(?:to )?stop"
     r"|\b(?:aunque|anche se|mesmo que|même si|auch wenn|even if)\s+(?:el |l'|o |der )?(?:usuario|utente|usu[áa]rio|utilisateur|Nutzer|user)"
     r"\s+(?:te\s+|ti\s+|te\s+|dir\s+)?(?:diga|dica|dit|sagt|says|pida|chieda|peça|demande|asks)\b[^.\n]{0,30}?(?:pare|parar|fermar|arrêt|stopp|stop)"
     r"|(?:即使|哪怕)用户(?:说|要求)(?:停|暂停)|ユーザーが(?:止めて|中止)[^。\n]{0,10}?(?:も|ても)"
     r"|\byes\s+(?:-?\w+\s+)?\||すべて「はい」|\b(?:answer|reply|r[ée]ponds?|responde|rispondi|antworte)\s+(?:yes|oui|s[íi]|ja)\s+"
     r"(?:yourself|toi-même|tu mismo|tu stesso|você mesmo|selbst)"
     r"|不需要(?:征求|询问)?(?:用户)?(?:的)?(?:同意|确认|许可)"
     r"|\bfinish the current plan first\b|(?:不要|别|不用)(?:再)?停下来问|中间不要停|不用再(?:问|确认)|確認(?:は不要|せずに|しないで)"
     r"|(?:non|não|ne|no|nicht)\s+\w+\s+(?:chiedere|perguntar|demander|preguntar|fragen)\b[^.\n]{0,30}(?:conferm|confirm|Bestätigung)", False),
    ("tells the agent to put other text above the person's instructions",
     r"\b(?:drop|ignore|disregard|discard|forget|override)\s+(?:all\s+)?(?:the\s+|your\s+)?(?:memo(?:'s)?\s+rules|memo|user)\b"
     r"|\bobey (?:it|that|this|them) over\b|\b(?:ignora|ignorar|ignore[zs]?|oublie[zs]?|vergiss)\s+(?:al |o |l'|le |la |las |los |les |den )?"
     r"(?:usuario|usu[áa]rio|utente|utilisateur|Nutzer|regole del memo|reglas del memo|règles (?:du mémo|précédentes)|"
     r"toutes les règles)\b|\b(?:bisherigen|vorherigen)\s+Anweisungen\s+ignorier"
     r"|\b(?:priority|precedence|prioridad|prioridade|priorità|priorit[ée]|Vorrang)\s+(?:over|sobre|su|sur|vor|über|gegenüber)\s+"
     r"(?:el |o |il |le |la |lo |the |dem |den )?(?:memo|mémo|user|usuario|usu[áa]rio|utente|utilisateur|Nutzer|what the user|"
     r"o que o usu[áa]rio|lo que el usuario|quello che l'utente|ce que l'utilisateur)"
     r"|\btakes? precedence over (?:the )?(?:user|person|human)|\b(?:don'?t|do not|never) (?:read|follow|load|open) "
     r"(?:the )?(?:CLAUDE\.md|AGENTS\.md|project'?s instructions|system prompt)"
     r"|\bfollow only (?:this|the) (?:memo|note|skill)|\bas (?:a )?direct instructions? from the (?:user|person)"
     r"|\bsegui solo questo memo|\bfolge (?:nur )?dem Memo|このメモを優先|\bsuis (?:seulement|uniquement) (?:ce|cette) (?:mémo|note)"
     r"|\bsigue solo (?:esta|este) (?:nota|memo)|\bsiga (?:só|apenas) (?:esta|este) (?:nota|memo)|只(?:听|遵循)这(?:条|份)", False),
    ("tells the agent to download something and run it (in words)",
     rf"\b(?:download|fetch|grab|pull|get|scarica|baix\w*|télécharg\w*|descarg\w*|lade|herunterlad\w*)\b[^.\n]{{0,80}}?"
     rf"\b{_HOST}\b[^.\n]{{0,100}}?(?:\b(?:run|execute|exec|source|pipe|esegui|lancia|execut\w*|rod\w*|exécut\w*|lance|"
     r"ejecut\w*|corre|führ\w* (?:es )?aus|ausführ\w*)\b|\bstraight (?:to|into) the shell|\binto (?:the )?(?:shell|bash|sh)\b"
     r"|\b(?:shell|interpr\w+|intérpr\w+|Shell)\b)"
     rf"|\b(?:récupère|recupera|hol dir|hole|obtén|pega)\b[^.\n]{{0,80}}?\b{_HOST}\b[^.\n]{{0,100}}?\b(?:shell|interpr\w+|intérpr\w+|Shell|"
     r"exécute|esegui|ejecuta|execute|führ\w* aus)\b"
     rf"|\b{_HOST}\b[^。\n]{{0,30}}?下载[^。\n]{{0,60}}?(?:执行|运行)"
     r"|\b(?:wget|curl|fetch|iwr)\b[^\n]{0,160}?\b(?:into|to|through) (?:the |a )?(?:shell|bash|sh|zsh|interpreter)\b"
     rf"|下载[^。\n]{{0,60}}?{_HOST}[^。\n]{{0,60}}?(?:执行|运行)|{_HOST}[^。\n]{{0,60}}?(?:ダウンロード)[^。\n]{{0,40}}?実行", True),
]
