"""Anthropic Messages API over the stdlib.

Structured output uses one forced tool: the schema becomes the tool's ``input_schema``, the
request sets ``tool_choice`` to that tool, and the tool input the model produced comes back as
JSON text — the same shape the OpenAI path returns.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..config import Config
from ..errors import ModelError, ProviderError
from .base import Completion, RetryPolicy, api_key_from_env, excerpt, run_with_retries
from .http_json import post_json, raise_for_status
from .privacy import check_endpoint

ANTHROPIC_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


def _tool_name(schema: dict) -> str:
    title = str(schema.get("title") or "respond")
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", title).strip("_")[:64]
    return name or "respond"


class AnthropicProvider:
    kind = "anthropic"

    def __init__(self, *, base_url: str = "", model: str = "", name: str = "anthropic",
                 api_key_env: str = "", timeout: float = 120, retries: int = 3,
                 max_output_tokens: int = 2000, allow_remote: Iterable[str] = (),
                 max_retry_wait: float = 60,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        vendor = not base_url.strip()
        self.name = name or "anthropic"
        self.endpoint = check_endpoint(base_url or ANTHROPIC_URL, name=self.name,
                                       allow_remote=allow_remote)
        if not model:
            raise ProviderError("provider.model is empty; the Messages API needs a model name",
                                transient=False,
                                hint="set provider.model, e.g. to a current Claude model id")
        self.model = model
        self.api_key_env = api_key_env or ("ANTHROPIC_API_KEY" if vendor else "")
        self.timeout = float(timeout)
        self.max_output_tokens = int(max_output_tokens)
        self.policy = RetryPolicy(retries=int(retries), max_wait=float(max_retry_wait))
        self._sleep = sleep
        # Accept base_url with or without the /v1 suffix.
        root = self.endpoint.url
        self.url = f"{root}/messages" if root.endswith("/v1") else f"{root}/v1/messages"

    @classmethod
    def from_config(cls, cfg: Config, **extra: Any) -> AnthropicProvider:
        p = cfg.section("provider")
        return cls(base_url=p["base_url"], model=p["model"], name=p["name"] or "anthropic",
                   api_key_env=p["api_key_env"], timeout=p["timeout"], retries=p["retries"],
                   max_output_tokens=p["max_output_tokens"],
                   allow_remote=cfg.get("privacy", "allow_remote"),
                   max_retry_wait=p["max_retry_wait"], **extra)

    def destination(self) -> str:
        return self.endpoint.destination

    def _key(self) -> str | None:
        return api_key_from_env(self.api_key_env)

    def complete(self, system: str, user: str, *, schema: dict | None = None) -> Completion:
        key = self._key()
        headers = {"anthropic-version": API_VERSION}
        if key:
            headers["x-api-key"] = key
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
        }
        tool = _tool_name(schema) if schema is not None else None
        if schema is not None:
            body["tools"] = [{"name": tool, "input_schema": schema,
                              "description": "Record your answer. Call this exactly once."}]
            body["tool_choice"] = {"type": "tool", "name": tool}

        def attempt() -> dict:
            answer = post_json(self.url, body, headers=headers, timeout=self.timeout,
                               use_env_proxy=not self.endpoint.loopback,
                               loopback_only=self.endpoint.loopback)
            raise_for_status(answer, url=self.url, key_env=self.api_key_env, secret=key,
                             model=self.model)
            try:
                return answer.json()
            except ValueError:
                raise ProviderError(f"{self.url} answered 200 with something that is not JSON: "
                                    f"{excerpt(answer.body.decode('utf-8', 'replace'))}",
                                    transient=False,
                                    hint="is provider.base_url the Anthropic API root?") from None

        data = run_with_retries(attempt, self.policy, what=self.endpoint.host, sleep=self._sleep)
        blocks = data.get("content") if isinstance(data, dict) else None
        if not isinstance(blocks, list):
            raise ProviderError(f"{self.url} answered without content blocks: {excerpt(str(data))}",
                                transient=False, hint="is provider.base_url the Anthropic API root?")
        if tool is not None:
            for block in blocks:
                if isinstance(block, dict) and block.get("type") == "tool_use" \
                        and block.get("name") == tool:
                    text = json.dumps(block.get("input", {}), ensure_ascii=False)
                    break
            else:
                raise ModelError(f"the model did not call the {tool!r} tool "
                                 f"(stop_reason={data.get('stop_reason')!r})")
        else:
            text = "".join(str(b.get("text", "")) for b in blocks
                           if isinstance(b, dict) and b.get("type") == "text")
            if not text:
                raise ModelError(f"the model returned no text (stop_reason="
                                 f"{data.get('stop_reason')!r})",
                                 hint="raise provider.max_output_tokens if it is 'max_tokens'")
        return Completion(text=text, model=str(data.get("model") or self.model),
                          destination=self.destination())
