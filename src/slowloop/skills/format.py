"""``SKILL.md`` in the open Agent Skills format, read strictly and written valid.

What we write (the agentskills.io rules): frontmatter with ``name`` (1-64 chars of ``a-z``, ``0-9``
and single hyphens, not starting or ending with one, equal to the folder name) and ``description``
(1-1024 chars); optional ``license``, ``compatibility`` (≤ 500 chars), ``allowed-tools``, and
``metadata`` (a string → string map) where the seed's fields live as ISO 8601 UTC strings:
``title``, ``createdAt``, ``updatedAt``, ``patchCount``, ``lastUsedAt``.

What we read, besides that: the seed's flat form (``name: "Weekly Report Export"`` with
``createdAt``… at the top level). The slug of such a name must equal the folder; the name becomes the
title. Anything else that is off (bad YAML, a name that does not match its folder, a missing or
overlong description) is a ``DataError`` with the file and line: ``doctor`` reports it, everything
else skips the file.

Parsing is cached by ``(path, mtime_ns, size)`` so the session bootstrap does not re-parse 200 YAML
files every time it runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import yaml

from .. import yamlio
from ..errors import DataError, UserError
from ..fsutil import read_text

SKILL_FILE = "SKILL.md"
NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SPEC_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
SEED_FIELDS = ("title", "createdAt", "updatedAt", "patchCount", "lastUsedAt")


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    metadata: dict[str, str]
    body: str
    path: Path
    content_hash: str
    retired: bool = False
    # spec fields other than name/description/metadata (license, compatibility, allowed-tools),
    # kept so a rewrite never drops what a person put there
    extra: dict[str, Any] = field(default_factory=dict)
    flat_form: bool = False  # read from the seed's flat frontmatter

    @property
    def title(self) -> str:
        return self.metadata.get("title") or self.name

    @property
    def patch_count(self) -> int:
        try:
            return int(self.metadata.get("patchCount", "0") or 0)
        except ValueError:
            return 0


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a skill file (``doctor`` prints these)."""

    path: str
    line: int | None
    message: str
    severity: str = "error"  # error: the file is skipped | warning: read, but not as we write it


# -- names ------------------------------------------------------------------------------------

def name_problem(name: object) -> str | None:
    """Why ``name`` is not a valid skill name, or ``None``."""
    if not isinstance(name, str) or not name:
        return "the name is empty"
    if len(name) > NAME_MAX:
        return f"the name is {len(name)} characters long (at most {NAME_MAX})"
    if not _NAME.match(name):
        return ("the name may only hold lowercase letters a-z, digits and single hyphens, "
                "not at the start or end")
    return None


