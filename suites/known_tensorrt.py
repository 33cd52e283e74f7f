"""Known upstream Torch-TensorRT bugs that change what a model returns (torch-tensorrt 2.14.0).

One dict per bug, to be merged into the main known-bug table (``suites.known``).
``pattern`` is a regex searched, like ``Known.pattern``, in ``Verdict.signature()``:
``backend/stage/outcome/what``, where ``what`` is the masked first line of the error
for a crash and ``"<kind>: <expected> -> <actual>"`` (parenthesised parts removed) for
a mismatch. The patterns come from reading the 2.14.0 wheel's source, not from a GPU
run: the nightly GPU job is where they get confirmed or corrected.

Left out on purpose: pytorch/TensorRT#3133 (dict ``module_outputs`` in
``infer_module_output_dtypes``) was closed unmerged and superseded by #3212's
metadata-based approach, which is in the 2.14.0 source (``dynamo/utils.py`` L954-986
reads ``meta["val"]``), so dict and ModelOutput returns have no known bug there. A
failure on them is a new finding, and must not be absorbed by an entry.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TENSORRT_KNOWN"]

_ALL = ["trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved"]
# The paths that go through torch.export and compile_module's output loop. torch.compile
# keeps None and Python constants out of the graph it hands the backend.
_EXPORT_PATHS = ["trt-dynamo", "trt-exported-program", "trt-saved"]

TENSORRT_KNOWN: list[dict[str, Any]] = [
    {
        "id": "trt-none-output",
        "backends": _EXPORT_PATHS,
        "kind": "bug",
        "status": "open",
        "outcome": "crash",
        # dynamo/_compiler.py L1577-1578: `for output in outputs: target = output.target`
        # with no isinstance(output, torch.fx.Node) check.
        "pattern": r"/crash/AttributeError: 'NoneType' object has no attribute 'target'",
        "link": "https://github.com/pytorch/TensorRT/pull/4640",
        "reason": "compile_module reads .target of every graph output, so a None output raises "
                  "AttributeError; fix PR #4640 is open, not in 2.14.0",
    },
    {
        "id": "trt-literal-output",
        "backends": _EXPORT_PATHS,
        "kind": "bug",
        "status": "open",
        "outcome": "crash",
        # Same unguarded loop: torch.export bakes a static int/float/bool return (e.g.
        # x.shape[0]) into the output node as a Python literal.
        "pattern": r"/crash/AttributeError: '(int|float|bool)' object has no attribute 'target'",
        "link": "https://github.com/pytorch/TensorRT/pull/4640",
        "reason": "a Python-constant output hits the same unguarded output.target loop; the "
                  "isinstance(output, fx.Node) guard asked for in PR #4640 covers it",
    },
    {
        "id": "trt-scalar-output-as-tensor",
        "backends": _ALL,
        "kind": "bug",
        "status": "fixed-upstream-not-released",
        "outcome": "mismatch",
        # TRTInterpreter.output turns non-ITensor outputs into constants
        # (conversion/_TRTInterpreter.py L786-791) and nothing inserts aten.item after
        # the engine, so the int comes back as a 0-d/1-element tensor.
        "pattern": r"/mismatch/leaf_type: (int|float|bool) .* -> Tensor$",
        "link": "https://github.com/pytorch/TensorRT/issues/4614",
        "reason": "a scalar (SymInt) computed inside an engine comes back as a tensor; fixed on "
                  "main by PR #4628, not in 2.14.0",
    },
    {
        "id": "trt-sym-size-output-rank",
        "backends": _ALL,
        "kind": "bug",
        "status": "open",
        "outcome": "mismatch",
        # The engine binds a sym_size output at rank 1 ([1]); the meta kernel and eager
        # say rank 0.
        # The signature of a shape mismatch carries no shapes, so this row is broader
        # than the bug (any shape mismatch); narrow it once the signature has them.
        "pattern": r"/mismatch/shape$",
        "link": "https://github.com/pytorch/TensorRT/issues/4677",
        "reason": "a sym_size engine output is returned at rank 1 while the meta kernel reports "
                  "rank 0; fix PR #4681 is open",
    },
    {
        "id": "trt-float64-output-truncated",
        "backends": _ALL,
        "kind": "bug",
        "status": "fixed-upstream-not-released",
        "outcome": "mismatch",
        # Engine outputs are never float64: dtype.f64 maps to FLOAT (_enums.py L394-414)
        # and get_output_dtypes drops truncate_double in its tuple recursion
        # (dynamo/utils.py L981), while the meta kernel still reports float64
        # (dynamo/runtime/meta_ops/register_meta_ops.py L47/L154).
        "pattern": r"/mismatch/dtype: torch\.float64 -> torch\.float32$",
        "link": "https://github.com/pytorch/TensorRT/issues/4624",
        "reason": "float64 outputs of an engine come back float32 while the metadata says "
                  "float64; fixed on main by PR #4630, not in 2.14.0",
    },
    {
        "id": "trt-fast-partitioner-return-type",
        "backends": _EXPORT_PATHS,
        "kind": "bug",
        "status": "open",
        "outcome": "mismatch",
        # torch's _SplitterBase always returns a tuple; the global partitioner fuses in
        # place. 2.14 re-applies out_spec (preserve_module_specs), which may hide it.
        # A container that came back a tensor reads "container_type: tuple" (the
        # signature drops everything from the first parenthesis), the reverse
        # "leaf_type: Tensor"; a tuple that came back a list "container_type: tuple -> list".
        "pattern": r"/mismatch/(container_type: (tuple|list)( -> (tuple|list))?|leaf_type: Tensor)$",
        "link": "https://github.com/pytorch/TensorRT/issues/2647",
        "reason": "the container type returned depends on use_fast_partitioner (a single-tensor "
                  "return came back as a 1-tuple); issue still open",
    },
    {
        "id": "trt-input-or-duplicate-output",
        "backends": _ALL,
        "kind": "bug",
        "status": "open",
        "outcome": "crash",
        # A TRT network cannot mark an input as an output, and TRTInterpreter.output
        # marks a repeated output once only (conversion/_TRTInterpreter.py L802-807), so
        # the engine has fewer bindings than the graph has outputs.
        "pattern": r"/crash/.*(cannot be both input and output|differ from number of outputs|index out of range)",
        "link": "https://github.com/pytorch/TensorRT/issues/2561",
        "reason": "returning an input, or the same tensor twice, from an engine is not supported "
                  "(the no-op repair system is an open feature request)",
    },
]
