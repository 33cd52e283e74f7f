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
import importlib
import inspect
import re
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import torch
from torch.utils import _pytree as pytree

from strategies import Case, Ref, materialize
from strategies.dynamic import dynamic_shapes, example_sizes, resized, size_roles, statically
from strategies.ops import OPS, TensorType, TupleType
from strategies.render import input_tensors, materialize_inputs, program_types

from .attribution import Graph, names_of
from .backends.base import Backend, CompileContext, Contract, HarnessError
from .config import Config
from .oracle import Difference, Step, compare, dtype_name, in_state, path_text
from .own import OwnModel
from .signature import Signature, difference_what, masked
from .subjects import Subject, kind_of

__all__ = ["BUILTIN_BACKENDS", "CPU_BACKENDS", "DEFAULT_BACKENDS", "OUTCOMES", "Verdict", "execute", "load_backend"]

OUTCOMES = ("pass", "unsupported", "crash", "hang", "mismatch")

#: Built-in backend names and where their adapters live.
BUILTIN_BACKENDS = {
    "reference": "harness.backends.reference:ExportRoundTrip",
    "eager": "harness.backends.reference:Eager",
    "tvm-ep": "harness.backends.tvm:TvmExportedProgram",
    "tvm-fx": "harness.backends.tvm:TvmFx",
    "tvm-dynamo": "harness.backends.tvm:TvmDynamo",
    "trt-dynamo": "harness.backends.tensorrt:TrtDynamo",
    "trt-torch-compile": "harness.backends.tensorrt:TrtTorchCompile",
    "trt-exported-program": "harness.backends.tensorrt:TrtExportedProgram",
    "trt-saved": "harness.backends.tensorrt:TrtSaveLoad",
    "inductor": "harness.backends.inductor:Inductor",
    "onnx": "harness.backends.onnx:OnnxRuntime",
    "openvino": "harness.backends.openvino:OpenVino",
}

#: The frontends a run (and a check) covers when none is named; those not installed here
#: (TensorRT without a GPU) are skipped with the reason.
DEFAULT_BACKENDS = ("reference", "tvm-ep", "tvm-fx", "tvm-dynamo", "inductor", "onnx", "openvino",
                    "trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved")
#: Those of them that run on a CPU.
CPU_BACKENDS = DEFAULT_BACKENDS[:7]

#: One adapter per backend and configuration: (spec, the values of its ``settings``).
_loaded: dict[tuple[str, tuple[Any, ...]], Backend] = {}
_classes: dict[str, type[Backend]] = {}


def load_backend(spec: str, config: Config | None = None) -> Backend:
    """A built-in name (``tvm-ep``) or ``package.module:ClassName``, configured from
    ``config`` (the run's settings; None: the environment's, ``Config.from_environment``)
    always, so that no caller gets an adapter configured by another's settings."""
    cls = _backend_class(spec)
    config = config if config is not None else Config.from_environment()
    key = (spec, tuple(getattr(config, name) for name in cls.settings))
    if key not in _loaded:
        backend = cls()
        backend.configure(config)
        backend.configured = dict(zip(cls.settings, key[1]))
        _loaded[key] = backend
    return _loaded[key]


def _backend_class(spec: str) -> type[Backend]:
    if spec not in _classes:
        target = BUILTIN_BACKENDS.get(spec, spec)
        if ":" not in target:
            raise HarnessError(
                f"--backend {spec!r}: not a built-in name ({', '.join(BUILTIN_BACKENDS)}) "
                "nor a 'package.module:ClassName' path"
            )
        module_name, _, class_name = target.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as exc:
            raise HarnessError(f"--backend {spec!r}: cannot load {target}: {exc}") from exc
        if not (isinstance(cls, type) and issubclass(cls, Backend)):
            raise HarnessError(f"--backend {spec!r}: {target} is not a harness.backends.base.Backend")
        _classes[spec] = cls
    return _classes[spec]


