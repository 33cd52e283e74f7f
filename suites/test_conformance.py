"""The conformance suite: every backend, every drawn case, against eager PyTorch."""

from __future__ import annotations

import pytest
from hypothesis import settings

from reports.corpus import known_rows, save_finding
from strategies import cases
from suites.calibration import calibrate, worth_it
from suites.conformance import ConformanceFailure, conformance_property
from suites.known import match
from suites.simplify import simplified


@pytest.fixture(scope="session")
def known_row(run_config):
    """A verdict's row: the known table's, else an open corpus entry's (read once a process)."""
    rows = known_rows(run_config.corpus)
    return lambda verdict: match(verdict, rows)


@pytest.mark.conformance
def test_outputs_round_trip(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request):
    """Structure, dtypes, shapes and values come back as eager PyTorch made them."""
    keep_going = request.config.getoption("--keep-going")
    strategy = None
    mode = request.config.getoption("--calibration")
    if mode in ("on", "refresh") or mode == "auto" and worth_it(settings().max_examples):
        calibrated = calibrate(backend, backend_spec, run_case, refresh=mode == "refresh", known_row=known_row,
                               cache=run_config.cache)
        if shard[0] % request.config.getoption("--shards") == 0:  # reported once per backend and machine
            recorder.record_calibration(backend.name, calibrated)
        if calibrated["features"]:
            strategy = cases(exclude=calibrated["features"])
    check = conformance_property(backend, backend_spec, run_case, recorder, strategy, keep_going=keep_going,
                                 known_row=known_row, shard=shard)
    seen_before = set(recorder.new)  # another shard of this backend may have run in this process
    try:
        check()
    except ConformanceFailure as failure:  # Hypothesis re-raises the shrunk example's
        failure = simplified(failure, run_case)  # and the smallest numbers that still break
        recorder.record_new(failure)
        entry = save_finding(failure, run_config.corpus)
        raise AssertionError(f"{failure}\n  corpus entry: {entry} (reproducer: {entry / 'repro.py'})") from None
    new = {sig: e for sig, e in recorder.new.items() if e["backend"] == backend.name and sig not in seen_before}
    if new:
        pytest.fail(f"{len(new)} new findings (not shrunk: --keep-going):\n" + "\n".join(
            f"  {e['count']}x {sig}\n    replay: {e['replay']}" for sig, e in new.items()))
