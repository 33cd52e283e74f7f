"""The interface every frontend adapter implements.

An adapter is a small class: it says whether its frontend is usable here, compiles a
live module for its frontend, runs the compiled artefact and hands the outputs back
as torch objects. Its heavy library is imported only inside its own module, and only
once the harness asks for it. Errors are not caught here: the harness records which
``stage`` was running and classifies the exception (see ``harness.runner``).

A user points the suite at an adapter of their own with
``pytest --backend package.module:ClassName``.
"""

from __future__ import annotations

import ast
import contextlib
import enum
import importlib.util
import inspect
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch
from hypothesis import strategies as st
from torch.utils import _pytree as pytree

__all__ = ["Backend", "CompileContext", "Contract", "HarnessError", "Recipe", "compile_dynamic_options",
           "dynamo_smallest_dynamic_size", "mark_dynamic",
           "missing_modules", "tensor_inputs"]


class Contract(str, enum.Enum):
    """What a frontend promises about the structure of what it returns."""

    #: The eager pytree exactly: container types, keys and their order, leaves.
    EXACT = "exact"
    #: The nesting and order of leaves; container types may change (TVM Arrays).
    NESTING = "nesting"
    #: A flat tuple of leaves; the adapter re-assembles it with the export's
    #: ``out_spec``, which is what a user of the frontend has to do by hand.
    FLAT = "flat"


class HarnessError(Exception):
    """A bug in Roundtrip itself, never to be reported as a frontend bug."""


@dataclass
class CompileContext:
    """One case on its way through one backend: the module, inputs and drawn options."""

    model: torch.nn.Module
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)
    #: The stage running now; the harness reads it when an exception escapes.
    current_stage: str = "compile"
    #: Documented structure changes the adapter saw (reported, not failed).
    notes: list[str] = field(default_factory=list)
    #: A dynamic case's ``torch.export`` ``dynamic_shapes`` (``strategies.dynamic``); the
    #: artefact compiled once is then run at other sizes (``args``/``kwargs`` replaced).
    dynamic_shapes: dict[str, Any] | None = None
    #: The same, per tensor of ``(args, kwargs)`` in pytree order: {dim: (min, max)}, for
    #: frontends that take ranges per tensor (``torch._dynamo.mark_dynamic``, TensorRT).
    dynamic_dims: list[dict[int, tuple[int, int]]] | None = None
    #: Seconds spent in each stage, a nested stage's time not counted in the enclosing
    #: one's (``compile`` alone is then the adapter's own work around its stages).
    timings: dict[str, float] = field(default_factory=dict)
    _exported: Any = None
    _depth: int = 0  # stages open now: between stages, no clock runs
    _clock: float = 0.0  # when the running stage's time was last counted

    def _count(self) -> None:
        now = time.perf_counter()
        if self._depth:
            self.timings[self.current_stage] = self.timings.get(self.current_stage, 0.0) + now - self._clock
        self._clock = now

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        self._count()
        previous, self.current_stage = self.current_stage, name
        self._depth += 1
        try:
            yield
        except BaseException:  # the failing stage stays current: the harness reads it
            self._count()
            self._depth -= 1
            raise
        self._count()
        self._depth -= 1
        self.current_stage = previous

    def exported(self) -> torch.export.ExportedProgram:
        """``torch.export`` of the module, done once and shared by every user of it."""
        if self._exported is None:
            with self.stage("export"):
                self._exported = torch.export.export(self.model, self.args, self.kwargs,
                                                     dynamic_shapes=self.dynamic_shapes)
        return self._exported


