"""The corpus audit (``python -m reports.audit``): the corpus as it stands passes the
part that needs no frontend, and the audit catches what it is there to catch."""

from __future__ import annotations

from harness.known import Known
from reports.audit import MAX_REPRODUCER_LINES, audit, code_lines
from reports.entries import Entry


def test_every_bug_row_is_searched_upstream_and_every_open_reproducer_is_short():
    found = audit()
    assert not found.unsearched, f"bug rows with neither a link nor a search record: {found.unsearched}"
    assert not found.long, f"open reproducers over {MAX_REPRODUCER_LINES} lines of code: {found.long}"


def test_code_lines_leave_comments_and_blank_lines_aside():
    assert code_lines("# a comment\n\nimport torch\n    # indented comment\nx = 1  # trailing\n") == 2


def _entry(tmp_path, lines: int, **meta) -> Entry:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "repro.py").write_text("# head\n" + "x = 1\n" * lines)
    return Entry(tmp_path, {"id": tmp_path.name, "status": "open", "row": "a-row", **meta}, None)


def test_the_audit_catches_a_long_reproducer_and_a_row_nobody_searched(tmp_path):
    row = Known(id="a-row", backends=("onnx",), kind="bug", message=r"x", reason="a reason")
    found = audit((row,), [_entry(tmp_path / "long", MAX_REPRODUCER_LINES + 1)])
    assert found.unsearched == ["a-row"] and found.long == [("long", MAX_REPRODUCER_LINES + 1)]
    assert found.problems == 2
    searched = {"queries": [{"tracker": "onnx/onnx", "query": "x", "result": "none found", "found": ""}],
                "result": "none found"}
    found = audit((row,), [_entry(tmp_path / "short", MAX_REPRODUCER_LINES, searched=searched)])
    assert found.problems == 0 and found.searched["none found"] == 1
