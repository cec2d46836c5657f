"""The archive flow: the current cycle moves into ``past/<NNNN>-<date>[-<milestone>]/``, atomically.

How a crash can never leave half a root:

1. Under the memory lock, the old root files are copied into ``.archive-staging/layer/`` and the new
   root files (fresh chronicle, open debts, regenerated summary) written into
   ``.archive-staging/root/``, every file fsynced. The real root is untouched.
2. ``.archive-staging/plan.json`` is written atomically: **the commit point**.
3. Roll forward: rename ``layer/`` to ``past/<name>/`` (one rename), then ``os.replace`` each new
   root file over the old one, then remove the now-empty staging folder.

The next time anyone takes the memory lock, ``recover`` looks at a leftover staging folder: without
``plan.json`` it is discarded (it held only copies: the old root is whole); with it, step 3 is
finished (each step is idempotent). So a reader always sees the old root or the new one.

``system-state.md`` carries forward unchanged, so it is copied into the layer but never replaced.
Notes appended by other processes wait on the lock and land in the new root; a hand edit made
between the snapshot and the commit aborts the archive; one made after the commit is kept in
``past/<name>/late-edits/``. Nothing is deleted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .. import clock
from ..errors import ConflictError, UserError
from ..fsutil import atomic_write, confine, file_hash, fsync_dir, make_private_dirs, sha256_text
from ..tokens import estimate_tokens
from . import debts as debts_mod, sections
from .layout import CHRONICLE, DEBTS, HEADERS, PAST, ROLE_FILES, SUMMARY
from .summary import CycleInfo, SummaryBy, build_summary

if TYPE_CHECKING:
    from .files import Memory

STAGING = ".archive-staging"
PLAN = "plan.json"
LAYER_META = "layer.json"
LAYER_NAME = re.compile(r"^(?P<num>\d{4,})-(?P<date>\d{4}-\d{2}-\d{2})(?:-(?P<milestone>[a-z0-9][a-z0-9-]*))?$")
Reason = Literal["forced", "threshold", "milestone"]
# Replaced in the root by the new cycle; the state is carried forward as it is.
REPLACED = (CHRONICLE, DEBTS, SUMMARY)

# Tests set this to raise (or exit) at a named stage to prove a crash anywhere is recoverable.
_stage_hook: Callable[[str], None] | None = None


def _stage(name: str) -> None:
    if _stage_hook is not None:
        _stage_hook(name)


@dataclass(frozen=True)
class FileSize:
    lines: int
    tokens: int
    chars: int


@dataclass(frozen=True)
class Layer:
    number: int
    name: str
    path: Path
    date: str
    milestone: str | None
    archived_at: str | None = None
    reason: str | None = None
    summary_by: str | None = None

    @cached_property
    def files(self) -> dict[str, FileSize]:
        """Sizes of the role files in the layer (read on demand: listing layers stays cheap)."""
        return {n: size_of((self.path / n).read_text(encoding="utf-8", errors="replace"))
                for n in ROLE_FILES if (self.path / n).is_file()}

    def to_json(self) -> dict:
        return {"number": self.number, "name": self.name, "path": str(self.path), "date": self.date,
                "milestone": self.milestone, "archived_at": self.archived_at, "reason": self.reason,
                "summary_by": self.summary_by,
                "files": {k: vars(v) for k, v in self.files.items()}}


@dataclass(frozen=True)
class ArchiveResult:
    layer: Layer
    reason: Reason
    summary_by: SummaryBy
    entries_archived: int
    debts_carried: int
    debts_closed: int
    warning: str | None = None


def size_of(text: str) -> FileSize:
    return FileSize(len(text.splitlines()), estimate_tokens(text), len(text))


def list_layers(mem: Memory) -> list[Layer]:
    past = mem.root / PAST
    if not past.is_dir():
        return []
    out = []
    for d in past.iterdir():
        m = LAYER_NAME.match(d.name)
        if not (m and d.is_dir()):
            continue
        meta: dict = {}
        try:
            meta = json.loads((d / LAYER_META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass  # a layer made by hand, or by the seed's shell script: its name says enough
        out.append(Layer(int(m.group("num")), d.name, d, m.group("date"),
                         meta.get("milestone") or m.group("milestone"), meta.get("archived_at"),
                         meta.get("reason"), meta.get("summary_by")))
    return sorted(out, key=lambda x: x.number)


def find_layer(mem: Memory, ref: str) -> Layer:
    """``3``, ``0003`` or the folder name."""
    layers = list_layers(mem)
    ref = str(ref).strip().rstrip("/").split("/")[-1]
    for layer in layers:
        if layer.name == ref or (ref.isdigit() and int(ref) == layer.number):
            return layer
    known = ", ".join(str(x.number) for x in layers) or "none yet"
    raise UserError(f"no layer {ref!r} in {mem.root / PAST} (layers: {known})",
                    hint="`slowloop memory dig` lists the layers")


def summary_of(mem: Memory, layer: Layer) -> tuple[Path, str]:
    """The past-summary written when ``layer`` was archived: in the next layer, or in the root."""
    later = [x for x in list_layers(mem) if x.number > layer.number]
    path = (later[0].path if later else mem.root) / SUMMARY
    return path, (path.read_text(encoding="utf-8") if path.exists() else "")


def slug(milestone: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", milestone.strip().lower()).strip("-")[:40].strip("-")
    if not s:
        raise UserError(f"milestone {milestone!r} has no letters or digits to name the layer with",
                        hint="e.g. --milestone v1.0 or --milestone ci-migration")
    return s


def _write_durable(path: Path, text: str) -> None:
    confine(path)
    make_private_dirs(path.parent)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(path, 0o600)


def archive(mem: Memory, *, force: bool = False, milestone: str | None = None,
            reason: Reason | None = None, summarize: Callable[[str], str] | None = None) -> ArchiveResult:
    """Archive the current cycle. Without ``force`` or ``milestone`` only when over a threshold."""
    with mem.lock():
        mem.require()
        why: Reason = reason or ("milestone" if milestone else "forced" if force else "threshold")
        if why == "threshold" and not mem.over_threshold():
            lines, tokens = mem.chronicle_size()
            s = mem.settings
            raise UserError(
                f"nothing to archive: the chronicle is {lines}/{s.chronicle_max_lines} lines and "
                f"{tokens}/{s.chronicle_max_tokens} tokens",
                hint="use --force to archive anyway, or --milestone NAME when a milestone closes")
        snap = {n: mem.read(n) for n in ROLE_FILES}
        dfile = debts_mod.parse_debts(snap[DEBTS][0], str(mem.path(DEBTS)))
        preamble, entries = sections.chronicle_entries(snap[CHRONICLE][0])
        layers = list_layers(mem)
        number = (layers[-1].number if layers else 0) + 1
        now = clock.iso()
        name = f"{number:04d}-{now[:10]}" + (f"-{slug(milestone)}" if milestone else "")
        rel = f"{PAST}/{name}/"
        started = entries[0].at if entries else _cycle_start(preamble)
        closed = [d for d in dfile.debts if d.status == "closed"]
        info = CycleInfo(number, rel, started, now, milestone)
        summary_text, by, warning = build_summary(
            HEADERS[SUMMARY], info, entries, snap[CHRONICLE][0], closed, snap[SUMMARY][0],
            mem.settings.summary_max_chars, summarize)
        new_root = {
            CHRONICLE: (f"{HEADERS[CHRONICLE]}\n\nCycle {number + 1} · started {now} · cycle {number} is "
                        f"archived in {rel} (its summary is in past-summary.md; "
                        f"`slowloop memory dig {number}`)\n"),
            DEBTS: dfile.without_closed().render(),
            SUMMARY: summary_text,
        }
        meta = {"number": number, "name": name, "archived_at": now, "reason": why, "milestone": milestone,
                "cycle_started": started, "summary_by": by, "entries": len(entries),
                "debts_closed": [d.id for d in closed]}

        staging = mem.root / STAGING
        if staging.exists():  # recover() ran under this lock, so this is a stale rollback leftover
            shutil.rmtree(staging)
        for n in ROLE_FILES:
            if snap[n][1] is not None:  # a missing file stays missing in the layer
                _write_durable(staging / "layer" / n, snap[n][0])
        _write_durable(staging / "layer" / LAYER_META, json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        for n, text in new_root.items():
            _write_durable(staging / "root" / n, text)
        for d in (staging / "layer", staging / "root", staging):
            fsync_dir(d)
        _stage("staged")
        changed = [n for n in ROLE_FILES if file_hash(mem.path(n)) != snap[n][1]]
        if changed:
            shutil.rmtree(staging)  # only copies: the root was never touched
            raise ConflictError(f"{', '.join(str(mem.path(n)) for n in changed)} changed during the archive; "
                                "nothing was archived",
                                hint="save your edits, then run `slowloop memory archive` again")
        plan = {"layer": name, "old": {n: snap[n][1] for n in REPLACED},
                "new": {n: sha256_text(t) for n, t in new_root.items()}}
        atomic_write(staging / PLAN, json.dumps(plan, indent=2) + "\n")
        _stage("committed")
        _roll_forward(mem, plan)
        layer = find_layer(mem, name)
        return ArchiveResult(layer, why, by, len(entries), len(dfile.without_closed().debts), len(closed), warning)


def _cycle_start(preamble: list[str]) -> str | None:
    for line in preamble:
        m = re.search(r"started (\S+)", line)
        if m:
            return m.group(1)
    return None


def _roll_forward(mem: Memory, plan: dict) -> None:
    staging = mem.root / STAGING
    dest = mem.root / PAST / plan["layer"]
    if (staging / "layer").exists() and not dest.exists():
        confine(dest)
        make_private_dirs(dest.parent)
        os.replace(staging / "layer", dest)
        fsync_dir(dest.parent)
    _stage("layer-moved")
    for n in REPLACED:
        src = staging / "root" / n
        if not src.exists():
            continue  # replaced before the crash
        current = file_hash(mem.path(n))
        if current is not None and current not in (plan["old"].get(n), plan["new"].get(n)):
            # Someone edited the old root after the commit: keep their version next to the layer.
            _write_durable(dest / "late-edits" / n, mem.path(n).read_text(encoding="utf-8", errors="replace"))
        os.replace(src, mem.path(n))
        _stage(f"replaced-{n}")
    fsync_dir(mem.root)
    (staging / PLAN).unlink(missing_ok=True)
    for lock in staging.rglob("*.lock"):  # atomic_write's lock file for plan.json
        lock.unlink(missing_ok=True)
    for d in (staging / "root", staging):
        if d.exists():
            d.rmdir()
    fsync_dir(mem.root)
    _stage("done")


def recover(mem: Memory) -> str | None:
    """Finish or discard an interrupted archive. Call with the memory lock held."""
    staging = mem.root / STAGING
    if not staging.exists():
        return None
    plan_path = staging / PLAN
    if not plan_path.exists():
        shutil.rmtree(staging)
        return "rolled back"
    plan = json.loads(plan_path.read_text(encoding="utf-8"))
    _roll_forward(mem, plan)
    return "rolled forward"

