"""Corrections about how code is written, told by the code itself (written alongside the code: forms,
not rates)."""

from __future__ import annotations

from test_ask_first import _rules

from slowloop.observe.lessons import read_lesson
from slowloop.observe.observe import observe_turn
from slowloop.transcripts.model import Step, ToolCall, ToolResult, Turn


def _edit(index: int, user: str, path: str, old: str, new: str) -> Turn:
    return Turn(source="t", format="claude-code", index=index, user_text=user, session_id="s", steps=(
        Step("tool_call", call=ToolCall(f"c{index}", "Edit", {"file_path": path, "old_string": old, "new_string": new})),
        Step("tool_result", result=ToolResult(f"c{index}", "Edit", "ok")), Step("text", text="Done.")))


def test_the_rejected_call_first_then_the_kept_one():
    lesson = read_lesson("non, pas include_directories global, target_include_directories sur la cible")
    assert (lesson.kind, lesson.x, lesson.y) == ("choice", "target_include_directories", "include_directories")
    assert read_lesson("no, not utils/helpers.py, lib/helpers.py").kind == "none"  # files: this task's


def test_a_choice_between_two_calls_is_a_way_of_writing_code():
    prev = _edit(0, "add the include path", "CMakeLists.txt", "add_executable(app main.cpp)",
                 "include_directories(vendor/include)\nadd_executable(app main.cpp)")
    turn = Turn(source="t", format="claude-code", index=1, session_id="s",
                user_text="non, pas include_directories global, target_include_directories sur la cible",
                steps=(Step("text", text="Compris."),))
    rules = _rules(prev, turn)
    assert any("use target_include_directories, never include_directories" in r.replace("`", "") for r in rules), rules


def test_a_complaint_and_the_swap_right_after_teach_the_swap_with_the_complaint_as_reason():
    prev = _edit(0, "retry the webhook", "app/hooks.py", "    resp = await client.post(url)\n",
                 "    for i in range(3):\n        resp = await client.post(url)\n        time.sleep(2 ** i)\n")
    turn = _edit(1, "that freezes every other request on the worker while it waits", "app/hooks.py",
                 "        time.sleep(2 ** i)", "        await asyncio.sleep(2 ** i)")
    [rule] = _rules(prev, turn)
    assert "always use `asyncio.sleep`, never `time.sleep`" in rule and "freezes every other request" in rule


def test_a_table_named_in_place_of_another_stays_this_tasks():
    prev = _edit(0, "archive the rows", "jobs/archive.sql", "", "INSERT INTO orders_2023 SELECT * FROM orders;\n")
    turn = Turn(source="t", format="claude-code", index=1, session_id="s",
                user_text="no, not orders_2023, orders_archive", steps=(Step("text", text="Ok."),))
    assert _rules(prev, turn) == []


def test_a_function_the_words_write_as_a_call_is_the_way():
    prev = _edit(0, "add security headers", "app.js", "const app = express();\n",
                 "const app = express();\napp.use((req, res, next) => { res.set('X-Frame-Options', 'DENY'); next(); });\n")
    turn = _edit(1, "别手写这些 header 了，直接用 helmet()", "app.js",
                 "app.use((req, res, next) => { res.set('X-Frame-Options', 'DENY'); next(); });\n",
                 "app.use(helmet());\n")
    rules = _rules(prev, turn)
    assert any("always use `helmet()`" in r for r in rules), rules


def test_code_in_backticks_keeps_its_colon():
    from slowloop.observe.lessons import _left_item

    assert _left_item("filtra en la query con `where:`")[0] == "where"


def test_how_and_what_goes_wrong_otherwise_is_a_correction():
    prev = _edit(0, "add the DAG", "dags/sales.py", "", "with DAG('sales', start_date=datetime(2024, 1, 1)) as dag:\n")
    for said in ("metti catchup=False nei DAG, sennò appena lo attivi ti fa due anni di backfill",
                 "compara float com pytest.approx, senão quebra por causa de arredondamento",
                 "用到数据库的测试要加 @pytest.mark.django_db，不然直接报 Database access not allowed"):
        turn = Turn(source="t", format="claude-code", index=1, session_id="s", user_text=said,
                    steps=(Step("text", text="Ok."),))
        assert observe_turn(turn, prev).corrected, said
    # a fact with "si no" ("if we don't") and a question are not
    for said in ("dato: mercado pago manda el webhook hasta 3 veces si no respondemos 200",
                 "--address 0.0.0.0 にしないとダメなんですか？気になっただけです"):
        turn = Turn(source="t", format="claude-code", index=1, session_id="s", user_text=said,
                    steps=(Step("text", text="Ok."),))
        assert not observe_turn(turn, prev).corrected, said


def test_what_went_wrong_and_the_fix_added_at_once_is_a_correction():
    prev = _edit(0, "write the export script", "scripts/export.sh", "",
                 "#!/bin/bash\ntar czf /backup/logs.tgz /data/logs\nrm -rf /data/logs/*\n")
    fix = ("scripts/export.sh", "#!/bin/bash\n", "#!/bin/bash\nset -euo pipefail\n")
    said = "上周 tar 因为磁盘满失败了，后面的 rm 照样执行，日志全没了"
    assert observe_turn(_edit(1, said, *fix), prev).corrected
    # more work asked for, whatever the language, is no correction
    for more in ("よし、ダークモードの切り替えも足して", "可以，再加一个按状态码分组的错误率面板",
                 "ok, ¿y le agregas paginación? con pagy que ya está en el Gemfile"):
        assert not observe_turn(_edit(1, more, *fix), prev).corrected, more
