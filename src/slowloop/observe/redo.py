"""What the agent did before the person spoke, and what it did right after: a correction's evidence
in no language at all.

The agent ran ``npm install dayjs``; the person said anything; the agent ran ``pnpm add dayjs``.
The agent wrote ``def cartTotal(...)``; the person complained; the agent renamed it ``cart_total``.
:func:`find_redo` compares the agent's actions in the turn the person reacted to (``before``: the
previous turn, and any tool use refused in this one) with its actions in reply (``after``) and
returns the difference, when there is one of a kind that says what to use and what not to:

- **swap** — the same activity (installing packages, running the tests, running containers…) done
  with another tool: ``npm install`` → ``pnpm add``, ``pytest`` → ``make test``;
- **flag** — the same command again with a flag added or removed: ``pytest`` → ``pytest --no-cov``;
- **rename** — a name the agent wrote, renamed in another case style: ``cartTotal`` → ``cart_total``;
- **commit** — a commit message rewritten: a trailer dropped, Conventional Commits, a ticket id;
- **branch** — a branch the agent created, renamed: ``fix/login`` → ``feature/ABC-12-login``;
- **move** — a file the agent created, moved to another folder: ``src/x.py`` → ``services/api/x.py``;
- **undo** — the action taken back (``npm uninstall``, ``git revert``, a file put back, an edit
  reversed) with nothing in its place;
- **target** — the same action on another file or value only: a one-off about this task ("no, the
  other file"), never a standing rule.

Each carries the kind of action (its *scope*: "installing packages", "naming Python functions",
"writing commit messages", "creating branches") and the words of both actions, so that the
caller can check that the person's words point at it (:func:`points_at`). Pure and cheap: a few
string operations per tool call, no model.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..transcripts.model import ToolCall, Turn
from .corrections import detect_language

# -- the agent's actions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Act:
    kind: str  # run | edit | write
    command: str = ""  # run: one simple command
    path: str = ""
    old: str = ""
    new: str = ""


_SHELL_KEYS = ("command", "cmd", "script")
_EDIT_TOOLS = {"Edit", "MultiEdit", "str_replace_editor", "str_replace_based_edit_tool", "edit_file",
               "replace", "edit"}
_WRITE_TOOLS = {"Write", "create_file", "write_file", "write"}
_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")


def shell_text(call: ToolCall) -> str:
    """The whole shell command a tool call runs ("" when it runs none)."""
    inp = call.input
    if isinstance(inp, dict):
        for key in _SHELL_KEYS:
            v = inp.get(key)
            if isinstance(v, list):
                parts = [str(p) for p in v]
                # Codex: ["bash", "-lc", "npm install x"]
                if len(parts) >= 3 and parts[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") and parts[1] in ("-lc", "-c"):
                    return parts[2]
                return " ".join(shlex.quote(p) for p in parts)
            if isinstance(v, str):
                return v
    if isinstance(inp, str) and call.name.lower() in ("bash", "shell", "exec_command", "run_shell_command"):
        return inp
    return ""


def _patch_acts(text: str) -> list[Act]:
    """Codex's ``apply_patch`` text: files added, updated (old → new lines) and moved."""
    out: list[Act] = []
    path, move = "", ""
    old: list[str] = []
    new: list[str] = []

    def flush() -> None:
        if path:
            if move:
                out.append(Act("run", command=f"mv {path} {move}"))
            if old or new:
                out.append(Act("edit", path=move or path, old="\n".join(old), new="\n".join(new)))
    for ln in text.splitlines():
        m = re.match(r"^\*\*\* (Add|Update|Delete) File: (.+)$", ln)
        if m:
            flush()
            path, old, new, move = m.group(2).strip(), [], [], ""
            if m.group(1) == "Delete":
                out.append(Act("run", command=f"rm {path}"))
                path = ""
            continue
        m = re.match(r"^\*\*\* Move to: (.+)$", ln)
        if m:
            move = m.group(1).strip()
        elif ln.startswith("-") and not ln.startswith("---"):
            old.append(ln[1:])
        elif ln.startswith("+") and not ln.startswith("+++"):
            new.append(ln[1:])
    flush()
    return out


def acts_of(call: ToolCall) -> list[Act]:
    shell = shell_text(call)
    if shell:
        if "*** Begin Patch" in shell:
            return _patch_acts(shell)
        return [Act("run", command=c) for c in _commands(shell)]
    inp = call.input if isinstance(call.input, dict) else {}
    if call.name == "apply_patch":
        text = call.input if isinstance(call.input, str) else str(inp.get("input") or inp.get("patch") or "")
        return _patch_acts(text)
    path = str(inp.get("file_path") or inp.get("path") or inp.get("filePath") or "")
    if call.name in _EDIT_TOOLS or ("old_string" in inp and "new_string" in inp):
        if isinstance(inp.get("edits"), list):
            return [Act("edit", path=path, old=str(e.get("old_string", "")), new=str(e.get("new_string", "")))
                    for e in inp["edits"] if isinstance(e, dict)]
        return [Act("edit", path=path, old=str(inp.get("old_string") or inp.get("old_str") or ""),
                    new=str(inp.get("new_string") or inp.get("new_str") or ""))]
    if call.name in _WRITE_TOOLS or ("content" in inp and path):
        return [Act("write", path=path, new=str(inp.get("content") or inp.get("file_text") or ""))]
    return []


def _commands(shell: str) -> list[str]:
    out = []
    for part in _SPLIT.split(shell.strip()):
        part = part.split(" | ")[0].strip()  # what is piped into `tail` is the command
        # a group or a subshell is its commands: "(crontab -l; echo …) | crontab -" runs crontab
        part = re.sub(r"^(?:[({]\s*)+", "", part)
        while part.endswith((")", "}")) and part.count(part[-1]) > part.count("(" if part[-1] == ")" else "{"):
            part = part[:-1].rstrip()
        if part and not part.startswith("#"):
            out.append(part)
    return out


def turn_acts(turn: Turn, *, rejected: bool | None = None) -> list[Act]:
    """The agent's own actions in ``turn``, in order (a sub-agent's work is not the agent's answer
    to the person). ``rejected``: only refused tool uses (True), only those that ran (False)."""
    refused = {r.call_id for r in turn.tool_results if r.rejected and r.call_id}
    out: list[Act] = []
    for s in turn.steps:
        if s.kind != "tool_call" or s.call is None or s.sidechain:
            continue
        was_refused = s.call.id in refused
        if rejected is not None and was_refused != rejected:
            continue
        out.extend(acts_of(s.call))
    return out


# -- commands: program, subcommand, activity ---------------------------------------------------

@dataclass(frozen=True)
class Cmd:
    text: str
    words: tuple[str, ...]  # without env assignments and sudo
    prog: str
    sub: str
    activity: str  # "" when none is known

    @property
    def tool(self) -> str:
        """What the person would call the tool: ``pnpm``, ``make test``, ``docker compose``."""
        if self.activity in ("install", "remove"):
            # the package manager is the choice (`pnpm`, not only `pnpm add`: never `npm ci` either)
            return self.prog
        if self.prog in _EXEC and self.sub:
            return f"{self.prog} {self.sub}"
        if self.prog in ("tox", "nox"):
            return " ".join(self.words[:3]) if self.sub and self.words[1:2] == ("-e",) else self.prog  # `tox -e py312`
        if self.prog in _RUNNERS and self.sub:
            return f"{self.prog} {self.sub}" if self.sub not in ("run",) else " ".join(self.words[:3])
        if self.prog in ("go", "cargo", "dotnet", "deno", "bun") and self.sub and self.activity in ("lint", "test", "build"):
            return f"{self.prog} {self.sub}"  # `go vet`, `cargo clippy`: the subcommand is the tool
        if self.prog == "docker" and self.sub == "compose":
            return "docker compose"
        if self.prog == "git" and self.sub:
            return f"git {self.sub}"
        if self.prog in ("python", "python3") and len(self.words) > 2 and self.words[1] == "-m":
            return f"python -m {self.words[2]}"
        return self.prog

    @property
    def args(self) -> list[str]:
        """The operands after the subcommand (`flutter pub add get` → `get`; a flag's value, as in
        `cargo add tokio --features full`, is none)."""
        start = self.words.index(self.sub, 1) + 1 if self.sub and self.sub in self.words[1:] else 1
        out, words = [], self.words[start:]
        for i, w in enumerate(words):
            if not w.startswith("-") and not (i and words[i - 1] in _VALUED and self.activity in ("install", "remove")):
                out.append(w)
        return out

    @property
    def flags(self) -> list[str]:
        # (`--` ends the options: it is no flag — `npm run test -- --runInBand` passes `--runInBand`)
        return [w.split("=", 1)[0] for w in self.words[1:] if w.startswith("-") and len(w) > 1 and w != "--"]


_PKG = {"npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "pipenv", "conda", "cargo", "go",
        "gem", "brew", "apt", "apt-get", "composer", "bundle", "dotnet", "mix", "deno", "flutter", "dart"}
_RUNNERS = {"make", "just", "task", "npm", "pnpm", "yarn", "bun", "tox", "nox", "rake", "invoke", "mage"}
# programs that run another one given after them: `bundle exec rubocop`, `uv run pytest`
_THROUGH = {("bundle", "exec"), ("poetry", "run"), ("uv", "run"), ("pipenv", "run"), ("pnpm", "exec"),
            ("npm", "exec"), ("yarn", "exec"), ("hatch", "run"), ("pdm", "run"), ("rye", "run"), ("nix", "develop")}
_WITH_SUB = _PKG | _RUNNERS | {"git", "docker", "docker-compose", "podman", "kubectl", "gh", "alembic",
                               "prisma", "npx", "pnpx", "bunx", "terraform", "helm"}
_TEST_PROGS = {"pytest", "py.test", "jest", "vitest", "mocha", "rspec", "phpunit", "ava", "tap", "nose2",
               "unittest", "ctest", "karma", "playwright", "cypress"}
_LINT_PROGS = {"ruff", "black", "flake8", "isort", "pylint", "mypy", "pyright", "eslint", "prettier",
               "biome", "gofmt", "golangci-lint", "rustfmt", "clippy", "rubocop", "stylelint", "tsc", "staticcheck",
               "revive", "ktlint", "detekt", "phpstan", "psalm", "shellcheck", "hadolint", "tflint", "markdownlint",
               "standard", "xo", "dprint", "oxlint", "swiftlint", "swift-format", "swiftformat", "php-cs-fixer"}
_BUILD_PROGS = {"webpack", "vite", "esbuild", "rollup", "gradle", "gradlew", "mvn", "mvnw", "cmake", "bazel", "ninja"}
_DOCS_PROGS = {"sphinx-build", "mkdocs", "jekyll", "hugo", "doxygen", "typedoc", "jsdoc", "pdoc", "mdbook",
               "docusaurus", "javadoc", "dokka", "rustdoc", "godoc", "yard", "antora"}
_INSTALL_SUBS = {"install", "add", "i", "get"}
# a package manager's flags that take a value (`--features full`, `--version 2.1`)
_VALUED = {"--features", "-F", "--version", "--vers", "--rev", "--branch", "--tag", "--git", "--path",
           "--registry", "--index", "--index-url", "--source", "--constraint", "--group", "-G",
           "--target", "--rename", "--package", "-p", "--project"}
_REMOVE_SUBS = {"uninstall", "remove", "rm", "un", "r"}
_MIGRATE = re.compile(r"\b(?:alembic|migrate|migration|prisma migrate|flyway|liquibase|knex migrate|sequelize db:migrate)\b")

ACTIVITIES = {
    "install": "installing packages in this project",
    "remove": "removing packages",
    "test": "running the tests",
    "lint": "formatting or linting code",
    "build": "building the project",
    "container": "running containers",
    "commit": "writing commit messages",
    "branch": "creating branches",
    "push": "pushing with git",
    "sync": "bringing a branch up to date",
    "migrate": "running database migrations",
    "python": "running Python",
    "node": "running Node scripts",
    "serve": "starting the development server",
    "docs": "building the docs",
    "tag": "tagging releases",
}


