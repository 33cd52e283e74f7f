"""The conformance suite: every backend, every drawn case, against eager PyTorch."""

from __future__ import annotations

import pytest

from harness.calibration import calibrate, worth_it
from harness.config import ci_op_families
from harness.conformance import conformance_property
from harness.known import match
from harness.optables import calls, refused
from harness.steering import Learner
from reports.evidence import known_rows
from strategies import Steer, cases
from suites.filing import run_search


@pytest.fixture(scope="session")
def known_row(run_config):
    """A verdict's row: the known table's, else a triaged open corpus entry's (read once a process)."""
    rows = known_rows(run_config.corpus)
    return lambda verdict: match(verdict, rows)


@pytest.mark.conformance
def test_outputs_round_trip(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request):
    """Structure, dtypes, shapes and values come back as eager PyTorch made them."""
    _search(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request.config)


@pytest.mark.conformance(search="input-trees")
def test_input_trees_round_trip(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request):
    """The same, with inputs as real models take them: in trees (an (h0, c0) pair, a
    cache of (k, v) pairs, a dict), beside None and Python flags, positional or keyword
    (its share of the budget: ``harness.config.SEARCH_SHARES``)."""
    _search(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request.config,
            input_trees=True)


@pytest.mark.conformance(search="dynamic-shapes")
def test_dynamic_shapes_round_trip(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request):
    """Compiled once with input dimensions declared dynamic, then called at the range's
    minimum, maximum, an interior size and the example: every call round-trips (its share
    of the budget: ``harness.config.SEARCH_SHARES``)."""
    if not backend.dynamic:
        pytest.skip(f"{backend.name}: static only (compiles one shape); its dynamic cases would be static ones")
    _search(backend, backend_spec, shard, run_case, recorder, known_row, run_config, request.config, dynamic=True)


#: Each search's key in the example database (the main search's: the backend's name).
_DATABASES = {"main": "", "input-trees": "{backend}/input-trees", "dynamic-shapes": "{backend}/dynamic"}


def _search(backend, backend_spec, shard, run_case, recorder, known_row, run_config, config, *,
            input_trees: bool = False, dynamic: bool = False) -> None:
    shapes = config.getoption("--shapes")
    if shapes != "all" and (shapes == "dynamic") != dynamic:
        pytest.skip(f"--shapes {shapes}: not this search")
    keep_going = config.getoption("--keep-going")
    exclude = None
    mode = config.getoption("--calibration")
    if mode in ("on", "refresh") or mode == "auto" and worth_it(run_config.examples()):
        calibrated = calibrate(backend, backend_spec, run_case, refresh=mode == "refresh", known_row=known_row,
                               cache=run_config.cache)
        if shard[0] % config.getoption("--shards") == 0 and not input_trees and not dynamic:  # once per backend
            recorder.record_calibration(backend.name, calibrated)
        exclude = calibrated["features"] or None
    families = ci_op_families(dynamic=dynamic) if run_config.profile == "ci" else None
    search = "input-trees" if input_trees else "dynamic-shapes" if dynamic else "main"
    steering = config.getoption("--steer")
    # Every profile but ci is steered: the ci profile's draws are the ones its survey saw.
    learner = Learner(Steer()) if steering == "on" or steering == "auto" and run_config.profile != "ci" else None
    steer = learner.steer if learner is not None else None
    if steer is not None and (steering == "on" or worth_it(run_config.examples())):
        # What the frontend's own op table has no converter for, from the first case: its
        # harvest (every op drawn alone, exported and decomposed) is minutes, once per
        # machine, and worth it where calibration is (or with --steer on).
        steer.demote(refused(backend.name, run_config.cache))
        learner.graphs = calls(backend.name, run_config.cache)  # what a rejection names, op by op
    if dynamic:  # torch.export rejects an unregistered dict subclass whatever the shapes: none drawn
        strategy = cases(exclude=exclude, dynamic=True, exportable=True, op_families=families, steer=steer)
    elif input_trees:
        strategy = cases(exclude=exclude, input_trees=True, op_families=families, steer=steer)
    else:
        strategy = cases(exclude=exclude, op_families=families, steer=steer) if exclude or families or steer else None
    check = conformance_property(
        backend, backend_spec, run_case, recorder, strategy, keep_going=keep_going, known_row=known_row, shard=shard,
        examples=run_config.examples(search),
        database_name=_DATABASES[search].format(backend=backend.name), dynamic=dynamic, learner=learner)
    try:
        run_search(check, backend.name, recorder, run_case, run_config.untriaged)
    finally:
        if steer is not None:
            recorder.record_steering(backend.name, steer.demoted)
