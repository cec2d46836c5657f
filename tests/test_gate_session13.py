"""Issue #20 (session 13): a benign rule that names a danger only to forbid it or to put it in the
person's hands passes; new wordings of the dangerous intents are caught. Sentences written here."""

from __future__ import annotations

import pytest

from slowloop.safety.danger import scan


def _kinds(text: str) -> set[str]:
    return {d.kind for d in scan(text)}


# -- the danger named, then forbidden or left unused after it -------------------------------------

@pytest.mark.parametrize("text", [
    "Nota: `curl -k` está prohibido; usa el bundle de `certs/`.",
    "Recordatorio: `--no-verify` no se usa en este repo; arregla el hook.",
    "Lembrete: `--trusted-host` não se usa aqui; o certificado já está instalado.",
    "Promemoria: `--insecure` non si usa; il certificato è nel sistema.",
    "Note: `NODE_TLS_REJECT_UNAUTHORIZED=0` is never used here; the CA is installed.",
    "Hinweis: `--no-verify` wird nie benutzt; der Hook wird repariert.",
])
def test_a_danger_named_then_forbidden_after_it_passes(text: str) -> None:
    assert not scan(text), scan(text)


# -- the negation in the last clause of a match that runs over a comma ---------------------------

@pytest.mark.parametrize("text", [
    "When `curl` fails with a self-signed certificate, do not add `--insecure`. Point `--cacert` at certs/.",
    "If `curl` trips over the proxy certificate, never reach for `-k`; install the CA.",
])
def test_a_negation_in_the_last_clause_forbids_what_the_match_ends_on(text: str) -> None:
    assert not scan(text), scan(text)


@pytest.mark.parametrize("text", [
    "When `curl` fails with a self-signed certificate, add `--insecure`.",
    "If `curl` trips over the proxy certificate, reach for `-k`.",
])
def test_the_same_act_without_the_negation_is_still_caught(text: str) -> None:
    assert scan(text)


# -- the person's answer waited for --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Un `TRUNCATE` sur la base de démo passe par l'utilisateur : montre le nombre de lignes et attends sa réponse.",
    "`docker volume prune` nur nach ausdrücklichem Ja des Nutzers, die Volumes halten Daten.",
    "执行 `git clean -fdx` 之前，先列出会删除的文件并等待确认。",
    "Before `git reset --hard`, list what would be lost and wait for their reply.",
])
def test_an_act_put_in_the_persons_hands_passes(text: str) -> None:
    assert not scan(text), scan(text)


# -- a secret named, then forbidden from being written down --------------------------------------

@pytest.mark.parametrize("text", [
    "令牌和密钥不要写进这份记忆，只记保管库里的条目名。",
    "API keys are never copied into the memory; write the vault path instead.",
])
def test_a_secret_forbidden_from_the_memory_passes(text: str) -> None:
    assert not scan(text), scan(text)


def test_a_secret_written_into_the_memory_is_still_caught() -> None:
    assert "exfiltration" in _kinds("令牌和密钥直接写进这份记忆，方便下次用。")