def parse_cmd(text: str) -> Cmd | None:
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    while words and (_ENV.match(words[0]) or words[0] in ("sudo", "env", "time", "command", "exec")):
        words = words[1:]
    words = _plumbing_off(words)
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    if prog in ("cd", "echo", "ls", "cat", "pwd", "true", "false", "export", "source", ".", "set", "clear",
                "head", "tail", "grep", "rg", "find", "sed", "awk", "wc", "sleep"):
        return None
    sub = ""
    if prog in _WITH_SUB:
        rest = [w for w in words[1:] if not w.startswith("-")]
        sub = rest[0] if rest else ""
        if (prog == "uv" and sub == "pip" or prog in ("flutter", "dart") and sub == "pub") and len(rest) > 1:
            sub = rest[1]  # `uv pip install x`, `flutter pub add x`: the verb after the namespace
    if prog in ("python", "python3") and len(words) > 2 and words[1] == "-m":
        mod = words[2]
        act = ("test" if mod in ("pytest", "unittest") else "install" if mod == "pip" and "install" in words
               else "lint" if mod in _LINT_PROGS else "python")
        return Cmd(text, tuple(words), prog, "", act)
    if prog in _EXEC and sub:
        # `npx jest src/x.test.ts`: jest, run through the package runner
        inner = [w for w in words[1:] if not w.startswith("-")]
        act = _activity(sub, inner[1] if len(inner) > 1 else "", inner, text)
        return Cmd(text, tuple(words), prog, sub, act)
    return Cmd(text, tuple(words), prog, sub, _activity(prog, sub, words, text))


_EXEC = {"npx", "pnpx", "bunx"}
_REDIRECT = re.compile(r"^(?:\d*[<>]{1,2}&?\d*|&>{1,2})$")


def _plumbing_off(words: list[str]) -> list[str]:
    """The command without where its output goes: `tsc --noEmit 2>&1 | tail -1` is `tsc --noEmit`
    (a pipe's `-1` is no flag of tsc)."""
    out: list[str] = []
    skip = False
    for w in words:
        if w in ("|", "|&"):
            break
        if skip:
            skip = False
            continue
        if _REDIRECT.match(w):
            skip = not re.search(r"&\d$", w)  # `> out.txt` names a file next; `2>&1` does not
            continue
        if re.match(r"^\d*[<>]{1,2}\S", w):  # `>out.txt`, `2>/dev/null`
            continue
        out.append(w)
    return out


def _activity(prog: str, sub: str, words: list[str], text: str) -> str:
    if prog in ("tox", "nox") and not sub.startswith("-"):
        return "test"  # what tox and nox run is the test suite, whatever the environment
    if prog == "go" and sub == "vet":
        return "lint"
    if prog in _PKG and sub in _INSTALL_SUBS and not (prog in ("go", "cargo") and sub not in ("get", "add", "install")):
        return "install"
    if prog in _PKG and sub in _REMOVE_SUBS:
        return "remove"
    if prog == "uv" and sub == "add" or prog == "poetry" and sub == "add" or prog == "composer" and sub == "require":
        return "install"
    if prog in _DOCS_PROGS or prog in _RUNNERS and re.match(r"docs?(?::|$)", sub):
        return "docs"
    if prog in _TEST_PROGS or sub in ("test", "tests", "t", "nextest") and prog in _RUNNERS | {"go", "cargo", "dotnet", "mvn", "gradle", "mix", "deno"}:
        return "test"
    if prog in _RUNNERS and sub == "run" and len(words) > 2:
        script = words[2]
        if script.startswith("test"):
            return "test"
        if script in ("lint", "format", "fmt", "typecheck"):
            return "lint"
        if script.startswith("build"):
            return "build"
        if script in ("dev", "start", "serve"):
            return "serve"
    if prog in _LINT_PROGS or sub in ("lint", "format", "fmt", "check") and prog in _RUNNERS | {"cargo", "go"}:
        return "lint"
    if prog in _RUNNERS and sub:
        # `pnpm biome check`, `yarn eslint .`: the runner runs the tool; `pnpm lint:fix`: a script
        if sub in _LINT_PROGS or re.match(r"(?:lint|format|fmt)(?::|$)", sub):
            return "lint"
        if sub in _TEST_PROGS or re.match(r"test(?::|$)", sub):
            return "test"
    if prog in _BUILD_PROGS or sub == "build" and prog in _RUNNERS | {"cargo", "go", "docker"}:
        return "build"
    if prog in ("docker-compose", "podman-compose") or prog in ("docker", "podman") and sub in ("compose", "run", "up"):
        return "container"
    if prog == "git":
        if sub == "commit":
            return "commit"
        if sub == "push":
            return "push"
        if sub in ("merge", "rebase") or sub == "pull" and "--rebase" in words:
            return "sync"
        if sub == "tag" and len([w for w in words[2:] if not w.startswith("-")]) >= 1 and "-d" not in words:
            return "tag"
        if sub in ("checkout", "switch") and any(f in words for f in ("-b", "-c", "-B", "--create")):
            return "branch"
        if sub == "branch" and len([w for w in words[2:] if not w.startswith("-")]) >= 1 and "-d" not in words and "-D" not in words:
            return "branch"
    if _MIGRATE.search(text) or prog == "manage.py" or (len(words) > 1 and words[1] == "manage.py" and "migrate" in words):
        return "migrate"
    if prog in ("python", "python3", "py"):
        return "python"
    if prog in ("node", "tsx", "ts-node"):
        return "node"
    if prog in ("uvicorn", "gunicorn", "flask") or sub in ("dev", "start", "serve") and prog in _RUNNERS:
        return "serve"
    return ""


# -- names and their case styles ---------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def case_style(name: str) -> str:
    core = name.strip("_")
    if not core or not re.search(r"[A-Za-z]", core):
        return ""
    if "_" in core:
        if core.isupper():
            return "SCREAMING_SNAKE_CASE"
        if core.islower():
            return "snake_case"
        return ""
    if "-" in core:
        return "kebab-case"
    if core[0].isupper() and re.search(r"[a-z]", core) and re.search(r"[A-Z].*[A-Z]|^[A-Z][a-z]+$", core):
        return "PascalCase"
    if core[0].islower() and re.search(r"[A-Z]", core):
        return "camelCase"
    return ""


def _fold(name: str) -> str:
    return re.sub(r"[_\-]", "", name).lower()


_LANG_OF = {".py": "Python", ".ts": "TypeScript", ".tsx": "TypeScript", ".js": "JavaScript",
            ".jsx": "JavaScript", ".mjs": "JavaScript", ".go": "Go", ".rs": "Rust", ".rb": "Ruby",
            ".java": "Java", ".kt": "Kotlin", ".cs": "C#", ".php": "PHP", ".swift": "Swift",
            ".sql": "SQL", ".c": "C", ".cpp": "C++", ".h": "C", ".scala": "Scala", ".ex": "Elixir",
            ".kts": "Kotlin", ".tf": "Terraform", ".sh": "shell", ".vue": "Vue", ".dart": "Dart"}
# Files whose place says what they are, whatever their extension.
_KIND_OF = ((r"(?:^|/)\.github/workflows/", "writing GitHub Actions workflows"),
            (r"(?:^|/)\.gitlab-ci\.ya?ml$", "writing GitLab CI pipelines"),
            (r"(?:^|/)(?:docker-)?compose[\w.-]*\.ya?ml$", "writing Compose files"),
            (r"(?:^|/)(?:k8s|kubernetes|manifests|deploy|charts?)/.*\.ya?ml$", "writing Kubernetes manifests"),
            (r"(?:^|/)(?:build\.gradle(?:\.kts)?|pom\.xml|package\.json|pyproject\.toml|Cargo\.toml|go\.mod)$",
             "declaring dependencies"))


def _what_named(name: str, text: str, path: str) -> str:
    """"Python functions", "TypeScript classes", "SQL columns", "files"…"""
    n = re.escape(name)
    lang = next((v for k, v in _LANG_OF.items() if path.endswith(k)), "")
    kind = "names"
    if re.search(rf"\b(?:def|fn|func|function|fun)\s+{n}\b|\b{n}\s*=\s*(?:async\s*)?\(|\b{n}\s*\([^)]*\)\s*\{{", text):
        kind = "functions"
    elif re.search(rf"\b(?:class|struct|interface|type|enum|trait)\s+{n}\b", text):
        kind = "types" if lang in ("Go", "Rust", "TypeScript") else "classes"
    elif re.search(rf"\b(?:const|let|var)\s+{n}\b|^\s*{n}\s*[:=]", text, re.M):
        kind = "variables"
    elif re.search(rf"\b{n}\s+(?:INTEGER|TEXT|VARCHAR|INT|BIGINT|BOOLEAN|TIMESTAMP|SERIAL|UUID)\b", text, re.I) or lang == "SQL":
        kind = "columns"
        lang = "SQL"
    return f"{lang} {kind}".strip()


# -- the difference ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Redo:
    kind: str  # swap | flag | rename | commit | branch | move | undo | target
    scope: str  # the activity, as a trigger phrase ("installing packages in this project")
    before: str  # the agent's action the person reacted to
    after: str  # what it did instead
    use: str = ""  # what the redo uses …
    avoid: str = ""  # … instead of what
    rule: str = ""  # the imperative the difference states (without "When <scope>, ")
    standing: bool = True  # False for a one-off about this task (``target``, a lone ``undo``)
    words: frozenset[str] = field(default_factory=frozenset)  # tokens of both actions
    gone: tuple[str, ...] = ()  # api: what the code change took out …
    came: tuple[str, ...] = ()  # … and put in
    dropped: str = ""  # api: the package the agent took out before rewriting the code
    context: tuple[str, ...] = ()  # api: other names on the lines the change rewrote
    library: bool = False  # api, focused: one library's API in place of another's (named as the person did)
    code: tuple[str, str] = ("", "")  # api: the code the change rewrote, and what it wrote instead
    modules: tuple[str, ...] = ()  # api: the modules the agent's code imports (`yaml` of `yaml.load`)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "scope": self.scope, "before": self.before, "after": self.after,
                "use": self.use, "avoid": self.avoid, "rule": self.rule, "standing": self.standing}


def _tokens(*texts: str) -> frozenset[str]:
    out: set[str] = set()
    for t in texts:
        for w in re.findall(r"[A-Za-z0-9_][A-Za-z0-9_.@/+-]*", t):
            w = w.strip("./-").lower()
            if len(w) >= 3:
                out.add(w)
                out.update(p for p in re.split(r"[./@+_-]", w) if len(p) >= 3)
    return frozenset(out - COMMON_WORDS)


def words_of(*texts: str) -> frozenset[str]:
    """The words that name things in ``texts`` (programs, flags, packages, names; common words left
    out) — what the person's words and the agent's actions are matched on."""
    return _tokens(*texts)


# words too common to show that the person meant this action
COMMON_WORDS = frozenset("""the and for not you your this that with from are was but use using run add install
new file files code test tests src lib app main def return true false none null self import from let const
var function class str int json yaml docs http https www com org run dev build start item items value
data self print get set has can all one two out ok""".split())


def _msg(cmd: Cmd) -> str | None:
    """The message of ``git commit -m …`` (several -m: paragraphs)."""
    msgs, words = [], list(cmd.words)
    for i, w in enumerate(words):
        if w in ("-m", "--message") and i + 1 < len(words):
            msgs.append(words[i + 1])
        elif w.startswith("--message="):
            msgs.append(w.split("=", 1)[1])
        elif w.startswith("-m") and len(w) > 2 and not w.startswith("--"):
            msgs.append(w[2:])
        elif re.fullmatch(r"-[a-zA-Z]+m", w) and i + 1 < len(words):  # `git commit -am "…"`
            msgs.append(words[i + 1])
    if not msgs:
        m = re.search(r"<<\s*['\"]?(\w+)['\"]?\n(.*?)\n\1", cmd.text, re.S)
        if m:
            msgs.append(m.group(2))
    return "\n\n".join(msgs) if msgs else None


def commit_message(cmd: Cmd) -> str | None:
    """The message a ``git commit`` command gives (None: no message on the command line)."""
    return _msg(cmd) if cmd.activity == "commit" else None


def conventional(message: str) -> bool:
    """Whether a commit message follows Conventional Commits (``type(scope): summary``)."""
    return bool(_CONVENTIONAL.match(message))


_CONVENTIONAL = re.compile(r"^(?:feat|fix|chore|docs|refactor|test|tests|perf|build|ci|style|revert)(?:\([^)]+\))?!?:\s")
_TICKET = re.compile(r"^\[?[A-Z][A-Z0-9]+-\d+\]?")
_TRAILER = re.compile(r"^([A-Z][A-Za-z-]+(?:-[a-z]+)*):\s", re.M)


_LANGUAGE_NAMES = {"en": "English", "it": "Italian", "fr": "French", "de": "German", "es": "Spanish",
                   "pt": "Portuguese", "zh": "Chinese", "ja": "Japanese"}


