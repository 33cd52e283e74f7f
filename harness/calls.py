"""One case through eager PyTorch and a backend: the outputs, and the state (buffers and
input tensors) before the call and after each side's; a crash caught at its stage; the
state compared."""

from __future__ import annotations

import copy
import inspect
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.utils import _pytree as pytree

from .backends.base import Backend, CompileContext, HarnessError
from .difference import Difference, InState, KeyPath, own_key
from .oracle import compare, dtype_name
from .signature import Outcome
from .subjects import Subject, kind_of
from .verdict import Verdict

__all__ = ["Run", "StateKey", "backend_call", "clone", "compile_and_run", "crashed", "eager_call", "run_eager", "state_of",
           "state_differences", "timed"]


def clone(tree: Any) -> Any:
    return pytree.tree_map(lambda t: t.clone() if isinstance(t, torch.Tensor) else t, tree)


#: Where a tensor of the state is: its buffer's name, or its parameter's and the steps
#: inside that parameter's tree (``cache``, 1, 0).
StateKey = KeyPath


def state_of(forward: Callable, buffers: dict[str, torch.Tensor], args: tuple, kwargs: dict) -> dict[str, dict[StateKey, Any]]:
    """What ``forward`` may mutate: every buffer, and every tensor of the inputs, each
    under the steps that reach it (a parameter, then its path inside its tree)."""
    inputs: dict[StateKey, Any] = {}
    for name, value in _bound(forward, args, kwargs).items():
        for path, leaf in pytree.tree_flatten_with_path(value)[0]:
            if isinstance(leaf, torch.Tensor):
                inputs[(pytree.MappingKey(name), *(own_key(k) for k in path))] = leaf
    return {"buffers": {(pytree.MappingKey(name),): t for name, t in buffers.items()}, "inputs": inputs}


def _bound(forward: Callable, args: tuple, kwargs: dict) -> dict[str, Any]:
    """Each argument of the call under its parameter's name. A keyword that eager accepts
    and the unwrapped signature lacks (transformers' ``can_return_tuple`` wrapper takes
    ``return_dict`` itself) keeps its own name."""
    signature = inspect.signature(forward)
    takes_any = any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values())
    extra = {} if takes_any else {k: v for k, v in kwargs.items() if k not in signature.parameters}
    bound = signature.bind(*args, **{k: v for k, v in kwargs.items() if k not in extra}).arguments
    return {**bound, **extra}


@dataclass
class Run:
    """One case through eager and a backend: outputs, and the state before and after."""

    expected: Any
    actual: Any = None
    #: Buffers and inputs before the call, after eager's call, after the backend's.
    initial: dict[str, dict[str, Any]] = field(default_factory=dict)
    expected_state: dict[str, dict[StateKey, Any]] = field(default_factory=dict)
    actual_state: dict[str, dict[StateKey, Any]] = field(default_factory=dict)
    #: Input tensors eager replaced inside a container rather than updated in place
    #: (see ``eager``): not compared.
    rebound: list[StateKey] = field(default_factory=list)


def timed(timings: dict[str, float], part: str, start: float) -> None:
    timings[part] = timings.get(part, 0.0) + time.perf_counter() - start


def run_eager(case: Subject, timings: dict[str, float]) -> tuple[Run, tuple, dict, torch.nn.Module]:
    """Eager's output and state after one call on copies; the inputs and a model as they
    were before it, for the backend."""
    try:
        start = time.perf_counter()
        model, args, kwargs = kind_of(case).build(case)
        timed(timings, "materialize", start)
        start = time.perf_counter()
        pristine = copy.deepcopy(model)
        run = eager_call(model, args, kwargs)
        timed(timings, "eager", start)
    except Exception as exc:  # the generator promised a well-defined eager result; a user's model must run
        raise HarnessError(f"eager PyTorch failed on {kind_of(case).describe(case)}: {exc!r}") from exc
    return run, args, kwargs, pristine


