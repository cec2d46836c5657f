"""YAML frontmatter, read with libyaml's C parser when PyYAML has it (it usually does).

The pure-Python parser made reading 200 skills cost about 250 ms, which a SessionStart hook pays
whenever the skills changed; the C parser reads the same files several times faster. Both accept
the same documents and raise the same ``yaml.YAMLError`` (with line marks).
"""

from __future__ import annotations

from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader, C or Python