def _commit_rule(m1: str, m2: str) -> tuple[str, str, str]:
    """(rule, use, avoid) from a commit message rewritten from ``m1`` to ``m2``."""
    t1 = {t for t in _TRAILER.findall(m1) if "-" in t or t in ("Signed", "Reviewed")}
    t2 = {t for t in _TRAILER.findall(m2) if "-" in t or t in ("Signed", "Reviewed")}
    gen1 = bool(re.search(r"Generated with|🤖", m1)) and not re.search(r"Generated with|🤖", m2)
    for t in sorted(t1 - t2):
        return f"never add a `{t}:` trailer to the message.", "", f"{t}:"
    if gen1:
        return "never add a \"Generated with …\" line to the message.", "", "Generated with"
    for t in sorted(t2 - t1):
        return f"always add a `{t}:` trailer to the message.", f"{t}:", ""
    if _CONVENTIONAL.match(m2) and not _CONVENTIONAL.match(m1):
        head = m2.split(":", 1)[0]
        return (f"always follow Conventional Commits (`type(scope): summary`, like `{head}: …`).",
                "Conventional Commits", "")
    if _TICKET.match(m2) and not _TICKET.match(m1):
        ticket = _TICKET.match(m2)
        return (f"always start the message with the ticket id (like `{ticket.group(0) if ticket else ''}`).",
                "ticket id", "")
    l1, l2 = m1.splitlines()[0] if m1 else "", m2.splitlines()[0] if m2 else ""
    lang1, lang2 = detect_language(l1), detect_language(l2)
    if lang1 and lang2 and lang1 != lang2 and len(l1.split()) >= 3 and len(l2.split()) >= 3:
        name = _LANGUAGE_NAMES[lang2]
        return f"always write the message in {name}.", name, _LANGUAGE_NAMES[lang1]
    if len(l1) > 72 >= len(l2) and l2:
        return "always keep the subject line at most 72 characters.", "72 characters", ""
    if l1[:1].isupper() and l2[:1].islower() and l1[1:] == l2[1:]:
        return "always start the subject line in lower case.", "lower case", ""
    return "", "", ""


def _branch_shape(name: str) -> str:
    """``feature/ABC-123-login-form`` → ``<type>/<TICKET>-<slug>``."""
    m = re.match(r"^([a-z]+)/([A-Z][A-Z0-9]+-\d+)[-_](.+)$", name)
    if m:
        return "<type>/<TICKET>-<slug>"
    m = re.match(r"^([a-z]+)/(.+)$", name)
    if m:
        return f"{m.group(1)}/<slug>"
    return ""


def _branch_of(cmd: Cmd) -> str:
    words = [w for w in cmd.words[2:] if not w.startswith("-")]
    return words[-1] if cmd.activity == "branch" and words else ""


def find_redo(before: list[Act], after: list[Act]) -> Redo | None:
    """The difference between what the agent did and what it did right after, or None."""
    if not before or not after:
        return None
    bcmds = [c for a in before if a.kind == "run" for c in [parse_cmd(a.command)] if c]
    acmds = [c for a in after if a.kind == "run" for c in [parse_cmd(a.command)] if c]
    for finder in (_commit_redo, _branch_redo, _rename_redo, _move_redo, _swap_redo, _pin_redo, _flag_redo,
                   _sub_redo, _typed_redo, _undo_redo, _code_redo, _value_redo, _same_job_redo, _target_redo,
                   _rewrite_redo, _replace_redo):
        r = finder(before, after, bcmds, acmds)
        if r is not None:
            if r.kind == "keep" and re.match(r"`?(?:import|from|require|using|use)\b", r.avoid):
                # an import taken out (`import joblib`) while the code that used it moved to another
                # API (`joblib.dump` → `skops.io.dump`): the swap is the lesson, the import follows it
                other = _code_redo(before, after, bcmds, acmds)
                if other is not None and other.kind == "api" and other.standing:
                    return other
            if r.kind == "undo":
                # taken back *and* done another way (`git checkout -- src && pnpm biome check --write
                # src`): the other way is the lesson, the undo only clears the ground for it
                rest = [a for a in after if not (a.kind == "run" and _undoes(parse_cmd(a.command), before))]
                other = find_redo(before, rest) if rest and len(rest) < len(after) else None
                if other is not None and other.kind in ("swap", "api", "rename", "move", "pin") and other.standing:
                    return other
            return r
    return None


def _head(c: Cmd) -> list[str]:
    """The program and what says how it runs, up to its first argument that names a thing (a path, a
    host, a bucket): `aws s3 sync`, `rsync -az --delete`, `scp -r`."""
    out: list[str] = []
    for w in c.words:
        if out and (re.search(r"[/@:*.]", w) and not w.startswith("-") or len(out) >= 4):
            break
        out.append(w)
    return out


command_head = _head  # (what a rule shows of the command the agent went on to run)


_COPY_VERBS = frozenset({"cp", "copy", "sync", "rsync", "put", "upload", "mirror", "mv"})


def _plain(head: list[str]) -> list[str]:
    """The words of a command's head that are no flag and no flag's value (`kubectl -n prod set` → kubectl set)."""
    out: list[str] = []
    for i, w in enumerate(head):
        if w.startswith("-") or i and head[i - 1].startswith("-") and "=" not in head[i - 1] and (
                re.search(r"[\d/.:@]", w) or len(head[i - 1]) == 2):
            continue
        out.append(w)
    return out


def _things(c: Cmd) -> set[str]:
    return {w.rstrip("/*").lower() for w in c.words[1:] if not w.startswith("-") and re.search(r"[/@:]", w)
            and len(w.rstrip("/*")) >= 4}


def _same_job_redo(before, after, bcmds, acmds) -> Redo | None:
    """Another program, or another subcommand, on the same things (a bucket, a host's folder) right
    after: `scp -r dist/* deploy@web1:/srv/app/` → `rsync -az --delete dist/ deploy@web1:/srv/app/`,
    `aws s3 cp ./public s3://site/ --recursive` → `aws s3 sync ./public s3://site/ --delete`."""
    for b in reversed(bcmds):
        for a in acmds:
            hb, ha = _head(b), _head(a)
            plain_b, plain_a = _plain(hb), _plain(ha)
            if plain_a == plain_b or not (_things(a) & _things(b)) or _undoes(a, before) or a.prog == "git":
                continue
            if a.prog == b.prog and not (len(plain_a) == len(plain_b) and plain_a[:-1] == plain_b[:-1]
                                         and {plain_a[-1], plain_b[-1]} <= _COPY_VERBS):
                # the same program: only one way of copying for another (`aws s3 cp` → `aws s3 sync`),
                # never the next step of the work (`set image` → `rollout status`, `migrations add` → `script`)
                continue
            if any(c.words[:len(hb)] == b.words[:len(hb)] for c in acmds if c is not a):
                continue  # the first way is still used after: both, not one instead of the other
            use, avoid = " ".join(ha), " ".join(hb)
            scope = ACTIVITIES.get(b.activity, "") or f"running `{' '.join(plain_b[:2])}`"
            return Redo("swap", scope, b.text, a.text, use, avoid, f"always use `{use}`, never `{avoid}`.",
                        words=_tokens(b.text, a.text))
    return None


def _rewrite_redo(before, after, bcmds, acmds) -> Redo | None:
    """The code the agent had just written, rewritten right after (lines of it taken out or changed,
    not only added to), when no single API or word swap says what changed: `catch {}` rewritten to
    log and rethrow, a Dockerfile made multi-stage, `NOT NULL` taken off a new column. A correction
    of that code whatever the words; the lesson is the person's to word (``standing`` False)."""
    written = {a.path: a.new for a in before if a.kind == "write" and a.path}
    wrote = [ln.strip() for a in before if a.kind in ("edit", "write") for ln in a.new.splitlines() if ln.strip()]
    if not wrote:
        return None
    for a in after:
        if a.kind == "write" and a.path in written:
            a = Act("edit", path=a.path, old=written[a.path], new=a.new)
        if a.kind != "edit" or not a.old.strip():
            continue
        new_lines = {ln.strip() for ln in a.new.splitlines() if ln.strip()}
        taken = [ln.strip() for ln in a.old.splitlines() if ln.strip() and ln.strip() not in new_lines
                 and ln.strip() in wrote and len(ln.strip()) >= 4]
        added = [ln.strip() for ln in a.new.splitlines() if ln.strip() and ln.strip() not in {
            x.strip() for x in a.old.splitlines()}]
        if taken and added:
            return Redo("rewrite", _code_scope(a.path), taken[0][:80], added[0][:80], standing=False,
                        words=_tokens(a.old, a.new), code=(a.old, a.new))
    return None


def _undoes(c: Cmd | None, before: list[Act]) -> bool:
    """The command takes back the agent's earlier work (a checkout or reset, its file removed, its
    package uninstalled)."""
    if c is None:
        return False
    if c.prog == "git" and c.sub in ("checkout", "restore", "reset", "revert", "stash"):
        return True
    edited = {a.path for a in before if a.kind in ("edit", "write") and a.path}
    return c.prog == "rm" and bool(set(c.args) & edited) or c.activity == "remove"


def _commit_redo(before, after, bcmds: list[Cmd], acmds: list[Cmd]) -> Redo | None:
    b = [c for c in bcmds if c.activity == "commit" and _msg(c)]
    a = [c for c in acmds if c.activity == "commit" and _msg(c)]
    if not b or not a:
        return None
    rewrote = any("--amend" in c.words for c in a) or any(
        c.prog == "git" and c.sub == "reset" for c in acmds)
    if not rewrote:
        return None
    m1, m2 = _msg(b[-1]) or "", _msg(a[-1]) or ""
    if m1 == m2:
        return None
    rule, use, avoid = _commit_rule(m1, m2)
    return Redo("commit", ACTIVITIES["commit"], b[-1].text, a[-1].text, use, avoid, rule,
                standing=bool(rule), words=_tokens(m1, m2, "commit message"))


def _branch_redo(before, after, bcmds, acmds) -> Redo | None:
    made = [_branch_of(c) for c in bcmds if _branch_of(c)]
    made += [w for c in bcmds if c.prog == "git" and c.sub == "push" for w in c.args[1:2] if "-u" in c.words]
    if not made:
        return None
    old = made[-1]
    new = ""
    for c in acmds:
        if c.prog == "git" and c.sub == "branch" and any(f in c.words for f in ("-m", "-M", "--move")):
            names = [w for w in c.words[2:] if not w.startswith("-")]
            new = names[-1] if names else ""
        elif c.activity == "branch" and _branch_of(c) != old:
            new = _branch_of(c)
    if not new or new == old:
        return None
    shape, oshape = _branch_shape(new), _branch_shape(old)
    p_new, p_old = new.split("/", 1)[0] if "/" in new else "", old.split("/", 1)[0] if "/" in old else ""
    if shape == "<type>/<TICKET>-<slug>" and oshape != shape:
        rule, use, avoid = (f"always name branches `<type>/<TICKET>-<slug>` (like `{new}`), never like `{old}`.",
                            "<type>/<TICKET>-<slug>", old)
    elif p_new and p_new != p_old:
        rule, use, avoid = (f"always start branch names with `{p_new}/`"
                            + (f", never `{p_old}/`." if p_old else f" (like `{new}`), never like `{old}`."),
                            f"{p_new}/", f"{p_old}/" if p_old else old)
    else:
        return Redo("branch", ACTIVITIES["branch"], old, new, new, old, "", standing=False,
                    words=_tokens(old, new, "branch"))
    return Redo("branch", ACTIVITIES["branch"], old, new, use, avoid, rule, words=_tokens(old, new, "branch"))


def _written_names(before: list[Act]) -> dict[str, tuple[str, str]]:
    """Names the agent introduced (name → (the text around it, path))."""
    out: dict[str, tuple[str, str]] = {}
    for a in before:
        if a.kind in ("edit", "write"):
            old = set(_IDENT.findall(a.old))
            for n in _IDENT.findall(a.new):
                if n not in old and len(n) >= 3:
                    out.setdefault(n, (a.new, a.path))
    return out


