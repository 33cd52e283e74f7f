"""Op x dtype coverage: which ``<op>@<dtype>`` pairs a case needs, and which the generator
can draw at all.

A pair is an op applied to a first operand of one dtype (``add@int16``): the unit in
which calibration leaves features out (``op:<name>@<dtype>``, ``harness.calibration``)
and in which the run's summary reports coverage (``reports.summary``). Both sides use
one definition each: ``op_dtype_pairs`` (``strategies.features``) for what a case met,
``admitted_pairs`` for what a run could meet.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import tempfile
from collections.abc import Collection, Iterator
from pathlib import Path

import torch
from hypothesis.errors import InvalidArgument

from .features import MIXED, left_out, op_dtype_pairs
from .ops import COMPLEX, DOMAINS, OPS, Op, TensorType, domain_applies, domain_type, value_type
from .tensors import ALL_DTYPES

__all__ = ["PROBE_SHAPES", "admitted_pairs", "op_dtype_pairs", "probe_key"]


#: First-operand shapes of the probe: rank 0 to 4, small sides, and a few large ones (a
#: vectorizer's 8 and 16 lanes, an odd 17) for ops that only take a long enough dim.
PROBE_SHAPES: tuple[tuple[int, ...], ...] = ((), (1,), (3,), (2, 3), (3, 3), (2, 3, 3), (1, 2, 3, 3), (17,), (8, 16))


def admitted_pairs(*, exclude: Collection[str] = (), include_complex: bool = False,
                   cache: Path | None = None) -> frozenset[str]:
    """The op x first-operand-dtype pairs the generator can draw (``"add@int16"``).

    Found by asking each op's ``accepts`` about probe operands: a first operand of each
    dtype (complex64 only for ``complex_ok`` ops, with ``include_complex``), in every
    value domain that applies (``domain_type``), of each of ``PROBE_SHAPES``, and for ops
    of one operand also the result of one attribute-free op on such an input
    (``relu(x0)``: an int8 in [0, 5], which a left shift needs); later operands from a
    bounded set (every dtype and domain, the probe shapes and the shapes that broadcast
    with the first, bool masks among them). Operands the generator never offers an op
    (a complex one, or an inf/NaN one to an op not ``nonfinite_ok``) are not probed. Ops
    of no operands, ops on tuples and ``input`` have no pairs. The probe runs once per
    process (its answers are cached).

    A pair is admitted only if some probe is accepted, so the set errs two ways at most:

    * over: where an accepted probe cannot arise in a drawn program. Every probe operand
      is the type of a model input that ``cases()`` can draw together with the others
      (up to three inputs, rank at most 4, sides a ``large`` case has), or one op on one,
      so this happens only through ``exclude``: it removes pairs from the probe's answer
      and does not probe again, so an excluded op's results still count as one-step
      operands;
    * under: where a program reaches a pair only through a computed operand (a range,
      shape or error no input nor one step has) or a later operand the bounded set lacks.
      ``tests/test_coverage.py`` checks that drawn cases meet no pair outside the set.

    ``exclude`` takes what ``strategies.cases(exclude=...)`` takes: ``op:<name>`` removes
    the op's pairs, ``op:<name>@<dtype>`` the pair (a dtype class, its dtypes' pairs),
    ``output:mutation`` the pairs of the ops that write state; ``container:``, ``mixed:`` and
    the other ``output:`` features are ignored (``strategies.features``).

    The probe takes seconds (10 on a 2-core machine) and every run's summary asks it:
    with ``cache`` (a directory), its answer is kept there, keyed by ``probe_key``.
    """
    if isinstance(exclude, str):
        raise InvalidArgument(f"exclude={exclude!r} must be a collection of feature names, not one string")
    out = left_out(exclude)
    ops = set(out.ops)
    pairs = {f"{op}@{dtype}" for op, dtypes in out.banned for dtype in dtypes if dtype != MIXED}
    return _admitted(frozenset(ops), frozenset(pairs), bool(include_complex), cache)


@functools.cache
def _admitted(ops: frozenset[str], pairs: frozenset[str], include_complex: bool,
              cache: Path | None) -> frozenset[str]:
    probed = _probed(include_complex) if cache is None else _cached(include_complex, cache)
    if not ops and not pairs:
        return probed
    return frozenset(p for p in probed if p not in pairs and p.partition("@")[0] not in ops)


#: ``cases()``'s default ``max_rank``: a probe shape past it is no input's.
_MAX_RANK = 4


def _offered(op: Op, t: TensorType) -> bool:
    """Whether the generator would offer ``t`` to ``op`` as an operand at all."""
    return (op.complex_ok or not t.is_complex) and (op.nonfinite_ok or not t.nonfinite)


def _inputs(dtype: str, shapes: Collection[tuple[int, ...]]) -> Iterator[TensorType]:
    """Input types of ``dtype``, ``small`` first (where most ops are defined)."""
    for domain in DOMAINS:
        if domain_applies(domain, dtype):
            for shape in shapes:
                yield domain_type(dtype, shape, domain)


def _broadcast_shapes(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Shapes that broadcast with ``shape``: itself, its suffixes, it with one side 1, one more dim."""
    found = [shape, *(shape[k:] for k in range(1, len(shape) + 1))]
    found += [shape[:d] + (1,) + shape[d + 1:] for d in range(len(shape))]
    found += [(2, *shape), (1, *shape)]
    return [s for s in dict.fromkeys(found) if len(s) <= _MAX_RANK]


