"""The one door to Hypothesis's engine: the only module of the project that imports
``hypothesis.internal`` or ``hypothesis.core``, or calls a private method of the
engine (``tests/test_layers.py`` holds every other module to that). It checks what it
needs, not a version: where a Hypothesis lacks a hook, it warns once (``EngineWarning``)
and falls back to Hypothesis's own behaviour, correct if slower or drawn otherwise. The
project pins the version its recorded ``ci`` survey was drawn with (the ``cpu`` extra);
a user's project keeps its own Hypothesis (``tox -e newest-hypothesis`` runs the
self-tests that touch the engine on the newest).

What goes through it:

* the generator's direct draws (``integer_choice``, ``label``, ``span``,
  ``choice_count``: ``strategies.choices`` and ``strategies.drawing``);
* the seed a run was forced to and the example database's key
  (``harness.conformance``), and the shrink-time limit a self-test lifts;
* the suite's draw settings, three settings that no ``settings`` option reaches:

  - Hypothesis mixes into its draws (one in twenty) integer, float and string constants
    it harvests from every module of the project the process has imported
    (``providers._get_local_constants``). A derandomised ``ci`` run then draws other
    cases after an edit of any imported module (one more known row, a changed message),
    and a process that ran other tests first draws other cases than a fresh one. Off: a
    case depends on the strategy and the seed alone.
  - The engine follows each freshly drawn case with up to six mutations of it, which
    copy one span's choices over another span of the same label
    (``ConjectureRunner.generate_mutations_from``): most cases of a run are then copies
    of a few fresh ones, repeating their parent's swarm, aim and ops, and a run meets
    fewer of the op x dtype pairs the generator admits than as many fresh cases do
    (``benchmarks/bench_coverage.py`` measures both). The generator draws its own
    repetition where it matters (an op reads the value before it; output leaves repeat
    values), so the copies buy little. Off: every generated case is a fresh draw.
    Shrinking is the engine's own, unchanged.
  - The generator learns a value's dtype and shape by running its op on tensors of a
    few elements (``strategies.ops.value_type``), where torch's intra-op threads have
    nothing to share and spin after each call, taking CPU from the draw itself and, in
    a ``pytest -n`` run, cores from the other workers. One thread, as the worker that
    compiles and runs a case has
    (``harness/worker.py``).

  ``suite_draws()`` applies them for a block (the pytest plugin: for the session);
  ``draw_as_the_suite_does()`` for the rest of a process (the tools and benchmarks);
  ``plain_draws()`` gives a self-test Hypothesis's own for a block.
"""

from __future__ import annotations

import contextlib
import inspect
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import hypothesis
from hypothesis import core
from hypothesis.internal.conjecture import engine as _engine
from hypothesis.internal.conjecture import providers
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.internal.conjecture.engine import ConjectureRunner
from hypothesis.internal.conjecture.utils import calc_label_from_name

__all__ = ["MISSING", "TESTED_WITH", "EngineWarning", "choice_count", "draw_as_the_suite_does", "drawing_as_the_suite_does",
           "forced_seed", "integer_choice", "key_database", "label", "plain_draws", "seeded", "span", "suite_draws",
           "unlimited_shrinking"]

#: The Hypothesis releases this module was read against, oldest and newest
#: (``tox -e newest-hypothesis`` runs the engine's self-tests on the newest).
TESTED_WITH = ("6.155.2", "6.170.27")


class EngineWarning(UserWarning):
    """This Hypothesis lacks an engine hook the suite uses: it falls back to Hypothesis's own."""


def _has_integer_draw() -> bool:
    try:
        parameters = inspect.signature(ConjectureData._draw).parameters
    except (AttributeError, TypeError, ValueError):
        return False
    return {"observe", "forced"} <= set(parameters)


#: Each hook the suite uses: what it is, and whether this Hypothesis has it.
_HOOKS = {
    "integers": ("ConjectureData._draw(choice_type, constraints, observe=, forced=): a direct integer draw",
                 _has_integer_draw()),
    "spans": ("ConjectureData.start_span and stop_span: the spans the shrinker works on",
              callable(getattr(ConjectureData, "start_span", None)) and callable(getattr(ConjectureData, "stop_span", None))),
    "seed": ("hypothesis.core.global_force_seed: the run's forced seed", hasattr(core, "global_force_seed")),
    "shrink limit": ("engine.MAX_SHRINKING_SECONDS: the shrink-time limit", hasattr(_engine, "MAX_SHRINKING_SECONDS")),
    "constants": ("providers._get_local_constants and providers.Constants: the harvested constants",
                  callable(getattr(providers, "_get_local_constants", None)) and callable(getattr(providers, "Constants", None))),
    "mutations": ("ConjectureRunner.generate_mutations_from: the mutations of each fresh case",
                  callable(getattr(ConjectureRunner, "generate_mutations_from", None))),
}
#: What this Hypothesis lacks of ``_HOOKS`` (nothing, on the releases of ``TESTED_WITH``).
MISSING = tuple(what for what, present in _HOOKS.values() if not present)
if MISSING:
    warnings.warn(f"Hypothesis {hypothesis.__version__} lacks what strategies/engine.py uses: {'; '.join(MISSING)}. "
                  "Falling back to Hypothesis's own behaviour: the draws stay correct, but a derandomised run draws "
                  "other cases than the suite's recorded ones", EngineWarning, stacklevel=2)