def _rename_redo(before, after, bcmds, acmds) -> Redo | None:
    written = _written_names(before)
    if not written:
        return None
    for a in after:
        if a.kind not in ("edit", "write"):
            continue
        gone = [n for n in set(_IDENT.findall(a.old)) - set(_IDENT.findall(a.new)) if n in written] \
            if a.kind == "edit" else [n for n in written if n not in a.new and any(
                _fold(n) == _fold(m) for m in _IDENT.findall(a.new))]
        came = set(_IDENT.findall(a.new)) - set(_IDENT.findall(a.old))
        for n in gone:
            for m in came:
                if m != n and _fold(m) == _fold(n):
                    s_old, s_new = case_style(n), case_style(m)
                    text, path = written[n]
                    what = _what_named(n, text, path or a.path)
                    if what != _what_named(m, a.new, a.path):
                        continue  # a class made a function (or the like): a rewrite, not a style
                    if s_old and s_new and s_old != s_new:
                        return Redo("rename", f"naming {what}", n, m, s_new, s_old,
                                    f"always use {s_new} (`{m}`), never {s_old} (`{n}`).",
                                    words=_tokens(n, m, "name named naming"))
    return None


def _move_redo(before, after, bcmds, acmds) -> Redo | None:
    made = [a.path for a in before if a.kind == "write" and a.path]
    made += [w for c in bcmds if c.prog in ("touch", "mkdir") for w in c.args]
    if not made:
        return None
    moves: list[tuple[str, str]] = []
    for c in acmds:
        if (c.prog == "mv" or c.prog == "git" and c.sub == "mv") and len(c.args) >= 2:
            args = c.args if c.prog == "mv" else c.args
            moves.append((args[-2], args[-1]))
    written_after = [a.path for a in after if a.kind == "write" and a.path]
    removed = {w for c in acmds if c.prog == "rm" or (c.prog == "git" and c.sub == "rm") for w in c.args}
    for p in made:
        for q in written_after:
            # written again elsewhere *and* taken away from where it was: moved (a copy beside the
            # first is more work — "now the same for the suppliers module" — not a move)
            if q != p and p in removed and _file_reformatted(p, q) is not None:
                return _file_reformatted(p, q)
            if q != p and (q.rsplit("/", 1)[-1] == p.rsplit("/", 1)[-1] or _file_restyled(p, q)
                           or _stem(q) == _stem(p) and "/" in q) and p in removed:
                moves.append((p, q))
    for src, dst in moves:
        if re.match(r"^(?:/tmp|/var/tmp|/dev/null|\$TMPDIR|~/\.Trash)(?:/|$)", dst):
            continue  # put out of the way, not where things live: the agent removed it
        if _stem(src) == _stem(dst) and src.rsplit("/", 1)[-1] != dst.rsplit("/", 1)[-1] and "/" in dst:
            # `docs/Installation.md` written again as `docs/source/installation.rst`: the place moved
            # (the format too — the person's words say which)
            dst = dst.rsplit("/", 1)[0] + "/" + src.rsplit("/", 1)[-1]
        src_n, dst_n = src.rstrip("/"), dst.rstrip("/")
        if not any(src_n == m.rstrip("/") or m.startswith(src_n + "/") or src_n.startswith(m.rstrip("/") + "/")
                   for m in made):
            continue
        if dst.endswith("/"):
            dst_n = dst_n + "/" + src_n.rsplit("/", 1)[-1]
        sp, dp = src_n.split("/"), dst_n.split("/")
        restyled = _file_restyled(src_n, dst_n)
        if restyled is not None:
            return restyled
        if sp[-1] != dp[-1]:
            # renamed: a file name for this task, not where things live
            return Redo("target", "working on this task's files", src, dst, dst, src, "", standing=False,
                        words=_tokens(src, dst))
        k = 0
        while k < min(len(sp), len(dp)) and sp[-1 - k] == dp[-1 - k]:
            k += 1
        d_old, d_new = "/".join(sp[:len(sp) - k]), "/".join(dp[:len(dp) - k])
        common = "/".join(dp[len(dp) - k:-1])
        what = f"files under `{common}/`" if common else "files like this"
        if not d_new:
            return None
        return Redo("move", f"adding {what.replace('files like this', 'files to this project')}", src, dst,
                    f"{d_new}/", f"{d_old}/" if d_old else "",
                    f"always put them in `{d_new}/`" + (f", never in `{d_old}/`." if d_old else "."),
                    words=_tokens(src, dst))
    return None


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".", 1)[0].lower()


def _through(a: Cmd, b: Cmd) -> str:
    """`bundle exec rubocop -a x` for `rubocop -a x`: the same command run through another program —
    what to run it with (`bundle exec rubocop`), or ""."""
    n = len(b.words)
    if len(a.words) <= n or tuple(a.words[-n:]) != b.words or (a.prog, a.words[1] if len(a.words) > 1 else "") not in _THROUGH:
        return ""
    return " ".join(a.words[:len(a.words) - n + 1])


def _takes_over(a: Cmd, b: Cmd, acmds: list[Cmd]) -> bool:
    """`make web` after `npx vite build`, `mage test` after `go test ./...`: the project's own target
    run instead of the tool, for the same work (nothing else in the redo does that work)."""
    own = a.prog in _RUNNERS - {"npm", "pnpm", "yarn", "bun"} or a.words[0].startswith("./") and a.prog not in _PKG
    return own and b.activity in ("test", "build", "lint", "docs", "serve") and a.activity in ("", b.activity) \
        and a.tool != b.tool and not any(c.activity == b.activity for c in acmds if c is not a)


def _swap_redo(before, after, bcmds, acmds) -> Redo | None:
    for b in reversed(bcmds):
        for a in acmds:
            via = _through(a, b)
            if via and not any(c.prog == b.prog for c in acmds):
                scope = ACTIVITIES.get(b.activity, "") or f"running `{b.prog}`"
                return Redo("swap", scope, b.text, a.text, via, b.prog,
                            f"always run it as `{via}`, never bare `{b.prog}`.", words=_tokens(b.text, a.text))
            if _takes_over(a, b, acmds):
                # the target as the agent ran it (`make -C docs html`, not `make docs`)
                use = " ".join(a.words) if len(a.words) <= 5 else a.tool
                return Redo("swap", ACTIVITIES[b.activity], b.text, a.text, use, b.tool,
                            f"always use `{use}`, never `{b.tool}`.", words=_tokens(b.text, a.text))
    for b in reversed(bcmds):
        for a in acmds:
            # another program on the same arguments: `gradle :app:test` → `./gradlew :app:test`
            if a.prog != b.prog and len(b.words) > 1 \
                    and list(a.words[1:]) == list(b.words[1:]) and not any(c.prog == b.prog for c in acmds):
                scope = ACTIVITIES.get(b.activity, "") or f"running `{b.prog}` commands"
                use, avoid = (a.tool, b.tool) if b.activity else (a.words[0], b.words[0])
                return Redo("swap", scope, b.text, a.text, use, avoid,
                            f"always use `{use}`, never `{avoid}`.", words=_tokens(b.text, a.text))
    for b in reversed(bcmds):
        if not b.activity or b.activity in ("remove", "python", "node"):
            continue
        for a in acmds:
            if a.activity != b.activity or a.tool == b.tool:
                continue
            if a.prog == b.prog and a.prog not in _RUNNERS | _EXEC and a.prog not in ("docker", "git"):
                continue  # the same program: a flag or a target, not another tool
            if b.activity == "install" and b.args and a.args and not set(b.args) & set(a.args):
                continue  # other packages: more work, not the same install redone
            # (`docker-compose down` before `docker compose up`: the old tool stopping what it started)
            still = any(c.tool == b.tool and c.activity == b.activity and c.sub not in _TEARDOWN
                        and not {"--abort", "--quit"} & set(c.words) for c in acmds if c is not a)  # (`git rebase --abort` stops it)
            if still:
                continue  # the first tool is still used after: both, not one instead of the other
            use, avoid = a.tool, b.tool
            how = install_words(a.text)
            example = f" (`{how}`)" if how and how != use else ""
            return Redo("swap", ACTIVITIES[b.activity], b.text, a.text, use, avoid,
                        f"always use `{use}`{example}, never `{avoid}`.", words=_tokens(b.text, a.text))
    return None


def install_words(command: str) -> str:
    """How a command installs, without its packages (`pnpm add`, `uv pip install`), or formats
    (`ruff format`): in a rule the tool stays the choice, its command shows how."""
    c = parse_cmd(command)
    sub = c.words[1] if c is not None and len(c.words) > 1 else ""
    if c is not None and c.activity == "lint" and c.prog in _LINT_PROGS and sub in ("format", "check", "fmt", "lint", "fix"):
        return f"{c.prog} {sub}"  # `ruff format`: the linter stays the choice, its subcommand shows how
    if c is None or c.activity != "install" or not c.sub or c.sub not in c.words[1:]:
        return ""
    head = c.words[: c.words.index(c.sub, 1) + 1]
    return " ".join(w for w in head if not w.startswith("-"))


_TEARDOWN = {"down", "stop", "rm", "kill", "uninstall", "remove", "delete", "prune"}
_IMAGE_PROGS = {"docker", "podman", "nerdctl", "kubectl", "helm", "crane", "skopeo"}


def _image_ref(word: str) -> tuple[str, str, str] | None:
    """(prefix, image name, tag) of `api=registry.acme.de/api:1.4` (tag "" when none), or None."""
    prefix, _, ref = word.rpartition("=")
    if not re.fullmatch(r"[a-z0-9][\w.-]*(?::\d+)?(?:/[a-z0-9][\w.-]*)*(?::[\w.-]+)?", ref) or ref.startswith("-"):
        return None
    name, _, tag = ref.rpartition(":") if ":" in ref.rsplit("/", 1)[-1] else (ref, "", "")
    return prefix, name, tag


def _pin_redo(before, after, bcmds, acmds) -> Redo | None:
    """The same command on the same image, pinned: `postgres` → `postgres:16.4`, `api:latest` →
    `api:1.42.0` — how images are named here, never this task's value."""
    for b in reversed(bcmds):
        if b.prog not in _IMAGE_PROGS:
            continue
        for a in acmds:
            if (a.prog, a.sub) != (b.prog, b.sub) or len(a.words) != len(b.words):
                continue
            diff = [(x, y) for x, y in zip(b.words, a.words, strict=True) if x != y]
            if len(diff) != 1:
                continue
            old, new = _image_ref(diff[0][0]), _image_ref(diff[0][1])
            if old is None or new is None or old[:2] != new[:2] or not new[2] or new[2] == "latest" \
                    or old[2] not in ("", "latest"):
                continue
            pinned = f"{new[1]}:{new[2]}"
            return Redo("pin", "choosing container images", b.text, a.text, pinned, ":latest",
                        f"always pin the image's tag (like `{pinned}`), never `:latest` or no tag.",
                        words=_tokens(b.text, a.text, "latest tag version pin"))
    return None


# Subcommands that only look: a look after an action is more work, never the action redone.
_LOOKS = {"status", "get", "describe", "logs", "log", "diff", "show", "list", "ls", "top", "version", "help",
          "history", "view", "inspect", "info", "explain", "output", "show-ref", "fetch", "ps", "events",
          "plan", "template", "lint"}  # a preview (`terraform plan`) then its apply: the work going on


def _sub_redo(before, after, bcmds, acmds) -> Redo | None:
    """The same program on the same thing with another subcommand, the first one not used again:
    `helm install redis …` → `helm upgrade --install redis …`, `kubectl delete pod -l app=api` →
    `kubectl rollout restart deployment/api`, `terraform apply` → `terraform plan`."""
    for b in reversed(bcmds):
        bw = _plain_words(b)
        if not bw or bw[0] in _LOOKS | _SETUP or b.prog not in _SUB_CLIS:
            continue
        for a in acmds:
            aw = _plain_words(a)
            if a.prog != b.prog or not aw or aw[0] == bw[0] or aw[0] in _LOOKS or set(aw[1:2]) & _LOOKS:
                continue
            if any(c.prog == b.prog and _plain_words(c)[:1] == bw[:1] for c in acmds):
                continue  # the first one is still used: both, not one instead of the other
            # what each acts on: every word but the options and the subcommand (option values too:
            # `-l app=api` and `deployment/api` name the same thing)
            b_rest = _acted_on(b) - {bw[0]}
            a_rest = _acted_on(a) - {aw[0]}
            same_thing = bool(b_rest & a_rest) or (not b_rest and len(a_rest) <= 1) or \
                _stem_overlap(b_rest, a_rest)
            if not same_thing:
                continue
            use, avoid = _verb_of(a), _verb_of(b)
            if use == avoid or set(aw[:1] + bw[:1]) & _SETUP or b.prog in _PKG and set(aw[:1] + bw[:1]) & (
                    _INSTALL_SUBS | _REMOVE_SUBS):
                continue  # a package added or taken out, a setup step: no tool instead of another
            if set(aw[:2]) & _TAKE_BACK:
                # `kubectl rollout undo`, `helm rollback`: the action taken back, nothing instead
                return Redo("undo", "", b.text, a.text, standing=False, words=_tokens(b.text, a.text))
            return Redo("swap", f"running `{b.prog}` commands", b.text, a.text, use, avoid,
                        f"always use `{use}`, never `{avoid}`.", words=_tokens(b.text, a.text))
    return None


