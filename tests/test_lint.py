"""The imperative lint: measured on labelled lines in 8 languages, and the `slowloop lint` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from slowloop.safety.lint import lint_line, lint_text

DATA = Path(__file__).parent / "data" / "lint.jsonl"
LANGS = {"en", "zh", "it", "pt", "fr", "es", "de", "ja"}


def _rows() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]


def _precision_recall(rows: list[dict]) -> tuple[float, float, list[str]]:
    tp = fp = fn = 0
    errors = []
    for row in rows:
        got = lint_line(row["text"])
        if got.actionable and row["actionable"]:
            tp += 1
        elif got.actionable:
            fp += 1
            errors.append(f"FP [{row['lang']}] {row['text']} — {got.reason}")
        elif row["actionable"]:
            fn += 1
            errors.append(f"FN [{row['lang']}] {row['text']} — {got.reason}")
    return tp / max(1, tp + fp), tp / max(1, tp + fn), errors


def test_labelled_data_covers_eight_languages_both_ways():
    rows = _rows()
    assert len(rows) >= 160
    by_lang = Counter(r["lang"] for r in rows)
    assert set(by_lang) == LANGS
    for lang in LANGS:
        labels = {r["actionable"] for r in rows if r["lang"] == lang}
        assert labels == {True, False}, lang
        assert by_lang[lang] >= 20, lang


def test_precision_and_recall_of_actionable():
    rows = _rows()
    precision, recall, errors = _precision_recall(rows)
    print(f"\nlint on {len(rows)} labelled lines: precision {precision:.3f} recall {recall:.3f}")
    for split in ("dev", "heldout", "heldout2"):
        p, r, _ = _precision_recall([x for x in rows if x["split"] == split])
        print(f"  {split}: precision {p:.3f} recall {r:.3f}")
    assert precision >= 0.9 and recall >= 0.85, "\n".join(errors)


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_each_language_is_mostly_right(lang):
    rows = [r for r in _rows() if r["lang"] == lang]
    right = sum(lint_line(r["text"]).actionable == r["actionable"] for r in rows)
    assert right / len(rows) >= 0.85


@pytest.mark.parametrize("text,actionable", [
    ("The agent's answers are sometimes too long; be careful.", False),
    ("When answering family-office questions, never exceed 5 bullet points.", True),
    ("The user seems to prefer concise output.", False),
    ("When replying in a family-office context, always give the conclusion first, then the "
     "reasoning.", True),
])
def test_the_spec_examples_exactly(text, actionable):
    assert lint_line(text).actionable is actionable


@pytest.mark.parametrize("text,words", [
    ("The user seems to prefer concise output.", ["describes the user", "no imperative"]),
    ("It might be good to test more.", ["hedged", "might"]),
    ("Be careful with database migrations.", ["no concrete action", "be careful"]),
    ("Use tables.", ["no trigger or scope", "when/if/before"]),
    ("The build failed yesterday.", ["past tense"]),
    ("Remember that quality matters.", ["remember that"]),
])
def test_reasons_say_what_is_wrong(text, words):
    result = lint_line(text)
    assert not result.actionable
    for word in words:
        assert word in result.reason


def test_reason_of_an_actionable_line_names_its_trigger():
    result = lint_line("Use pnpm, never npm, when installing packages in this repo.")
    assert result.actionable and "when" in result.reason


SKILL = """---
name: weekly-report-export
description: "The user seems to like PDFs"
---
# Weekly report

Use this skill when the user asks for the weekly report. The user seems to prefer PDFs.

## Steps
1. Run `pnpm install`
2. Open `reports/weekly.xlsx` and copy
   the totals into the template.
3.

```bash
the user seems to like this inside a fence
```

Key points:
- Never exceed 5 bullet points when summarizing
  for family-office clients.
- It might be good to test more.