def _has(hook: str) -> bool:
    return _HOOKS[hook][1]


_DIRECT_INTEGERS, _SPANS, _SEED, _SHRINK_LIMIT = (_has(h) for h in ("integers", "spans", "seed", "shrink limit"))
#: The suite's draw settings replace two hooks; without both, Hypothesis's own draws stay.
_DRAW_SETTINGS = _has("constants") and _has("mutations")


# -- the generator's direct draws ------------------------------------------------------

def label(name: str) -> int:
    """The engine's label for a span or strategy of this name (what ``st.composite`` uses)."""
    return calc_label_from_name(name)


def integer_choice(data: Any, low: int, high: int, forced: int | None = None) -> int:
    """``data.draw_integer(low, high, forced=forced)``: the same choice, without checking
    the arguments and building their record anew each time: a case draws over a hundred
    choices (``tests/test_strategies.py`` checks the two agree)."""
    if not _DIRECT_INTEGERS:
        return data.draw_integer(low, high, forced=forced)
    constraints = _INTEGER_CONSTRAINTS.get((low, high))
    if constraints is None:
        constraints = _INTEGER_CONSTRAINTS[low, high] = {"min_value": low, "max_value": high, "weights": None,
                                                         "shrink_towards": 0}
    return data._draw("integer", constraints, observe=True, forced=forced)


_INTEGER_CONSTRAINTS: dict[tuple[int, int], dict] = {}


def choice_count(data: Any) -> int:
    """How many choices ``data`` has drawn so far (``nodes``, an attribute of each
    ConjectureData: both releases of ``TESTED_WITH`` have it)."""
    return len(data.nodes)


class span:
    """``with span(data, label):`` the choices drawn inside, as one span of ``label``
    (the shrinker deletes or lifts a span whole). A class, not a generator: a case
    enters a few dozen."""

    __slots__ = ("_data", "_label")

    def __init__(self, data: Any, label: int) -> None:
        self._data, self._label = data, label

    def __enter__(self) -> None:
        if _SPANS:
            self._data.start_span(self._label)

    def __exit__(self, *exc: object) -> None:
        if _SPANS:
            self._data.stop_span()


# -- seeds, the example database, shrinking ---------------------------------------------

def forced_seed() -> Any:
    """The seed the run was given (``--hypothesis-seed``, ``@seed`` at session level), or None."""
    return core.global_force_seed if _SEED else None


@contextlib.contextmanager
def seeded(value: Any) -> Iterator[None]:
    """The run's forced seed is ``value`` (None: unseeded) for the block."""
    if not _SEED:
        yield
        return
    before, core.global_force_seed = core.global_force_seed, value
    try:
        yield
    finally:
        core.global_force_seed = before


def key_database(test: Callable, key: bytes) -> None:
    """Key ``test``'s examples in the database by ``key``, not by its source."""
    test._hypothesis_internal_database_key = key  # type: ignore[attr-defined]


@contextlib.contextmanager
def unlimited_shrinking() -> Iterator[None]:
    """The engine's shrink-time limit (five minutes) lifted for the block: a self-test
    that shrinks must reach the minimum on a loaded machine."""
    if not _SHRINK_LIMIT:
        yield
        return
    before, _engine.MAX_SHRINKING_SECONDS = _engine.MAX_SHRINKING_SECONDS, 3600
    try:
        yield
    finally:
        _engine.MAX_SHRINKING_SECONDS = before


# -- the suite's draw settings -----------------------------------------------------------

def _no_mutations(self: Any, data: Any) -> None:
    """``generate_mutations_from`` that mutates nothing: the next case is drawn afresh."""


def _hooks() -> tuple[Callable, Callable] | None:
    """The two engine hooks the draw settings replace: where constants come from, and the
    mutations (None where this Hypothesis has not both: its own draws stay)."""
    return (providers._get_local_constants, ConjectureRunner.generate_mutations_from) if _DRAW_SETTINGS else None


def _set(hooks: tuple[Callable, Callable] | None) -> None:
    if hooks is not None:
        providers._get_local_constants, ConjectureRunner.generate_mutations_from = hooks


#: Hypothesis's own hooks, and the suite's (no constants harvested, no mutations).
_PLAIN = _hooks()
_SUITE = (providers.Constants, _no_mutations) if _DRAW_SETTINGS else None


@contextlib.contextmanager
def _hooks_for_block(hooks: tuple[Callable, Callable] | None) -> Iterator[None]:
    before = _hooks()
    _set(hooks)
    try:
        yield
    finally:
        _set(before)


def drawing_as_the_suite_does() -> bool:
    """Whether the suite's draw settings are in force (no constants, no mutations)."""
    return _DRAW_SETTINGS and _hooks() == _SUITE


def draw_as_the_suite_does() -> None:
    """The suite's draw settings, for the rest of the process."""
    import torch

    _set(_SUITE)
    torch.set_num_threads(1)


@contextlib.contextmanager
def suite_draws() -> Iterator[None]:
    """The suite's draw settings for the block; what was in force before, after it."""
    import torch

    threads = torch.get_num_threads()
    with _hooks_for_block(_SUITE):
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_num_threads(threads)


@contextlib.contextmanager
def plain_draws() -> Iterator[None]:
    """Hypothesis's own draws for the block (constants harvested, mutations made)."""
    with _hooks_for_block(_PLAIN):
        yield