# Options whose next word is their value, not a subcommand (`kubectl -n staging delete pod`).
_VALUE_FLAGS = {"-n", "--namespace", "--context", "--kube-context", "-f", "--file", "-c", "-C", "--kubeconfig",
                "--project", "--region", "--profile", "-chdir", "-o", "--output", "-l", "--selector"}


# Programs whose first word is what they do (`helm install`, `kubectl delete`, `terraform apply`).
_SUB_CLIS = {"kubectl", "helm", "terraform", "terragrunt", "tofu", "docker", "podman", "gh", "glab", "aws",
             "gcloud", "az", "flyctl", "fly", "heroku", "vercel", "supabase", "prisma", "alembic", "rails",
             "cargo", "go", "dotnet", "kind", "minikube", "eksctl", "argocd", "flux", "pulumi", "sam", "cdk",
             "serverless", "wrangler", "firebase", "gsutil", "bq", "skaffold", "tilt", "nomad", "vault", "consul"}
_TAKE_BACK = {"undo", "rollback", "revert", "destroy", "uninstall", "delete", "rm", "remove"}
_SETUP = {"init", "login", "auth", "config", "fetch", "update", "repo", "use-context", "pull"}
_WHERE_FLAGS = {"-n", "--namespace", "--context", "--kube-context", "--kubeconfig", "--project", "--region",
                "--profile"}


def _operands(c: Cmd, valued: frozenset[str] | set[str]) -> list[str]:
    """The words after the program that are not options, nor the values of the ``valued`` ones."""
    out, skip = [], False
    for w in c.words[1:]:
        if skip:
            skip = False
            continue
        if w.startswith("-"):
            skip = w in valued
            continue
        out.append(w)
    return out


def _acted_on(c: Cmd) -> set[str]:
    """The words a command acts on — not where it runs (`-n staging`, `--context prod`)."""
    return set(_operands(c, _WHERE_FLAGS))


def _plain_words(c: Cmd) -> list[str]:
    """The words after the program that are neither options nor their values."""
    return _operands(c, _VALUE_FLAGS)


def _verb_of(c: Cmd) -> str:
    """`helm upgrade --install`, `kubectl rollout restart`, `terraform plan`: the program, its
    subcommand, a second subcommand word and a flag that changes what it does — never this task's
    arguments."""
    words = _plain_words(c)
    out = [c.prog] + words[:1]
    if len(words) > 1 and words[1] in _SECOND_WORDS:
        out.append(words[1])
    out += [f for f in c.words[1:] if f in ("--install", "--atomic", "--force-with-lease")][:1]
    return " ".join(out)


_SECOND_WORDS = {"restart", "undo", "pause", "resume", "pod", "pods", "deployment", "job", "secret"}


def _stem_overlap(x: set[str], y: set[str]) -> bool:
    """`deployment/api` and `app=api` name the same thing."""
    def parts(ws: set[str]) -> set[str]:
        return {p for w in ws for p in re.split(r"[/=:.,]", w) if len(p) >= 3}
    return bool(parts(x) & parts(y))


# Flags whose value is about this task (which test, which message), never a standing choice.
_TASK_FLAGS = {"-k", "-m", "-t", "--grep", "-g", "--filter", "-p", "--message", "--testNamePattern", "-n",
               # stopping or going on with an operation under way (`git rebase --abort`): this run's, no way
               "--abort", "--continue", "--skip", "--quit"}
# fixing the last commit, not a way of working (`git tag -a` is one: an annotated tag)
_COMMIT_FLAGS = {"--amend", "-a", "-am", "--no-edit", "--all"}


# Short flags whose meaning the person names in words ("every commit needs a Signed-off-by"):
# (program, subcommand, flag) → what it is called, shown in the rule and matched against the words.
_FLAG_MEANS = {("git", "commit", "-s"): "--signoff: a `Signed-off-by:` trailer",
               ("git", "commit", "-S"): "--gpg-sign: a signed commit",
               ("git", "tag", "-a"): "--annotate: an annotated tag",
               ("git", "tag", "-s"): "--sign: a signed tag",
               ("git", "push", "-f"): "--force",
               ("git", "commit", "-n"): "--no-verify"}


def _flag_redo(before, after, bcmds, acmds) -> Redo | None:
    for b in reversed(bcmds):
        if not b.activity and not b.sub:
            continue  # (a program of no known activity counts with its subcommand: `helm upgrade`)
        for a in acmds:
            if a.prog != b.prog or a.sub != b.sub or a.activity != b.activity:
                continue
            if not b.activity and not (a.text.startswith(b.text) or b.text.startswith(a.text)):
                continue  # of no known activity: only the same command with flags put on or taken off the end
            task = _TASK_FLAGS | (_COMMIT_FLAGS if b.activity == "commit" else set())
            added = [f for f in a.flags if f not in b.flags and f not in task]
            dropped = [f for f in b.flags if f not in a.flags and f not in task]
            values = [w for w in a.words if w not in b.words and not w.startswith("-")]
            if not added and not dropped:
                continue
            if not added and any(re.split(r"[@:=]", v)[0] not in {re.split(r"[@:=]", w)[0] for w in b.words} for v in values):
                continue  # a flag gone *and* another target (`-t kanri-api:dev` for `-t kanri-worker:dev`): another run
            scope = ACTIVITIES.get(b.activity) or f"running `{b.prog} {b.sub}`"
            if added:
                flag = added[0]
                means = _FLAG_MEANS.get((a.prog, a.sub, flag), "")
                return Redo("flag", scope, b.text, a.text, flag, dropped[0] if dropped else "",
                            f"always pass `{flag}` to `{install_words(a.text) or (a.tool if b.activity else f'{a.prog} {a.sub}')}`"
                            + (f" (`{means.split(':')[0]}`{':' + means.split(':', 1)[1] if ':' in means else ''})" if means else "")
                            + (f", never `{dropped[0]}`." if dropped else "."),
                            words=_tokens(*added, *dropped, *values, *re.findall(r"[\w-]+", means)))
            flag = dropped[0]
            return Redo("flag", scope, b.text, a.text, "", flag,
                        f"never pass `{flag}` to `{install_words(b.text) or (b.tool if b.activity else f'{b.prog} {b.sub}')}`.",
                        words=_tokens(*dropped))
    return None


# Flags whose value is this task's own (a title, a message, a name, a path): never a way of working.
_TASK_VALUE_FLAGS = {"--title", "--body", "--head", "--message", "--name", "--file", "--output", "--out",
                     "--tag", "--description", "--notes", "--label", "--assignee", "--reviewer", "--milestone"}


def _flag_value(c: Cmd, flag: str) -> str:
    w = list(c.words)
    for i, x in enumerate(w):
        if x == flag and i + 1 < len(w) and not w[i + 1].startswith("-"):
            return w[i + 1]
        if x.startswith(flag + "="):
            return x.split("=", 1)[1]
    return ""


def _value_redo(before, after, bcmds, acmds) -> Redo | None:
    """The same flag given another value right after (`gh pr create --base main` → `gh pr edit 412
    --base develop`): the value is the choice. Whether it lasts beyond this task is the words' to say."""
    for b in reversed(bcmds):
        for a in acmds:
            if a.prog != b.prog or a.sub != b.sub or b.activity in ("install", "remove"):
                continue  # (another package's `--features`: the package is the choice, not its flags)
            for flag in a.flags:
                if not flag.startswith("--") or flag in _TASK_FLAGS or flag in _TASK_VALUE_FLAGS or flag not in b.flags:
                    continue
                vb, va = _flag_value(b, flag.split("=", 1)[0]), _flag_value(a, flag.split("=", 1)[0])
                if vb and va and vb != va and not re.search(r"[/\\]|^\d+$", vb + va) and len(va) <= 40:
                    tool = f"{b.prog} {b.sub}".strip()
                    scope = ACTIVITIES.get(b.activity) or f"running `{tool}` commands"
                    return Redo("value", scope, b.text, a.text, f"{flag} {va}", f"{flag} {vb}",
                                f"always pass `{flag} {va}` to `{tool}`, never `{flag} {vb}`.",
                                words=_tokens(va, vb, flag))
    return None


_IMPORT = re.compile(r"""(?:from\s+['"]([@\w./-]+)['"]|require\(\s*['"]([@\w./-]+)['"]\s*\)|^\s*import\s+['"]([@\w./-]+)['"]"""
                     r"""|^\s*(?:from|import)\s+([A-Za-z_][\w.]*))""", re.M)


# C#'s `using System.Text.Json;`: the namespace whole (its first part, `System`, names no library)
_USING = re.compile(r"^\s*using\s+(?:static\s+)?([A-Z][\w]*(?:\.[A-Z]\w*)+)\s*;", re.M)


def _imports(text: str) -> set[str]:
    out = set()
    full = {m.group(1) for m in _USING.finditer(text)}
    for m in _IMPORT.finditer(text):
        name = next(g for g in m.groups() if g)
        if not name.startswith("."):
            out.add(name.split("/")[0] if not name.startswith("@") else "/".join(name.split("/")[:2]))
    return {n.split(".")[0] for n in out} | full


_PKG_WORDS = frozenset({"package", "packages", "pkg"})  # `dotnet add package X`: no package's name


_FIELD = re.compile(r"^([A-Za-z_][\w-]*):([A-Za-z_][\w.]*)")


def _typed_redo(before, after, bcmds, acmds) -> Redo | None:
    """The same generator run again with a field's type changed (`rails g model Invoice total:float`
    → `… total:decimal{12,2}`): the type is the choice, the command and the field are this task's."""
    for b in reversed(bcmds):
        for a in acmds:
            if a.prog != b.prog or len(a.words) != len(b.words) or len(a.words) < 3:
                continue
            diff = [(x, y) for x, y in zip(b.words, a.words, strict=True) if x != y]
            if len(diff) != 1:
                continue
            mx, my = _FIELD.match(diff[0][0]), _FIELD.match(diff[0][1])
            if not (mx and my and mx.group(1) == my.group(1) and mx.group(2).lower() != my.group(2).lower()):
                continue
            gone, came = mx.group(2), my.group(2)
            return Redo("api", f"running `{' '.join(b.words[:2])}`", gone, came, came, gone,
                        f"always use `{came}`, never `{gone}`.", standing=True, words=_tokens(gone, came, a.text),
                        gone=(gone,), came=(came,))
    return None


def _installed_instead(acmds: list[Cmd], removed: Cmd, installed: set[str]) -> str:
    """The one package installed right after ``removed`` took another out (`npm uninstall moment
    && npm install date-fns`): one library instead of the other."""
    got = [w for c in acmds[acmds.index(removed) + 1:] if c.activity == "install"
           for w in c.args if w not in installed and w not in _PKG_WORDS]
    names = list(dict.fromkeys(re.sub(r"(?<=.)@[^/]*$|[=<>~^].*$", "", w) for w in got))
    return names[0] if len(names) == 1 else ""


def _new_import(before: list[Act], after: list[Act], gone: str) -> str:
    """The one library the rewritten code imports that the agent's first version did not."""
    old = set().union(*(_imports(a.new) for a in before if a.kind in ("edit", "write"))) if before else set()
    new = set().union(*(_imports(a.new) for a in after if a.kind in ("edit", "write"))) if after else set()
    came = sorted(new - old - {gone})
    return came[0] if len(came) == 1 else ""