| column | the user likes tables |
|---|---|
<!-- the user seems
to like comments -->
"""


def test_lint_text_judges_items_and_sentences_and_skips_the_rest():
    findings = lint_text(SKILL, "SKILL.md")
    got = [(f.line, f.actionable) for f in findings]
    assert got == [(7, True), (7, False), (10, True), (11, True), (20, True), (22, False)]
    assert all(f.path == "SKILL.md" for f in findings)
    # A soft-wrapped item is judged whole, at the line where it starts.
    assert findings[3].text.endswith("the totals into the template.")
    assert findings[4].text.endswith("for family-office clients.")


def test_lint_text_of_nothing_worth_judging_is_empty():
    assert lint_text("---\nname: x\n---\n# Title\n\n```\ncode\n```\n") == []


# --- the command -------------------------------------------------------------------------------

def _run(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SLOWLOOP_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "slowloop", "lint", *args], env=env,
                          capture_output=True, text=True, timeout=60)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_flags_vague_lines_with_exit_1_and_json(tmp_path, slowloop_home):
    skill = _write(tmp_path / "skills" / "a" / "SKILL.md", SKILL)
    proc = _run(str(skill), "--json", home=slowloop_home)
    assert proc.returncode == 1, proc.stderr
    rows = json.loads(proc.stdout)
    assert {tuple(sorted(r)) for r in rows} == {("actionable", "line", "path", "reason", "text")}
    assert [r["line"] for r in rows if not r["actionable"]] == [7, 22]
    text = _run(str(tmp_path / "skills"), home=slowloop_home)  # a folder is walked for *.md
    assert text.returncode == 1
    assert f"{skill}:22:" in text.stdout and "hedged" in text.stdout


def test_cli_passes_clean_files_with_exit_0(tmp_path, slowloop_home):
    memo = _write(tmp_path / "memo.md", "## Plays\n- When replying in a family-office context, "
                  "always give the conclusion first.\n- Quando installi pacchetti, usa sempre "
                  "pnpm.\n")
    proc = _run(str(memo), home=slowloop_home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 lines checked" in proc.stderr


def test_cli_defaults_to_the_agents_skills_and_memo(slowloop_home):
    agent = slowloop_home / "agents" / "work"
    _write(agent / "skills" / "deploy" / "SKILL.md", "---\nname: deploy\n---\n"
           "1. Run `make deploy`\n")
    _write(agent / "memo.md", "## Strengths and pitfalls\n- The user seems to prefer short "
           "answers.\n")
    proc = _run("--agent", "work", "--json", home=slowloop_home)
    assert proc.returncode == 1
    paths = {Path(r["path"]).name for r in json.loads(proc.stdout)}
    assert paths == {"SKILL.md", "memo.md"}
    assert _run("--json", home=slowloop_home).stdout.strip() == "[]"  # default agent: nothing


def test_cli_missing_path_is_a_clear_error(tmp_path, slowloop_home):
    proc = _run(str(tmp_path / "nope.md"), home=slowloop_home)
    assert proc.returncode == 2
    assert "nope.md" in proc.stderr and "no such file" in proc.stderr


# --- the forms other languages write rules in (the sentences are ours) -------------------------

@pytest.mark.parametrize("text", [
    # Italian: a negative infinitive with its clitic glued on
    "Quando tocchi la configurazione della CI, non cambiarla mai senza una revisione.",
    # French: object pronouns between "ne" and the verb, and "rien" as the second half
    "Pour les fichiers de migration, ne les renomme jamais après leur fusion.",
    "Quand tu prépares la release, n'envoie rien sur le canal public avant l'annonce.",
    "Quand un déploiement échoue, affiche le journal complet du pod.",
    # German: the infinitive last, after a noun or a command
    "`terraform apply` nur nach einem geprüften Plan ausführen.",
    "Migrationen vor dem Merge auf der Staging-Datenbank testen.",
    "Wenn der Build rot ist, die erste Fehlermeldung vollständig zeigen.",
    "Keine Zugangsdaten in Beispiel-Konfigurationen schreiben.",
    # Spanish / Portuguese verbs the tables lacked
    "Cuando cambies el esquema, informa del número de filas afectadas.",
    "Antes de abrir o PR, cole a saída do `npm test` na descrição.",
    # Chinese: the verb right after its trigger, an adverb before the verb
    "合并之前先运行 `make check`。",
    "发布版本时，直接写明破坏性变更。",
    # Japanese: "…てから" is a trigger; a verb's plain negative is a rule
    "依存関係はロックファイルを確認してから更新する。",
    "本番のデータベースでは `TRUNCATE` は使わない。",
])
def test_rules_in_eight_languages_are_actionable(text):
    result = lint_line(text)
    assert result.actionable, result.reason


@pytest.mark.parametrize("text,scoped", [
    ("Bisogna stare attenti.", True),  # "be careful", whatever the scope
    ("Il faut être prudent.", True),
    ("Hay que tener cuidado.", True),
    ("É preciso ter cuidado.", True),
    ("`pytest` ist in diesem Repository langsam.", True),  # a fact, but no where / needs
    ("The tests in `tests/test_cli.py` are flaky.", True),
    ("I test di integrazione sono lenti.", False),  # Italian "I" is an article: still a fact
    ("Die Tests prüfen.", False),  # an article and a noun before the verb is a sentence
    ("ユーザーは `pnpm` を使わない。", True),  # a description of the user, negative or not
    ("Nutze den Paketmanager.", False),  # a memo rule still needs its trigger
])
def test_junk_stays_out_in_any_language(text, scoped):
    assert not lint_line(text, scoped=scoped).actionable


FOREIGN_SKILL = """---
name: pacchetti
description: Installare strumenti da riga di comando
---
# Installare strumenti

