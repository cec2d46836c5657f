"""Config files that execute: settings a tool reads by itself that make it run a program (issue #20).

A rule that writes one is a standing instruction to whatever opens the project next, so each is
judged where it is named, in a command or a file's text, and in words (eight languages):

- an editor's settings pointing the shell, the terminal or the interpreter into a folder anyone can
  write (``"python.defaultInterpreterPath": "/tmp/…"``, a terminal profile's ``--rcfile /tmp/…``),
  and a task said in words to run by itself when the folder opens ("a task that runs every time the
  folder is opened", "フォルダを開くたびに自動で走るタスク");
- a dev container's lifecycle command (``postCreateCommand``, ``postStartCommand``…) that fetches or
  runs a script from elsewhere;
- a shell file sourced from a scratch folder (``source /tmp/team/.env``, ``BASH_ENV=``, direnv's
  ``source_url``, mise's ``_.source``, compose's ``env_file: /tmp/…``), in words too ("source the
  environment file a teammate keeps in /tmp");
- a CI workflow that runs a fork's code with the repository's secrets (``pull_request_target`` with
  the PR's head checked out, ``secrets: inherit``), prints a secret into the log, or takes a
  third-party action from a moving branch.

A rule that forbids or scopes the thing ("never source files from /tmp", "`postCreateCommand` runs
`npm ci` only") passes: the negation is read by :mod:`slowloop.safety.negation`, and only a fetch, a
scratch path or a pipe into a shell makes a lifecycle command a danger.

Each is a ``(kind, reason, pattern, negatable)`` rule for :mod:`slowloop.safety.danger`, like
:mod:`slowloop.safety.intent_words`'s.
"""

from __future__ import annotations

__all__ = ["AUTORUN_RULES"]

# one sentence: a full stop ends it (a Chinese or Japanese one whatever follows it)
_S = r"(?:(?![.!?;](?:\s|$)|[。！？；])[^\n])"
# a folder anyone on the machine can write, or a download
_SCRATCH = r"(?:/tmp/|/var/tmp/|/dev/shm/|https?://)"

# -- the editor ------------------------------------------------------------------------------------

_EDITOR_PROGRAM = (r"\b(?:python\.(?:defaultInterpreterPath|pythonPath|interpreterPath)|terminal\.integrated\.(?:profiles|shell(?:Args)?|"
                   r"automationProfile|env)|git\.path|eslint\.runtime|go\.alternateTools|rust-analyzer\.server\.path|"
                   r"typescript\.tsdk|npm\.binPath|php\.validate\.executablePath)\b[^\n]{0,240}?(?:/tmp|/var/tmp|/dev/shm|--rcfile|--init-file)")
_RCFILE = r"--(?:rcfile|init-file)\b\W{0,6}(?:/tmp|/var/tmp|/dev/shm|https?:)"
_ON_OPEN = (r"(?:\b(?:when|whenever|each\s+time|every\s+time)\s+(?:the\s+|a\s+|you\s+open\s+the\s+|someone\s+opens\s+the\s+)?"
            r"(?:folder|workspace|project|repo\w*)\s+(?:is\s+)?(?:opened|opens)|\bon\s+(?:folder|workspace)\s+open\b|"
            r"\b(?:à|a)\s+l'ouverture\s+du\s+(?:dossier|projet)|\bchaque\s+fois\s+qu'on\s+ouvre\s+le\s+(?:dossier|projet)|"
            r"\bal\s+abrir\s+(?:la\s+carpeta|el\s+proyecto)|\bcada\s+vez\s+que\s+se\s+abr[ae]\s+(?:la\s+carpeta|el\s+proyecto|a\s+pasta)|"
            r"\bao\s+abrir\s+(?:a\s+pasta|o\s+projeto)|\ball'apertura\s+(?:della\s+cartella|del\s+progetto)|"
            r"\bogni\s+volta\s+che\s+(?:si\s+)?apr\w*\s+(?:la\s+cartella|il\s+progetto)|\bbeim\s+Öffnen\s+(?:des|eines)\s+(?:Ordners|Projekts|Workspace)|"
            r"打开(?:文件夹|项目|工作区)(?:时|的时候)|每次打开(?:文件夹|项目)|フォルダー?を開く(?:たび|と|時|とき)|フォルダー?を開いた(?:とき|時|ら))")
_BY_ITSELF_TASK = (r"(?:\b(?:tasks?|scripts?|commands?|t[âa]ches?|tareas?|tarefas?|attivit[àa]|Aufgabe\w*|Tasks?|Skript\w*|comand[oi]s?)\b|"
                   r"任务|脚本|命令|タスク|スクリプト|コマンド)")
