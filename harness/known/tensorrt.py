"""Known rows: Torch-TensorRT: the dynamo, torch.compile, ExportedProgram and saved paths (a CUDA GPU only)."""

from __future__ import annotations

from .backends import TRT, TRT_EXPORT_PATHS
from .rows import Known, When

ROWS: tuple[Known, ...] = (
    Known(
        id="trt-none-output", backends=TRT_EXPORT_PATHS, kind="bug",
        outcome="crash", errors=("AttributeError",),
        message=r"'NoneType' object has no attribute 'target'",
        reason="compile_module reads .target of every graph output, so a None output raises (fix PR #4640 open).",
        link="https://github.com/pytorch/TensorRT/pull/4640",
    ),
    Known(
        id="trt-literal-output", backends=TRT_EXPORT_PATHS, kind="bug",
        outcome="crash", errors=("AttributeError",),
        message=r"'(int|float|bool)' object has no attribute 'target'",
        reason="A Python-constant output (x.shape[0]) hits the same unguarded output loop.",
        link="https://github.com/pytorch/TensorRT/pull/4640",
    ),
    Known(
        id="trt-scalar-output-as-tensor", backends=TRT, kind="bug",
        outcome="mismatch", differences=("leaf_type",), expected=("int", "float", "bool"), got=("Tensor",),
        reason=("A scalar (SymInt) computed in an engine comes back as a tensor (fixed on main by PR #4628, not in "
                "2.14.0)."),
        link="https://github.com/pytorch/TensorRT/issues/4614",
    ),
    Known(
        id="trt-sym-size-output-rank", backends=TRT, kind="bug",
        outcome="mismatch", differences=("shape",), special=("0-d",),
        reason=("A sym_size output is bound at rank 1 ([1]) where eager has rank 0: any 0-d result that comes back with"
                " one dimension (the 0-d class of a shape mismatch; never run here: no GPU)."),
        link="https://github.com/pytorch/TensorRT/issues/4677",
    ),
    Known(
        id="trt-float64-output-truncated", backends=TRT, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float64",), got=("float32",),
        reason="Engine outputs are never float64 (fixed on main by PR #4630, not in 2.14.0).",
        link="https://github.com/pytorch/TensorRT/issues/4624",
    ),
    Known(
        id="trt-fast-partitioner-return-type", backends=TRT_EXPORT_PATHS, kind="bug",
        outcome="mismatch", differences=("container_type",), expected=("tuple", "list"),
        also=(
            When(outcome="mismatch", differences=("leaf_type",), expected=("Tensor",)),
        ),
        reason="The return type changes with use_fast_partitioner: bare tensor vs 1-tuple.",
        link="https://github.com/pytorch/TensorRT/issues/2647",
    ),
    Known(
        id="trt-input-or-duplicate-output", backends=TRT, kind="bug",
        outcome="crash",
        message=r"(cannot be both input and output|differ from number of outputs|index out of range)",
        reason="Returning an input directly, or one output twice, fails.",
        link="https://github.com/pytorch/TensorRT/issues/2561",
    ),
)