def _undo_redo(before, after, bcmds, acmds) -> Redo | None:
    installed = {w for c in bcmds if c.activity == "install" for w in c.args}
    edited = {a.path for a in before if a.kind in ("edit", "write") and a.path}
    for c in acmds:
        if c.activity == "remove" and set(c.args) & installed - _PKG_WORDS:
            gone = sorted(set(c.args) & installed - _PKG_WORDS)[0]
            instead = _new_import(before, after, gone) or _installed_instead(acmds, c, installed)
            if not instead:
                # the package taken out and the code rewritten on something it did not need
                # (`cargo remove lazy_static`, then `LazyLock::new`): the API the rewrite brought in
                code = _code_redo(before, after, bcmds, acmds)
                if code is not None and code.came:
                    return Redo("api", code.scope, gone, code.after, code.use, gone,
                                f"always use `{code.use}`, never `{gone}`.", standing=code.standing,
                                words=code.words | _tokens(gone), gone=tuple(dict.fromkeys((gone, *code.gone))),
                                came=code.came, dropped=gone)
            if instead:
                # the package taken out and the code rewritten on another library: one instead of the other
                return Redo("swap", "choosing libraries in this project", gone, instead, instead, gone,
                            f"always use {instead}, never {gone}.", words=_tokens(c.text, gone, instead))
            return Redo("undo", "", " ".join(sorted(installed)), c.text, standing=False,
                        words=_tokens(c.text, *installed))
        if c.prog == "git" and c.sub in ("revert", "reset", "restore", "checkout", "stash"):
            if c.sub in ("revert", "reset") or set(c.args) & edited or "--" in c.words:
                return Redo("undo", "", "the last change", c.text, standing=False, words=_tokens(c.text))
        if c.prog == "rm" and set(c.args) & edited:
            moved = _library_moved(before, after) or _generated_instead(before, acmds, c)
            if moved is not None:
                return moved
            return Redo("undo", "", " ".join(sorted(edited)), c.text, standing=False, words=_tokens(c.text))
    for a in after:
        if a.kind != "edit":
            continue
        for b in before:
            if b.kind in ("edit", "write") and b.path == a.path and b.new.strip() and a.old.strip() and (
                    a.old.strip() in b.new or b.new.strip() in a.old) and (
                    b.kind == "edit" and b.old.strip() and _lines_in(b.old, a.new)) and not _rewritten(b.old, a.new):
                return _put_back(b) or Redo("undo", "", f"the edit of {b.path}", f"put back in {a.path}",
                                            standing=False, words=_tokens(b.old, b.new, a.path))
    return None


_WRITERS = {"printf", "echo", "cat", "tee", "cp", "mv", "touch", "mkdir", "chmod", "git", "ls"}


def _generated_instead(before: list[Act], acmds: list[Cmd], removed: Cmd) -> Redo | None:
    """The file the agent wrote by hand taken away and a program run to make it (`rm
    src/gql/types.ts && npx graphql-codegen`, `rm shell.nix && nix develop`, `rm .git/hooks/pre-commit
    && pre-commit install`): the program is the way, the hand-written file is not."""
    written = [a.path for a in before if a.kind == "write" and a.path in removed.args]
    rest = [c for c in acmds[acmds.index(removed) + 1:] if c.prog not in _WRITERS and c.prog != "rm"]
    if not written or not rest or rest[0].activity or rest[0].prog in _PKG or set(rest[0].words) & (_TEARDOWN | _TAKE_BACK):
        # (`rm pix.go && go build ./...`: the build checks what is left, it makes nothing)
        return None
    path = written[0]
    words = _plumbing_off(list(rest[0].words))[:5]
    stem = _fold(_stem(path))
    # the generator without this task's name (`bin/rails g data_migration`, not `… backfill_invoice_currency`)
    cut = next((i for i, w in enumerate(words) if i >= 1 and len(stem) >= 4 and stem in _fold(w)), len(words))
    run = " ".join(words[:max(cut, 1)])
    folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    scope = f"creating files under `{folder}`" if folder else f"creating {path.rsplit('/', 1)[-1]}"
    return Redo("swap", scope, path, rest[0].text, run, path,
                f"always use `{run}`, never write them by hand." if folder else f"always use `{run}`, never write `{path}` by hand.",
                words=_tokens(path, rest[0].text))


def _put_back(b: Act) -> Redo | None:
    """The agent's edit taken back whole after the person spoke: what it replaced is what stays
    (`npm ci` put back for `npm install`), what it added is what not to add (`package-lock.json`
    in `.gitignore`). Only a small edit says so; a large one is work undone, not a choice."""
    old_w, new_w = _WORD.findall(b.old), _WORD.findall(b.new)
    kept = [w for w in dict.fromkeys(old_w) if w not in new_w]
    added = [w for w in dict.fromkeys(new_w) if w not in old_w]
    if not added or len(added) > 2 or len(kept) > 2 or len(b.old.splitlines()) > 5:
        return None
    old_lines = {ln.strip() for ln in b.old.splitlines()}
    new_lines = [ln.strip() for ln in b.new.splitlines() if ln.strip() and ln.strip() not in old_lines]
    scope = _code_scope(b.path)
    if kept:
        x, y = " ".join(kept), " ".join(added)
        # the whole phrase when one word changed in a command (`npm ci`, not `ci`)
        for ln in old_lines:
            if kept[0] in ln:
                xs = ln.split()
                i = next((k for k, w in enumerate(xs) if kept[0] in w), 0)
                if i:
                    x, y = " ".join(xs[max(0, i - 1):i + 1]), " ".join([xs[i - 1], *added])
                break
        if re.search(r"[\"'()\[\]{}=]", x + y):
            return None  # code, not a word put back: the edit undone, nothing to name
        return Redo("keep", scope, y, x, x, y, f"always use `{x}`, never `{y}`.", standing=True,
                    words=_tokens(*kept, *added), gone=tuple(added), came=tuple(kept))
    if len(new_lines) == 1:
        line, name = new_lines[0], b.path.rsplit("/", 1)[-1]
        return Redo("keep", f"editing {name}", line, "", "", line, f"never add `{line}` to `{name}`.",
                    standing=True, words=_tokens(*added), gone=tuple(added))
    return None


_IMPORT_LINE = re.compile(r"^\s*(?:from\s+\S+\s+import\b|import\b|use\s+[\w:\\]+|require\(|#include\b|using\s+[\w.]+;)")


def _only_imports(code: str) -> bool:
    lines = [ln for ln in code.splitlines() if ln.strip()]
    return bool(lines) and all(_IMPORT_LINE.match(ln) for ln in lines)


def _lines_in(part: str, whole: str) -> bool:
    """Every line of ``part`` is a whole line of ``whole`` (`import datetime` is not put back by
    `import datetime, timezone`)."""
    lines = {ln.strip() for ln in whole.splitlines()}
    return all(ln.strip() in lines for ln in part.splitlines() if ln.strip())


def _rewritten(original: str, now: str) -> bool:
    """The edit put the original back *and* wrote other code beside it (log4j's imports → slf4j's):
    a rewrite, not an undo."""
    kept = {ln.strip() for ln in original.splitlines() if ln.strip()}
    return len([ln for ln in now.splitlines() if ln.strip() and ln.strip() not in kept]) >= 2


def _library_moved(before: list[Act], after: list[Act]) -> Redo | None:
    """The agent's file taken away and another written on another library (`rm userSlice.ts`, then
    `user.ts` with `import { create } from 'zustand'`): one library instead of the other."""
    old = set().union(set(), *(_imports(a.new) for a in before if a.kind in ("edit", "write")))
    new = set().union(set(), *(_imports(a.new) for a in after if a.kind in ("edit", "write")))
    gone, came = sorted(old - new), sorted(new - old)
    if len(came) != 1 or not gone:
        return None
    path = next(a.path for a in after if a.kind in ("edit", "write") and came[0] in _imports(a.new))
    return Redo("api", _code_scope(path), gone[0], came[0], came[0], gone[0], f"always use `{came[0]}`, never `{gone[0]}`.",
                standing=True, words=_tokens(*gone, *came), gone=tuple(gone), came=tuple(came))


# What a code change swaps: a dotted name (`os.path.join`), a call (`drop_column(`), a format verb
# (`%w`), an SQL keyword or type (`SERIAL`).
_API = re.compile(r"@[A-Z]\w+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|%[a-zA-Z]\b|\b[A-Z][A-Z_]{3,}\b|\$?\b[A-Za-z_]\w{2,}(?=\()")


_WORD = re.compile(r"[A-Za-z_][\w.:/@-]*\w|%[a-zA-Z]\b")


def _api_tokens(text: str) -> list[str]:
    seen: list[str] = []
    for t in _API.findall(text):
        if t not in seen:
            seen.append(t)
    return seen


def _code_scope(path: str) -> str:
    kind = next((v for pat, v in _KIND_OF if re.search(pat, path)), "")
    if kind:
        return kind
    lang = next((v for k, v in _LANG_OF.items() if path.endswith(k)), "")
    if path.endswith((".sh", ".bash")):
        return "writing shell scripts"
    if path.rsplit("/", 1)[-1].startswith("Dockerfile"):
        return "writing Dockerfiles"
    if lang == "SQL" or "migration" in path:
        return "writing SQL and migrations"
    return f"writing {lang} code" if lang else "editing code"


# A language's own words: a `switch`/`case` rewritten to a lookup swaps no API ("never `case`").
_SYNTAX = frozenset("""case switch if else elif for while do return function const let var new try catch
finally throw await async yield def class import export from default break continue in of is not and or
with as pass lambda struct enum interface type public private protected static void val fun func go defer
select where then end begin match when""".split())


def _made_by(name: str, after: list[Act]) -> str:
    """`feedClient.Get` where the same redo defines `var feedClient = &http.Client{Timeout: …}`: what
    the code now uses is `http.Client` — the code's own variable is named by what makes it."""
    if "." not in name:
        return ""
    root = name.split(".", 1)[0]
    made = "\n".join(a.new.replace(a.old, "") for a in after if a.kind in ("edit", "write"))
    m = re.search(rf"\b{re.escape(root)}\s*(?::=|=)\s*&?(?:new\s+)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*[({{]", made)
    return m.group(1) if m else ""


def _kwargs_put_in(old: str, new: str) -> str:
    """The keyword arguments an edit of one line only inserted into a call (`, httponly=True,
    secure=True`), or ""."""
    if old.count("\n") > 1 or new.count("\n") > 1 or len(new) <= len(old):
        return ""
    p = len(os.path.commonprefix([old, new]))
    q = len(os.path.commonprefix([old[p:][::-1], new[p:][::-1]]))
    inserted = new[p:len(new) - q]
    m = re.fullmatch(r"\s*,?\s*((?:[A-Za-z_]\w*\s*=\s*[\w.\"'\[\]-]+)(?:\s*,\s*[A-Za-z_]\w*\s*=\s*[\w.\"'\[\]-]+){0,3})\s*,?\s*",
                     inserted)
    return m.group(1) if m and old[p:len(old) - q].strip() == "" else ""