@dataclass
class Verdict:
    """What happened to one case on one backend."""

    backend: str
    outcome: str
    stage: str = ""
    error_type: str = ""
    message: str = ""
    traceback: str = ""
    differences: list[dict[str, str]] = field(default_factory=list)
    #: Documented structure changes seen on the way (e.g. a flat tuple re-assembled).
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: The op that computed the first differing leaf (mismatches), for the signature; for
    #: a process that died or hung, what the case ran (``SubjectKind.trigger``).
    leaf_op: str = ""
    #: The earliest value on the way to that leaf that differs on its own (the root
    #: cause in a program), as {"value": "v3 = sum(v1)", "difference": {...}}.
    root: dict[str, Any] = field(default_factory=dict)
    #: A dynamic case: each size it ran at, in order, as {"role", "sizes", "outcome"}
    #: (``strategies.dynamic.size_roles``); the last is where it stopped.
    sizes: list[dict[str, Any]] = field(default_factory=list)
    #: Seconds per part of the pipeline in the process that ran it: materialize, eager,
    #: the frontend's stages (``CompileContext.timings``), judge, and root-cause (the
    #: probes a mismatch compiles to name its first differing value). Never in the signature.
    timings: dict[str, float] = field(default_factory=dict)
    #: (case, options, path) a mismatch's root-cause probes will start from, until
    #: ``_probe`` runs them: in the process only, never recorded.
    probe_with: tuple[Subject, dict[str, Any], tuple[Step, ...]] | None = field(default=None, repr=False,
                                                                              compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(replace(self, probe_with=None)).items() if k != "probe_with"}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        return cls(**data)

    def headline(self) -> str:
        if self.differences:  # a mismatch, or lost mutations a frontend documents (unsupported)
            d = self.differences[0]
            where = d["path"] or "<output>"
            return f"{where}: {d['kind']} expected {d['expected']}, got {d['actual']}"
        return f"{self.error_type}: {self.message.splitlines()[0] if self.message else ''}".strip()

    def error_pattern(self) -> str:
        """The error message masked (``harness.signature.masked``): many examples of one bug share it."""
        return masked(self.error_type, self.message)

    def signature(self) -> str:
        """``backend/stage/outcome/what @op``: one string per distinct bug (the key of
        reports and the corpus; the known table matches its parts)."""
        return str(self.as_signature())

    def as_signature(self) -> Signature:
        """The signature as data. A comparison's differences name it whatever the outcome
        (lost mutations a frontend documents that it drops are ``unsupported``, and still
        differences)."""
        if self.outcome == "mismatch" or self.differences:
            d = self.differences[0] if self.differences else {"kind": "?", "expected": "", "actual": ""}
            what = difference_what(self.root.get("difference", d))
        else:
            what = self.error_pattern()
        return Signature(self.backend, self.stage, self.outcome, what, self.leaf_op)


def _clone(tree: Any) -> Any:
    return pytree.tree_map(lambda t: t.clone() if isinstance(t, torch.Tensor) else t, tree)


#: Where a tensor of the state is: its buffer's name, or its parameter's and the steps
#: inside that parameter's tree (``cache``, 1, 0).
StateKey = tuple[Step, ...]


def _state(forward: Callable, buffers: dict[str, torch.Tensor], args: tuple, kwargs: dict) -> dict[str, dict[StateKey, Any]]:
    """What ``forward`` may mutate: every buffer, and every tensor of the inputs, each
    under the steps that reach it (a parameter, then its path inside its tree)."""
    inputs: dict[StateKey, Any] = {}
    for name, value in inspect.signature(forward).bind(*args, **kwargs).arguments.items():
        for path, leaf in pytree.tree_flatten_with_path(value)[0]:
            if isinstance(leaf, torch.Tensor):
                inputs[(Step("key", name), *(Step.of_key(k) for k in path))] = leaf
    return {"buffers": {(Step("key", name),): t for name, t in buffers.items()}, "inputs": inputs}


@dataclass
class _Run:
    """One case through eager and a backend: outputs, and the state before and after."""

    expected: Any
    actual: Any = None
    #: Buffers and inputs before the call, after eager's call, after the backend's.
    initial: dict[str, dict[str, Any]] = field(default_factory=dict)
    expected_state: dict[str, dict[StateKey, Any]] = field(default_factory=dict)
    actual_state: dict[str, dict[StateKey, Any]] = field(default_factory=dict)
    #: Input tensors eager replaced inside a container rather than updated in place
    #: (see ``_eager``): not compared.
    rebound: list[StateKey] = field(default_factory=list)


def _timed(timings: dict[str, float], part: str, start: float) -> None:
    timings[part] = timings.get(part, 0.0) + time.perf_counter() - start