@dataclass(frozen=True)
class Recipe:
    """How a standalone reproducer calls the frontend, written out plainly: ``steps`` are
    (stage, statements) that turn ``model``, ``args`` and ``kwargs`` into ``actual``
    (torch objects, re-assembled the way a user of the frontend would), the stages named
    as ``compile``/``run`` name theirs, so that a reproducer of a crash stops at the
    call that fails. ``helpers`` are the adapter's own module-level functions, pasted
    by their source: the harness and the reproducers run the same code."""

    steps: tuple[tuple[str, str], ...]
    imports: str = ""
    helpers: tuple[Callable[..., Any], ...] = ()

    def until(self, stage: str) -> list[str]:
        """The statements up to and including ``stage``'s; all of them when no step is
        that stage's (a crash the worker saw, say)."""
        stages = [s for s, _ in self.steps]
        last = stages.index(stage) if stage in stages else len(stages) - 1
        while last + 1 < len(stages) and stages[last + 1] == stage:
            last += 1
        return [line for _, code in self.steps[:last + 1] for line in code.splitlines()]

    def helper_source(self, code: list[str]) -> str:
        """The helpers ``code`` calls, directly or through another helper, without
        their docstrings."""
        sources = {f.__name__: _without_docstring(inspect.getsource(f)) for f in self.helpers}
        text, needed = "\n".join(code), []
        changed = True
        while changed:
            changed = False
            for name, source in sources.items():
                if name not in needed and re.search(rf"\b{name}\(", text):
                    needed.append(name)
                    text += "\n" + source
                    changed = True
        return "\n\n".join(sources[n] for n in sources if n in needed)


def _without_docstring(source: str) -> str:
    function = ast.parse(source).body[0]
    first = function.body[0]
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value,
                                                                                                str)):
        return source
    lines = source.splitlines(True)
    return "".join(lines[:first.lineno - 1] + lines[first.end_lineno:]).replace(":\n\n", ":\n", 1)


def mark_dynamic(ctx: CompileContext, tree: Any) -> None:
    """``torch._dynamo.mark_dynamic`` on each tensor of ``tree`` (the call's (args, kwargs),
    in pytree order), for the dims a dynamic case declares, with their ranges."""
    if not ctx.dynamic_dims:
        return
    tensors = [t for t in pytree.tree_leaves(tree) if isinstance(t, torch.Tensor)]
    for tensor, dims in zip(tensors, ctx.dynamic_dims, strict=True):
        for dim, (low, high) in dims.items():
            torch._dynamo.mark_dynamic(tensor, dim, min=max(low, 2), max=high)  # see dynamo_smallest_dynamic_size


def dynamo_smallest_dynamic_size(options: dict[str, Any]) -> int:
    """Dynamo specialises sizes 0 and 1 ("0/1 specialization", torch.compile's dynamic
    shapes documentation): a dim marked with ``mark_dynamic`` and then called at 0 or 1
    raises ``ConstraintViolationError`` by design. ``dynamic=True`` recompiles for them."""
    return 0 if options.get("dynamic") else 2


def compile_dynamic_options() -> st.SearchStrategy[dict[str, Any]]:
    """How a ``torch.compile`` frontend is asked for dynamism: ``mark_dynamic`` on the
    declared dims (absent, where it shrinks to), or ``torch.compile(dynamic=True)``."""
    return st.fixed_dictionaries({}, optional={"dynamic": st.just(True)})


def missing_modules(*names: str) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


