"""The conformance suite: every backend, every drawn case, against eager PyTorch."""

from __future__ import annotations

import pytest

from suites.conformance import ConformanceFailure, conformance_property


@pytest.mark.conformance
def test_outputs_round_trip(backend, backend_spec, run_case, recorder):
    """Structure, dtypes, shapes and values come back as eager PyTorch made them."""
    check = conformance_property(backend, backend_spec, run_case, recorder)
    try:
        check()
    except ConformanceFailure as failure:  # Hypothesis re-raises the shrunk example's
        recorder.record_new(failure)
        raise