def eager_call(model: torch.nn.Module, args: tuple, kwargs: dict) -> Run:
    """One eager call of ``model`` on copies of the inputs: its output, and the state before and after."""
    initial = clone(state_of(model.forward, dict(model.named_buffers()), args, kwargs))
    eager_args, eager_kwargs = clone(args), clone(kwargs)
    # The tensors themselves, not their ids: a replaced one is freed, and its id reused.
    handed = [t for t in pytree.tree_leaves((eager_args, eager_kwargs)) if isinstance(t, torch.Tensor)]
    with torch.no_grad():
        expected = model(*eager_args, **eager_kwargs)
    run = Run(expected, initial=initial,
               expected_state=state_of(model.forward, dict(model.named_buffers()), eager_args, eager_kwargs))
    # The state check is of tensors updated in place. A container in the inputs whose
    # tensors forward replaced by new ones (transformers' DynamicCache.update appends to a
    # cache by concatenating) is a Python-level update, which no graph frontend carries
    # out on the caller's object: such tensors are left out, and the run says so.
    rebound = [name for name, t in run.expected_state["inputs"].items() if not any(t is h for h in handed)]
    if rebound:
        run.rebound = rebound
        for state in (run.initial, run.expected_state):
            state["inputs"] = {n: t for n, t in state["inputs"].items() if n not in rebound}
    return run


def compile_and_run(backend: Backend, case: Subject, options: dict[str, Any], verdict: Verdict) -> Run:
    """Eager's and the backend's outputs and state; on an exception, ``verdict`` says what
    failed where."""
    run, args, kwargs, model = run_eager(case, verdict.timings)
    ctx = CompileContext(model, clone(args), clone(kwargs), dict(options), timings=verdict.timings)
    try:
        with ctx.stage("compile"):
            compiled = backend.compile(ctx)
        backend_call(backend, compiled, ctx, run)
    except HarnessError:
        raise
    except Exception as exc:
        crashed(verdict, ctx, exc)
    verdict.notes = ctx.notes
    return run


def backend_call(backend: Backend, compiled: Any, ctx: CompileContext, run: Run) -> None:
    """The backend's output and state after one call of ``compiled`` on ``ctx``'s inputs, into ``run``."""
    with ctx.stage("run"), torch.no_grad():
        run.actual = backend.run(compiled, ctx)
    run.actual_state = state_of(ctx.model.forward, *backend.state(compiled, ctx))
    if run.rebound:
        run.actual_state["inputs"] = {n: t for n, t in run.actual_state["inputs"].items() if n not in run.rebound}
        ctx.notes.append(f"not compared: {len(run.rebound)} input tensors eager replaced inside a container "
                         "(a Python-level update, as DynamicCache.update's)")


def crashed(verdict: Verdict, ctx: CompileContext, exc: Exception) -> None:
    verdict.outcome = Outcome.CRASH  # may become unsupported when the table says so
    verdict.stage = ctx.current_stage
    verdict.error_type = type(exc).__name__
    verdict.message = str(exc)[:4000]
    verdict.traceback = traceback.format_exc()[-8000:]


def state_differences(run: Run, error_at: Callable[[KeyPath], float]) -> list[Difference]:
    """Every buffer and input after the call, eager's against the backend's. One the
    backend left as it was before the call, where eager changed it, is a lost mutation."""
    found: list[Difference] = []
    for part in ("buffers", "inputs"):
        expected, actual, initial = run.expected_state[part], run.actual_state[part], run.initial[part]
        path = (InState(part),)
        if list(expected) != list(actual):
            found.append(Difference(path, "keys", str([pytree.keystr(k) for k in expected]),
                                    str([pytree.keystr(k) for k in actual])))
            continue
        for name, value in expected.items():
            where = (*path, *name)
            differences = compare(value, actual[name], path=where, error_at=error_at)
            before = initial.get(name)
            if (differences and isinstance(actual[name], torch.Tensor) and isinstance(before, torch.Tensor)
                    and actual[name].shape == before.shape and actual[name].dtype == before.dtype
                    and torch.equal(actual[name].cpu(), before) and not torch.equal(value, before)):
                differences = [Difference(where, "mutation_lost", "the value forward left",
                                          "the value before the call (the mutation was not written back)",
                                          dtype=dtype_name(value), special="0-d" if value.dim() == 0 else "")]
            found += differences
    return found
