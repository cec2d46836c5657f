"""One Markdown section splitter, and it knows code fences (memo, memory state, chronicle, recall)."""

from __future__ import annotations

import pytest

from slowloop import markdown
from slowloop.memo import parse_memo
from slowloop.memory import sections

BASH_BLOCK = """\
```bash
## comment, not a section
make deploy
```"""


def test_a_heading_inside_a_fence_is_body():
    text = f"# Title\n\n## Deploy\n{BASH_BLOCK}\nafter\n\n## Next\nx\n"
    pre, found = markdown.split_sections(text)
    assert pre == ["# Title", ""]
    assert [s.title for s in found] == ["Deploy", "Next"]
    assert "## comment, not a section" in found[0].body and found[0].body.endswith("after")
    assert found[1].line == 10


@pytest.mark.parametrize("fence, closer", [("```", "```"), ("~~~~", "~~~~~"), ("````", "````")])
def test_fences_close_only_on_their_own_run(fence, closer):
    text = f"## A\n{fence}\n## in\n```x```\n## still in\n{closer}\n## B\n"
    if fence == "````":  # a shorter run does not close a longer fence
        text = "## A\n````\n```\n## in\n````\n## B\n"
    titles = [s.title for s in markdown.split_sections(text)[1]]
    assert titles == ["A", "B"]


def test_inline_triple_backticks_do_not_open_a_fence():
    text = "## A\nuse ```x``` inline\n```py``` too\n## B\n"
    assert [s.title for s in markdown.split_sections(text)[1]] == ["A", "B"]


def test_an_unclosed_fence_runs_to_the_end():
    text = "## A\n```\n## B\n"
    assert [s.title for s in markdown.split_sections(text)[1]] == ["A"]


def test_heading_rules():
    assert markdown.heading("## Title ##") == (2, "Title")
    assert markdown.heading("## C# tips") == (2, "C# tips")
    assert markdown.heading("##no-space") is None
    assert markdown.heading("## ") is None
    assert markdown.heading("### Sub") == (3, "Sub")
    assert list(markdown.headings("# T\n```\n# not\n```\n## S\n")) == [(1, 1, "T"), (5, 2, "S")]


def test_memory_state_sections_keep_code_blocks():
    text = f"# System state\n\n## Deploy\n{BASH_BLOCK}\n\n## Services\n- api\n"
    _, secs = sections.split_sections(text)
    assert [s.title for s in secs] == ["Deploy", "Services"]
    replaced = sections.replace_section(text, "services", "- api\n- worker")
    assert "## comment, not a section" in replaced
    assert [s.title for s in sections.split_sections(replaced)[1]] == ["Deploy", "Services"]


def test_chronicle_entries_ignore_dated_headings_in_code():
    text = ("# Chronicle\n\n## 2025-01-05 deploy day\nshipped\n```\n## 2025-01-06 fake\n```\n"
            "## Notes\nundated heading stays in the entry\n## 2025-01-07T10:00:00Z\nnext\n")
    _, entries = sections.chronicle_entries(text)
    assert [e.at for e in entries] == ["2025-01-05", "2025-01-07T10:00:00Z"]
    assert entries[0].text.startswith("deploy day\nshipped")
    assert "## 2025-01-06 fake" in entries[0].text and "## Notes" in entries[0].text


def test_memo_code_block_is_part_of_an_entry_not_a_section():
    text = ("# Self-understanding memo\n\n## Strengths and pitfalls\n- Pitfall: run the deploy as\n"
            f"{BASH_BLOCK}\n- Strength: fast at SQL.\n\n## Plays for this user and domain\n- Be brief.\n")
    memo = parse_memo(text)  # an unknown section would raise
    assert memo.entries["strengths"][0].startswith("Pitfall: run the deploy as")
    assert "## comment, not a section" in memo.entries["strengths"][0]
    assert memo.entries["strengths"][1] == "Strength: fast at SQL."
    assert memo.entries["plays"] == ("Be brief.",)