def validate_name(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise UserError(f"skill name {name!r} is not valid: {problem}",
                        hint=f"try {slugify(str(name))!r}" if slugify(str(name)) else
                        "use e.g. weekly-report-export")
    return name


def slugify(text: str) -> str:
    """``"Weekly Report Export"`` → ``"weekly-report-export"`` (accents folded, ≤ 64 chars)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    if len(slug) > NAME_MAX:
        slug = slug[:NAME_MAX].rstrip("-")
    return slug


# -- parsing ----------------------------------------------------------------------------------

def _split(text: str, path: str) -> tuple[str, str, int]:
    """``(frontmatter, body, body_first_line)``."""
    from ..markdown import split_frontmatter

    fm = split_frontmatter(text)
    if not fm.opened:
        raise DataError("no frontmatter: the file must start with a line '---'", path=path, line=1,
                        hint="start SKILL.md with ---, then name: and description:, then ---")
    if fm.text is None:
        raise DataError("the frontmatter is never closed: no second '---' line", path=path,
                        line=len(text.splitlines()), hint="add a line '---' after the frontmatter")
    body = fm.body[1:] if fm.body.startswith("\n") else fm.body
    return fm.text, body, fm.body_line


def _key_line(front: str, key: str) -> int | None:
    for i, line in enumerate(front.splitlines(), start=2):
        if re.match(rf"^{re.escape(key)}\s*:", line):
            return i
    return None


def _as_string(value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_skill(text: str, path: Path, *, retired: bool = False,
                content_hash: str | None = None, folder: str | None = None) -> Skill:
    """Parse one ``SKILL.md``; the folder it sits in (or ``folder``) is the name it must carry."""
    spath = str(path)
    folder = folder or Path(path).parent.name
    front, body, _ = _split(text, spath)
    try:
        data = yamlio.safe_load(front) if front.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"the frontmatter is not valid YAML: {problem}", path=spath, line=line,
                        hint="fix the YAML (quote values that contain ': ')") from None
    if not isinstance(data, dict):
        raise DataError("the frontmatter must be a mapping of keys to values", path=spath, line=2)

    raw_name = data.get("name")
    if raw_name is None or str(raw_name).strip() == "":
        raise DataError("missing field: name", path=spath, line=2,
                        hint=f"add `name: {folder}`")
    raw_name = str(raw_name)
    flat = any(k in data for k in SEED_FIELDS)
    metadata: dict[str, str] = {}
    if "metadata" in data and data["metadata"] is not None:
        if not isinstance(data["metadata"], dict):
            raise DataError("metadata must be a mapping of strings to strings", path=spath,
                            line=_key_line(front, "metadata"))
        metadata = {str(k): _as_string(v) for k, v in data["metadata"].items() if v is not None}
    if name_problem(raw_name) is None:
        name = raw_name
    else:
        # The seed's flat form names skills by title; its slug is the folder name.
        name = slugify(raw_name)
        if name != folder or not name:
            raise DataError(f"name {raw_name!r} is not valid: {name_problem(raw_name)}",
                            path=spath, line=_key_line(front, "name"),
                            hint=f"write `name: {folder}` (the folder name)")
        metadata.setdefault("title", raw_name)
        flat = True
    if name != folder:
        raise DataError(f"name {name!r} does not match its folder {folder!r}", path=spath,
                        line=_key_line(front, "name"),
                        hint=f"rename the folder to {name!r} or write `name: {folder}`")
    description = data.get("description")
    if description is None or str(description).strip() == "":
        raise DataError("missing field: description (what the skill does and when to use it)",
                        path=spath, line=_key_line(front, "description") or 2)
    description = str(description).strip()
    if len(description) > DESCRIPTION_MAX:
        raise DataError(f"the description is {len(description)} characters long "
                        f"(at most {DESCRIPTION_MAX})", path=spath,
                        line=_key_line(front, "description"), hint="shorten it")
    for key in SEED_FIELDS:
        if key in data and data[key] is not None and key not in metadata:
            metadata[key] = _as_string(data[key])
    extra = {k: v for k, v in data.items()
             if k not in ("name", "description", "metadata") and k not in SEED_FIELDS}
    if content_hash is None:
        content_hash = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Skill(name=name, description=description, metadata=metadata, body=body,
                 path=Path(path), content_hash=content_hash, retired=retired, extra=extra,
                 flat_form=flat)


def spec_problems(text: str, path: Path) -> list[Problem]:
    """Every rule of the Agent Skills spec the file breaks (strict: what we write must pass)."""
    spath = str(path)
    try:
        front, _, _ = _split(text, spath)
        data = yamlio.safe_load(front) if front.strip() else {}
    except DataError as exc:
        return [Problem(spath, exc.line, exc.message.split(": ", 1)[-1])]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return [Problem(spath, mark.line + 2 if mark else None, "the frontmatter is not valid YAML")]
    if not isinstance(data, dict):
        return [Problem(spath, 2, "the frontmatter is not a mapping")]
    out: list[Problem] = []
    folder = Path(path).parent.name
    name = data.get("name")
    p = name_problem(name)
    if p:
        out.append(Problem(spath, _key_line(front, "name"), p))
    elif name != folder:
        out.append(Problem(spath, _key_line(front, "name"), f"name {name!r} ≠ folder {folder!r}"))
    desc = data.get("description")
    if not isinstance(desc, str) or not desc.strip():
        out.append(Problem(spath, _key_line(front, "description"), "missing description"))
    elif len(desc) > DESCRIPTION_MAX:
        out.append(Problem(spath, _key_line(front, "description"),
                           f"description longer than {DESCRIPTION_MAX} characters"))
    comp = data.get("compatibility")
    if comp is not None and (not isinstance(comp, str) or not 1 <= len(comp) <= COMPATIBILITY_MAX):
        out.append(Problem(spath, _key_line(front, "compatibility"),
                           f"compatibility must be 1-{COMPATIBILITY_MAX} characters"))
    meta = data.get("metadata")
    if meta is not None and (not isinstance(meta, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in meta.items())):
        out.append(Problem(spath, _key_line(front, "metadata"),
                           "metadata must map strings to strings (quote dates and numbers)"))
    for key in data:
        if key not in SPEC_FIELDS:
            out.append(Problem(spath, _key_line(front, str(key)),
                               f"field {key!r} is not in the Agent Skills spec "
                               "(move it under metadata)", severity="warning"))
    return out


# -- writing ----------------------------------------------------------------------------------

def render_skill(name: str, description: str, metadata: dict[str, str], body: str,
                 extra: dict[str, Any] | None = None) -> str:
    """The file text: spec frontmatter, then the body. Metadata values are all strings."""
    validate_name(name)
    description = " ".join(description.split())
    if not description or len(description) > DESCRIPTION_MAX:
        raise UserError(f"the description must be 1-{DESCRIPTION_MAX} characters "
                        f"(it is {len(description)})", hint="say what the skill does and when to use it")
    front: dict[str, Any] = {"name": name, "description": description}
    for key in ("license", "compatibility", "allowed-tools"):
        if extra and key in extra:
            front[key] = extra[key]
    ordered = {k: str(metadata[k]) for k in SEED_FIELDS if metadata.get(k) not in (None, "")}
    ordered.update({str(k): str(v) for k, v in metadata.items() if k not in SEED_FIELDS})
    front["metadata"] = ordered
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, default_flow_style=False,
                          width=100000)
    body = body.strip("\n")
    return f"---\n{head}---\n\n{body}\n"


# -- cached loading ---------------------------------------------------------------------------

_CACHE: dict[str, tuple[tuple[int, int, int], Skill | DataError]] = {}


def load_skill(path: Path | str, *, retired: bool = False, folder: str | None = None) -> Skill:
    """Parse ``path`` (cached by mtime and size). Raises ``DataError`` for a broken file."""
    key = os.fspath(path)
    st = os.lstat(key)
    if stat.S_ISLNK(st.st_mode):  # planted by a repository or a sync: it could be ~/.ssh/id_ed25519
        raise DataError(f"SKILL.md is a link (to {os.path.realpath(key)}), not a file; not read", path=key,
                        hint="replace the link with the skill's own SKILL.md file")
    if stat.S_ISDIR(st.st_mode):  # one bad entry must cost that skill only, never the library
        raise DataError("SKILL.md is a folder, not a file", path=key,
                        hint="move the folder away and put the skill's SKILL.md file there")
    # atomic writes replace the inode, so (inode, mtime, size) changes on every write we make
    stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == stamp:
        result = hit[1]
    else:
        # a regular file inside the library, through no linked folder, of a bounded size
        text, digest = read_text(Path(key), within=Path(key).parent.parent)
        if text is None or digest is None:
            raise FileNotFoundError(key)
        try:
            result = parse_skill(text, Path(key), retired=retired, content_hash=digest, folder=folder)
        except DataError as exc:
            result = exc
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = (stamp, result)
    if isinstance(result, DataError):
        raise result
    if result.retired != retired:
        result = replace(result, retired=retired)
    return result
