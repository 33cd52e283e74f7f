"""The interface every frontend adapter implements.

An adapter is a small class: it says whether its frontend is usable here, compiles a
live module for its frontend, runs the compiled artefact and hands the outputs back
as torch objects. Its heavy library is imported only inside its own module, and only
once the harness asks for it. Errors are not caught here: the harness records which
``stage`` was running and classifies the exception (see ``suites.runner``).

A user points the suite at an adapter of their own with
``pytest --backend package.module:ClassName``.
"""

from __future__ import annotations

import contextlib
import enum
import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import torch
from hypothesis import strategies as st

__all__ = ["Backend", "CompileContext", "Contract", "HarnessError", "missing_modules"]


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
    _exported: Any = None

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        previous, self.current_stage = self.current_stage, name
        yield
        self.current_stage = previous

    def exported(self) -> torch.export.ExportedProgram:
        """``torch.export`` of the module, done once and shared by every user of it."""
        if self._exported is None:
            with self.stage("export"):
                self._exported = torch.export.export(self.model, self.args, self.kwargs)
        return self._exported


def missing_modules(*names: str) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


class Backend:
    """Base class of the adapters. Subclasses set the class attributes and override
    ``compile`` and ``run``; the other methods have sensible defaults."""

    #: The name used in ``--backend``, reports and the known-bug table.
    name: ClassVar[str] = ""
    contract: ClassVar[Contract] = Contract.EXACT
    #: Importable modules this adapter needs; missing ones skip it with the reason.
    requires: ClassVar[tuple[str, ...]] = ()
    #: What the frontend promises about buffers and inputs that ``forward`` mutates in
    #: place, and where it says so. The suite checks the promise: a mutation lost where
    #: the frontend documents that it drops them is an ``unsupported`` row in
    #: ``suites.known`` naming that documentation; anywhere else it is a finding.
    mutation: ClassVar[str] = "written back, as in eager"
    #: The distribution whose version identifies the frontend in reports.
    distribution: ClassVar[str] = "torch"
    #: Standalone source of ``compile_and_run(model, args, kwargs, options)`` returning
    #: the outputs as torch objects: pasted into corpus reproducers, which need only
    #: torch and the frontend. Keep it in step with ``compile``/``run``.
    reproducer: ClassVar[str] = (
        "def compile_and_run(model, args, kwargs, options):\n"
        "    raise SystemExit('this backend has no standalone reproducer: use python -m suites.replay')\n"
    )

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

    def option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        """The frontend options drawn with each case; they shrink to the defaults."""
        return st.just({})

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
