"""``<agent dir>/recall.db``: the derived, rebuildable search index of one agent.

It lives apart from the ledger so that dropping or rebuilding it never touches recorded data.
Entries are the rows; two FTS5 tables mirror them through triggers (``fts_words``: unicode61 with
diacritics removed, for languages that separate words with spaces; ``fts_tri``: trigrams, for
Chinese and Japanese, filled only for entries that contain such text). Vectors are a cache keyed
by the hash of the embedded text, valid for one model identity recorded in ``meta``.

Several processes may refresh at once: WAL lets readers go on while one writes, every write is one
``BEGIN IMMEDIATE`` transaction, and upserts compare content hashes so a repeated write is a no-op.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from ..fsutil import confine
from ..safety.redact import redact
from ..sqlite import SQLiteFile
from ..text import CJK as CJK_CHARS
from .model import Entry

# 2: entries stored with their secrets redacted (an index built before held them raw)
SCHEMA_VERSION = 2

# Han, kana, Hangul: scripts written without spaces, which unicode61 would keep as one long token.
CJK = re.compile(f"[{CJK_CHARS}]")

_SCHEMA = """
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    origin TEXT NOT NULL,
    kind TEXT NOT NULL,
    time TEXT NOT NULL,
    text TEXT NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    hash TEXT NOT NULL,
    ehash TEXT NOT NULL,
    cjk INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX entries_origin ON entries(origin);
CREATE INDEX entries_kind_time ON entries(kind, time);
CREATE INDEX entries_time ON entries(time);
CREATE INDEX entries_ehash ON entries(ehash);

CREATE VIRTUAL TABLE fts_words USING fts5(
    text, context, content='entries', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE fts_tri USING fts5(
    text, context, content='entries', content_rowid='id', tokenize='trigram');

CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
    INSERT INTO fts_words(rowid, text, context) VALUES (new.id, new.text, new.context);
END;
CREATE TRIGGER entries_ai_tri AFTER INSERT ON entries WHEN new.cjk = 1 BEGIN
    INSERT INTO fts_tri(rowid, text, context) VALUES (new.id, new.text, new.context);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
    INSERT INTO fts_words(fts_words, rowid, text, context)
        VALUES ('delete', old.id, old.text, old.context);
END;
CREATE TRIGGER entries_ad_tri AFTER DELETE ON entries WHEN old.cjk = 1 BEGIN
    INSERT INTO fts_tri(fts_tri, rowid, text, context)
        VALUES ('delete', old.id, old.text, old.context);
END;

CREATE TABLE vectors (
    ehash TEXT PRIMARY KEY,
    vec BLOB NOT NULL
);

-- what each indexed file looked like when it was last read (mtime+size first, hash second)
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    hash TEXT NOT NULL
);

-- folders and files the user registered with `slowloop index add`
CREATE TABLE IF NOT EXISTS doc_roots (
    path TEXT PRIMARY KEY,
    added_at TEXT NOT NULL
);

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