def _eager(case: Subject, timings: dict[str, float]) -> tuple[_Run, tuple, dict, torch.nn.Module]:
    """Eager's output and state after one call on copies; the inputs and a model as they
    were before it, for the backend."""
    try:
        start = time.perf_counter()
        model, args, kwargs = kind_of(case).build(case)
        _timed(timings, "materialize", start)
        start = time.perf_counter()
        pristine = copy.deepcopy(model)
        run = _eager_call(model, args, kwargs)
        _timed(timings, "eager", start)
    except Exception as exc:  # the generator promised a well-defined eager result; a user's model must run
        raise HarnessError(f"eager PyTorch failed on {kind_of(case).describe(case)}: {exc!r}") from exc
    return run, args, kwargs, pristine


def _eager_call(model: torch.nn.Module, args: tuple, kwargs: dict) -> _Run:
    """One eager call of ``model`` on copies of the inputs: its output, and the state before and after."""
    initial = _clone(_state(model.forward, dict(model.named_buffers()), args, kwargs))
    eager_args, eager_kwargs = _clone(args), _clone(kwargs)
    # The tensors themselves, not their ids: a replaced one is freed, and its id reused.
    handed = [t for t in pytree.tree_leaves((eager_args, eager_kwargs)) if isinstance(t, torch.Tensor)]
    with torch.no_grad():
        expected = model(*eager_args, **eager_kwargs)
    run = _Run(expected, initial=initial,
               expected_state=_state(model.forward, dict(model.named_buffers()), eager_args, eager_kwargs))
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


def _compile_and_run(backend: Backend, case: Subject, options: dict[str, Any], verdict: Verdict) -> _Run:
    """Eager's and the backend's outputs and state; on an exception, ``verdict`` says what
    failed where."""
    run, args, kwargs, model = _eager(case, verdict.timings)
    ctx = CompileContext(model, _clone(args), _clone(kwargs), dict(options), timings=verdict.timings)
    try:
        with ctx.stage("compile"):
            compiled = backend.compile(ctx)
        _backend_call(backend, compiled, ctx, run)
    except HarnessError:
        raise
    except Exception as exc:
        _crashed(verdict, ctx, exc)
    verdict.notes = ctx.notes
    return run


def _backend_call(backend: Backend, compiled: Any, ctx: CompileContext, run: _Run) -> None:
    """The backend's output and state after one call of ``compiled`` on ``ctx``'s inputs, into ``run``."""
    with ctx.stage("run"), torch.no_grad():
        run.actual = backend.run(compiled, ctx)
    run.actual_state = _state(ctx.model.forward, *backend.state(compiled, ctx))
    if run.rebound:
        run.actual_state["inputs"] = {n: t for n, t in run.actual_state["inputs"].items() if n not in run.rebound}
        ctx.notes.append(f"not compared: {len(run.rebound)} input tensors eager replaced inside a container "
                         "(a Python-level update, as DynamicCache.update's)")


def _crashed(verdict: Verdict, ctx: CompileContext, exc: Exception) -> None:
    verdict.outcome = "crash"  # may become "unsupported" when the table says so
    verdict.stage = ctx.current_stage
    verdict.error_type = type(exc).__name__
    verdict.message = str(exc)[:4000]
    verdict.traceback = traceback.format_exc()[-8000:]


def _state_differences(run: _Run, error_at: Callable[[tuple[Step, ...]], float]) -> list[Difference]:
    """Every buffer and input after the call, eager's against the backend's. One the
    backend left as it was before the call, where eager changed it, is a lost mutation."""
    found: list[Difference] = []
    for part in ("buffers", "inputs"):
        expected, actual, initial = run.expected_state[part], run.actual_state[part], run.initial[part]
        path = (Step("state", part),)
        if list(expected) != list(actual):
            found.append(Difference(path, "keys", str([path_text(k) for k in expected]),
                                    str([path_text(k) for k in actual])))
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


def execute(backend: Backend, case: Subject, options: dict[str, Any]) -> Verdict:
    """The whole pipeline for one case, in this process."""
    start = time.perf_counter()
    verdict = _execute(backend, case, options)
    _probe(backend, verdict)
    if verdict.outcome == "crash" and not verdict.leaf_op and kind_of(case).graph_named:
        # A user's model is named by its graph's ops, so that a row of a crash that names
        # ops tells it apart from another cause with the same message.
        verdict.leaf_op = kind_of(case).trigger(case)
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
    verdict = Verdict(backend=backend.name, outcome="pass")
    run = _compile_and_run(backend, case, options, verdict)
    verdict.notes += static_only
    if verdict.outcome == "pass":
        _judge(backend, case, options, run, verdict)
    if verdict.outcome != "pass" and options.get("dynamic") and kind_of(case).generated:
        # torch.compile(dynamic=True) of a case with nothing declared: symbolic shapes all the same
        static = _execute(backend, case, static_options(options))
        if static.outcome == "pass" or static.signature() != verdict.signature():
            verdict.stage = f"{verdict.stage}@dynamic"
    return verdict


