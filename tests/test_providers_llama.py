"""The OpenAI-compatible provider against a real llama.cpp server and a real (tiny) model.

SmolLM2-135M writes little of value; what is under test is the path: the request shape llama.cpp
accepts, the schema turned into a grammar so the answer parses, the rejection of OpenAI's
json_schema format and the fallback to plain prompting — on a real server, not a fake.
"""

from __future__ import annotations

import json

import pytest
from llama_server import LlamaServer

from slowloop.config import load_config
from slowloop.errors import ProviderError
from slowloop.providers import Completion, OpenAICompatProvider, get_provider

pytestmark = pytest.mark.llama

VERDICT = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["nothing", "create_skill"]},
        "rule": {"type": "string", "maxLength": 120},
    },
    "required": ["verdict", "rule"],
}
SYSTEM = ("You review an AI agent's recent work. Decide whether there is a rule worth saving. "
          "Answer in JSON.")
USER = ("The user said: 'use pnpm instead of npm in this project'. The agent then ran "
        "`pnpm install` and it worked.")


def complete(provider: OpenAICompatProvider, server: LlamaServer, **kw: object) -> Completion:
    try:
        return provider.complete(SYSTEM, USER, **kw)  # type: ignore[arg-type]
    except ProviderError as exc:
        pytest.fail(f"{exc}\n--- llama.cpp server log ---\n{server.log_tail()}", pytrace=False)


def test_schema_constrained_answer_parses_as_json(llama_server: LlamaServer) -> None:
    cfg = load_config().with_overrides(provider=llama_server.provider_settings())
    provider = get_provider(cfg)
    # every provider comes wrapped in the one redaction boundary (providers.boundary)
    assert isinstance(provider.inner, OpenAICompatProvider)
    assert provider.structured == "json_object"  # "auto" on a non-OpenAI host
    out = complete(provider, llama_server, schema=VERDICT)
    data = json.loads(out.text)
    assert data["verdict"] in ("nothing", "create_skill")
    assert isinstance(data["rule"], str) and len(data["rule"]) <= 120
    assert out.destination == llama_server.base_url.removesuffix("/v1") + " (loopback)"
    assert out.model == "smollm2-135m-instruct"  # the alias the fixture gave the server
    assert provider.structured == "json_object"  # accepted: no fallback happened


def test_json_schema_is_rejected_by_llama_cpp_and_we_fall_back(llama_server: LlamaServer) -> None:
    provider = OpenAICompatProvider(base_url=llama_server.base_url, structured="json_schema",
                                    max_output_tokens=48, retries=0)
    out = complete(provider, llama_server, schema=VERDICT)
    assert provider.structured == "none"  # the server refused response_format json_schema
    assert out.text.strip()  # the tiny model's plain answer: text, not necessarily JSON


def test_plain_completion(llama_server: LlamaServer) -> None:
    provider = OpenAICompatProvider(base_url=llama_server.base_url, max_output_tokens=24,
                                    retries=0)
    out = complete(provider, llama_server)
    assert out.text.strip()
