"""The way the person names for the work the agent just did, when the agent has not redone it yet.

"the tests run with tox -e py312" right after the agent ran `python -m pytest`; "jamais sbt direct,
passe par ./sbtx" after `sbt compile`; "it's always bundle exec here" after `rubocop -a`; "tag 要用
git tag -a" after `git tag v1.8.0`. The person's words hold a command; what the agent ran holds the
other: the same job (tests, build, docs, lint) with another tool, the same program through a wrapper
or the project's own script, the same command with a flag it lacked. The difference is the lesson,
exactly as if the agent had redone its work that way (:func:`..redo.find_redo` judges it), so the
words are one source of evidence and the action the other — in any language, since only the command
is read.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .redo import (
    _BUILD_PROGS,
    _DOCS_PROGS,
    _LANG_OF,
    _LINT_PROGS,
    _PKG,
    _RUNNERS,
    _TEST_PROGS,
    _THROUGH,
    ACTIVITIES,
    Act,
    Cmd,
    Redo,
    _fold,
    _tokens,
    _what_named,
    _written_names,
    case_style,
    find_redo,
    parse_cmd,
)

__all__ = ["clause_of", "named_commands", "place_said", "said_redo", "style_said"]

# Words of the person's language that end a command written in a sentence ("make test here", "make
# test e basta", "bundle exec qui").
_PROSE = frozenset("""here there and or the to in on with for it is always never instead please pls only just
direct directly then so that this which because not no
e ed o il lo la le gli di da del per con qui sempre mai solo non invece
et ou le la les de du des pour avec ici toujours jamais seulement pas directement stp svp
und oder der die das den dem mit für hier immer nie nur nicht bitte direkt statt
y el los las del con para aquí siempre nunca solo sin directo
o os as do da com pra aqui nunca só sem direto sempre
""".split())
_LEAD = re.compile(r"^(?:\./)?[A-Za-z][\w.+-]*$")
_FOLLOW = re.compile(r"^(?:-{1,2}[\w][\w=.:/@,+-]*|[a-z0-9][\w.:/@+-]*|:[\w:-]+)$")


# the programs a sentence's command may start with
_KNOWN = frozenset(_PKG | _RUNNERS | _TEST_PROGS | _LINT_PROGS | _BUILD_PROGS | _DOCS_PROGS | {
    "git", "docker", "podman", "kubectl", "helm", "terraform", "go", "cargo", "dotnet", "mvn", "sbt",
    "gradle", "python", "python3", "node", "deno", "bazel", "nix"})


def named_commands(text: str) -> list[str]:
    """Commands written in a sentence: each backticked span, and each run of words that starts with
    a program slowloop knows (or a `./script`) and goes on with flags, paths and subcommands."""
    out = [q.strip() for q in re.findall(r"`([^`\n]{2,80})`", text)]
    # CJK punctuation and letters end a command ("git tag -a 带注释的": the command is `git tag -a`)
    spaced = re.sub(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef，。、：；！？]+", " ¶ ", re.sub(r"`[^`\n]*`", " ", text))
    words = spaced.split()
    i = 0
    while i < len(words):
        w = words[i].strip("\"'()[]")
        lead = w.rstrip(",.;:!?")
        if _LEAD.match(lead) and (lead in _KNOWN or lead.startswith("./")):
            run = [lead]
            j = i + 1
            ended = lead != w
            while not ended and j < len(words) and len(run) < 6:
                nxt = words[j].strip("\"'()[]")
                bare = nxt.rstrip(",.;:!?")
                if not bare or bare.lower() in _PROSE or not _FOLLOW.match(bare):
                    break
                run.append(bare)
                ended = bare != nxt
                j += 1
            out.append(" ".join(run))
            i = j
        else:
            i += 1
    return out


def _wrapper_script(n: Cmd, b: Cmd) -> Redo | None:
    """`./sbtx` for `sbt`, `./gradlew` for `gradle`: the project's own script for the program."""
    script = n.words[0]
    if not script.startswith("./") or n.prog == b.prog or not n.prog.startswith(b.prog) or len(b.prog) < 3:
        return None
    scope = ACTIVITIES.get(b.activity, "") or f"running `{b.prog}`"
    return Redo("swap", scope, b.text, n.text, script, b.prog, f"always use `{script}`, never `{b.prog}`.",
                words=_tokens(b.text, n.text))


