"""Run one case through one backend and return exactly one outcome.

``execute`` is the whole pipeline, in-process: materialize, eager reference, compile
(stage by stage), run, judge. ``harness.worker`` runs it in a separate process so that
a segfault becomes a ``crash`` and an endless compile a ``hang``. The subject is a
generated ``Case``, a user's own model (``harness.own.OwnModel``), or a drawn real
architecture (``strategies.architectures.Architecture``): the same pipeline, without what
only a generated program knows (each value's op and rounding error; an architecture's
bound on its rounding error comes from its dtype, depth and width).
"""

from __future__ import annotations

import copy
import time
from dataclasses import replace
from typing import Any

import torch
from torch.utils import _pytree as pytree

from strategies import Case, materialize
from strategies.dynamic import dynamic_shapes, example_sizes, resized, size_roles, statically
from strategies.render import input_tensors, materialize_inputs

from .backends.base import Backend, CompileContext, Contract, HarnessError
from .calls import Run, backend_call, clone, compile_and_run, crashed, eager_call, state_differences, timed
from .oracle import compare
from .probes import LEAF_KINDS, error_lookup, fp64_reference, op_at, own_leaf_op, probe, state_op
from .signature import Outcome, Stage, Trigger
from .subjects import Subject, kind_of
from .verdict import Verdict

__all__ = ["execute", "static_options"]


def execute(backend: Backend, case: Subject, options: dict[str, Any]) -> Verdict:
    """The whole pipeline for one case, in this process."""
    start = time.perf_counter()
    verdict = _execute(backend, case, options)
    probe(backend, verdict)
    if verdict.outcome == Outcome.CRASH and not verdict.trigger.ops and kind_of(case).graph_named:
        # A user's model is named by its graph's ops, so that a row of a crash that names
        # ops tells it apart from another cause with the same message.
        verdict.trigger = kind_of(case).trigger(case)
    verdict.seconds = time.perf_counter() - start
    return verdict


def _execute(backend: Backend, case: Subject, options: dict[str, Any]) -> Verdict:
    """The verdict before its root-cause probes: a failure that turns out to be the static
    case's is probed once, as that static case, not once more as the dynamic one."""
    if kind_of(case).generated and case.dynamic is not None:
        if backend.dynamic:
            return _execute_dynamic(backend, case, options)
        case = statically(case)
        static_only = [f"static only: {backend.name} compiles one shape, the dynamic declaration is not used"]
    else:
        static_only = []
    verdict = Verdict(backend=backend.name, outcome=Outcome.PASS)
    run = compile_and_run(backend, case, options, verdict)
    verdict.notes += static_only
    if verdict.outcome == Outcome.PASS:
        _judge(backend, case, options, run, verdict)
    if verdict.outcome != Outcome.PASS and options.get("dynamic") and kind_of(case).generated:
        # torch.compile(dynamic=True) of a case with nothing declared: symbolic shapes all the same
        static = _execute(backend, case, static_options(options))
        if static.outcome == Outcome.PASS or static.as_signature() != verdict.as_signature():
            verdict.size_role = "dynamic"
    return verdict


def _judge(backend: Backend, case: Subject, options: dict[str, Any], run: Run, verdict: Verdict) -> None:
    """Compare the backend's outputs and state with eager's: a mismatch, or a pass. A
    mismatch of a program's leaf is left to ``probe`` for its root cause."""
    start = time.perf_counter()
    expected, actual = run.expected, run.actual
    kind = kind_of(case)
    generated = kind.generated
    verdict.stage = Stage.JUDGE
    # A user's model: the tolerance of each leaf's dtype, no rounding error of a program on top;
    # an architecture: its bound on eager's own rounding, from its dtype, depth and width.
    bound = kind.error_bound(case)
    error_at = error_lookup(case) if generated else (lambda steps: bound)
    differences = compare(expected, actual, contract=backend.contract, error_at=error_at,
                          reference_at=fp64_reference(case) if generated else None)
    differences += state_differences(run, error_at)
    if differences:
        verdict.outcome = Outcome.MISMATCH
        verdict.differences = differences
        first = differences[0]
        verdict.trigger = Trigger.of_op(op_at(case, first.path) if generated else
                                       kind.leaf_name(case) or state_op(run, first) or own_leaf_op(case, run, first))
        if (generated or kind.graph_named) and first.kind in LEAF_KINDS and not first.in_state:
            verdict.probe_with = (case, options, first.path)
    elif backend.contract is Contract.NESTING:
        # Within the contract, but the user still sees other container types.
        changed = compare(expected, actual, contract=Contract.EXACT, error_at=error_at)
        if changed:
            verdict.notes.append(f"structure changed (nesting contract): {changed[0]}")
    timed(verdict.timings, "judge", start)


# -- dynamic cases: compiled once, run at every size -----------------------------------


def _dynamic_dims(case: Case, args: tuple, kwargs: dict) -> list[dict[int, tuple[int, int]]]:
    """Per tensor of the call, in pytree order: {dim: (min, max)} of its dynamic dims."""
    assert case.dynamic is not None
    ranges: dict[str, dict[int, tuple[int, int]]] = {}
    for d in case.dynamic.dims:
        s = case.dynamic.symbol(d.symbol)
        ranges.setdefault(d.input, {})[d.dim] = (d.size(s.min), d.size(s.max))
    named = {id(t): name for name, t in input_tensors(case, args, kwargs).items()}
    return [ranges.get(named.get(id(t), ""), {}) for t in pytree.tree_leaves((args, kwargs))
            if isinstance(t, torch.Tensor)]


