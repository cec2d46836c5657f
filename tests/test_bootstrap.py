"""The session bootstrap: order, budget, ranking with 200 skills, impressions."""

from __future__ import annotations

import json

from click.testing import CliRunner

from slowloop import clock
from slowloop.bootstrap import build_bootstrap
from slowloop.cli import cli
from slowloop.config import load_config
from slowloop.memo import Memo
from slowloop.skills import SkillLibrary
from slowloop.skills.metrics import skill_metrics
from slowloop.store import open_store
from slowloop.tokens import estimate_tokens

TOPICS = ["invoice", "deploy", "backup", "email", "dashboard", "ticket", "review", "migration"]


def make_200(home):
    cfg = load_config(home).with_overrides(skills={"max_count": 250})
    store = open_store(home=home)
    lib = SkillLibrary(home=home, store=store, config=cfg)
    t0 = 1_700_000_000.0
    for i in range(200):
        clock.set_clock(lambda i=i: t0 + i)
        t = TOPICS[i % len(TOPICS)]
        lib.create(f"{t}-steps-{i:03d}", f"When handling {t} work item {i}, follow the usual {t} "
                   "procedure the user agreed on, step by step.", f"1. Always check the {t}.\n")
    clock.set_clock(lambda: t0 + 500)
    lib.create("weekly-report-export", "Export the weekly sales report as CSV for the finance team.",
               "1. Always convert timestamps to UTC.\n")
    return lib, store, cfg


def test_order_budget_ranking_and_impressions(slowloop_home):
    lib, store, cfg = make_200(slowloop_home)
    Memo(home=slowloop_home, config=cfg, store=store).add(
        "plays", "When the user asks for a summary, give the conclusion first.")
    clock.set_clock(lambda: 1_700_000_000.0 + 1000)
    lib.read("backup-steps-002")
    b = build_bootstrap(task="export the weekly sales report to CSV", home=slowloop_home,
                        config=cfg, store=store)
    budget = cfg.bootstrap.index_tokens
    assert b.skills_shown[0] == "weekly-report-export"
    assert 10 < len(b.skills_shown) < 201  # never the whole list blindly
    index = b.text[b.text.index("# Skills"):b.text.index("To use a skill")]
    assert estimate_tokens(index) <= budget
    assert "more skill(s) not listed" in b.text
    assert b.text.index("What I know about how I work") < b.text.index("# Skills") < \
        b.text.index("slowloop skills read NAME")
    m = skill_metrics(store, "default")
    assert sum(x.impressions for x in m.values()) == len(b.skills_shown)
    assert m["weekly-report-export"].impressions == 1

    # without a task: use and recency first
    b2 = build_bootstrap(home=slowloop_home, config=cfg, store=store, record_impressions=False)
    assert b2.skills_shown[0] == "backup-steps-002"
    assert sum(x.impressions for x in skill_metrics(store, "default").values()) == len(b.skills_shown)


def test_small_index_budget_and_empty_home(slowloop_home):
    assert build_bootstrap(home=slowloop_home).text == ""
    lib, store, cfg = make_200(slowloop_home)
    small = cfg.with_overrides(bootstrap={"index_tokens": 200})
    b = build_bootstrap(home=slowloop_home, config=small, store=store, record_impressions=False)
    assert 0 < len(b.skills_shown) < 10


def test_prompt_cli_json(slowloop_home):
    SkillLibrary(home=slowloop_home).create("deploy", "Deploy the app to staging.", "1. Always tag.\n")
    out = CliRunner().invoke(cli, ["prompt", "--task", "deploy to staging", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["skills_shown"] == ["deploy"] and "deploy: Deploy the app" in data["text"]


def test_the_bootstrap_cache_key_follows_every_memory_file_not_a_list(slowloop_home):
    from slowloop.bootstrap_cache import bootstrap_fingerprint
    from slowloop.paths import layout
    from slowloop.store import open_store

    mem = layout("default", slowloop_home).memory
    mem.mkdir(parents=True)
    (mem / "system-state.md").write_text("# System state\n- uses pnpm\n")
    with open_store() as store:
        before = bootstrap_fingerprint(slowloop_home, "default", store)
        (mem / "decisions.md").write_text("# Decisions\n- moved to bun\n")  # a file no list names
        assert bootstrap_fingerprint(slowloop_home, "default", store) != before
