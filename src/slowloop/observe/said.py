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

from .redo import _RUNNERS, _THROUGH, ACTIVITIES, Act, Cmd, Redo, _tokens, find_redo, parse_cmd

__all__ = ["clause_of", "named_commands", "said_redo"]

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


def _programs() -> frozenset[str]:
    from . import redo as r
    return frozenset(r._PKG | r._RUNNERS | r._TEST_PROGS | r._LINT_PROGS | r._BUILD_PROGS | r._DOCS_PROGS | {
        "git", "docker", "podman", "kubectl", "helm", "terraform", "go", "cargo", "dotnet", "mvn", "sbt",
        "gradle", "python", "python3", "node", "deno", "bazel", "nix"})


_KNOWN = _programs()


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
        return None
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
    return None


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
