"""Roundtrip's pytest plugin: options, Hypothesis profiles, backend parametrisation and
skipping, the per-process worker, and collecting what every run found.

Installed, the package registers it (``[project.entry-points.pytest11]``); the
repository's root ``conftest.py`` loads it where the package is not installed. It
changes nothing for tests that are not Roundtrip's own (``ours``): the run's profile,
the suite's draw settings (``strategies.engine.suite_draws``) and torch's thread count
apply around Roundtrip's items alone, and the interrupt handlers to a session asked to
run some of them (``runs_ours``). Its profiles are
``roundtrip-dev``, ``roundtrip-ci`` and ``roundtrip-nightly`` (``--roundtrip-profile``,
``ROUNDTRIP_PROFILE``: dev, ci or nightly), apart from Hypothesis's own ``ci``.
"""

from __future__ import annotations

import dataclasses
import faulthandler
import json
import os
import shutil
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from harness.config import CASE_TIMEOUT, CONFIG, PROFILES, REPLAY_MODES, ROOT, Config
from strategies.engine import suite_draws

_slow_is_fine = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
# Every profile derives from Hypothesis's plain defaults: where CI is set in the
# environment, Hypothesis makes its own derandomised, database-free "ci" profile the
# default, and "nightly" would silently inherit that.
_plain = settings.get_profile("default")
settings.register_profile("roundtrip-dev", _plain, max_examples=25, deadline=None, suppress_health_check=_slow_is_fine)
# Derandomised and database-free: every CI run draws the same cases, so CI is green
# exactly when no new bug appeared.
settings.register_profile("roundtrip-ci", _plain, max_examples=300, deadline=None, derandomize=True, database=None,
                          suppress_health_check=_slow_is_fine, print_blob=True)