def said_redo(before: list[Act], text: str) -> Redo | None:
    """The redo the person's words describe for the agent's last commands, or None."""
    bcmds = [c for a in before if a.kind == "run" for c in [parse_cmd(a.command)] if c]
    if not bcmds:
        return style_said(before, text) or place_said(before, text)
    for said in named_commands(text):
        n = parse_cmd(said)
        if n is None:
            continue
        if len(n.words) == 2 and (n.prog, n.words[1]) in _THROUGH:
            # "it's always bundle exec here": the wrapper alone, for the program the agent ran bare
            b = bcmds[-1]
            if b.prog != n.prog:
                use = f"{said} {b.prog}"
                return Redo("swap", ACTIVITIES.get(b.activity, "") or f"running `{b.prog}`", b.text, use, use, b.prog,
                            f"always use `{use}`, never bare `{b.prog}`.", words=_tokens(b.text, said))
        for b in reversed(bcmds):
            if n.words == b.words[:len(n.words)]:
                continue  # the agent's own command, or a piece of it, named
            extra = [w for w in n.words[1:] if w.startswith("-") and w not in b.words]
            if n.prog == b.prog and n.sub == b.sub and extra and not n.args:
                said = " ".join([*b.words, *extra])  # "git tag -a" for `git tag v1.8.0`: the flag it lacked
            r = _wrapper_script(n, b) or find_redo([Act("run", command=b.text)], [Act("run", command=said)])
            if r is not None and r.kind in ("swap", "flag") and r.standing and r.use:
                if r.kind == "swap" and b.activity not in ("install", "remove") and not r.use.startswith("./"):
                    use = _as_written(n)  # `git pull --rebase`, `tox -e py312`, `make -C docs html`
                    r = replace(r, use=use, rule=f"always use `{use}`, never `{r.avoid}`.")
                return r
    for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]{2,})", text):
        # "--force-with-lease stp": a flag named for the agent's last command that has one like it
        for b in reversed(bcmds):
            like = [w for w in b.words if w.startswith("--") and flag.startswith(w.split("=")[0]) and w != flag]
            if like and flag not in b.words:
                again = " ".join(flag if w == like[0] else w for w in b.words)
                r = find_redo([Act("run", command=b.text)], [Act("run", command=again)])
                if r is not None and r.kind == "flag" and r.standing:
                    return r
    return style_said(before, text) or place_said(before, text)


def _as_written(n: Cmd) -> str:
    """The command as the person wrote it, without this task's operands (`git pull --rebase`, not
    `… origin main`); a runner's target and a flag's value stay (`make -C docs html`, `tox -e py312`)."""
    if n.prog in _RUNNERS or n.words[0].startswith("./"):
        return " ".join(n.words[:5])
    keep = list(n.words[:2]) if n.sub and n.words[1:2] == (n.sub,) else list(n.words[:1])
    for i, w in enumerate(n.words[len(keep):], len(keep)):
        if w.startswith("-") or re.fullmatch(r"-[A-Za-z]", n.words[i - 1]):
            keep.append(w)
        else:
            break
    return " ".join(keep)


def clause_of(text: str, what: str) -> str:
    """The clause of ``text`` that holds ``what`` ("--force-with-lease stp" of "…, someone else
    pushes here too"), or the whole text."""
    head = what.strip("`").split()[0] if what.strip("`").split() else what
    for clause in re.split(r"[.;!?。！？,，]\s*", text):
        if head and head in clause:
            return clause
    return text


# A case style named in words, in the eight languages.
_STYLES = (("kebab-case", r"kebab[- ]?case|ケバブケース|短横线|中划线|连字符"),
           ("SCREAMING_SNAKE_CASE", r"screaming[_ ]snake|upper[_ ]?snake|大写下划线|全大写"),
           ("snake_case", r"snake[_ ]?case|スネークケース|小写下划线|下划线命名|蛇形"),
           ("PascalCase", r"pascal[ ]?case|upper ?camel ?case|パスカルケース|大驼峰"),
           ("camelCase", r"camel[ ]?case|キャメルケース|小驼峰|驼峰"))
_FILE_WORDS = re.compile(r"\bfile|dateien?|datei|fichiers?|archivos?|arquivos?|\bnom(?:s)? de fichier|文件|ファイル", re.I)
_NAME = re.compile(r"(?<![\w./-])([A-Za-z_][\w-]*(?:\.[A-Za-z]\w*)*)(?![\w/-])")


