"""The hunt reaches a row's bug with the row hidden: on dynamic cases where the row shows
only there (a static search can never meet a size role), among real architectures where
the row's entries are one."""

from __future__ import annotations

from typing import Any

from harness.known import Known, row
from harness.registry import load_backend
from harness.runner import execute
from harness.subjects import kind_of
from harness.verdict import Verdict
from reports.entries import Entry, load_entries
from strategies.ops import OPS, STRUCTURAL_FAMILIES
from suites.hunt import architecture_families, focus_ops, hunt, needs_dynamic

SPEC = "tests.harness_backends:SpecializesToExample"
#: A bug the planted frontend has only away from the example size.
PLANTED = Known(id="planted-specialised", backends=(SPEC, "specializes-to-example"), kind="bug", dynamic=True,
                outcome="mismatch", reason="right at the example size, wrong at every other")


class _InProcess:
    """The worker's one method, without its process (no case here kills one)."""

    def run(self, backend_spec: str, case: Any, options: dict[str, Any]) -> Verdict:
        return execute(load_backend(backend_spec), case, options)


def test_a_dynamic_only_row_is_hunted_on_dynamic_cases():
    assert needs_dynamic(PLANTED) and needs_dynamic(row("tvm-dynamo-dynamic-size-output"))
    assert not needs_dynamic(row("tvm-float64-narrowed"))
    failure = hunt(PLANTED, SPEC, examples=150, worker=_InProcess())
    assert failure is not None, "not reached on dynamic cases"
    assert failure.verdict.size_role and PLANTED.matches(failure.verdict), failure.verdict.signature()


def test_a_static_search_cannot_reach_it():
    assert hunt(PLANTED, SPEC, examples=40, worker=_InProcess(), dynamic=False) is None


DROP = "tests.harness_backends:DropModelOutputField"
#: A bug only a model returning a transformers ModelOutput shows.
DROPPED_FIELD = Known(id="planted-dropped-field", backends=(DROP, "distort-drop_model_output_field"), kind="bug",
                      outcome="mismatch", reason="the ModelOutput's last field lost")


def test_a_row_of_a_real_architecture_is_hunted_among_architectures():
    entries = [e for e in load_entries() if isinstance(e, Entry)]
    assert architecture_families(row("tvm-ep-rnn-final-state-is-sequence"), entries) == ("gru",)
    assert architecture_families(row("tvm-float64-narrowed"), entries) == ()
    failure = hunt(DROPPED_FIELD, DROP, examples=10, worker=_InProcess(), families=("bert", "gpt2"))
    assert failure is not None, "not reached among architectures"
    assert kind_of(failure.case).tag == "architecture" and DROPPED_FIELD.matches(failure.verdict)


def test_a_row_of_leaves_alone_is_hunted_among_programs_of_leaves():
    """A Python constant returned as the wrong type: among programs of leaves only, no
    crash of a computing op hides it."""
    entries = [e for e in load_entries() if isinstance(e, Entry)]
    ops = focus_ops(row("tvm-fx-python-bool-as-int"), "tvm-fx", entries=entries)
    assert "const_bool" in ops and all(OPS[op].family in STRUCTURAL_FAMILIES for op in ops), ops
    assert "sum" in focus_ops(row("tvm-int-reduction-not-promoted"), "tvm-ep", entries=entries)