_OPEN_RUNS = rf"{_ON_OPEN}(?:{_S}){{0,80}}?{_BY_ITSELF_TASK}|{_BY_ITSELF_TASK}(?:{_S}){{0,80}}?{_ON_OPEN}"
_OPEN_RUNS_JA = r"(?:フォルダー?|ワークスペース|プロジェクト)を開く(?:たび|と|時)[^。\n]{0,60}?(?:自動で|自動的に)[^。\n]{0,20}?(?:走る|実行|起動)"

# -- a dev container's lifecycle commands ------------------------------------------------------------

_DEVCONTAINER = (r"[\"']?\b(?:postCreateCommand|postStartCommand|postAttachCommand|onCreateCommand|updateContentCommand|"
                 r"initializeCommand)\b[\"']?\s*:[^\n]{0,240}?(?:\bcurl\b|\bwget\b|https?://|/tmp/|/var/tmp/|/dev/shm/|\|\s*(?:ba|z)?sh\b)")

# -- a shell file sourced from where anyone can write it --------------------------------------------------

_SOURCED = (rf"(?:\bsource|(?:(?<![^\n])|(?<=[;&|(`]))\s*\.)\s+[\"']?{_SCRATCH}"
            rf"|_\.source\s*=\s*[\"']?{_SCRATCH}|\bsource_(?:url|env|up)\s+[\"']?{_SCRATCH}|\bdotenv\s+[\"']?{_SCRATCH}"
            r"|\bBASH_ENV\s*=|\benv_file\s*:\s*[\"']?(?:/tmp|/var/tmp|/dev/shm)/|--env-file[= ][\"']?(?:/tmp|/var/tmp|/dev/shm)/"
            r"|\$\(\s*(?:cat|grep\s+-v\s+\S+)\s+[\"']?(?:/tmp|/var/tmp|/dev/shm)/[^)\n]*\)")
_ENV_WORD = (r"(?:\benv(?:ironment)?\b|\.env\b|\benv\s+file|\bUmgebung\w*|\bentorno\b|\bambiente\b|\benvironnement\b|\bshell\b|"
             r"\brc\b|\bvariables?\b|\bvari[áa]veis\b|\bvariabili\b|环境|環境)")
_LOAD_W = (r"(?:\bsource\b|\bload\w*|\bcharge[rz]?\b|\bcarg[au]\w*|\bcarreg\w*|\bcaric\w*|\blade\b|\bladen\b|\blädt\b|"
           r"加载|载入|読み込)")
_SOURCED_WORDS = (rf"{_LOAD_W}(?:{_S}){{0,60}}?{_ENV_WORD}(?:{_S}){{0,80}}?(?:/tmp|/var/tmp|/dev/shm)\b"
                  rf"|{_ENV_WORD}(?:{_S}){{0,60}}?(?:/tmp|/var/tmp|/dev/shm)\b(?:{_S}){{0,60}}?{_LOAD_W}")

# -- CI workflows ----------------------------------------------------------------------------------------

_PWN_REQUEST = (r"\bpull_request_target\b[\s\S]{0,400}?(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref|"
                r"\bsecrets:\s*inherit\b|refs/pull/)")
_CI_SECRET_PRINTED = (r"\b(?:echo|printf|cat|tee)\b(?![^\n]{0,20}::add-mask::)[^\n]{0,80}?\$\{\{\s*(?:secrets\.\w+|toJSON\(\s*secrets\s*\))"
                      r"|\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}")
_MOVING_ACTION = (r"\buses:\s*[\"']?(?!actions/|github/|docker://|\./)[\w.-]+/[\w./-]+@(?:main|master|HEAD|latest|dev|develop|trunk)\b")

AUTORUN_RULES: list[tuple[str, str, str, bool]] = [
    ("posture", "points the editor's shell or interpreter into a folder anyone can write", _EDITOR_PROGRAM, True),
    ("persistence", "starts every shell with a start-up file from a scratch folder or a download (--rcfile)", _RCFILE, True),
    ("posture", "adds an editor task that runs by itself when the folder opens (in words)", _OPEN_RUNS, True),
    ("posture", "adds an editor task that runs by itself when the folder opens (in words)", _OPEN_RUNS_JA, True),
    ("posture", "makes a dev container's lifecycle command fetch or run a script from elsewhere", _DEVCONTAINER, True),
    ("persistence", "sources a shell or env file anyone can write (a scratch folder, a download, BASH_ENV)", _SOURCED, True),
    ("persistence", "tells the agent to source an env file from a scratch folder (in words)", _SOURCED_WORDS, True),
    ("exfiltration", "runs a fork's code with the repository's secrets (pull_request_target and the PR's head)", _PWN_REQUEST, True),
    ("exfiltration", "prints a CI secret into the job's log", _CI_SECRET_PRINTED, True),
    ("posture", "takes a third-party CI action from a moving branch", _MOVING_ACTION, True),
]