def style_said(before: list[Act], text: str) -> Redo | None:
    """"filenames are kebab-case here: order.service.ts" right after the agent wrote `orderService.ts`:
    the case style the person names, against the name the agent just gave — how things are named
    here, with their example (or the agent's name written that way)."""
    low = text.lower()
    style = next((st for st, rx in _STYLES if re.search(rx, low)), "")
    if not style:
        return None
    said = [m for m in _NAME.findall(text) if not any(re.fullmatch(rx, m.lower()) for _st, rx in _STYLES)]
    files = [a.path for a in before if a.kind == "write" and a.path]
    if files and (_FILE_WORDS.search(text) or any("." in e for e in said)):
        for path in files:
            base = path.rsplit("/", 1)[-1]
            stem, ext = base.split(".", 1)[0], base[len(base.split(".", 1)[0]):]
            old = case_style(stem) or ("lowercase" if stem.islower() and style in ("PascalCase", "SCREAMING_SNAKE_CASE") else "")
            if not old or old == style:
                continue
            # the person's example when it is a file like this one ("order.service.ts", "Card.svelte")
            # (`useAlgo.ts` in "hooks are all useAlgo.ts" is a pattern: the agent's own name restyled)
            example = next((e for e in said if e.endswith(ext) and case_style(e.split(".")[0]) in (style, "")
                            and _fold(e.split(".")[0]) == _fold(stem)), "") or _restyle(stem, style) + ext
            lang = next((v for k, v in _LANG_OF.items() if base.endswith(k)), "")
            return Redo("rename", f"naming {lang} files".replace("  ", " "), base, example, style, old,
                        f"always name files in {style} (`{example}`), never {old} (`{base}`).",
                        words=_tokens(path, example, "name named naming file files filename filenames"))
    names = _written_names(before)
    examples = [e for e in said if case_style(e) == style]
    # the name the example restyles, else the first the agent wrote in another style
    order = sorted(names, key=lambda n: not any(_restyle(n, style) == e for e in examples))
    for name in order:
        code, path = names[name]
        old = case_style(name)
        if not old or old == style or len(name) < 4:
            continue
        what = _what_named(name, code, path)
        example = next((e for e in examples if e == _restyle(name, style)), "") or _restyle(name, style)
        return Redo("rename", f"naming {what}", name, example, style, old,
                    f"always use {style} (`{example}`), never {old} (`{name}`).", words=_tokens(name, example, "name naming"))
    return None


def _restyle(name: str, style: str) -> str:
    words = [w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)]
    if style == "kebab-case":
        return "-".join(words)
    if style == "snake_case":
        return "_".join(words)
    if style == "SCREAMING_SNAKE_CASE":
        return "_".join(words).upper()
    if style == "PascalCase":
        return "".join(w.capitalize() for w in words)
    return words[0] + "".join(w.capitalize() for w in words[1:]) if words else name


_FOLDER = re.compile(r"(?<![\w./:-])((?:[\w.-]+/)+)(?![\w/])")
# Where things are put, in the eight languages ("the tests live in", "stanno in", "放在").
_PLACED = re.compile(r"\b(?:lives?|go(?:es)?|belongs?|put|keep|sits?|stanno|vanno|sta|va|metti|sont|vont|va|mets|range"
                     r"|liegen|liegt|gehör\w*|kommen|kommt|van|va|están|pon|ficam|fica|vão|vai|coloca|põe)\b"
                     r"|放在|放到|都放|位于|に置|置いて|配下|の下|に入れ", re.I)


def place_said(before: list[Act], text: str) -> Redo | None:
    """"business code lives in internal/biz/, api/ is for protos only" right after the agent made
    `api/orders/handler.go`: the folder the person names for what the agent just put elsewhere."""
    if not _PLACED.search(text):
        return None
    folders = [f for f in _FOLDER.findall(text) if "://" not in f and not f.startswith(("http", "www."))]
    made = [a.path for a in before if a.kind == "write" and a.path]
    made += [w for a in before if a.kind == "run" for c in [parse_cmd(a.command)] if c and c.prog == "touch"
             for w in c.args]
    for folder in folders:
        for path in made:
            if "/" not in path or ("/" + folder) in ("/" + path) or path.startswith(folder):
                continue  # already where the words say
            where = path.rsplit("/", 1)[0] + "/"
            if where.startswith(folder) or folder.startswith(where):
                continue
            base = path.rsplit("/", 1)[-1]
            lang = next((v for k, v in _LANG_OF.items() if base.endswith(k)), "")
            what = "test files" if re.search(r"(?:^|[._-])(?:test|spec)s?(?:[._-]|$)", base) else f"{lang} files".strip()
            return Redo("move", f"adding {what}", path, folder, folder, where,
                        f"always put them in `{folder}`, never in `{where}`.", words=_tokens(path, folder))
    return None
