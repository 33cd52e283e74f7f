"""The harness's own sanity checks: eager PyTorch and the ``torch.export`` round trip."""

from __future__ import annotations

from typing import Any

from .base import Backend, CompileContext, Contract, Recipe

__all__ = ["Eager", "ExportRoundTrip"]


class ExportRoundTrip(Backend):
    """``torch.export`` then ``ExportedProgram.module()``: must reproduce eager exactly."""

    name = "reference"
    contract = Contract.EXACT
    mutation = ("written back: ExportedProgram.module() copies mutated buffers and inputs back "
                "(torch/export/_unlift.py, _insert_copy_for_mutations)")

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((("export", "exported = torch.export.export(model, args, kwargs)"),
                       ("run", "actual = exported.module()(*args, **kwargs)")))

    def compile(self, ctx: CompileContext) -> Any:
        return ctx.exported().module()

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return compiled(*ctx.args, **ctx.kwargs)


class Eager(Backend):
    """The model itself, uncompiled: the identity backend that self-tests distort."""

    name = "eager"
    contract = Contract.EXACT

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        return Recipe((("run", "actual = model(*args, **kwargs)"),))

    def compile(self, ctx: CompileContext) -> Any:
        return ctx.model

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        return compiled(*ctx.args, **ctx.kwargs)