def tensor_inputs(exported, args, kwargs):
    """The user inputs the export takes as tensors, flattened by its in_spec, in order:
    what a flat-graph frontend's compiled function is called with (the export specialised the rest:
    None, flags, Python numbers)."""
    from torch.export.graph_signature import InputKind, TensorArgument
    from torch.fx._pytree import tree_flatten_spec

    specs = [s for s in exported.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    leaves = tree_flatten_spec((args, kwargs), exported.call_spec.in_spec)
    return [leaf for spec, leaf in zip(specs, leaves, strict=True) if isinstance(spec.arg, TensorArgument)]


def plain_leaves(leaves: Any, *, bfloat16: bool = False, numbers: bool = False) -> bool:
    """Whether every leaf of a plain call's inputs or eager result is a tensor (bfloat16 only
    where ``bfloat16``: numpy has none) or, where ``numbers``, a Python number (a size the
    export makes a graph output comes back as a 0-d tensor)."""
    return all(isinstance(leaf, torch.Tensor) and (bfloat16 or leaf.dtype != torch.bfloat16)
               or numbers and type(leaf) in (int, float, bool) for leaf in pytree.tree_leaves(leaves))


class Backend:
    """Base class of the adapters. Subclasses set the class attributes and override
    ``compile`` and ``run``; the other methods have sensible defaults."""

    #: The name used in ``--backend``, reports and the known-bug table.
    name: ClassVar[str] = ""
    contract: ClassVar[Contract] = Contract.EXACT
    #: Importable modules this adapter needs; missing ones skip it with the reason.
    requires: ClassVar[tuple[str, ...]] = ()
    #: Modules of the frontend that a worker's fork server imports once, before it forks
    #: (``harness.worker``): slow imports that start no thread.
    preload: ClassVar[tuple[str, ...]] = ()
    #: What the frontend promises about buffers and inputs that ``forward`` mutates in
    #: place, and where it says so. The suite checks the promise: a mutation lost where
    #: the frontend documents that it drops them is an ``unsupported`` row in
    #: ``harness.known`` naming that documentation; anywhere else it is a finding.
    mutation: ClassVar[str] = "written back, as in eager"
    #: The distribution whose version identifies the frontend in reports.
    distribution: ClassVar[str] = "torch"
    #: More distributions that make up the frontend (their direct dependencies are
    #: listed in bug reports too).
    packages: ClassVar[tuple[str, ...]] = ()
    #: Where the frontend's bugs are filed (owner/name on GitHub), for search terms.
    tracker: ClassVar[str] = "pytorch/pytorch"
    #: How the frontend compiles a program once for many sizes (``CompileContext.dynamic_shapes``
    #: or ``dynamic_dims``); empty: static only, and a dynamic case runs at its example alone.
    dynamic: ClassVar[str] = "torch.export's dynamic_shapes"

    #: The fields of ``harness.config.Config`` that ``configure`` reads: what changes this
    #: frontend's verdicts besides the case (a replay line carries them).
    settings: ClassVar[tuple[str, ...]] = ()
    #: Their values, set when the adapter is loaded (``harness.registry.load_backend``).
    configured: dict[str, Any] = {}  # noqa: RUF012 (replaced per instance, never mutated)

    def configure(self, config: Any) -> None:
        """Take the run's settings (a ``harness.config.Config``) named in ``settings``."""

    def unavailable_reason(self) -> str | None:
        """Why this backend cannot run here, or ``None`` when it can."""
        missing = missing_modules(*self.requires)
        if missing:
            return f"{self.name}: not installed ({', '.join(missing)} missing)"
        return None

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"{self.distribution} {version(self.distribution)}"
        except PackageNotFoundError:
            return f"{self.distribution} (version unknown)"

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        """The frontend call of a standalone reproducer, for these options (see ``Recipe``),
        of a case whose inputs come in trees when ``input_trees``. Keep it the same code as
        ``compile``/``run``: share the helpers."""
        return Recipe(((self.name, f"raise SystemExit('{self.name} has no standalone reproducer: "
                                   "use python -m suites.replay')"),))

    def plain_recipe(self, options: dict[str, Any], inputs: tuple[torch.Tensor, ...], output: Any,
                     kind: str) -> Recipe | None:
        """The frontend called as its documentation shows, with no adapter helper, for a
        call of these input tensors whose eager result is ``output`` and whose first
        difference is of ``kind`` (``""`` for a crash); ``None`` where such a call cannot
        be plain (a dtype numpy does not hold, outputs the frontend does not return as
        tensors, a bug the plain call's re-assembly would hide), or where ``recipe`` is
        already that plain."""
        return None

    def option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        """The frontend options drawn with each case; they shrink to the defaults."""
        return st.just({})

    def dynamic_option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        """More options drawn with each dynamic case (how dynamism is asked for); the key
        ``dynamic`` is left out when the harness compiles the same case statically."""
        return st.just({})

    def smallest_dynamic_size(self, options: dict[str, Any]) -> int:
        """The smallest side a dynamic dim may be called at, where the frontend documents
        one (dynamo specialises 0 and 1); the harness does not call below it."""
        return 0

    def compile(self, ctx: CompileContext) -> Any:
        raise NotImplementedError

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        """Call the compiled artefact on ``ctx.args``/``ctx.kwargs``; return torch objects."""
        raise NotImplementedError

    def state(self, compiled: Any, ctx: CompileContext) -> tuple[dict[str, torch.Tensor], tuple, dict]:
        """(buffers by name, args, kwargs) after ``run``: what the user holds once the call
        returned, compared with what eager left (see ``mutation``). By default the
        module's own buffers and the tensors passed in, which a frontend that writes
        mutations back has updated."""
        return dict(ctx.model.named_buffers()), ctx.args, ctx.kwargs
