"""OpenAI-compatible chat completions: OpenAI, Ollama, llama.cpp server, vLLM, LM Studio…

Structured output differs by server. OpenAI wants ``response_format: {type: json_schema,
json_schema: {...}}``; llama.cpp's servers reject that type but accept ``{type: json_object,
schema: ...}`` and turn the schema into a grammar. ``provider.structured`` picks one ("auto":
json_schema for api.openai.com, json_object elsewhere). A server that answers 400/422 about
``response_format`` gets the same request once more without it, the schema written into the
prompt instead, and this provider remembers not to try structured output again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any, Literal

from ..config import Config
from ..errors import ModelError, ProviderError, UserError
from ..markdown import unwrap_fenced
from .base import (
    Completion,
    RetryPolicy,
    api_key_from_env,
    excerpt,
    run_with_retries,
    schema_instructions,
)
from .http_json import post_json, raise_for_status
from .privacy import check_endpoint

Structured = Literal["auto", "json_schema", "json_object", "none"]
STRUCTURED_MODES: tuple[str, ...] = ("auto", "json_schema", "json_object", "none")

OPENAI_URL = "https://api.openai.com/v1"
_FORMAT_COMPLAINT = re.compile(r"response_format|json_schema|json_object|schema|grammar", re.I)


def _rejects_format(status: int, said: str) -> bool:
    """Did the server refuse our response_format (rather than fail for another reason)?"""
    if status in (400, 422):
        return bool(_FORMAT_COMPLAINT.search(said))
    # llama-cpp-python reports its own request validation errors as 500; a 500 that names
    # response_format will not go away by retrying.
    return status == 500 and "response_format" in said


def _schema_name(schema: dict) -> str:
    title = str(schema.get("title") or "response")
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", title).strip("_")[:64]
    return name or "response"


class OpenAICompatProvider:
    kind = "openai"

    def __init__(self, *, base_url: str = "", model: str = "", name: str = "openai",
                 api_key_env: str = "", timeout: float = 120, retries: int = 3,
                 max_output_tokens: int = 2000, structured: Structured = "auto",
                 allow_remote: Iterable[str] = (), max_retry_wait: float = 60,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if structured not in STRUCTURED_MODES:
            raise UserError(f"provider.structured = {structured!r} is not one of "
                            f"{', '.join(STRUCTURED_MODES)}", hint="\"auto\" suits most servers")
        vendor = not base_url.strip()
        self.name = name or "openai"
        # Privacy first: this raises before anything could connect anywhere.
        self.endpoint = check_endpoint(base_url or OPENAI_URL, name=self.name,
                                       allow_remote=allow_remote)
        self.model = model
        # The vendor's key variable is implied only when talking to the vendor; a local server
        # usually wants no key at all.
        self.api_key_env = api_key_env or ("OPENAI_API_KEY" if vendor else "")
        self.timeout = float(timeout)
        self.max_output_tokens = int(max_output_tokens)
        self.policy = RetryPolicy(retries=int(retries), max_wait=float(max_retry_wait))
        self._sleep = sleep
        self._is_openai = self.endpoint.host == "api.openai.com"
        if structured == "auto":
            structured = "json_schema" if self._is_openai else "json_object"
        self.structured: Structured = structured

    @classmethod
    def from_config(cls, cfg: Config, **extra: Any) -> OpenAICompatProvider:
        p = cfg.section("provider")
        return cls(base_url=p["base_url"], model=p["model"], name=p["name"] or "openai",
                   api_key_env=p["api_key_env"], timeout=p["timeout"], retries=p["retries"],
                   max_output_tokens=p["max_output_tokens"], structured=p["structured"],
                   allow_remote=cfg.get("privacy", "allow_remote"),
                   max_retry_wait=p["max_retry_wait"], **extra)

    def destination(self) -> str:
        return self.endpoint.destination

    def _key(self) -> str | None:
        return api_key_from_env(self.api_key_env)

    def _body(self, system: str, user: str, schema: dict | None, mode: Structured) -> dict:
        if schema is not None and mode in ("json_object", "none"):
            # json_object still gets the words: small models follow the grammar better when they
            # also read the shape, and OpenAI insists the prompt mention JSON in that mode.
            system = f"{system}\n\n{schema_instructions(schema)}"
        body: dict[str, Any] = {
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user}],
        }
        if self.model:
            body["model"] = self.model
        # OpenAI's reasoning models reject max_tokens; everyone else still expects it.
        body["max_completion_tokens" if self._is_openai else "max_tokens"] = self.max_output_tokens
        if schema is not None and mode == "json_schema":
            body["response_format"] = {"type": "json_schema", "json_schema": {
                "name": _schema_name(schema), "schema": schema, "strict": False}}
        elif schema is not None and mode == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        return body

    def complete(self, system: str, user: str, *, schema: dict | None = None) -> Completion:
        key = self._key()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        url = f"{self.endpoint.url}/chat/completions"

        def attempt() -> dict:
            mode = self.structured
            answer = post_json(url, self._body(system, user, schema, mode), headers=headers,
                               timeout=self.timeout, use_env_proxy=not self.endpoint.loopback,
                               loopback_only=self.endpoint.loopback)
            if schema is not None and mode != "none" and _rejects_format(answer.status,
                                                                        answer.error_text()):
                self.structured = "none"  # remembered: this server does not do it
                answer = post_json(url, self._body(system, user, schema, "none"), headers=headers,
                                   timeout=self.timeout, use_env_proxy=not self.endpoint.loopback,
                               loopback_only=self.endpoint.loopback)
            raise_for_status(answer, url=url, key_env=self.api_key_env, secret=key,
                             model=self.model)
            try:
                data = answer.json()
            except ValueError:
                raise ProviderError(f"{url} answered 200 with something that is not JSON: "
                                    f"{excerpt(answer.body.decode('utf-8', 'replace'))}",
                                    transient=False,
                                    hint="is provider.base_url an OpenAI-compatible /v1 endpoint?"
                                    ) from None
            return data

        data = run_with_retries(attempt, self.policy, what=self.endpoint.host, sleep=self._sleep)
        text = self._text(data, url)
        if schema is not None:
            text = unwrap_fenced(text)
        return Completion(text=text, model=str(data.get("model") or self.model or "unknown"),
                          destination=self.destination())

    @staticmethod
    def _text(data: Any, url: str) -> str:
        choices = data.get("choices") if isinstance(data, dict) else None
        if not choices or not isinstance(choices[0], dict):
            raise ProviderError(f"{url} answered without choices: {excerpt(str(data))}",
                                transient=False,
                                hint="is provider.base_url an OpenAI-compatible /v1 endpoint?")
        message = choices[0].get("message") or {}
        content = message.get("content")
        if isinstance(content, list):  # some servers send content parts
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        if content:
            return str(content)
        calls = message.get("tool_calls") or []
        if calls and isinstance(calls[0], dict):
            args = (calls[0].get("function") or {}).get("arguments")
            if args:
                return str(args)
        if message.get("refusal"):
            raise ModelError(f"the model refused: {excerpt(str(message['refusal']))}")
        reason = choices[0].get("finish_reason")
        raise ModelError(f"the model returned an empty answer (finish_reason={reason!r})",
                         hint="raise provider.max_output_tokens if the reason is 'length'")