@functools.cache
def _later(first: TensorType, dtypes: tuple[str, ...]) -> tuple[TensorType, ...]:
    shapes = list(dict.fromkeys([*_broadcast_shapes(first.shape), *PROBE_SHAPES]))
    return tuple(t for dtype in dtypes for t in _inputs(dtype, shapes))


@functools.cache
def _small(dtype: str, shape: tuple[int, ...]) -> TensorType:
    return domain_type(dtype, shape)


def _accepted(op: Op, first: TensorType, dtypes: tuple[str, ...]) -> bool:
    if op.arity == 1:
        return bool(op.accepts(first))
    later = [t for t in _later(first, dtypes) if _offered(op, t)]
    if op.arity == 2:
        return any(op.accepts(first, b) for b in later)
    # Three operands: the second from the probe set, the third like the first or the
    # second, or of one's dtype and the other's shape (where's branches, clamp's
    # bounds): the full product would be too many probes.
    for b in later:
        thirds = dict.fromkeys((first, b, _small(b.dtype, first.shape), _small(first.dtype, b.shape)))
        if any(_offered(op, c) and op.accepts(first, b, c) for c in thirds):
            return True
    return False


@functools.cache
def _one_step(pool: tuple[str, ...]) -> dict[str, tuple[TensorType, ...]]:
    """dtype -> the types of one op without attributes on an input (``relu(x0)``, ``abs(x0)``):
    ranges no input has (an int8 in [0, 5]), which some ops need (a left shift takes
    no negative value)."""
    found: dict[str, dict[TensorType, None]] = {}
    for name, op in OPS.items():
        if op.arity != 1 or op.draw_attrs is not None or op.mutates or op.takes_tuples or name == "input":
            continue
        for dtype in pool:
            for t in _inputs(dtype, PROBE_SHAPES):
                if _offered(op, t) and op.accepts(t):
                    out = value_type(name, {}, (t,))
                    if isinstance(out, TensorType):
                        found.setdefault(out.dtype, {})[out] = None
    return {dtype: tuple(types) for dtype, types in found.items()}


@functools.cache
def probe_key(include_complex: bool = False) -> str:
    """What the probe's answer follows from: the generator's own source and tables (every
    ``accepts`` rule, every harvested sample) and torch's version."""
    root = Path(__file__).parent
    digest = hashlib.sha256(f"{torch.__version__} complex={include_complex}".encode())
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json") and p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def _cached(include_complex: bool, cache: Path) -> frozenset[str]:
    path = cache / "admitted-pairs" / f"{probe_key(include_complex)}.json"
    if path.is_file():
        return frozenset(json.loads(path.read_text()))
    probed = _probed(include_complex)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False) as out:
        json.dump(sorted(probed), out)
    os.replace(out.name, path)  # whole or not at all: shards write it side by side
    return probed


@functools.cache
def _probed(include_complex: bool) -> frozenset[str]:
    pool = (*ALL_DTYPES, *COMPLEX) if include_complex else ALL_DTYPES
    found = set()
    for name, op in OPS.items():
        if name == "input" or op.arity == 0 or op.takes_tuples:
            continue
        for dtype in pool:
            if dtype in COMPLEX and not op.complex_ok:
                continue
            firsts = _inputs(dtype, PROBE_SHAPES)
            if op.arity == 1:  # one step from an input too (too many probes for more operands)
                firsts = itertools.chain(firsts, _one_step(pool).get(dtype, ()))
            if any(_offered(op, first) and _accepted(op, first, pool) for first in firsts):
                found.add(f"{name}@{dtype}")
    return frozenset(found)
