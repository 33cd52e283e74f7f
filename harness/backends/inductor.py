"""``torch.compile`` with its default backend, TorchInductor, on the CPU.

Dynamo captures the forward, Inductor generates C++ for it, and Dynamo's own code
rebuilds the eager pytree around the compiled graph: the contract is the exact pytree.
Needs only torch and a C++ compiler (Inductor calls the system's ``g++``); the
``inductor`` extra installs nothing more.

Compilation is lazy: it happens on the first call, so that call runs under the
``compile-on-call`` stage. A case is one fresh ``torch._dynamo.reset()``: no cache,
guard or recompile limit is carried over from the previous case.
"""

from __future__ import annotations

import shutil
from typing import Any

from hypothesis import strategies as st

from .base import Backend, CompileContext, Contract, Recipe, compile_dynamic_options, dynamo_smallest_dynamic_size, mark_dynamic

__all__ = ["Inductor"]


class Inductor(Backend):
    name = "inductor"
    preload = ("torch._inductor.compile_fx",)
    contract = Contract.EXACT
    mutation = "written back: torch.compile keeps eager semantics, in-place updates of buffers and inputs included"
    distribution = "torch"
    dynamic = "torch._dynamo.mark_dynamic on the declared dims, or torch.compile(dynamic=True) (drawn)"

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is None and shutil.which("g++") is None and shutil.which("c++") is None:
            reason = f"{self.name}: Inductor's CPU code generation needs a C++ compiler (g++), and none is on PATH"
        return reason

    def recipe(self, options: dict[str, Any], *, input_trees: bool = False) -> Recipe:
        dynamic = ", dynamic=True" if options.get("dynamic") else ""
        return Recipe((("compile-on-call", f"actual = torch.compile(model{dynamic})(*args, **kwargs)"),))

    def compile(self, ctx: CompileContext) -> Any:
        import torch

        torch._dynamo.reset()  # no cache or recompile limit carried over between cases
        return torch.compile(ctx.model, dynamic=True) if ctx.options.get("dynamic") else torch.compile(ctx.model)

    def dynamic_option_strategy(self) -> st.SearchStrategy[dict[str, Any]]:
        return compile_dynamic_options()

    def smallest_dynamic_size(self, options: dict[str, Any]) -> int:
        return dynamo_smallest_dynamic_size(options)

    def run(self, compiled: Any, ctx: CompileContext) -> Any:
        if not ctx.options.get("dynamic"):
            mark_dynamic(ctx, (ctx.args, ctx.kwargs))
        # torch.compile compiles lazily, on the first call (and again on a recompilation).
        with ctx.stage("compile-on-call"):
            return compiled(*ctx.args, **ctx.kwargs)