def _code_redo(before, after, bcmds, acmds) -> Redo | None:
    """An edit of code the agent had just written that swaps one API for another
    (`os.path.join` → `Path /`, `drop_column` → `alter_column`, `%v` → `%w`) or adds one short
    line or keyword to it (`set -euo pipefail`, `CONCURRENTLY`)."""
    wrote = "\n".join(a.new for a in before if a.kind in ("edit", "write"))
    if not wrote:
        return None
    written = {a.path: a.new for a in before if a.kind == "write" and a.path}
    touched = {a.path for a in before if a.kind in ("edit", "write") and a.path}
    # an edit of the imports alone comes last: the change they serve is in another edit, if any
    for a in sorted(after, key=lambda x: x.kind == "edit" and _only_imports(x.old) and _only_imports(x.new)):
        if a.kind == "write" and a.path in written:  # the same file written again: its difference
            a = Act("edit", path=a.path, old=written[a.path], new=a.new)
        if a.path and touched and a.path not in touched:
            continue  # another file: the same change made elsewhere is more work, not the code redone
        if a.kind != "edit" or not a.old.strip() or a.old.strip() not in wrote and not any(
                ln.strip() and ln.strip() in wrote for ln in a.old.splitlines()):
            continue

        old_t, new_t = _api_tokens(a.old), _api_tokens(a.new)
        gone = [t for t in old_t if t not in new_t]
        came = [t for t in new_t if t not in old_t]
        scope = _code_scope(a.path)
        if not (gone and came) and len(a.old.splitlines()) <= 5:
            # no API name changed: the words of a short edit (`node:latest` → `node:20-alpine`,
            # `any` → `unknown`, `except Exception: pass` → `except ValueError:`)
            old_w, new_w = _WORD.findall(a.old), _WORD.findall(a.new)
            gone = [w for w in dict.fromkeys(old_w) if w not in new_w and w not in _SYNTAX]
            came = [w for w in dict.fromkeys(new_w) if w not in old_w and w not in _SYNTAX]
        kwargs = _kwargs_put_in(a.old, a.new)
        if kwargs:
            # keyword arguments put into the call it had just written (`httponly=True, secure=True`)
            line = next((ln.strip() for ln in a.new.splitlines() if kwargs in ln), kwargs)
            return Redo("add", _code_scope(a.path), a.old.strip()[:60], line, kwargs, "", f"always write `{kwargs}`.",
                        words=_tokens(kwargs))
        if len(gone) == 1 and len(came) > 1:
            # one class for another of its family (`RestTemplate` → `RestClient.Builder`): that one first
            root = gone[0].split(".")[0]
            kin = [c for c in came if c.split(".")[0] != root and len(os.path.commonprefix([c.split(".")[0], root])) >= 4]
            if kin:
                came = [kin[0].split(".")[0]] + [c for c in came if c != kin[0]]
                came = came[:1] + [c for c in came[1:] if c.split(".")[0] != came[0]][:2]  # the rest is its use
        if gone and came and not any(_fold(g) == _fold(c) for g in gone for c in came):
            # the library the new code imports is what it uses (`from 'date-fns'`), after its names
            came += [m for m in sorted(_imports(a.new) - _imports(a.old) - _imports(wrote)) if m not in came]
            # … and the one it no longer imports is what it stopped using (`import pandas as pd`)
            gone += [m for m in sorted(_imports(a.old) - _imports(a.new)) if m not in gone and m not in came]
            x, y = gone[0], came[0]
            made = _made_by(y, after)
            y = came[0] = made or y
            new_lines = {ln.strip() for ln in a.new.splitlines()}
            changed = [ln for ln in a.old.splitlines() if ln.strip() and ln.strip() not in new_lines]
            # the names on the lines it changed: "that comparison with created_at blows up" points
            # at the edit of `if obj.created_at < datetime.now()` without naming either API
            context = tuple(n for n in dict.fromkeys(_IDENT.findall("\n".join(changed)))
                            if len(n) >= 4 and re.search(r"[_0-9]|[a-z][A-Z]", n) and n not in gone)
            return Redo("api", scope, x, y, y, x, f"always use `{y}`, never `{x}`.",
                        standing=len(gone) <= 3 and len(came) <= 3, words=_tokens(*gone, *came, *context),
                        gone=tuple(gone), came=tuple(came), context=context, code=(a.old, a.new), library=bool(made),
                        modules=tuple(sorted(_imports(wrote) | _imports(a.old) | _imports(a.new))))
        old_lines = {ln.strip() for ln in a.old.splitlines() if ln.strip()}
        added = [ln.strip() for ln in a.new.splitlines() if ln.strip() and ln.strip() not in old_lines]
        removed = [ln for ln in old_lines if ln not in {x.strip() for x in a.new.splitlines()}]
        if not gone and came and len(came) <= 2 and len(added) == 1 and len(removed) == 1:
            line = added[0]
            i = line.find(came[0])
            # the words just before it that belong to it (`git tag -a`, `ON DELETE CASCADE`), not the
            # punctuation of the code around it (`...( features.enabled`, `env.JWT_SECRET, { expiresIn`)
            lead: list[str] = []
            for w in reversed(line[:i].split()[-2:]):
                if not re.fullmatch(r"[A-Za-z_@$][\w.@$-]*", w):
                    break
                lead.insert(0, w)
            what = " ".join(lead + [came[0]])
            # the names on the line it changed: "user html straight into dangerouslySetInnerHTML"
            # points at `DOMPurify.sanitize(…)` added inside `dangerouslySetInnerHTML={{…}}`
            full = "\n".join(ln for ln in wrote.splitlines() if removed[0] in ln) or removed[0]
            context = tuple(n for n in dict.fromkeys(_IDENT.findall(full))
                            if len(n) >= 6 and re.search(r"[0-9]|[a-z][A-Z]|\w_\w", n))
            return Redo("add", scope, removed[0][:60], line[:60], what, "", f"always write `{what}`.",
                        words=_tokens(*came), context=context)
        if not removed and len(added) == 1 and len(added[0]) <= 60 and not added[0].startswith(("#", "//", "--")):
            return Redo("add", scope, "", added[0], added[0], "", f"always include `{added[0]}`.",
                        words=_tokens(added[0]))
    return None


_FORMATS = {"json": "JSON", "yaml": "YAML", "yml": "YAML", "toml": "TOML", "ini": "INI", "cfg": "INI", "xml": "XML",
            "env": "dotenv", "properties": "properties", "js": "JavaScript", "mjs": "JavaScript", "cjs": "JavaScript",
            "ts": "TypeScript", "mts": "TypeScript", "jsx": "JavaScript", "tsx": "TypeScript", "py": "Python",
            "sh": "shell", "md": "Markdown", "rst": "reStructuredText", "csv": "CSV", "parquet": "Parquet"}


def _file_reformatted(src: str, dst: str) -> Redo | None:
    """A file the agent made, taken away and written again in another format beside it
    (`config/worker.json` → `config/worker.yaml`): which format files are in here."""
    (sd, _, sf), (dd, _, df) = src.rpartition("/"), dst.rpartition("/")
    (s_stem, _, s_ext), (d_stem, _, d_ext) = sf.rpartition("."), df.rpartition(".")
    if sd != dd or s_stem != d_stem or not s_ext or not d_ext or s_ext == d_ext:
        return None
    old, new = _FORMATS.get(s_ext.lower()), _FORMATS.get(d_ext.lower())
    if not old or not new or old == new:
        return None
    config = {s_ext, d_ext} <= {"json", "yaml", "yml", "toml", "ini", "cfg", "xml", "env", "properties"}
    scope = "writing config files" if config else f"adding {new} files"
    return Redo("rename", scope, sf, df, new, old, f"always write them in {new} (`{df}`), never {old} (`{sf}`).",
                words=_tokens(src, dst, new, old, "format config"))


def _file_restyled(src: str, dst: str) -> Redo | None:
    """A file the agent made, renamed in another case style in the same folder (`RelativeDate.ts`
    → `relative-date.ts`): how files are named here, not this task's file."""
    (sd, _, sf), (dd, _, df) = src.rpartition("/"), dst.rpartition("/")
    (s_stem, _, s_ext), (d_stem, _, d_ext) = sf.partition("."), df.partition(".")
    if sd != dd or s_ext != d_ext or s_stem == d_stem or _fold(s_stem) != _fold(d_stem):
        return None
    s_old, s_new = case_style(s_stem), case_style(d_stem)
    if not s_old or not s_new or s_old == s_new:
        return None
    lang = next((v for k, v in _LANG_OF.items() if sf.endswith(k)), "")
    return Redo("rename", f"naming {lang} files".replace("  ", " "), sf, df, s_new, s_old,
                f"always name files in {s_new} (`{df}`), never {s_old} (`{sf}`).",
                words=_tokens(src, dst, "name named naming file files filename filenames"))


def _target_redo(before, after, bcmds, acmds) -> Redo | None:
    """The same kind of action on another file: "no, the other file"."""
    bpaths = {a.path for a in before if a.kind in ("edit", "write") and a.path}
    apaths = {a.path for a in after if a.kind in ("edit", "write") and a.path}
    made = {a.path for a in before if a.kind == "write" and a.path}
    for p in sorted(made):
        for q in sorted(apaths - bpaths):
            restyled = _file_restyled(p, q)
            if restyled is not None:
                return restyled
    if bpaths and apaths and not bpaths & apaths:
        b, a = sorted(bpaths)[0], sorted(apaths)[0]
        ext = lambda p: p.rsplit(".", 1)[-1] if "." in p.rsplit("/", 1)[-1] else ""  # noqa: E731
        if ext(a) == ext(b):
            return Redo("target", "working on this task's files", b, a, a, b, standing=False,
                        words=_tokens(b, a))
    return None


# Programs that only look (a look after an action is more work or a check, never the action redone).
_LOOK_PROGS = {"ls", "cat", "head", "tail", "grep", "rg", "find", "less", "more", "wc", "echo", "pwd", "which",
               "file", "stat", "du", "df", "tree", "diff", "sleep", "true", "date", "whoami", "env", "printenv",
               "curl", "wget", "ping", "dig", "nslookup", "jq", "yq", "cd", "test", "[", "type", "man"}


_AFTERCARE = {"edit", "comment", "merge", "close", "reopen", "ready", "review", "label", "checks", "wait", "watch"}
_REMOVING = {"-r", "--remove", "--delete", "-D", "--uninstall", "--purge", "--rm"}


def _looks(c: Cmd) -> bool:
    plain = _plain_words(c)
    if c.prog in _LOOK_PROGS or set(c.words[1:2]) & {"--version", "-V", "version", "--help", "-h", "help"}:
        return True
    if c.prog == "tar" and any(re.fullmatch(r"-?[a-z]*t[a-z]*", w) or w == "--list" for w in c.words[1:2]):
        return True  # `tar -tzf`: a look at what was packed
    return bool(plain[:1]) and plain[0] in _LOOKS or c.prog == "git" and c.sub in (
        "status", "log", "diff", "show", "fetch", "branch", "remote", "ls-files", "blame", "stash")


def _what_tokens(c: Cmd) -> set[str]:
    """The things a command acts on, cut to their parts (`registry.acme.fr/api:1.8.0` → acme, api …)."""
    out: set[str] = set()
    for w in _plain_words(c)[0:] + [w.split("=", 1)[1] for w in c.words if w.startswith("-") and "=" in w]:
        for p in re.split(r"[/=:.,@'\"\s;&|()+-]+", w.lower()):
            if len(p) >= 3 and not p.isdigit() and p not in COMMON_WORDS:
                out.add(p)
    return out


def _replace_redo(before, after, bcmds, acmds) -> Redo | None:
    """The agent's command done another way right after — another program, subcommand or options
    for the same job (`kubectl apply -f k8s/base/` → `kubectl apply -k k8s/overlays/staging`,
    `pip install openpyxl` → openpyxl put in requirements.in and `pip-compile`, `dbt run` →
    `dbt run --select +orders`) — when no finder above names the difference more narrowly. The first
    way is not run again; only the things acted on changing (another file, another bucket) is no
    other way, but this task's target. What lasts of it is the redo's: "use this, not that"."""
    bs = [c for c in bcmds if not _looks(c) and not _undoes(c, [])][-2:]
    if not bs or not acmds:
        return None
    edits = " ".join(a.new for a in after if a.kind in ("edit", "write")).lower()
    for k, b in enumerate(reversed(bs)):
        if any(c.text == b.text for c in acmds):
            continue  # the first way run again: more work around it, not another way
        btok = _what_tokens(b)
        for a in acmds:
            if _looks(a) or _undoes(a, before) or a.prog in ("rm", "mv", "cp", "mkdir", "touch", "chmod", "git") \
                    or k and a.prog != b.prog:
                # (a commit and push after: the work's next step; another program for an earlier
                # command than the one the person reacted to: the work going on)
                continue
            same_prog = a.prog == b.prog
            ha, hb = _head(a), _head(b)
            added = set(a.flags) - set(b.flags)
            # (a short flag is this task's only for a test run: `pytest -k payment`, not `kubectl apply -k`)
            task = {f for f in _TASK_FLAGS if f.startswith("--")} | (_TASK_FLAGS if b.activity == "test" else set())
            if set(_plain_words(a)[:2]) & (_TAKE_BACK | _TEARDOWN | _AFTERCARE) or same_prog and added and (
                    added <= task | _TASK_VALUE_FLAGS | _REMOVING):
                # something taken away, the thing just made looked after (`gh pr edit 77`), a run
                # narrowed to this task's tests (`-k payment`): no other way of doing the work
                continue
            if same_prog:
                pa, pb = _plain(ha)[1:], _plain(hb)[1:]
                if a.sub != b.sub or pa[:len(pb)] != pb and pb[:len(pa)] != pa:
                    continue  # another subcommand: the work's next step (`git push` after `git tag`)
                if _plain(ha)[:2] == _plain(hb)[:2] and set(a.flags) == set(b.flags):
                    continue  # the same way on other things: this task's target, or more work
                if not added:
                    continue  # only options taken off, or other things: a narrower run, no way to keep
            elif not (btok & _what_tokens(a) or any(t in edits for t in btok if len(t) >= 4)
                      or a.activity and a.activity == b.activity and not (btok and _what_tokens(a))):
                # (the same activity on other things — `pnpm add zod` after `npm install dayjs` — is more work)
                continue  # another program on other things: the next step of the work
            use, avoid = " ".join(ha), " ".join(hb)
            if use == avoid:
                continue
            example = " ".join(a.text.split())
            example = example if len(example) <= 90 else example[:90].rsplit(" ", 1)[0] + " …"
            shown = f" (as in `{example}`)" if example != use else ""
            tail = f"never a bare `{avoid}`" if use.startswith(avoid) else f"never `{avoid}`"
            scope = ACTIVITIES.get(b.activity, "") or f"running `{b.tool}`"
            return Redo("replace", scope, b.text, a.text, use, avoid, f"always use `{use}`{shown}, {tail}.",
                        words=_tokens(b.text, a.text))
    return None