def _judge(backend: Backend, case: Subject, options: dict[str, Any], run: _Run, verdict: Verdict) -> None:
    """Compare the backend's outputs and state with eager's: a mismatch, or a pass. A
    mismatch of a program's leaf is left to ``_probe`` for its root cause."""
    start = time.perf_counter()
    expected, actual = run.expected, run.actual
    kind = kind_of(case)
    generated = kind.generated
    verdict.stage = "judge"
    # A user's model: the tolerance of each leaf's dtype, no rounding error of a program on top;
    # an architecture: its bound on eager's own rounding, from its dtype, depth and width.
    bound = kind.error_bound(case)
    error_at = _error_lookup(case) if generated else (lambda steps: bound)
    differences = compare(expected, actual, contract=backend.contract, error_at=error_at,
                          reference_at=_fp64_reference(case) if generated else None)
    differences += _state_differences(run, error_at)
    if differences:
        verdict.outcome = "mismatch"
        verdict.differences = [d.to_dict() for d in differences]
        first = differences[0]
        verdict.leaf_op = (_op_at(case, first.steps) if generated else
                           kind.leaf_name(case) or _state_op(run, first) or _own_leaf_op(case, run, first))
        if (generated or kind.graph_named) and first.kind in _LEAF_KINDS and not first.in_state:
            verdict.probe_with = (case, options, first.steps)
    elif backend.contract is Contract.NESTING:
        # Within the contract, but the user still sees other container types.
        changed = compare(expected, actual, contract=Contract.EXACT, error_at=error_at)
        if changed:
            verdict.notes.append(f"structure changed (nesting contract): {changed[0]}")
    _timed(verdict.timings, "judge", start)


def _leaves_by_path(tree: Any) -> dict[tuple[Step, ...], Any] | None:
    """Each leaf of an output tree by its oracle path, in pytree order; None where a node
    is registered without keys (transformers' ModelOutput): no path to name."""
    try:
        return {tuple(Step.of_key(k) for k in p): leaf for p, leaf in pytree.tree_flatten_with_path(tree)[0]}
    except ValueError:
        return None


def _fp64_reference(case: Case) -> Callable[[tuple[Step, ...]], Any] | None:
    """path -> a float64 run of eager's value there (its float inputs, parameters and
    buffers in float64; the program's own casts as they are), for a program with an op
    that has no hand-derived error bound (``harness.oracle.closer_than_eager``); None for
    any other program, or where the float64 run fails."""
    if not any(OPS[op].family.startswith("opinfo") for op in case.ops()):
        return None
    try:
        model, args, kwargs = materialize(case)
        model = model.to(torch.float64)
        args, kwargs = pytree.tree_map(
            lambda t: t.double() if isinstance(t, torch.Tensor) and t.is_floating_point() else t, (args, kwargs))
        with torch.no_grad():
            found = _leaves_by_path(model(*args, **kwargs))
    except Exception:  # noqa: BLE001 - no float64 run: the leaf is judged by its tolerance alone
        return None
    return found.get if found is not None else None