Mai `curl | sh`. Invece:

1. `brew install jq`
2. `jq --version` — risponde?
3. Usa il gestore di pacchetti del sistema.

- I segreti stanno nel vault (`secret/tools`).
- Riporta la versione installata.
"""


def test_a_skills_lines_are_scoped_by_the_skill():
    """Numbered commands, a lead-in ending in ':', imperatives with no trigger of their own and a
    fact saying where a concrete thing lives are a skill's ordinary lines; in the memo, a bullet
    needs its own 'when' and a fact is no rule (a numbered step is a step either way)."""
    as_skill = lint_text(FOREIGN_SKILL, "SKILL.md", skill=True)
    assert all(f.actionable for f in as_skill), [(f.text, f.reason) for f in as_skill if not f.actionable]
    assert [f.text for f in as_skill][0] == "Mai `curl | sh`."  # "Invece:" is a label
    as_memo = [f.text for f in lint_text(FOREIGN_SKILL) if not f.actionable]
    assert as_memo == ["- I segreti stanno nel vault (`secret/tools`).",
                       "- Riporta la versione installata."]


def test_cli_lints_a_skill_as_a_skill_and_the_memo_as_rules(tmp_path, slowloop_home):
    body = "# Rilascio\n\n- Riporta il numero della versione.\n"
    skill = _write(tmp_path / "skills" / "rilascio" / "SKILL.md", "---\nname: rilascio\n---\n" + body)
    memo = _write(tmp_path / "memo.md", body)
    assert _run(str(skill), home=slowloop_home).returncode == 0
    proc = _run(str(memo), "--json", home=slowloop_home)
    assert proc.returncode == 1
    assert [r["reason"][:10] for r in json.loads(proc.stdout) if not r["actionable"]] == ["no trigger"]


def _reflect(agent: str, actions: list[dict]):
    """A real reflection of one ingested session whose model proposes ``actions``."""
    from slowloop.config import load_config
    from slowloop.ingest import ingest_paths
    from slowloop.providers import Completion
    from slowloop.reflect.cycle import reflect_agent
    from slowloop.store import open_store

    examples = Path(__file__).resolve().parents[1] / "src" / "slowloop" / "examples"
    with open_store() as store:
        ingest_paths([examples / "claude-code-api-tests.jsonl"], agent=agent, store=store,
                     cfg=load_config())
    answer = json.dumps({"actions": actions})

    class Scripted:
        name, kind, model = "scripted", "openai", "m"

        def destination(self) -> str:
            return "nowhere (test)"

        def complete(self, system: str, user: str, *, schema=None) -> Completion:
            return Completion(answer, self.model, self.destination())

    return reflect_agent(agent, provider=Scripted(), force=True)


def test_a_reflection_keeps_a_skill_written_in_another_language(slowloop_home):
    """validate.check_content lints a proposed skill's body as a skill: this Portuguese one, with
    numbered commands and untriggered steps, was turned down whole before."""
    body = ("# Publicar um pacote\n\n1. `npm whoami` para conferir a conta.\n"
            "2. `npm publish --provenance`\n3. Nunca troque o registry no comando.\n\n"
            "- Anote a versão publicada no changelog.\n")
    out = _reflect("pt", [{"type": "create_skill", "name": "publicar-pacote",
                           "description": "Publicar um pacote npm", "body": body,
                           "reason": "a pessoa publica assim"}])
    assert not out.rejected, out.rejected
    skill = slowloop_home / "agents" / "pt" / "skills" / "publicar-pacote" / "SKILL.md"
    assert "Nunca troque o registry" in skill.read_text(encoding="utf-8")


def test_a_rule_about_certificates_or_a_flaky_test_is_no_lesson_from_a_flake(slowloop_home):
    keep = ["When a certificate fails to verify, stop and tell the user; never turn TLS verification off.",
            "When a test is flaky, mark it with `@pytest.mark.flaky` and open an issue; never delete it."]
    drop = "Pitfall: when the network is flaky, never use the package registry again."
    out = _reflect("tls", [{"type": "update_memo", "section": "plays", "op": "add", "text": t,
                            "reason": "the person works this way"} for t in keep]
                   + [{"type": "update_memo", "section": "strengths", "op": "add", "text": drop,
                       "reason": "blames the network"}])
    assert [r["action"]["text"] for r in out.rejected] == [drop]
    memo = (slowloop_home / "agents" / "tls" / "memo.md").read_text(encoding="utf-8")
    assert all(t in memo for t in keep)