def _constraint_violation(exc: BaseException) -> bool:
    """torch.export's (or dynamo's) word that the program specialises a dimension it
    declared dynamic: the generator's fault, not the frontend's."""
    return "Constraints violated" in str(exc) or type(exc).__name__ == "ConstraintViolationError"


def _execute_dynamic(backend: Backend, case: Case, options: dict[str, Any]) -> Verdict:
    """Compile once at the example, with ``case.dynamic`` declared; run and judge at every
    size of ``size_roles``, the example first, eager called on the same model in turn.
    A failure that the static case at that size also has is reported as that static
    verdict (one root cause, one signature); one only the dynamic artefact has names its
    size's role in its stage (``run@max``, ``judge@example``, ``import@dynamic``)."""
    verdict = Verdict(backend=backend.name, outcome=Outcome.PASS)
    timings = verdict.timings  # one record for the whole case, whichever verdict it ends with
    start = time.perf_counter()
    model, args, kwargs = materialize(case)
    timed(timings, "materialize", start)
    ctx = CompileContext(copy.deepcopy(model), clone(args), clone(kwargs), dict(options), timings=timings,
                         dynamic_shapes=dynamic_shapes(case), dynamic_dims=_dynamic_dims(case, args, kwargs))
    try:
        with ctx.stage("compile"):
            compiled = backend.compile(ctx)
    except HarnessError:
        raise
    except Exception as exc:
        if _constraint_violation(exc):
            return _discarded(backend, case, options, "torch.export found the program specialising a dynamic "
                                                      "dimension (a constraint violation)")
        crashed(verdict, ctx, exc)
        verdict.notes = ctx.notes
        return _unless_static(backend, case, options, verdict, "dynamic", example_sizes(case.dynamic, case.inputs))
    graphs = _compiled_graphs()
    smallest = backend.smallest_dynamic_size(options)
    for role, sizes in size_roles(case):
        at = statically(resized(case, sizes))
        if any(d.size(sizes[d.symbol]) < smallest for d in case.dynamic.dims):
            ctx.notes.append(f"not run at the {role} size: {backend.name} specialises sizes below {smallest}")
            continue
        try:
            start = time.perf_counter()
            at_args, at_kwargs = (args, kwargs) if role == "example" else materialize_inputs(at)
            run = eager_call(model, at_args, at_kwargs)
            timed(timings, "eager", start)
        except Exception as exc:  # the draw checked every size; say so, rather than report the frontend
            return _discarded(backend, case, options, f"eager fails at the {role} size {sizes}: {exc!r}"[:300])
        ctx.args, ctx.kwargs = clone(at_args), clone(at_kwargs)
        try:
            backend_call(backend, compiled, ctx, run)
        except HarnessError:
            raise
        except Exception as exc:
            if role == "example" and _constraint_violation(exc):  # a torch.compile frontend compiles on the call
                return _discarded(backend, case, options, "dynamo found the program specialising a dynamic "
                                                          "dimension (a constraint violation)")
            crashed(verdict, ctx, exc)
        verdict.notes = ctx.notes
        if verdict.outcome == Outcome.PASS:
            _judge(backend, at, options, run, verdict)
        verdict.sizes.append({"role": role, "sizes": sizes, "outcome": verdict.outcome})
        now = _compiled_graphs()
        if now > graphs and role != "example":
            ctx.notes.append(f"recompiled for the {role} size")
        graphs = now
        if verdict.outcome != Outcome.PASS:
            return _unless_static(backend, case, options, verdict, role, sizes)
        verdict = Verdict(backend=backend.name, outcome=Outcome.PASS, notes=ctx.notes, sizes=verdict.sizes, timings=timings)
    return verdict


def _unless_static(backend: Backend, case: Case, options: dict[str, Any], verdict: Verdict, role: str,
                   sizes: dict[str, int]) -> Verdict:
    """The dynamic failure at ``role``, its stage naming the role; or, where the static case
    at those sizes fails the same way, that static verdict."""
    static = _execute(backend, statically(resized(case, sizes)), static_options(options))
    if static.outcome != Outcome.PASS and static.as_signature() == replace(verdict.as_signature(), size_role=""):
        static.sizes = verdict.sizes
        static.notes.append(f"fails at the {role} size {sizes} compiled statically too: a static bug")
        return static
    verdict.size_role = role
    return verdict


def static_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of the same case compiled statically: without ``dynamic`` (the key a
    ``dynamic_option_strategy`` draws, ``torch.compile(dynamic=True)``)."""
    return {k: v for k, v in options.items() if k != "dynamic"}


def _discarded(backend: Backend, case: Case, options: dict[str, Any], why: str) -> Verdict:
    """The static case's verdict, with a note that the dynamic declaration was discarded."""
    verdict = _execute(backend, statically(case), static_options(options))
    verdict.notes.append(f"dynamic declaration discarded: {why}")
    return verdict


def _compiled_graphs() -> int:
    """Graphs dynamo has compiled in this process: one more after a call is a recompilation."""
    from torch._dynamo.utils import counters

    return counters["stats"]["unique_graphs"]