def _probe(backend: Backend, verdict: Verdict) -> None:
    """The root cause of a program's mismatch (``_root_cause``): the probes compile again,
    so they have their own part of the timings, not the oracle's."""
    if verdict.probe_with is None:
        return
    start = time.perf_counter()
    case, options, steps = verdict.probe_with
    verdict.probe_with = None
    verdict.root = (_own_root_cause(backend, case, options, steps) if kind_of(case).graph_named
                    else _root_cause(backend, case, options, steps))
    if verdict.root:
        verdict.leaf_op = verdict.root["op"]
    _timed(verdict.timings, "root-cause", start)


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
    verdict = Verdict(backend=backend.name, outcome="pass")
    timings = verdict.timings  # one record for the whole case, whichever verdict it ends with
    start = time.perf_counter()
    model, args, kwargs = materialize(case)
    _timed(timings, "materialize", start)
    ctx = CompileContext(copy.deepcopy(model), _clone(args), _clone(kwargs), dict(options), timings=timings,
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
        _crashed(verdict, ctx, exc)
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
            run = _eager_call(model, at_args, at_kwargs)
            _timed(timings, "eager", start)
        except Exception as exc:  # the draw checked every size; say so, rather than report the frontend
            return _discarded(backend, case, options, f"eager fails at the {role} size {sizes}: {exc!r}"[:300])
        ctx.args, ctx.kwargs = _clone(at_args), _clone(at_kwargs)
        try:
            _backend_call(backend, compiled, ctx, run)
        except HarnessError:
            raise
        except Exception as exc:
            if role == "example" and _constraint_violation(exc):  # a torch.compile frontend compiles on the call
                return _discarded(backend, case, options, "dynamo found the program specialising a dynamic "
                                                          "dimension (a constraint violation)")
            _crashed(verdict, ctx, exc)
        verdict.notes = ctx.notes
        if verdict.outcome == "pass":
            _judge(backend, at, options, run, verdict)
        verdict.sizes.append({"role": role, "sizes": sizes, "outcome": verdict.outcome})
        now = _compiled_graphs()
        if now > graphs and role != "example":
            ctx.notes.append(f"recompiled for the {role} size")
        graphs = now
        if verdict.outcome != "pass":
            return _unless_static(backend, case, options, verdict, role, sizes)
        verdict = Verdict(backend=backend.name, outcome="pass", notes=ctx.notes, sizes=verdict.sizes, timings=timings)
    return verdict


def _unless_static(backend: Backend, case: Case, options: dict[str, Any], verdict: Verdict, role: str,
                   sizes: dict[str, int]) -> Verdict:
    """The dynamic failure at ``role``, its stage naming the role; or, where the static case
    at those sizes fails the same way, that static verdict."""
    static = _execute(backend, statically(resized(case, sizes)), static_options(options))
    if static.outcome != "pass" and static.signature() == verdict.signature():
        static.sizes = verdict.sizes
        static.notes.append(f"fails at the {role} size {sizes} compiled statically too: a static bug")
        return static
    verdict.stage = f"{verdict.stage}@{role}"
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


#: Differences in a leaf's own content, which a value earlier in the program may cause.
_LEAF_KINDS = ("dtype", "shape", "values", "leaf_type")


def _root_cause(backend: Backend, case: Case, options: dict[str, Any], path: tuple[Step, ...]) -> dict[str, Any]:
    """The earliest value feeding the differing leaf that differs when returned alone.

    A dtype lost in ``sum`` shows at the ``add`` that consumes it; the signature (and
    the known table) should name ``sum``. Runs only on mismatches, one small compile
    per computed value on the way, stopping at the first that differs.
    """
    index = _value_at(case, path)[0]
    if index is None:
        return {}
    # Only what feeds the value: a mutation elsewhere in the model (a buffer updated from
    # a later value of the same chain) does not make the value differ, and blaming it
    # named ops after the cause (a uint8 shift's lost dtype was put on the flip after it).
    for i in case.feeding(index):
        value = case.values[i]
        if value.op in ("input", "parameter", "buffer") or value.dtype is None:
            continue
        alone = replace(case, output=Ref(i)).pruned()
        probe = Verdict(backend=backend.name, outcome="pass")
        run = _compile_and_run(backend, alone, options, probe)
        if probe.outcome != "pass":
            continue
        differences = compare(run.expected, run.actual, contract=backend.contract, error_at=_error_lookup(alone),
                              reference_at=_fp64_reference(alone))
        if differences and differences[0].kind in _LEAF_KINDS:
            return {"op": value.op, "value": f"v{i} = {value.op}({', '.join(value.operands)})",
                    "difference": differences[0].to_dict()}
    return {}


#: A user's model with more calls than this on the way to its differing leaf is named by
#: the leaf's own call, unprobed: one compile per call would outlast the check.
MAX_PROBES = 24


def _own_leaf(case: OwnModel, expected: Any, steps: tuple[Step, ...]) -> tuple[Graph | None, int]:
    """A user's model's exported graph and the pytree position of the output leaf at ``steps``."""
    graph = case.graph()
    if graph is None:
        return None, -1
    paths = list(_leaves_by_path(expected) or ())
    return graph, paths.index(steps) if steps in paths else -1


def _own_leaf_op(case: Subject, run: _Run, difference: Difference) -> str:
    """The generator's names of the call that made a user's model's differing leaf."""
    if not kind_of(case).graph_named or difference.in_state:
        return ""
    graph, position = _own_leaf(case, run.expected, difference.steps)
    node = graph.producer(position) if graph is not None else None
    return "+".join(names_of(node)) if node is not None else ""


def _own_root_cause(backend: Backend, case: OwnModel, options: dict[str, Any], path: tuple[Step, ...]
                    ) -> dict[str, Any]:
    """``_root_cause`` for a user's model: the earliest call of its exported graph feeding
    the differing leaf whose value, returned alone (the graph cut there), differs."""
    eager = _eager(case, {})[0]
    graph, position = _own_leaf(case, eager.expected, path)
    cuts = graph.cuts(position) if graph is not None else []
    if not cuts or len(cuts) > MAX_PROBES:
        return {}
    bound = kind_of(case).error_bound(case)
    for cut, names in cuts:
        probe = Verdict(backend=backend.name, outcome="pass")
        run = _compile_and_run(backend, replace(case, cut=cut), options, probe)
        if probe.outcome != "pass":
            continue
        differences = compare(run.expected, run.actual, contract=backend.contract, error_at=lambda steps: bound)
        if differences and differences[0].kind in _LEAF_KINDS:
            return {"op": "+".join(names), "value": cut, "difference": differences[0].to_dict()}
    return {}


def _value_at(case: Case, path: tuple[Step, ...]) -> tuple[int | None, tuple[Step, ...]]:
    """The value at an oracle path (``[0]['a'].f``) of the output tree, and the steps
    left inside it (into what a tuple-returning op gave)."""
    node = case.output
    for n, step in enumerate(path):
        if isinstance(node, Ref):
            return node.index, path[n:]
        if step.kind == "index":
            position = step.value
        elif step.value in node.keys:
            position = node.keys.index(step.value)
        else:
            return None, ()
        if position >= len(node.items):
            return None, ()
        node = node.items[position]
    return (node.index, ()) if isinstance(node, Ref) else (None, ())


def _state_op(run: _Run, difference: Difference) -> str:
    """For a user's model, whose ops the suite does not know: a difference in the state
    after the call, or in an output that is a buffer or input forward updated in place,
    is named as a generated case's would be (``buffer_update``, ``input_update``)."""
    if difference.in_state:
        return "buffer_update" if difference.steps[0].value == "buffers" else "input_update"
    leaves = _leaves_by_path(run.expected)
    if leaves is None:
        return ""
    leaf = leaves.get(difference.steps)
    for part, update in (("buffers", "buffer_update"), ("inputs", "input_update")):
        if any(leaf is t for t in run.expected_state[part].values()):
            return update
    return ""


def _mutated_by(case: Case, path: tuple[Step, ...]) -> int | None:
    """The value that mutated the buffer or input at a state path (a buffer ``sK``
    belongs to value K; an input to the value that mutated it), if any."""
    if len(path) < 2 or not in_state(path):
        return None
    part, name = path[0].value, path[1].value
    if part == "buffers":
        index = int(name[1:]) if re.fullmatch(r"s\d+", name) else None
        return index if index is not None and index < len(case.values) else None
    if case.params:  # state.inputs['cache'][1][0]: the input at that path of the parameter's tree
        where = name + path_text(path[2:])
        name = next((n for n, p in case.input_paths().items() if p == where), name)
    return next((i for i in case.mutations() if case.values[i].operands[:1] == (name,)), None)


def _op_at(case: Case, path: tuple[Step, ...]) -> str:
    index = _mutated_by(case, path) if in_state(path) else _value_at(case, path)[0]
    return "" if index is None else case.values[index].op


def _error_lookup(case: Case) -> Callable[[tuple[Step, ...]], float]:
    """path -> the generator's bound on eager's rounding error at that float leaf."""
    types = program_types(case)

    def error_at(path: tuple[Step, ...]) -> float:
        if in_state(path):
            index = _mutated_by(case, path)
            t = types.get(f"v{index}")
            return t.err if isinstance(t, TensorType) else 0.0
        index, rest = _value_at(case, path)
        if index is None:
            return 0.0
        t = types[f"v{index}"]
        for step in rest:
            if not isinstance(t, TupleType):
                return 0.0
            if step.kind == "index" and step.value < len(t.items):
                t = t.items[step.value]
            elif step.kind == "field" and step.value in t.fields:
                t = t.items[t.fields.index(step.value)]
            else:
                return 0.0
        return t.err if isinstance(t, TensorType) else 0.0

    return error_at
