"""Real architectures through every frontend: torch.nn's recurrent and attention models
and transformers' encoders, decoders, encoder-decoders and vision models
(``strategies.architectures``), judged by the same oracle, known table and corpus as
generated cases. A small share of the budget (``harness.config.SEARCH_SHARES``)."""

from __future__ import annotations

import pytest

from harness.conformance import conformance_property
from harness.known import match
from reports.evidence import known_rows
from strategies.architectures import architectures
from suites.filing import run_search


@pytest.fixture(scope="session")
def known_row(run_config):
    rows = known_rows(run_config.corpus)
    return lambda verdict: match(verdict, rows)


@pytest.mark.conformance(search="architectures")
def test_architectures_round_trip(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request):
    """A drawn real architecture returns what eager PyTorch returns: the ModelOutput
    subclass and its fields in order (None fields left out, as transformers does), the
    tuples of a recurrent state, dtypes, shapes, and values at the architecture's
    tolerance (its dtype's, widened by eager's own rounding over its depth)."""
    keep_going = request.config.getoption("--keep-going")
    check = conformance_property(backend, backend_spec, run_case, recorder, architectures(), keep_going=keep_going,
                                 known_row=known_row, shard=shard, examples=run_config.examples("architectures"),
                                 database_name=f"{backend.name}/architectures")
    run_search(check, backend.name, recorder, run_case, run_config.untriaged)
