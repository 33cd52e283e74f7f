"""Seed the corpus with the upstream output bugs the project started from (``SEEDS``
below, each with its upstream issues and pull requests), each written as a case and
re-checked on the frontends installed here:

    python -m reports.seeds            # re-check all; write/refresh their entries

Reproduced -> status ``open`` (a strict expected failure on replay); not reproduced ->
``fixed`` (a regression test that must pass); frontend not runnable here (TensorRT
without a GPU) -> ``unverified`` until the GPU job checks it.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from typing import Any

from harness.config import Config
from harness.conformance import ConformanceFailure
from harness.known import match, passed_or_rejected_cleanly
from harness.registry import load_backend
from harness.runner import execute
from harness.verdict import Verdict
from strategies import Case, Container, Input, Ref, Value
from strategies.ops import TensorType, infer

from .entries import save_finding

__all__ = ["SEEDS", "Seed", "main"]


def _value(op: str, operands: tuple[str, ...], inputs: tuple[Input, ...], **attrs: Any) -> Value:
    types = {i.name: TensorType(i.dtype, i.shape) for i in inputs}
    dtype, shape, pytype = infer(op, attrs, tuple(types[o] for o in operands))
    return Value(op, operands, tuple(sorted(attrs.items())), dtype, shape, pytype)


def _case(inputs: tuple[Input, ...], values: list[tuple], output: Any) -> Case:
    return Case(inputs, tuple(_value(op, operands, inputs, **attrs) for op, operands, attrs in values), output)


X23 = (Input("x0", "float32", (2, 3)),)
TUPLE = lambda *items: Container("tuple", tuple(items))  # noqa: E731


@dataclass(frozen=True)
class Seed:
    id: str
    backend: str
    case: Case
    upstream: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()


SEEDS = (
    Seed("tvm-18337-none-output", "tvm-ep",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("none", (), {})], TUPLE(Ref(0), Ref(1))),
         ("https://github.com/apache/tvm/issues/18337", "https://github.com/apache/tvm/pull/18359")),
    Seed("tvm-20230-mean-dtype-float64", "tvm-ep",
         _case(X23, [("mean", ("x0",), {"dim": 1, "keepdim": False, "to_float64": True})], Ref(0)),
         ("https://github.com/apache/tvm/issues/20230", "https://github.com/apache/tvm/pull/20241")),
    Seed("tvm-18315-bool-scalar-input", "tvm-ep",
         _case((Input("x0", "bool", ()),), [("logical_not", ("x0",), {})], Ref(0)),
         ("https://github.com/apache/tvm/issues/18315",)),
    Seed("tvm-7088-list-output-ep", "tvm-ep",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("mul", ("x0", "x0"), {})],
               Container("list", (Ref(0), Ref(1)))),
         ("https://github.com/apache/tvm/pull/7088",)),
    Seed("tvm-7088-list-output-fx", "tvm-fx",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("mul", ("x0", "x0"), {})],
               Container("list", (Ref(0), Ref(1)))),
         ("https://github.com/apache/tvm/pull/7088",)),
    *(
        Seed(f"tvm-forum-nested-linear-tuple-{backend.removeprefix('tvm-')}", backend,
             _case((Input("x0", "float32", (4, 3)),),
                   [("linear", ("x0",), {"dtype": "float32", "out": n, "bias": True}) for n in (1, 2, 3, 1)],
                   TUPLE(TUPLE(TUPLE(Ref(0), Ref(1)), Ref(2)), Ref(3))),
             ("https://discuss.tvm.apache.org/t/why-relay-frontend-from-pytorch-unpacks-inner-tuples",))
        for backend in ("tvm-ep", "tvm-fx", "tvm-dynamo")
    ),
    Seed("pytorch-189699-dynamo-rank0-state", "tvm-dynamo",
         _case((Input("x0", "float32", ()),), [("add_buffer", ("x0",), {})], Ref(0)),
         ("https://github.com/pytorch/pytorch/pull/189699",)),
    # Torch-TensorRT: runnable only on a CUDA GPU with TensorRT; the GPU job re-checks.
    Seed("trt-4640-none-output", "trt-dynamo",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("none", (), {})], TUPLE(Ref(0), Ref(1))),
         ("https://github.com/pytorch/TensorRT/pull/4640",), (("min_block_size", 1), ("pass_through_build_failures", True))),
    Seed("trt-4614-shape-int-output", "trt-dynamo",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("shape", ("x0",), {"dim": 0})], TUPLE(Ref(0), Ref(1))),
         ("https://github.com/pytorch/TensorRT/issues/4614", "https://github.com/pytorch/TensorRT/issues/4677"),
         (("min_block_size", 1), ("pass_through_build_failures", True))),
    Seed("trt-2561-duplicate-output", "trt-dynamo",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("input", ("x0",), {})], TUPLE(Ref(1), Ref(0), Ref(0))),
         ("https://github.com/pytorch/TensorRT/issues/2561",), (("min_block_size", 1), ("pass_through_build_failures", True))),
    Seed("trt-2647-single-output-type", "trt-dynamo",
         _case(X23, [("add_scalar", ("x0",), {"value": 1})], Ref(0)),
         ("https://github.com/pytorch/TensorRT/issues/2647",),
         (("min_block_size", 1), ("pass_through_build_failures", True), ("use_fast_partitioner", False))),
    Seed("trt-3212-model-output", "trt-dynamo",
         _case(X23, [("add_scalar", ("x0",), {"value": 1}), ("mul", ("x0", "x0"), {})],
               Container("model_output", (Ref(0), Ref(1)), ("logits", "hidden_states"))),
         ("https://github.com/pytorch/TensorRT/pull/3133", "https://github.com/pytorch/TensorRT/pull/3212"),
         (("min_block_size", 1), ("pass_through_build_failures", True))),
)


def main() -> int:
    corpus = Config.from_environment().corpus
    for seed in SEEDS:
        backend = load_backend(seed.backend)
        options = dict(seed.options)
        reason = backend.unavailable_reason()
        if reason:
            verdict, status = Verdict(seed.backend, "unverified", message=reason), "unverified"
        else:
            verdict = execute(backend, seed.case, options)
            known = match(verdict)
            reproduced = not passed_or_rejected_cleanly(verdict, known)
            status = "open" if reproduced else "fixed"
        shutil.rmtree(corpus / seed.id, ignore_errors=True)
        failure = ConformanceFailure(backend, seed.backend, seed.case, options, verdict)
        save_finding(failure, corpus, status=status, upstream=list(seed.upstream), entry=seed.id)
        print(f"{seed.id:45} {status:10} {verdict.outcome:10} {verdict.headline()[:80]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