settings.register_profile("roundtrip-nightly", _plain, max_examples=2000, deadline=None, suppress_health_check=_slow_is_fine,
                          print_blob=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("roundtrip")
    group.addoption("--roundtrip-profile", choices=PROFILES, default=None,
                    help="the Hypothesis profile of Roundtrip's tests: dev (25 cases per backend), ci (300, "
                         "derandomised) or nightly (2000) (alias ROUNDTRIP_PROFILE; default dev)")
    group.addoption("--backend", action="append", default=[], metavar="NAME|pkg.module:Class",
                    help="backend to test (built-in name or a path to an adapter class); repeatable")
    group.addoption("--tvm-target", default=None,
                    help="TVM target for the tvm-* backends (default llvm; alias ROUNDTRIP_TVM_TARGET)")
    group.addoption("--max-examples", default=None, metavar="N",
                    help="cases per backend instead of the profile's (alias ROUNDTRIP_MAX_EXAMPLES)")
    group.addoption("--reports", default=None, metavar="DIR",
                    help="where the run leaves its reports (default reports/latest; alias ROUNDTRIP_REPORTS)")
    group.addoption("--corpus", default=None, metavar="DIR",
                    help="the regression corpus whose triaged entries are known bugs (default reports/corpus; "
                         "alias ROUNDTRIP_CORPUS); a run files its findings under --reports, never here")
    group.addoption("--cache", default=None, metavar="DIR",
                    help="where calibration is cached (default .roundtrip; alias ROUNDTRIP_CACHE)")
    group.addoption("--replay", choices=REPLAY_MODES, default=None,
                    help="how the corpus replay judges: strict fails on any answer but the recorded one, inform "
                         "records each (reports/releases.py) and fails only on a verdict no row explains; auto "
                         "(default) = strict on the pinned versions, inform elsewhere (alias ROUNDTRIP_REPLAY)")
    group.addoption("--case-timeout", type=float, default=CASE_TIMEOUT,
                    help="seconds before a case is a hang (default 180)")
    group.addoption("--keep-going", action="store_true",
                    help="record new findings and go on searching (no shrinking); fail at the end")
    group.addoption("--shards", type=int, default=1, metavar="N",
                    help="split each backend's examples into N test items, so that -n spreads one backend "
                         "over N processes (each part seeded apart when the run is seeded)")
    group.addoption("--shard-count", type=int, default=1, metavar="N",
                    help="this run is one of N machines sharing every backend's examples (with --shard-index)")
    group.addoption("--shard-index", type=int, default=0, metavar="I",
                    help="which of the --shard-count machines this run is, from 0")
    group.addoption("--database", default=None, metavar="DIR",
                    help="where this run saves (and first replays) its shrunk failures: Hypothesis's "
                         "example database (default .hypothesis/examples; not with the ci profile)")
    group.addoption("--database-from", action="append", default=[], metavar="DIR|github:OWNER/REPO[/ARTIFACT]",
                    help="also replay first the failures in this database, read-only: a directory, or the "
                         "latest artifact a GitHub workflow uploaded (default name hypothesis-example-db); "
                         "repeatable")
    group.addoption("--calibration", choices=("auto", "on", "off", "refresh"), default="auto",
                    help="leave out what each frontend rejects cleanly, learned in a short pass and cached "
                         "(harness/calibration.py): auto = on when the budget is at least 4x the pass "
                         "(nightly, not ci); off = draw everything; refresh = a new pass")
    group.addoption("--steer", choices=("auto", "on", "off"), default="auto",
                    help="draw what a run keeps seeing rejected cleanly or explained by a known bug only "
                         "in one case in 20 for the rest of the run, and from its start what the frontend's op table "
                         "lacks (harness/steering.py, harness/optables.py): auto = learn in every profile "
                         "but ci (its draws are the surveyed ones), the table where calibration runs; on = "
                         "both, always; off = draw as the run began")
    group.addoption("--shapes", choices=("all", "static", "dynamic"), default="all",
                    help="which conformance searches run: static shapes only, dynamic shapes only "
                         "(compiled once, called at every size), or all (default)")
    group.addoption("--no-isolation", action="store_true",
                    help="run cases in the pytest process (faster; a segfault kills the session)")


#: The Hypothesis profile Roundtrip's items run under (the run's, its budget and database on top).
PROFILE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: a property test of a frontend against eager PyTorch")
    try:
        run = Config.resolve({name: config.getoption(f"--{name.replace('_', '-')}") for name in
                              ("max_examples", "reports", "corpus", "cache", "tvm_target", "replay")}
                             | {"profile": config.getoption("--roundtrip-profile")}, os.environ)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    # The budget and the example database go on top of the run's profile, in a profile of
    # their own; the run's Config holds the budget as a number (the searches take their
    # shares of it from there). Registered, never loaded here: pytest_runtest_protocol
    # loads it around Roundtrip's items.
    profile = f"roundtrip-{run.profile}"
    if run.max_examples is not None:
        settings.register_profile("roundtrip-budget", settings.get_profile(profile), max_examples=run.max_examples)
        profile = "roundtrip-budget"
    if config.getoption("--database") or config.getoption("--database-from"):
        if settings.get_profile(profile).derandomize:
            raise pytest.UsageError("--database: this profile is derandomised (ci), and so replays no database")
        from harness.database import example_database

        settings.register_profile("roundtrip-database", settings.get_profile(profile), database=example_database(
            config.getoption("--database"), config.getoption("--database-from")))
        profile = "roundtrip-database"
    config.stash[PROFILE] = profile
    config.stash[CONFIG] = run = dataclasses.replace(run, max_examples=settings.get_profile(profile).max_examples)
    _parts(config)  # a bad --shard-index is an error before anything runs
    from harness.conformance import Recorder

    if not runs_ours(config):  # a session of other tests: no reports written, no handlers
        config._roundtrip_recorder = Recorder()
        return
    # Each process journals what it records (reports/summary.py builds the reports from
    # the journals): the controller (or the only process) clears those of an earlier run.
    worker_id = getattr(config, "workerinput", {}).get("workerid")
    if worker_id is None and run.reports.exists():
        for stale in [*run.reports.glob("journal-*.jsonl"), *run.reports.glob("replay-*.jsonl")]:
            stale.unlink()
        shutil.rmtree(run.untriaged, ignore_errors=True)  # what an earlier run found is not this run's
    run.reports.mkdir(parents=True, exist_ok=True)
    config._roundtrip_recorder = Recorder(journal=str(run.reports / f"journal-{worker_id or 'main'}.jsonl"))
    _install_interrupt_handlers(config)


#: Where Roundtrip's own test items live: the installed suite, and a checkout's self-tests.
#: A checkout (pyproject.toml beside the packages), not a package installed in site-packages.
_CHECKOUT = (ROOT / "pyproject.toml").is_file()
_OURS = (Path(__file__).resolve().parent, *([ROOT / "tests"] if _CHECKOUT else []))


def ours(item: pytest.Item) -> bool:
    """Whether ``item`` is one of Roundtrip's tests (the suite's, or its self-tests)."""
    path = Path(str(item.path)).resolve()
    return any(path.is_relative_to(root) for root in _OURS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """Around Roundtrip's items alone: the run's profile, the suite's draws (a ci run
    draws the same cases after any edit of the project: strategies/engine.py; a self-test
    that means to draws plainly with plain_draws()) and one torch thread. Every other
    test runs as it would without Roundtrip."""
    if not ours(item):
        return (yield)
    before = settings.get_current_profile_name()
    settings.load_profile(item.config.stash[PROFILE])
    try:
        with suite_draws():
            return (yield)
    finally:
        settings.load_profile(before)


def runs_ours(config: pytest.Config) -> bool:
    """Whether the session was asked to run any of Roundtrip's items, by the paths (or,
    with ``--pyargs``, the modules) it was given. Asked before collection: under ``-n``
    the controller, which stops the run, collects nothing."""
    base = config.rootpath if config.args_source is pytest.Config.ArgsSource.TESTPATHS else config.invocation_params.dir
    for arg in config.args:
        target = arg.split("::", 1)[0]
        path = Path(base, target).resolve()
        if path.exists():
            # A directory above Roundtrip's tests collects them in a checkout only: an installed
            # package's lie in site-packages, which pytest does not collect (a project's own
            # .venv lies under the project's directory, and its tests are not Roundtrip's).
            if any(path.is_relative_to(root) or _CHECKOUT and root.is_relative_to(path) for root in _OURS):
                return True
        elif target.partition(".")[0] == "suites":  # --pyargs suites.test_conformance
            return True
    return False


def _install_interrupt_handlers(config: pytest.Config) -> None:
    """A CI job's time limit sends SIGTERM: end the session as Ctrl-C does, so that the
    reports are still written (the default would kill the process on the spot). For a
    session that runs Roundtrip's items only; ``pytest_unconfigure`` puts back what was."""
    if threading.current_thread() is not threading.main_thread():
        return
    config._roundtrip_signals = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGTERM, _interrupt)
    if config._roundtrip_signals[1] is signal.default_int_handler:  # not where it is ignored
        signal.signal(signal.SIGINT, _interrupt)


def pytest_unconfigure(config: pytest.Config) -> None:
    before = getattr(config, "_roundtrip_signals", None)
    if before is not None:
        signal.signal(signal.SIGTERM, before[0])
        signal.signal(signal.SIGINT, before[1])


#: Set by Ctrl-C or SIGTERM. A library may catch the KeyboardInterrupt and drop it (one
#: did, at some moment of a run, now and then): it is raised again before the next case
#: and the next item, so that the run always stops.
_INTERRUPTED = threading.Event()


#: After a Ctrl-C the run is interrupted again every few seconds until pytest has it (a
#: library that caught the first, or a call that swallowed it, would let the search run
#: on), and ended hard, every thread's stack printed, if pytest never gets it. A hard end
#: keeps the corpus whole (an entry lands by a rename), and the journals rebuild the
#: reports (python -m reports.summary DIR). Once pytest has the interrupt, its orderly
#: end (the workers stopped, the reports written) is left alone.
INTERRUPT_AGAIN_SECONDS = 10.0
INTERRUPT_GIVE_UP_SECONDS = 45.0
#: Set when pytest has the interrupt, or the session's end has begun.
_FINISHING = threading.Event()


def _interrupt(signum: int, frame: Any) -> None:
    if not _INTERRUPTED.is_set():
        _INTERRUPTED.set()
        threading.Thread(target=_insist, args=(signum,), daemon=True, name="roundtrip-interrupt").start()
    raise KeyboardInterrupt(f"{signal.Signals(signum).name}")


def _insist(signum: int) -> None:
    main = threading.main_thread().ident
    waited = 0.0
    while waited + INTERRUPT_AGAIN_SECONDS < INTERRUPT_GIVE_UP_SECONDS:
        if _FINISHING.wait(INTERRUPT_AGAIN_SECONDS):
            return
        waited += INTERRUPT_AGAIN_SECONDS
        signal.pthread_kill(main, signum)  # to the main thread: a blocking call there returns (EINTR)
    if _FINISHING.wait(INTERRUPT_GIVE_UP_SECONDS - waited):
        return
    sys.__stderr__.write(f"roundtrip: still running {INTERRUPT_GIVE_UP_SECONDS:.0f} s after "
                         f"{signal.Signals(signum).name}: ending the process; its threads' stacks:\n")
    faulthandler.dump_traceback(sys.__stderr__, all_threads=True)
    os._exit(128 + signum)


def pytest_keyboard_interrupt(excinfo: Any) -> None:
    _FINISHING.set()


def _stop_if_interrupted() -> None:
    if _INTERRUPTED.is_set():
        raise KeyboardInterrupt("interrupted earlier (raised again: the first was caught on its way)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    _stop_if_interrupted()


def _between_cases(run: Any) -> Any:
    def run_case(case: Any, options: dict[str, Any], **limits: Any) -> Any:
        _stop_if_interrupted()
        return run(case, options, **limits)
    return run_case


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend_spec" in metafunc.fixturenames:
        from harness.registry import DEFAULT_BACKENDS  # every frontend, when no --backend is given

        specs = metafunc.config.getoption("--backend") or list(DEFAULT_BACKENDS)
        metafunc.parametrize("backend_spec", specs, ids=specs)
    if "shard" in metafunc.fixturenames:
        parts = _parts(metafunc.config)
        if len(parts) > 1:
            metafunc.parametrize("shard", parts, ids=[f"shard{i}" for i in range(len(parts))])


def _parts(config: pytest.Config) -> list[tuple[int, int]]:
    """The parts of every backend's budget this run holds, as (index, count): machine I of
    N (--shard-index/--shard-count) holds parts I*S .. I*S+S-1 of N*S (--shards S), so
    the machines' parts are disjoint and together are the whole budget."""
    machine, machines = config.getoption("--shard-index"), config.getoption("--shard-count")
    per_machine = config.getoption("--shards")
    if machines < 1 or per_machine < 1 or not 0 <= machine < machines:
        raise pytest.UsageError(f"--shard-index {machine} --shard-count {machines} --shards {per_machine}: "
                                "need 0 <= index < count and counts of at least 1")
    return [(machine * per_machine + i, machines * per_machine) for i in range(per_machine)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each conformance item's part is noted, so that its time is recorded
    (harness/item_seconds.py); the items stay in collection order for worksteal."""
    from harness.item_seconds import part_key

    whole_run = _parts(config)[0]  # the part of an item that is not parametrised by shard
    for item in items:
        params = item.callspec.params if item.get_closest_marker("conformance") and hasattr(item, "callspec") else {}
        if "backend_spec" in params:
            # A second search of the same backend (input trees) is a part of its own.
            search = item.get_closest_marker("conformance").kwargs.get("search", "")
            key = part_key(" ".join(filter(None, (params["backend_spec"], search))), *params.get("shard", whole_run))
            item.user_properties.append(("roundtrip-part", key))


#: part -> seconds its item took, for item-seconds.json (the controller's record).
_ITEM_SECONDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    part = dict(report.user_properties).get("roundtrip-part")
    if part is not None and report.when == "call":
        _ITEM_SECONDS[part] = round(report.duration, 1)


@pytest.fixture
def shard(request: pytest.FixtureRequest) -> tuple[int, int]:
    """(index, count) of the part of the budget this test runs: all of it, unless sharded."""
    return _parts(request.config)[0]


@pytest.fixture(scope="session")
def run_config(request: pytest.FixtureRequest) -> Config:
    """The run's settings (``harness.config``)."""
    return request.config.stash[CONFIG]


@pytest.fixture
def backend(backend_spec: str, run_config: Config):
    from harness.registry import load_backend

    loaded = load_backend(backend_spec, run_config)
    reason = loaded.unavailable_reason()
    if reason:
        pytest.skip(reason)
    return loaded


@pytest.fixture(scope="session")
def worker(request: pytest.FixtureRequest, run_config: Config):
    from harness.worker import Worker

    run_config.reports.mkdir(parents=True, exist_ok=True)
    name = getattr(request.config, "workerinput", {}).get("workerid", "main")
    from harness.registry import DEFAULT_BACKENDS

    w = Worker(timeout=request.config.getoption("--case-timeout"), log_path=str(run_config.reports / f"worker-{name}.log"),
               config=run_config, backends=request.config.getoption("--backend") or DEFAULT_BACKENDS)
    w.start()  # here, in the first item's setup: its call time is its cases' alone (harness/item_seconds.py)
    yield w
    w.close()


@pytest.fixture
def run_case(request: pytest.FixtureRequest, backend_spec: str):
    """Runs one case on the backend under test: in the worker, or in-process."""
    return request.getfixturevalue("run_case_for")(backend_spec)


@pytest.fixture
def run_case_for(request: pytest.FixtureRequest):
    """Like ``run_case``, for a backend named at run time (the corpus replay)."""
    if request.config.getoption("--no-isolation"):
        from harness.registry import load_backend
        from harness.runner import execute

        run_config = request.getfixturevalue("run_config")
        return lambda spec: _between_cases(  # in this process: no time limit to keep (a hang hangs the run)
            lambda case, options, timeout=None: execute(load_backend(spec, run_config), case, options))
    w = request.getfixturevalue("worker")
    return lambda spec: _between_cases(lambda case, options, timeout=None: w.run(spec, case, options, timeout=timeout))


@pytest.fixture
def recorder(request: pytest.FixtureRequest):
    return request.config._roundtrip_recorder


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The controller (or the only process) builds the reports from every process's
    journal: at the normal end, after Ctrl-C or SIGTERM alike."""
    _FINISHING.set()
    latest = session.config.stash[CONFIG].reports
    if hasattr(session.config, "workerinput") or not any(latest.glob("journal-*.jsonl")):
        return
    if _ITEM_SECONDS:  # what each part took (harness/item_seconds.py)
        (latest / "item-seconds.json").write_text(json.dumps(dict(sorted(_ITEM_SECONDS.items())), indent=1))
    from reports.summary import end_session, rebuild, write_latest

    end_session(latest, "interrupted" if exitstatus == pytest.ExitCode.INTERRUPTED else "complete")
    recorder, status = rebuild(latest)
    session.config._roundtrip_recorder = recorder  # what the terminal summary shows
    config = session.config.stash[CONFIG]
    write_latest(recorder, latest, status, corpus=config.untriaged, cache=config.cache)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    recorder = config._roundtrip_recorder
    if not recorder.outcomes:
        return
    from reports.summary import outcome_table

    terminalreporter.section("roundtrip outcomes")
    terminalreporter.write_line(outcome_table(recorder))
    terminalreporter.write_line(f"reports: {config.stash[CONFIG].reports}/")
