"""One protocol for every kind of subject: JSON with an explicit kind, and no module
outside ``harness.subjects`` telling the kinds apart by type."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from harness.own import OwnModel
from harness.subjects import KINDS, kind_of, subject_from_json, subject_to_json
from strategies.architectures import Architecture
from strategies.spec import Case, Container, Input, Ref, Value

ROOT = Path(__file__).resolve().parents[1]
CASE = Case(seed=1, inputs=(Input("x0", "float32", (2,)),),
            values=(Value("neg", ("x0",), dtype="float32", shape=(2,)),), output=Container("tuple", (Ref(0),)))
SUBJECTS = [CASE, OwnModel("tests.own_models:lstm_with_state"),
            Architecture("lstm", (("input_size", 4), ("hidden_size", 8)), (("batch", 1), ("length", 2)))]


@pytest.mark.parametrize("subject", SUBJECTS, ids=lambda s: kind_of(s).tag)
def test_every_kind_round_trips_through_json_with_its_tag(subject):
    text = subject_to_json(subject)
    assert json.loads(text)["kind"] == kind_of(subject).tag
    assert subject_from_json(text) == subject


def test_json_written_before_the_tag_still_reads():
    own, arch = SUBJECTS[1], SUBJECTS[2]
    assert subject_from_json(own.to_json()) == own  # {"own_model": {...}}
    assert subject_from_json(arch.to_json()) == arch  # {"architecture": {...}}
    untagged_case = {k: v for k, v in json.loads(subject_to_json(CASE)).items() if k != "kind"}
    assert subject_from_json(json.dumps(untagged_case)) == CASE


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown subject kind 'graph'"):
        subject_from_json('{"kind": "graph"}')
    assert set(KINDS) == {"case", "own_model", "architecture"}


def _type_dispatch(path: Path) -> list[int]:
    """The lines of ``isinstance(x, Case | OwnModel | Architecture)`` calls in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance" and len(node.args) == 2:
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if names & {"Case", "OwnModel", "Architecture"}:
                found.append(node.lineno)
    return found


def test_only_the_protocol_tells_the_kinds_apart():
    modules = [p for pkg in ("harness", "suites", "reports") for p in (ROOT / pkg).rglob("*.py")
               if "corpus" not in p.relative_to(ROOT).parts[1:-1] and p.name != "subjects.py"]
    found = [f"{p.relative_to(ROOT)}:{line}" for p in [*modules, ROOT / "conftest.py"] for line in _type_dispatch(p)]
    assert not found, f"tell subjects apart through harness.subjects.kind_of, not by type: {found}"


def test_a_type_dispatch_is_caught(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("def f(case):\n    return isinstance(case, (Case, Architecture))\n")
    assert _type_dispatch(planted) == [2]