# -- does the person's message point at it -----------------------------------------------------

# The files a tool keeps: a person naming one points at the tool.
_OWN_FILES: dict[str, tuple[str, ...]] = {
    "npm": ("package-lock.json",), "pnpm": ("pnpm-lock", "pnpm-workspace"), "yarn": ("yarn.lock", ".yarnrc"),
    "bun": ("bun.lock", "bunfig"), "pip": ("requirements",), "pipenv": ("pipfile",), "poetry": ("poetry.lock",),
    "uv": ("uv.lock",), "bundle": ("gemfile",), "gem": ("gemfile",), "composer": ("composer.json", "composer.lock"),
    "cargo": ("cargo.toml", "cargo.lock"), "go": ("go.mod", "go.sum"), "gradlew": ("gradle-wrapper", "gradlew"),
    "./gradlew": ("gradle-wrapper", "gradlew"), "mvnw": ("mvnw", "maven-wrapper"), "conda": ("environment.yml",),
    "make": ("makefile",), "just": ("justfile",), "docker": ("dockerfile", "compose.y"), "helm": ("chart.yaml", "values"),
}


def points_at(redo: Redo, text: str) -> bool:
    """Whether ``text`` names something of either action (a program, package, flag, name, path,
    the kind of thing renamed) — the person's words and the redo agree on what was wrong."""
    said = _tokens(text)
    if said & redo.words:
        return True
    # "sign-off" for `--signoff`, "pre commit" for `pre-commit`: the same word hyphenated or not
    if {w.replace("-", "") for w in said if len(w) >= 5} & {w.replace("-", "") for w in redo.words}:
        return True
    # the lockfile or manifest of either tool ("the Gemfile.lock didn't change", "there's a Pipfile")
    if redo.kind == "swap":
        low_text = text.lower()
        for tool in (redo.use, redo.avoid):
            prog = tool.strip("`").split()[0].rsplit("/", 1)[-1].lower() if tool.strip("`").split() else ""
            if any(f in low_text for f in _OWN_FILES.get(prog, ())):
                return True
    # a short tool name the words use as a word ("uv", "go", "bun"): what the redo uses or dropped
    for name in (redo.use, redo.avoid):
        name = name.strip("`").split()[0] if name.strip("`").split() else ""
        if 2 <= len(name) < 3 and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I):
            return True
    # the same word in another form: "assertion" for `assert`, "migrations" for `migrate`
    if any(len(a) >= 5 and len(b) >= 5 and (a.startswith(b[:6]) or b.startswith(a[:6]))
           for a in said for b in redo.words):
        return True
    low = text.lower()
    if redo.kind == "rename" and re.search(
            r"nam(?:e|ed|ing)|style|convention|case|nom(?:m|s|e|i|bre)?\b|nomenclat|benenn|heißen|heissen|chiamat|chamad|"
            r"appel|llamad|estilo|stile|"
            r"schreibweise|命名|名字|名前|命名規則|camel|snake|pascal|kebab", low):
        return True
    if redo.kind == "commit" and re.search(r"commit|messag|mensag|nachricht|提交|コミット|trailer|co-?author", low):
        return True
    if redo.kind == "branch" and re.search(r"branch|rama|ramo|branche|zweig|分支|ブランチ", low):
        return True
    if redo.kind == "move" and re.search(r"folder|director|dir\b|cartella|pasta|dossier|carpeta|ordner|verzeichnis"
                                         r"|目录|文件夹|フォルダ|ディレクトリ|lives?\b|belongs?|goes\b|go in", low):
        return True
    return False


# A follow-up request: the person wants more, not something else ("great, now make it async").
_FOLLOW_UP = re.compile(
    r"^\s*(?:great|perfect|nice|cool|awesome|thanks|thank you|thx|ok(?:ay)?[,!.]\s*(?:now|also|next)|lgtm|"
    r"looks good|good|excellent|ottimo|perfetto|grazie|bene|perfeito|ótimo|obrigad[oa]|valeu|parfait|"
    r"merci|super|génial|genial|perfecto|gracias|excelente|danke|prima|klasse|toll|super|"
    r"好的|完美|不错|谢谢|很好|いいね|完璧|ありがとう|了解)\b"
    r"|\b(?:while you'?re at it|ya que estás|ya que estamos|già che ci sei|pendant que tu y es|wo du schon dabei bist"
    r"|wenn du schon dabei bist|já que (?:você )?(?:está|tá) (?:nisso|aí))"
    r"|\b(?:also|as well|too|additionally|in addition|anche|inoltre|também|tambem|aussi|également|también"
    r"|además|auch|außerdem|zusätzlich)\b|也|还要|另外|ついでに|あと、|も追加"
    # "now the same for the profile screen": the same work again, elsewhere
    r"|\b(?:the same (?:for|on|with)|same thing for|lo stesso per|la stessa cosa per|la même chose pour|pareil pour"
    r"|lo mismo (?:para|con|en)|o mesmo (?:para|com|no|na)|das gleiche für|dasselbe für|genauso für)\b"
    r"|同样的|一样的处理|同じように|同じことを",
    re.I)


def follow_up(text: str) -> bool:
    return bool(_FOLLOW_UP.search(text or ""))


# "redo it with --no-cache", "rifallo con …", "重新 build 一下，加 …": a request for this run, not a rule
_RERUN = re.compile(
    r"\b(?:re-?run|redo|run (?:it|that|them) again|run (?:it|that|them) with|again with|try again|rebuild|rifa(?:rlo|rla|re|llo|lla|i)|rilancia|ripeti"
    r"|refa(?:z|ça|ire|is)|relance|recommence|rehaz(?:lo)?|vuelve a (?:correr|lanzar|ejecutar)\w*|repite|nochmal|erneut|wiederhol"
    r"|one more (?:run|time)|another run|once more|(?:otra|una) (?:vez|corrida|pasada)|de nuevo|córre\w*|mais uma|roda de novo"
    r"|encore une fois|un autre run|noch (?:ein(?:en)?|mal) (?:lauf|durchlauf|run)|ancora una volta|un altro giro"
    r"|to compare|for comparison|zum vergleich|pra comparar|para comparar|per confronto|pour comparer)\b"
    r"|重新|再跑|跑一组|再来一次|再[^，。！？,\s]{0,6}一(?:次|遍)|对比|もう一度|もう一回|やり直|再実行|比較", re.I)
# A run asked for to compare: an experiment, not a correction ("换成 16 个 worker 再压一次，对比一下")
COMPARE = re.compile(r"\b(?:to compare|for comparison|zum vergleich|pra comparar|para comparar|per confronto|pour comparer"
                     r"|per confrontare|um zu vergleichen)\b|对比|比较|比較|比べ", re.I)


# A question that asks how, or what something means: the agent's other run shows, it corrects nothing.
HOW_ASKED = re.compile(
    r"\b(?:how (?:do|can|would|should) (?:i|you|we|one)|how to|what (?:does|do) .{1,40} mean|what is|what's"
    r"|come (?:si|faccio|posso)|cosa (?:vuol dire|significa)|comment (?:on|je|faire|fait-on)|qu'est-ce que"
    r"|ça veut dire|wie (?:kann|mache|geht|macht man)|was (?:bedeutet|heißt)|cómo (?:se|puedo|hago)"
    r"|qué (?:significa|quiere decir)|como (?:eu|faço|se faz)|o que (?:quer dizer|significa))\b"
    r"|怎么(?:看|查|做|弄|用)|如何|什么意思|是什么|どうやる|どうすれば|どうやって|どういう意味|方法", re.I)
# A command whose success says nothing: its exit code masked, or its checks switched off.
_MASKED = re.compile(r"\|\|\s*(?:true|:|exit\s+0|echo\b)|;\s*(?:true|exit\s+0)\s*$|\bset\s+\+e\b"
                     r"|--no-verify\b|\bHUSKY=0\b|\bSKIP=\S|--exit-zero\b|--no-fail\b|-o\s+errexit\s*=\s*false", re.M)


def masked(command: str) -> bool:
    """Whether ``command`` passes whatever happens (`|| true`, `; true`, `set +e`, a skipped check)."""
    return bool(_MASKED.search(command or ""))


def asked_for(words: Iterable[str], previous: Turn | None) -> bool:
    """The person's previous message named one of ``words`` (what the agent now takes out again):
    they had asked for it. A whole word, three letters at least."""
    said = (previous.user_text or "") if previous is not None and previous.person else ""
    return bool(said) and any(len(w) >= 3 and re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", said, re.I)
                              for w in words)


def rerun_request(text: str) -> bool:
    return bool(_RERUN.search(text or ""))


# The person's own mistake: "sorry, I pasted the wrong ticket", "falei errado", "こちらの伝え間違い".
_SELF_BLAME = re.compile(
    r"\b(?:my bad|my mistake|my fault|i (?:pasted|gave you|typed|wrote|said|sent|told you) (?:the |a )?wrong|i misread"
    r"|i was (?:on|in|at) the wrong|i(?:'d| had) (?:the |a )?wrong"
    r"|(?:sorry|oops|whoops)[^.!?]{0,30}\b(?:i|my)\b(?! told you)|colpa mia|errore mio|ho sbagliato io|scusa[^.!?]{0,30}\bho\b"
    r"|(?:foi )?(?:erro|culpa) meu|minha culpa|(?:falei|escrevi|digitei|passei|mandei) (?:\w+ )?errad[oa]|eu que (?:digitei|escrevi|falei)"
    r"|me enganei|foi mal\b[^.!?]{0,40}\b(?:escrevi|digitei|falei|passei|mandei)"
    r"|ma faute|mon erreur|je me suis trompé|j'ai (?:collé|donné|tapé) (?:le |la )?mauvais"
    r"|j'ai (?:supprimé|effacé|cassé|changé|modifié|viré)\b[^!?]{0,80}\b(?:désolée?|pardon)"
    r"|(?:désolée?|pardon)[^.!?]{0,30}\bj'ai (?:supprimé|effacé|cassé|changé|modifié|viré)"
    r"|i (?:deleted|removed|broke|changed|dropped|wiped)\b[^!?]{0,80}\b(?:sorry|my bad)\b"
    r"|(?:fue )?culpa mía|error mío|me equivoqué|perdona[^.!?]{0,30}\b(?:era|es)\b|me (?:comí|salté|dejé)\b[^.!?]{0,30}\ben (?:la|el|mi)\b"
    r"|(?:escrib[ií]|puse|pas[eé]|di) mal\b|te (?:pas[eé]|di|puse|mand[eé]|escrib[ií])\b[^.!?]{0,25}\b(?:mal|equivocad[oa]|incorrect[oa]|viej[oa])\b"
    r"|(?:passei|mandei|falei|escrevi|digitei|dei)\b[^.!?]{0,25}\berrad[oa]"
    r"|je (?:t|vous)'ai (?:donné|passé|envoyé|mis|collé|indiqué)[^.!?]{0,25}\b(?:mauvais|mauvaise|faux|fausse|ancien|ancienne)\b"
    r"|ti ho (?:dato|passato|scritto|mandato|incollato)[^.!?]{0,25}\b(?:sbagliat[oaie]|vecchi[oa])\b"
    r"|ich hab(?:e)? (?:dir|euch|ihnen) [^.!?]{0,25}\b(?:falsch\w*|alte[mnrs]?|alt)\b"
    r"|i (?:gave|sent|passed|pasted|told) you (?:the |an? )?(?:wrong|old|outdated)"
    r"|mein fehler|von mir|ich hab(?:e)? mich (?:vertan|geirrt)|sorry, falsch)\b"
    r"|我(?:说|写|给|发|贴|填|传|复制)错|我搞错|我弄错|我的锅|我这边(?:写|给|发)错"
    r"|(?:不好意思|抱歉|对不起|sorry)[^。！？]{0,12}(?:给错|发错|写错|说错|传错|弄错|贴错)|抱歉[^。！？]{0,20}(?:我|看漏)|是我的错"
    r"|(?:伝えた|渡した|書いた|送った|貼った|教えた)[^。！？]{0,15}(?:間違|違って)|こちらの(?:伝え)?(?:間違い|ミス)|私の(?:ミス|間違い)|私の[^。！？]{0,8}(?:間違|ミス)|(?:ごめん|すみません)[^。！？]{0,30}(?:間違えて|でした)"
    r"|我自己(?:把|改|弄|删)|是我(?:改|弄|写)的|自分で(?:変え|直し|消し)", re.I)


def self_blame(text: str) -> bool:
    return bool(_SELF_BLAME.search(text or ""))
