"""The corpus audit (``python -m reports.audit``): the corpus as it stands passes the
part that needs no frontend, and the audit catches what it is there to catch."""

from __future__ import annotations

from reports.audit import MAX_REPRODUCER_LINES, audit, code_lines
from reports.corpus import Entry
from suites.known import Known

#: Open reproducers still over the limit, and why the generator cannot yet write them
#: shorter: the list may only shrink (the audit still reports them, and exits 1).
STILL_LONG = {
    "onnx-dynamic-size-output-as-tensor": "a leaf_type difference: the outputs are re-assembled by the adapter's helpers",
    "onnx-lstm-projection": "an architecture: its model class and config are written out",
    "openvino-bfloat16-inf-constant-finite": "bfloat16 inputs: numpy holds none, the adapter's converters are pasted",
    "openvino-bfloat16-inf-to-float64": "bfloat16 inputs: numpy holds none, the adapter's converters are pasted",
    "openvino-zero-size-buffer-hang": "four buffers the hang needs, not yet simplified (each try waits out a hang)",
    "tvm-dynamo-dynamic-buffer-mul-codegen": "a ModelOutput the crash does not need: simplify keeps the output tree",
    "tvm-ep-mutation-returned-as-output": "an arity difference: the adapter's re-assembly is pasted",
    "tvm-ep-rnn-final-state-is-sequence": "an architecture: the adapter's recipe, not the plain one, is written out",
    "tvm-fx-inplace-ops-rebound": "tvm-fx has no plain recipe yet (from_fx returns a bare tensor or an Array)",
}


def test_every_bug_row_is_searched_upstream_and_no_new_reproducer_is_long():
    found = audit()
    assert not found.unsearched, f"bug rows with neither a link nor a search record: {found.unsearched}"
    long = dict(found.long)
    assert set(long) <= set(STILL_LONG), (
        f"open reproducers over {MAX_REPRODUCER_LINES} lines of code: {sorted(set(long) - set(STILL_LONG))}")
    assert set(STILL_LONG) <= set(long), f"now short enough, take off STILL_LONG: {sorted(set(STILL_LONG) - set(long))}"


def test_code_lines_leave_comments_and_blank_lines_aside():
    assert code_lines("# a comment\n\nimport torch\n    # indented comment\nx = 1  # trailing\n") == 2


def _entry(tmp_path, lines: int, **meta) -> Entry:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "repro.py").write_text("# head\n" + "x = 1\n" * lines)
    return Entry(tmp_path, {"id": tmp_path.name, "status": "open", "row": "a-row", **meta}, None)


def test_the_audit_catches_a_long_reproducer_and_a_row_nobody_searched(tmp_path):
    row = Known("a-row", ("onnx",), "bug", r"x", "a reason")
    found = audit((row,), [_entry(tmp_path / "long", MAX_REPRODUCER_LINES + 1)])
    assert found.unsearched == ["a-row"] and found.long == [("long", MAX_REPRODUCER_LINES + 1)]
    assert found.problems == 2
    searched = {"queries": [{"tracker": "onnx/onnx", "query": "x", "result": "none found", "found": ""}],
                "result": "none found"}
    found = audit((row,), [_entry(tmp_path / "short", MAX_REPRODUCER_LINES, searched=searched)])
    assert found.problems == 0 and found.searched["none found"] == 1