def test_memory_bootstrap_and_summary_leave_code_comments_alone(tmp_path):
    from slowloop.config import MemorySettings
    from slowloop.memory import Memory, memory_bootstrap
    from slowloop.memory.summary import key_lines

    mem = Memory(tmp_path / "memory", MemorySettings())
    mem.init()
    mem.set_state("Deploy", f"Run it like this:\n{BASH_BLOCK}")
    text = memory_bootstrap(mem, 2000)
    assert "\n## comment, not a section\n" in text  # not demoted to ### like a real heading
    assert "### Deploy" in text
    _, entries = sections.chronicle_entries(
        "# Chronicle\n\n## 2025-01-05 deploy\n### Release\nWe decided to ship on Fridays.\n"
        f"{BASH_BLOCK}\n")
    picks = key_lines(entries, [])
    assert any("Release" in p for p in picks)
    assert not any("comment" in p or "make deploy" in p for p in picks)


def test_strip_fenced_removes_what_a_person_pasted_in_chat() -> None:
    assert markdown.strip_fenced("use uv ```pip install x``` not pip") == "use uv \n not pip"
    assert markdown.strip_fenced("before\n~~~\nlog\n~~~\nafter") == "before\n\n\nafter"
    assert markdown.strip_fenced("never closed ```\nrest of the log", " ") == "never closed  "


def test_unwrap_fenced_keeps_the_inside_of_a_wrapped_answer() -> None:
    assert markdown.unwrap_fenced('```json\n{"a": 1}\n```\n') == '{"a": 1}'
    assert markdown.unwrap_fenced("  plain answer \n") == "plain answer"
    assert markdown.unwrap_fenced("text ```x``` more") == "text ```x``` more"


def test_undo_bullets_takes_back_one_changes_entries_and_keeps_the_later_ones():
    from slowloop.markdown import undo_bullets

    before = "# Memo\n\n## Plays\n\n- keep me\n- replaced by the change\n"
    after = "# Memo\n\n## Plays\n\n- keep me\n- added by the change\n"
    now = "# Memo\n\n## Plays\n\n- keep me\n- added by the change\n- added later\n\n## Strengths\n\n- a strength\n"
    assert undo_bullets(before, after, now) == (
        "# Memo\n\n## Plays\n\n- keep me\n- added later\n- replaced by the change\n\n## Strengths\n\n- a strength\n")
    assert undo_bullets(after, after, now) is None  # nothing to take back
    assert undo_bullets(before, after, "# Memo\n") is None  # the section is gone: not guessed
    fenced = "## Plays\n\n```\n- added by the change\n```\n- added by the change\n"
    assert undo_bullets("## Plays\n", "## Plays\n- added by the change\n", fenced) == "## Plays\n\n```\n- added by the change\n```\n"


@pytest.mark.parametrize("text, front, body", [
    ("---\nname: a\n---\nbody\n", "name: a\n", "body\n"),
    ("\ufeff---\nname: a\n---\nbody\n", "name: a\n", "body\n"),  # a BOM
    ("---\r\nname: a\r\n---  \r\nbody\r\n", "name: a\r\n", "body\r\n"),  # CRLF, trailing blanks
    ("---\nname: a\n...\nbody\n", "name: a\n", "body\n"),  # YAML's end of document
    ("----\nname: a\n---\nbody\n", None, "----\nname: a\n---\nbody\n"),  # a rule, not a delimiter
    ("---\nname: a\n----\nbody\n", None, "---\nname: a\n----\nbody\n"),  # never closed
    ("# no frontmatter\n", None, "# no frontmatter\n"),
])
def test_one_frontmatter_splitter_for_every_file(text, front, body):
    from slowloop.markdown import split_frontmatter

    fm = split_frontmatter(text)
    assert (fm.text, fm.body) == (front, body)
