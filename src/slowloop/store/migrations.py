"""Numbered migrations of the ledger. Append new ones; never edit a released one.

They are written in SQLite's DDL; on PostgreSQL each runs translated (``store.postgres.ddl``:
identity ids, ``BIGINT``, ``DOUBLE PRECISION``), so both databases get the same numbered steps.
Keep new ones to what that translation covers (``tests/test_ledger_backends.py`` compares the two
schemas column by column).

``PRAGMA user_version`` holds the number of the last applied migration. Each runs inside the same
``BEGIN IMMEDIATE`` transaction that bumps the version, so two processes opening a fresh store at
once apply each migration exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Schema(Protocol):
    """What a migration is given: the connection inside the open transaction (``store.db``'s
    ``_InTransaction``, whose ``executescript`` does not commit; ``store.postgres._Schema``).
    ``backend`` is ``"sqlite"`` or ``"postgresql"``, for the few steps only one database has."""

    backend: str

    def execute(self, sql: str, /) -> Any: ...

    def executescript(self, script: str, /) -> None: ...


Migration = Callable[[Schema], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_foundation(db: Schema) -> None:
    db.executescript(
        """
        CREATE TABLE agents (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            last_reflected_at TEXT,          -- last completed reflection (any outcome)
            last_attempt_at TEXT,            -- last reflection attempt (incl. failed ones)
            last_seen_turn_id INTEGER NOT NULL DEFAULT 0  -- dirty gate watermark
        );

        -- one row per observed turn; data holds the normalized Turn as JSON
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            key TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            source TEXT NOT NULL,
            format TEXT NOT NULL,
            session_id TEXT,
            idx INTEGER NOT NULL,
            started_at TEXT,
            ended_at TEXT,
            recorded_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            user_text TEXT NOT NULL,
            tool_calls INTEGER NOT NULL,
            corrected INTEGER NOT NULL,
            aborted INTEGER NOT NULL,
            rejected INTEGER NOT NULL,
            recovered INTEGER NOT NULL,
            ended_in_real_error INTEGER NOT NULL,
            score REAL NOT NULL,
            threshold REAL NOT NULL,
            reflect INTEGER NOT NULL,
            complete INTEGER NOT NULL DEFAULT 1,
            data TEXT NOT NULL,
            UNIQUE (agent_id, key)
        );
        CREATE INDEX turns_agent_time ON turns(agent_id, id);
        CREATE INDEX turns_session ON turns(agent_id, session_id, idx);

        CREATE TABLE errors (
            id INTEGER PRIMARY KEY,
            turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('transient', 'real')),
            tool TEXT,
            evidence TEXT NOT NULL,
            excerpt TEXT NOT NULL DEFAULT '',
            step INTEGER
        );
        CREATE INDEX errors_turn ON errors(turn_id);

        CREATE TABLE signals (
            id INTEGER PRIMARY KEY,
            turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            weight REAL NOT NULL,
            why TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX signals_turn ON signals(turn_id);

        CREATE TABLE turn_skills (           -- skills the agent read during a turn
            turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
            skill TEXT NOT NULL,
            PRIMARY KEY (turn_id, skill)
        );

        -- skill metrics (SPEC 1.8)
        CREATE TABLE impressions (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            skill TEXT NOT NULL,
            at TEXT NOT NULL,
            bootstrap_id TEXT
        );
        CREATE INDEX impressions_skill ON impressions(agent_id, skill);

        CREATE TABLE invocations (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            skill TEXT NOT NULL,
            at TEXT NOT NULL,
            source TEXT NOT NULL,             -- library | cli | mcp | transcript
            turn_id INTEGER REFERENCES turns(id) ON DELETE SET NULL,
            UNIQUE (turn_id, skill)
        );
        CREATE INDEX invocations_skill ON invocations(agent_id, skill);

        CREATE TABLE edits (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            skill TEXT,
            at TEXT NOT NULL,
            source TEXT NOT NULL,             -- explicit | correction
            turn_id INTEGER REFERENCES turns(id) ON DELETE SET NULL,
            note TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX edits_skill ON edits(agent_id, skill);

        -- reflection
        CREATE TABLE reflections (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL,             -- running | applied | nothing | failed | dry-run
            provider TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            sent_to TEXT NOT NULL DEFAULT '', -- where the bundle went ("nowhere (offline)", host…)
            bundle_tokens INTEGER NOT NULL DEFAULT 0,
            watermark INTEGER NOT NULL DEFAULT 0, -- last turn id the bundle covered
            summary TEXT NOT NULL DEFAULT '',
            raw_output TEXT NOT NULL DEFAULT '',
            error TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX reflections_agent ON reflections(agent_id, id);

        CREATE TABLE rejections (
            id INTEGER PRIMARY KEY,
            reflection_id INTEGER NOT NULL REFERENCES reflections(id),
            action TEXT NOT NULL,             -- the action as JSON (or the raw text)
            reason TEXT NOT NULL,
            at TEXT NOT NULL
        );

        -- history of every change to a learned artifact, with before and after
        CREATE TABLE changes (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            at TEXT NOT NULL,
            kind TEXT NOT NULL,               -- skill | memo | memory
            target TEXT NOT NULL,             -- skill name, memo section, file
            op TEXT NOT NULL,                 -- create | patch | retire | restore | evict | edit…
            actor TEXT NOT NULL,              -- slowloop | person | reflection | undo
            reflection_id INTEGER REFERENCES reflections(id),
            path TEXT NOT NULL DEFAULT '',
            before TEXT,                      -- NULL: did not exist
            after TEXT,                       -- NULL: removed / archived
            note TEXT NOT NULL DEFAULT '',
            undone_by INTEGER
        );
        CREATE INDEX changes_agent ON changes(agent_id, id);

        -- leases: at most one reflector per agent; a stale lease can be taken over
        CREATE TABLE leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            acquired_at REAL NOT NULL,
            expires_at REAL NOT NULL
        );

        -- incremental reading of growing transcript files (hooks, watch)
        CREATE TABLE offsets (
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            path TEXT NOT NULL,
            inode INTEGER,
            size INTEGER NOT NULL,
            mtime REAL NOT NULL,
            offset INTEGER NOT NULL,
            head_hash TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (agent_id, path)
        );

        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """
    )


@migration
def m002_reflection_journal(db: Schema) -> None:
    # The planned file changes of a reflection, written before any file is touched, so a crash in
    # the middle of applying can be resolved to all-or-nothing at the next start (reflect.apply).
    db.execute("ALTER TABLE reflections ADD COLUMN plan TEXT NOT NULL DEFAULT ''")


@migration
def m003_offsets_resume(db: Schema) -> None:
    # Resuming a growing transcript needs the line number and turn index at the saved offset, so
    # resumed reads give turns the same keys a full read would (slowloop.integrations.follow).
    db.execute("ALTER TABLE offsets ADD COLUMN line INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE offsets ADD COLUMN turn_index INTEGER NOT NULL DEFAULT 0")


@migration
def m004_proposals(db: Schema) -> None:
    # Actions a reflection may not apply on its own: a rule learned from a person's words that
    # falls in a danger class, or a change over text a person wrote. They wait here for
    # `slowloop review`.
    db.executescript(
        """
        CREATE TABLE proposals (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            reflection_id INTEGER REFERENCES reflections(id),
            at TEXT NOT NULL,
            action TEXT NOT NULL,             -- the action, as JSON
            reason TEXT NOT NULL,             -- why it waits
            status TEXT NOT NULL DEFAULT 'pending',  -- pending | approved | declined
            decided_at TEXT,
            outcome TEXT NOT NULL DEFAULT ''  -- what approving it did (change ids) or why not
        );
        CREATE INDEX proposals_agent ON proposals(agent_id, status);
        """
    )


@migration
def m005_rules(db: Schema) -> None:
    # Each learned rule (a memo entry, a rule line inside a skill) with what taught it, and what
    # happened in the turns recorded after it: relevant, followed, violated, corrected again
    # (slowloop.rules). A rule is matched to its line by ``norm`` (its text folded, the repeat
    # count left out), so a person may edit memo.md freely.
    db.executescript(
        """
        CREATE TABLE rules (
            id INTEGER PRIMARY KEY,
            agent_id INTEGER NOT NULL REFERENCES agents(id),
            kind TEXT NOT NULL,               -- memo | skill
            target TEXT NOT NULL,             -- memo section, skill name
            text TEXT NOT NULL,               -- the rule as last seen in its file
            norm TEXT NOT NULL,               -- what matches it to its line
            created_at TEXT NOT NULL,
            watermark INTEGER NOT NULL DEFAULT 0, -- turns after this id come after the rule
            reflection_id INTEGER,
            proposer TEXT NOT NULL DEFAULT '',    -- offline learner | provider:model | person | teammate
            evidence TEXT NOT NULL DEFAULT '{}',  -- JSON: the person's words, the agent's action, turn, session
            status TEXT NOT NULL DEFAULT 'active', -- active | escalated | archived | gone
            escalated_at TEXT,
            escalated_turn INTEGER,
            reported_turn INTEGER,            -- broken again after it was escalated
            archived_change INTEGER,          -- the history change that archived it (undo restores)
            last_relevant_at TEXT,
            last_seen_at TEXT,                -- a literal it names last appeared in the agent's work
            judged_before INTEGER NOT NULL DEFAULT 0, -- the turns before it were judged (once)
            updated_at TEXT NOT NULL
        );
        CREATE INDEX rules_agent ON rules(agent_id, status);

        CREATE TABLE rule_outcomes (
            id INTEGER PRIMARY KEY,
            rule_id INTEGER NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
            turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
            phase TEXT NOT NULL,              -- before | after (the rule was written)
            outcome TEXT NOT NULL,            -- relevant | followed | violated | corrected_again
            at TEXT NOT NULL,                 -- when the turn happened
            detail TEXT NOT NULL DEFAULT '',  -- the action that shows it
            UNIQUE (rule_id, turn_id, outcome)
        );
        CREATE INDEX rule_outcomes_rule ON rule_outcomes(rule_id, phase);
        """
    )


# -- m006: which database roles may read and write each agent (PostgreSQL row-level security) ----
#
# On SQLite the ledger is one user's file (0600 in the home): identity is the local user and the
# table below stays empty. On a PostgreSQL ledger many machines share, each person or machine
# connects as its own role, and the *server* keeps each role to the agents granted to it, with
# row-level security on every table that holds an agent's rows — so a client running its own
# code (raw SQL over its own connection) reads and writes no more than slowloop would let it.
#
# - ``agent_access(agent_id, role)`` is the allow-list. A role that creates an agent is granted
#   it (the trigger below); the ledger's owner (the role that owns its tables, which PostgreSQL
#   exempts from the policies, as it does superusers) grants and revokes the rest
#   (``slowloop ledger grant|revoke``). Agents that existed before this step are granted to that
#   owner, so a fleet that connects as one role sees no change.
# - A role reads only its own allow-list rows and may add one only for an agent its own open
#   transaction just created (``slowloop_claimable``), so nobody grants themselves an agent.
# - Rows that hang off a turn, a reflection or a rule follow their parent; a lease is an agent's
#   when named ``reflect:<agent>`` (``reflect.lease.agent_lease_name``); two ``meta`` keys carry an
#   agent id (``rules.seen.<id>``: store/rules.py, ``memory-kept:<id>``: sessions/keep.py).

#: tables whose rows carry the agent's id in ``agent_id``
AGENT_TABLES = ("turns", "impressions", "invocations", "edits", "reflections", "changes",
                "offsets", "proposals", "rules")
#: table → (parent table, the column naming its row): the row is visible when its parent is
CHILD_TABLES = {"errors": (("turns", "turn_id"),), "signals": (("turns", "turn_id"),),
                "turn_skills": (("turns", "turn_id"),),
                "rejections": (("reflections", "reflection_id"),),
                "rule_outcomes": (("rules", "rule_id"), ("turns", "turn_id"))}
_MINE = "(SELECT a.agent_id FROM agent_access a WHERE a.role = current_user)"


def _policies() -> str:
    out = [
        # an agent's id in a meta key, or NULL for a key every machine shares
        r"""CREATE FUNCTION slowloop_meta_agent(k TEXT) RETURNS BIGINT LANGUAGE sql IMMUTABLE
            AS $$ SELECT CASE WHEN k ~ '^rules\.seen\.[0-9]{1,18}$' THEN substr(k, 12)::bigint
                              WHEN k ~ '^memory-kept:[0-9]{1,18}$' THEN substr(k, 13)::bigint
                         END $$;""",
        # whether an agent is one no role holds yet and that this very transaction created
        """CREATE FUNCTION slowloop_claimable(agent BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE
            SECURITY DEFINER SET search_path FROM CURRENT
            AS $$ SELECT NOT EXISTS (SELECT 1 FROM agent_access WHERE agent_id = agent)
                     AND EXISTS (SELECT 1 FROM agents WHERE id = agent
                                 AND xmin = pg_current_xact_id_if_assigned()::xid) $$;""",
        # whether an agent of that name exists, granted or not (the client's error says so)
        """CREATE FUNCTION slowloop_agent_exists(agent_name TEXT) RETURNS BOOLEAN LANGUAGE sql
            STABLE SECURITY DEFINER SET search_path FROM CURRENT
            AS $$ SELECT EXISTS (SELECT 1 FROM agents WHERE name = agent_name) $$;""",
        """CREATE FUNCTION slowloop_claim() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO agent_access(agent_id, role, granted_at, granted_by)
                VALUES (NEW.id, current_user,
                        to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                        'created it')
                ON CONFLICT DO NOTHING;
                RETURN NULL;
            END $$;""",
        """INSERT INTO agent_access(agent_id, role, granted_at, granted_by)
            SELECT id, (SELECT tableowner FROM pg_tables WHERE schemaname = current_schema()
                        AND tablename = 'agents'),
                   to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'upgrade'
            FROM agents;""",
        "CREATE TRIGGER slowloop_claim AFTER INSERT ON agents FOR EACH ROW "
        "EXECUTE FUNCTION slowloop_claim();",
        "ALTER TABLE agent_access ENABLE ROW LEVEL SECURITY;",
        "CREATE POLICY slowloop_own ON agent_access FOR SELECT USING (role = current_user);",
        "CREATE POLICY slowloop_claim ON agent_access FOR INSERT "
        "WITH CHECK (role = current_user AND slowloop_claimable(agent_id));",
        "ALTER TABLE agents ENABLE ROW LEVEL SECURITY;",
        f"CREATE POLICY slowloop_read ON agents FOR SELECT USING (id IN {_MINE});",
        "CREATE POLICY slowloop_new ON agents FOR INSERT WITH CHECK (true);",
        f"CREATE POLICY slowloop_change ON agents FOR UPDATE USING (id IN {_MINE}) "
        f"WITH CHECK (id IN {_MINE});",
        f"CREATE POLICY slowloop_drop ON agents FOR DELETE USING (id IN {_MINE});",
    ]
    for table in AGENT_TABLES:
        out += [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;",
                f"CREATE POLICY slowloop_agent ON {table} USING (agent_id IN {_MINE}) "
                f"WITH CHECK (agent_id IN {_MINE});"]
    for table, parents in CHILD_TABLES.items():
        cond = " AND ".join(f"EXISTS (SELECT 1 FROM {p} p WHERE p.id = {table}.{col})"
                            for p, col in parents)
        out += [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;",
                f"CREATE POLICY slowloop_agent ON {table} USING ({cond}) WITH CHECK ({cond});"]
    lease = "(name NOT LIKE 'reflect:%' OR substr(name, 9) IN (SELECT name FROM agents))"
    meta = ("(slowloop_meta_agent(key) IS NULL OR "
            "slowloop_meta_agent(key) IN (SELECT id FROM agents))")
    out += ["ALTER TABLE leases ENABLE ROW LEVEL SECURITY;",
            f"CREATE POLICY slowloop_agent ON leases USING {lease} WITH CHECK {lease};",
            "ALTER TABLE meta ENABLE ROW LEVEL SECURITY;",
            f"CREATE POLICY slowloop_agent ON meta USING {meta} WITH CHECK {meta};"]
    return "\n".join(out)


@migration
def m006_agent_access(db: Schema) -> None:
    db.executescript(
        """
        CREATE TABLE agent_access (
            agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
            role TEXT NOT NULL,               -- a database role (PostgreSQL); empty on SQLite
            granted_at TEXT NOT NULL,
            granted_by TEXT NOT NULL DEFAULT '',  -- the granting role, 'created it', 'upgrade'
            PRIMARY KEY (agent_id, role)
        );
        CREATE INDEX agent_access_role ON agent_access(role, agent_id);
        """
    )
    if db.backend == "postgresql":
        db.executescript(_policies())
