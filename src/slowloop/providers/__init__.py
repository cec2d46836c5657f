"""Model providers for reflection: OpenAI-compatible HTTP, Anthropic, or a local CLI command.

``get_provider(cfg)`` builds the configured one (``None`` for the offline distiller). Building
applies the privacy rule, so a remote endpoint that the user has not allowed by name fails here,
before any bundle exists, and every provider it returns redacts what it sends
(:mod:`.boundary`). ``provider.destination()`` is the line reflection prints about what
left the machine and to whom.
"""

from __future__ import annotations

from ..config import Config
from ..errors import PrivacyError, ProviderError, UserError
from .anthropic import AnthropicProvider
from .base import KINDS, Completion, Provider, ProviderKind
from .boundary import guarded
from .command import CommandProvider
from .openai_compat import OpenAICompatProvider

__all__ = [
    "AnthropicProvider", "CommandProvider", "Completion", "OpenAICompatProvider", "PrivacyError",
    "Provider", "ProviderError", "ProviderKind", "get_provider",
]


def get_provider(cfg: Config) -> Provider | None:
    """The provider ``[provider]`` describes; None when ``kind = "offline"``."""
    kind = str(cfg.get("provider", "kind")).strip().lower()
    if kind == "offline":
        return None
    if kind == "openai":
        return guarded(OpenAICompatProvider.from_config(cfg))
    if kind == "anthropic":
        return guarded(AnthropicProvider.from_config(cfg))
    if kind == "command":
        return guarded(CommandProvider.from_config(cfg))
    raise UserError(f"provider.kind = {kind!r} is not one of {', '.join(KINDS)}",
                    hint="\"offline\" needs no model; \"openai\" also covers Ollama, llama.cpp, "
                         "vLLM and LM Studio")