class RecallIndex(SQLiteFile):
    """A connection to one agent's ``recall.db``. Open one per process (or thread)."""

    what = "the recall index"
    broken_hint = ("delete the file and run `slowloop index rebuild`; it holds nothing that cannot be "
                   "rebuilt except the folders added with `slowloop index add`")

    def __init__(self, path: Path) -> None:
        confine(Path(path))  # a recall.db planted as a link out of the home is not written through
        super().__init__(path, setup=self._ensure_schema)

    def _ensure_schema(self) -> None:
        if self.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        with self.transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:
                return
            if version:
                # An older layout: everything in it is derived and rebuilt by the next refresh,
                # except the folders the user registered, which stay.
                for name in ("fts_words", "fts_tri", "entries", "vectors", "files", "meta"):
                    db.execute(f'DROP TABLE IF EXISTS "{name}"')
            for statement in _split_sql(_SCHEMA):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _insert(self, db: sqlite3.Connection, e: Entry) -> None:
        # Stored redacted: the index is what `slowloop search`, the MCP `search` tool and a model
        # see of the past, and a file anyone may copy; the hash stays the source's, so a change
        # is still noticed.
        text, context = redact(e.text).text, redact(e.context).text
        db.execute(
            "INSERT INTO entries(source, origin, kind, time, text, context, hash, ehash, cjk) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (e.source, e.origin, e.kind, e.time, text, context, e.hash, e.embed_hash,
             int(has_cjk(text) or has_cjk(context))))

    def upsert(self, entries: Iterable[Entry]) -> tuple[int, int]:
        """Insert new sources, replace changed ones; returns ``(added, updated)``."""
        added = updated = 0
        with self.transaction() as db:
            for e in entries:
                row = db.execute("SELECT id, hash FROM entries WHERE source = ?", (e.source,)).fetchone()
                if row is None:
                    self._insert(db, e)
                    added += 1
                elif row["hash"] != e.hash:
                    # delete + insert keeps the FTS mirrors right through the triggers
                    db.execute("DELETE FROM entries WHERE id = ?", (row["id"],))
                    self._insert(db, e)
                    updated += 1
        return added, updated

    def sync_origin(self, origin: str, entries: list[Entry]) -> tuple[int, int, int]:
        """Make the entries of ``origin`` exactly ``entries``; returns ``(added, updated, removed)``."""
        with self.transaction() as db:
            keep = {e.source for e in entries}
            old = [r["source"] for r in db.execute("SELECT source FROM entries WHERE origin = ?", (origin,))]
            gone = [s for s in old if s not in keep]
            for s in gone:
                db.execute("DELETE FROM entries WHERE source = ?", (s,))
            added, updated = self.upsert(entries)
        return added, updated, len(gone)

    def delete_sources(self, sources: Iterable[str]) -> int:
        n = 0
        with self.transaction() as db:
            for s in sources:
                n += db.execute("DELETE FROM entries WHERE source = ?", (s,)).rowcount
        return n

    def remove_origin(self, origin: str) -> int:
        with self.transaction() as db:
            n = db.execute("DELETE FROM entries WHERE origin = ?", (origin,)).rowcount
            db.execute("DELETE FROM files WHERE path = ?", (origin,))
        return n

    def count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0])

    def counts_by_kind(self) -> dict[str, int]:
        return {r[0]: int(r[1]) for r in self.conn.execute(
            "SELECT kind, COUNT(*) FROM entries GROUP BY kind ORDER BY kind")}

    def clear(self) -> None:
        """Forget every entry and file state (for a rebuild); registered folders and the vector
        cache stay."""
        with self.transaction() as db:
            db.execute("DELETE FROM entries")
            db.execute("DELETE FROM files")
            db.execute("DELETE FROM meta WHERE key LIKE 'turns.%'")
            # 'delete-all' is only for contentless tables; rebuild re-reads the now empty content
            db.execute("INSERT INTO fts_words(fts_words) VALUES ('rebuild')")
            db.execute("INSERT INTO fts_tri(fts_tri) VALUES ('rebuild')")

    # -- files --------------------------------------------------------------------------------
    def file_states(self) -> dict[str, sqlite3.Row]:
        return {r["path"]: r for r in self.conn.execute("SELECT * FROM files")}

    def set_file_state(self, path: str, kind: str, mtime_ns: int, size: int, hash_: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO files(path, kind, mtime_ns, size, hash) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, "
                       "mtime_ns = excluded.mtime_ns, size = excluded.size, hash = excluded.hash",
                       (path, kind, mtime_ns, size, hash_))

    # -- registered document folders ----------------------------------------------------------
    def doc_roots(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT path FROM doc_roots ORDER BY path")]

    def add_doc_root(self, path: str, at: str) -> bool:
        with self.transaction() as db:
            return db.execute("INSERT OR IGNORE INTO doc_roots(path, added_at) VALUES (?, ?)",
                              (path, at)).rowcount > 0

    def remove_doc_root(self, path: str) -> bool:
        with self.transaction() as db:
            return db.execute("DELETE FROM doc_roots WHERE path = ?", (path,)).rowcount > 0

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO meta(key, value) VALUES (?, ?) "
                       "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def _split_sql(script: str) -> list[str]:
    """Statements of ``_SCHEMA`` (``executescript`` would commit our open transaction)."""
    out, buf = [], []
    for line in script.splitlines():
        if line.strip().startswith("--") or not line.strip():
            continue
        buf.append(line)
        joined = "\n".join(buf)
        if line.rstrip().endswith(";") and (not joined.lstrip().upper().startswith("CREATE TRIGGER")
                                            or line.strip().upper() == "END;"):
            out.append(joined)
            buf = []
    return out
