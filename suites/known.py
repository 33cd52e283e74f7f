"""What each backend does not support, and the upstream bugs already known: as data.

A verdict that matches a row is counted under that row and the search goes on; one
that matches none is a new finding and fails its test with the shrunk case. Rows of
kind ``unsupported`` turn a clean compile-time rejection into the ``unsupported``
outcome, and so a mismatch made only of mutations not written back where the frontend
documents that it drops them; rows of kind ``bug`` are real bugs (crash, hang or
mismatch) already on file; rows of kind ``documented`` are results that differ from
eager where the frontend documents that they do (a precision a device computes in, an
option that changes the return type): the user is told, they are counted apart from
bugs, and they are never reported upstream (no corpus entry).

``pattern`` is a regular expression searched in the verdict's signature
``backend/stage/outcome/what`` (see ``Verdict.signature``); ``stage`` narrows it. An
error that dynamo wraps (``BackendCompilerFailed``) is matched as its inner error raised
at the row's stages: a row names a root cause, never the wrapper. Each ``bug`` row is
one root cause: ``tests/test_known_rows.py`` holds every row to that against the last
``ci`` survey (``SURVEY``).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .runner import Verdict
from .signature import WRAPPER, Signature

__all__ = ["KNOWN", "SURVEY", "TRT", "Known", "SignatureOnly", "counted_outcome", "match", "passed_or_rejected_cleanly",
           "root_causes", "row"]

#: The failing verdicts of the last ``ci`` survey of the CPU frontends (signature,
#: backend, notes), kept to check that no row is a catch-all (see
#: ``root_causes``). Rewrite it from a survey's findings.json with
#: ``python -m suites.known SURVEY_DIR/findings.json``.
SURVEY = Path(__file__).with_name("ci-survey.json")

TVM = ("tvm-ep", "tvm-fx", "tvm-dynamo")
#: The CPU plugin's inference precisions (f32, bf16, f16; i32): the documented reason for two rows.
_OPENVINO_CPU_PRECISIONS = ("https://docs.openvino.ai/2024/openvino-workflow/running-inference/"
                            "inference-devices-and-modes/cpu-device.html")
TRT = ("trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved")
# The TensorRT paths through torch.export (torch.compile keeps None and constants out).
TRT_EXPORT_PATHS = ("trt-dynamo", "trt-exported-program", "trt-saved")


@dataclass(frozen=True)
class Known:
    id: str
    backends: tuple[str, ...]
    kind: str  # "unsupported" | "bug" | "documented"
    pattern: str
    reason: str
    link: str = ""
    #: Stages the row applies to; empty = any stage.
    stages: tuple[str, ...] = ()
    #: A regex one of the verdict's notes (what the adapter saw) must match; empty = any.
    note: str = ""
    #: Why a ``bug`` row of a CPU frontend has no corpus entry (the generator no longer
    #: reaches it, say); empty = it has one (see ``rows_without_entry`` in the corpus).
    no_entry: str = ""

    def matches(self, verdict: Verdict) -> bool:
        if self.backends != ("*",) and verdict.backend not in self.backends:
            return False
        signature = verdict.as_signature()  # computed once: this runs for every row on every case
        # relax_dynamo and the like import and build inside dynamo's backend call: an error
        # wrapped in BackendCompilerFailed is matched on the inner error, at any stage.
        if self.stages and verdict.stage not in self.stages and not signature.wrapped:
            return False
        if self.kind == "unsupported" and verdict.outcome not in ("crash", "unsupported") and not (
                verdict.outcome == "mismatch" and _only_lost_mutations(verdict)):
            return False
        if self.note and not any(re.search(self.note, n) for n in verdict.notes):
            return False
        signatures = [signature]
        if signature.wrapped:  # as if the stage inside the backend call had raised the inner error
            signatures = [signature.unwrapped(stage) for stage in self.stages or (verdict.stage, "import", "build", "run")]
        return any(re.search(self.pattern, str(s)) for s in signatures)


#: A mutation never applied: the state left as it was, or a later read of it returning
#: the old contents (matched on the ops of ``strategies.ops.state``).
_STATE_NOT_UPDATED = r"/mismatch/(state mutation_lost( 0-d)?|values: \w+) @(buffer_update|input_update|counter)"


def _only_lost_mutations(verdict: Verdict) -> bool:
    """Every difference is a mutation not written back: a frontend that documents that it
    drops mutations is then within its promise (an ``unsupported`` row may say so)."""
    return bool(verdict.differences) and all(d["kind"] == "mutation_lost" for d in verdict.differences)


KNOWN: tuple[Known, ...] = (
    # -- not frontend bugs: PyTorch itself refuses ---------------------------------------
    Known("export-unregistered-dict-subclass", ("*",), "unsupported",
          r"Found <class '[\w.]*PlainDictSubclass'> in output, which is not a known type",
          "torch.export rejects a dict subclass not registered with pytree; eager accepts it. "
          "Not a frontend bug (the TensorRT paths export inside their compile stage).",
          "https://github.com/pytorch/pytorch/issues/94497"),
    # -- TVM: documented gaps, rejected cleanly at import time ----------------------------
    Known("tvm-fx-container-constructor", ("tvm-fx",), "unsupported",
          r"Unsupported function types \[.*'(PlainDictSubclass|ModelOutput|Output\w*)'",
          "from_fx sees a namedtuple / dict subclass constructor as a call it cannot convert.",
          "", ("import",)),
    Known("tvm-unsupported-op", TVM, "unsupported", r"AssertionError: Unsupported (function (types|target)|module type)",
          "The importer has no converter for this aten op, function or module (from_fx: nn.LSTM), and says so.", "",
          ("import",)),
    Known("tvm-ep-python-scalar-output", ("tvm-ep",), "unsupported",
          r"Unsupported output type in exported graph output: <class '(int|float|bool)'>",
          "from_exported_program rejects Python int/float/bool outputs (constants, x.shape[d]).",
          "", ("import", "import@dynamic")),
    Known("tvm-fx-low-precision-params", ("tvm-fx",), "unsupported",
          r"Unsupported data type for model parameters: (bfloat|float)N",
          "from_fx rejects float16/bfloat16 parameters with a clear message.", "", ("import",)),
    # -- TVM: known bugs (crashes) ----------------------------------------------------------
    Known("tvm-ep-no-tensor-output", ("tvm-ep",), "bug", r"Exported graph produced no Relax outputs",
          "A model whose output has no tensor (`return ()`, `return {}`, `return None`) cannot be "
          "imported; eager and torch.export accept it.", ''),
    Known("tvm-zero-size-input-strides", TVM, "bug", r"Mismatched [\w.]*strides on argument",
          "A contiguous torch tensor with a 0-size dim is rejected at call time: DLPack's strides "
          "for 0-size dims are not the compact ones TVM checks for."),
    Known("tvm-fx-dict-output", ("tvm-fx",), "bug", r"but got `(ffi\.Map|Array\[index N: ffi\.Map)",
          "from_fx crashes with an FFI type error on any dict (or OrderedDict / ModelOutput) output.",
          ''),
    Known("tvm-binary-op-no-type-promotion", TVM, "bug",
          r"Binary operators must have the same datatype for both operands",
          "Mixed-dtype arithmetic (e.g. uint8 // int16, float + bfloat16 constant) is not promoted as "
          "PyTorch promotes; the importer emits an ill-typed op."),
    Known("tvm-tuple-struct-info", TVM, "bug", r"The type of Tuple must be TupleType",
          "InternalError on a single (or aliased) output with no_bind_return_tuple / unwrap options.",
          ''),
    Known("tvm-bool-scalar-build", TVM, "bug",
          r"(LLVM module verification failed|MatchesCode\(DLDataTypeCode::kDLFloat\))",
          "Build fails on graphs of bool values (comparisons of 0-d/bool inputs, bool parameters)."),
    Known("tvm-zero-size-build", TVM, "bug", r"IndexError: Index N out of bounds N",
          "Build (or import) fails with an IndexError on ops over 0-size dims (cumsum, views of empty tensors, an "
          "embedding of an empty index)."),
    Known("tvm-int-float-scalar-truncated-divide-by-zero", TVM, "bug",
          r"InternalError: Check failed: pb->value != N \(N vs\. N\) : Divide by zero",
          "An integer tensor divided (/, //, %) by a Python float below 1 fails the build: the scalar is cast to the "
          "tensor's integer dtype, 0.75 becomes 0, and the arithmetic simplifier stops on the division by zero. "
          "Eager promotes to float (uint8 // 0.75 is a float32 tensor)."),
    Known("tvm-zero-size-matmul-reshape", TVM, "bug", r"Reshape expects the new shape to be convertible",
          "matmul over a 0-size inner dim ((1, 0) @ (0, 1)) fails to build: a reshape from 0 to 1 elements."),
    Known("tvm-fx-unit-tuple-unwrapped", ("tvm-fx",), "documented",
          r"^tvm-fx/judge/mismatch/(container_type: (tuple|list)|arity)\b",
          "With unwrap_unit_return_tuple=True, a 1-tuple or 1-list the model returns comes back as the bare value "
          "from from_fx: what the option is documented to do (from_fx's docstring: 'A boolean flag indicating if to "
          "the return value when it is an unit tuple'). The bare value is a tensor (container_type) or, where the "
          "unit tuple held a tuple, that tuple (arity). The suite draws the option; a user who sets it gets the "
          "bare value.",
          "https://github.com/apache/tvm/blob/main/python/tvm/relax/frontend/torch/fx_translator.py", (),
          r"^unwrap_unit_return_tuple: "),
    Known("tvm-layer-norm-low-precision", TVM, "bug", r"layer_norm: only support float",
          "InternalError at build for LayerNorm in bfloat16/float64 instead of a clean rejection."),
    Known("tvm-dynamo-graph-without-inputs", ("tvm-dynamo",), "bug", r"/crash/AssertionError: ?$",
          "A graph that reads no input (a constant output) fails relax_dynamo's `assert len(example_inputs)` "
          "(tvm/relax/frontend/torch/dynamo.py, _relax_backend); eager and Inductor run it."),
    Known("tvm-cumsum-empty-segfault", TVM, "bug",
          r"WorkerDied: the worker process died: signal SIG(SEGV|ABRT) @(\w+\+)*(cumsum|cumprod)(\+\w+)* on [\w/]+ 0-size",
          "cumsum or cumprod along a 0-length axis (x.cumprod(dim=0) of a (0, 1, 9, 3) tensor) writes out of "
          "bounds: topi.scan's CPU kernel stores out[base] = data[base] for every row before its loop over the "
          "axis, even when the axis is empty, corrupting the heap. The process dies with SIGSEGV or SIGABRT "
          "(malloc_consolidate: unaligned fastbin chunk), at once or in a later case (all three frontends) "
          "(corpus tvm-dynamo-e4550c1dd2)."),
    Known("tvm-sign-unsigned-build", TVM, "bug",
          r"/build/crash/InternalError: Check failed: \(value >= N\) is false: cannot make uint from negative value -N",
          "torch.sign of a uint8 tensor (uint8 in eager: 0 or 1) fails the build: topi.sign makes a -1 constant of "
          "the input's dtype, and -1 is no uint8 (the bool case is tvm-sign-bool-build).", "", ("build",)),
    Known("tvm-clamp-tensor-bound-broadcast", TVM, "bug",
          r"ValueError: broadcast_to expects the input (tensor shape is broadcastable to the target "
          r"shape\. The target shape at dim N is T\.intN\(N\) while the input tensor shape at dim N is T\.intN\(N\), "
          r"which are not equal|shape to have the number of ndim at least as the input tensor's)",
          "torch.clamp(x, min=t, max=t) with a tensor bound of a larger broadcast shape than x ((2, 1) clamped by "
          "(1, 3) is (2, 3) in eager) fails the import: the clamp/clamp_min/clamp_max converter broadcasts the "
          "bound to x's shape instead of the common shape.", "", ("import",)),
    Known("tvm-fx-interpolate-3d", ("tvm-fx", "tvm-dynamo"), "bug",
          r"ValueError: In ir\.Op\(relax\.image\.resizeNd\), layout NCHW requires the input to be "
          r"N-dim tensor\. However, the given input has ndim N",
          "F.interpolate of a 3-D (N, C, W) tensor fails the import on the FX paths: from_fx's interpolate converter "
          "emits resize3d for a 5-D input and resize2d (NCHW, 4-D only) for every other rank. "
          "from_exported_program, which sees upsample_nearest1d, runs it.", "", ("import",)),
    Known("tvm-fx-roll-zero-size", ("tvm-fx", "tvm-dynamo"), "bug", r"/crash/ZeroDivisionError: integer modulo by zero$",
          "torch.roll(x, 1, 0) of a tensor with a 0-size dim (eager returns it unchanged) fails the import on the FX "
          "paths: the roll converter takes the shift modulo the dim's size, 0. from_exported_program runs it.",
          "", ("import",)),
    Known("tvm-dynamo-argsort-zero-dim-segfault", ("tvm-dynamo",), "bug",
          r"/crash/WorkerDied: the worker process died: signal SIGSEGV @argsort on \w+$",
          "torch.argsort of a 0-d tensor (eager: tensor(0)) kills the process with SIGSEGV in relax_dynamo's "
          "compiled module; from_fx runs it, and from_exported_program rejects sort.stable cleanly."),
    Known("tvm-ep-none-input", ("tvm-ep",), "bug",
          r"^tvm-ep/import/crash/ValueError: Cannot determine shape and dtype for input \"\w+\"$",
          "A model called with a None argument (model(ids, attention_mask=None)) fails from_exported_program's "
          "import: torch.export keeps None as a ConstantArgument user input (specialised, its placeholder unused), "
          "and create_input_vars (exported_program_translator.py) makes a tensor input of every USER_INPUT "
          "placeholder from its meta value, which is None here. Eager, torch.export, Inductor and ONNX Runtime run "
          "it. A Python number argument fails in the same loop (tvm-ep-number-input).", "", ("import",)),
    Known("tvm-ep-number-input", ("tvm-ep",), "bug",
          r"^tvm-ep/import/crash/AttributeError: '(bool|int|float)' object has no attribute 'shape'$",
          "A model called with a bool, int or float argument (return_dict=True, a scale) fails from_exported_program's "
          "import: torch.export specialises it as a ConstantArgument user input, and create_input_vars "
          "(exported_program_translator.py) reads the .shape of every USER_INPUT placeholder's meta value, here a "
          "Python number. The None case is tvm-ep-none-input.", "", ("import",)),
    Known("tvm-ep-group-norm-bfloat16", ("tvm-ep",), "bug",
          r"/import/crash/TypeError: ir\.Op\(relax\.nn\.group_norm\) expects that data must be float, but got "
          r"T\.bfloatN$",
          "torch.nn.GroupNorm in bfloat16 (GroupNorm(1, 2, dtype=bfloat16) of a (1, 2) tensor; eager computes it) "
          "fails from_exported_program's import: the native_group_norm converter passes the bfloat16 tensor to "
          "relax.op.nn.group_norm, whose struct-info check accepts only float dtypes and does not count bfloat16 "
          "as one. float16/float32/float64 import. from_fx rejects bfloat16 parameters first "
          "(tvm-fx-low-precision-params); relax_dynamo has no group_norm converter (tvm-unsupported-op).",
          "", ("import",)),
    # -- TVM: known bugs (silently wrong results) -------------------------------------------
    Known("tvm-int-reduction-not-promoted", TVM, "bug",
          r"dtype: torch\.int64 -> torch\.\w+ @(sum|prod|cumsum|cumprod)|^tvm-ep/judge/mismatch/dtype: torch\.int64 -> "
          r"torch\.u?int(8|16|32) @split_heads$",
          "sum/prod/cumsum/cumprod of bool or small ints keep the input dtype; PyTorch returns int64. A cumsum "
          "reshaped to (*x.shape[:-1], 2, -1) is named by the reshape (@split_heads) where the harness's probe of the "
          "cumsum alone crashed under the drawn importer options (no_bind_return_tuple, unwrap_unit_return_tuple): "
          "the same cause (once the row tvm-ep-cumsum-split-heads-dtype).",
          "https://github.com/apache/tvm/pull/20374"),
    Known("tvm-arith-result-not-promoted", TVM, "bug",
          r"dtype: torch\.\w+ -> torch\.\w+ @(add_scalar|sub_scalar|mul_scalar|floordiv_scalar|mod_scalar)$",
          "Arithmetic with a Python scalar of a higher category returns the tensor's dtype instead of PyTorch's "
          "promoted one (uint8 + 2.5 comes back uint8, int64 // 2.5 int64, int16 % -1.25 int16, mask % 2 bool, "
          "int32 * 2.5 int32): _binary_op builds the scalar in the tensor's own dtype. Silently wrong values. "
          "(A tensor-tensor op's dtype is another cause, not this row's.)",
          "https://github.com/apache/tvm/pull/20372"),
    Known("tvm-bitwise-zero-dim-promotion", TVM, "bug",
          r"dtype: torch\.\w+ -> torch\.\w+ @bitwise_(and|or|xor)",
          "A 0-d integer tensor widens the result of a bitwise op with a dimensioned one: int8[1] & "
          "int16[] is int8 in PyTorch (a 0-d operand of the same category does not promote), TVM "
          "returns int16.", "https://github.com/apache/tvm/pull/20405"),
    Known("tvm-any-not-bool", TVM, "bug", r"dtype: torch\.bool -> torch\.\w+ @any$",
          "any of a non-bool tensor returns its maximum in the input's dtype (x.any(0) of a float32 tensor comes "
          "back float32, the column maxima): the _any converter emits relax.op.max and casts to bool only when "
          "the input is bool already. PyTorch returns bool. (Once tvm-reduction-dtype, which also claimed "
          "all/amax/argmax/mean without a case of them.)", "https://github.com/apache/tvm/pull/20376"),
    Known("tvm-float64-narrowed", TVM, "bug", r"dtype: torch\.float64 -> torch\.float32",
          "float64 results come back float32 (linear/matmul/true_divide in float64)."),
    Known("tvm-low-precision-widened", TVM, "bug", r"dtype: torch\.(float16|bfloat16) -> torch\.float32",
          "float16/bfloat16 results come back float32 (linear in half precision)."),
    Known("tvm-select-view-shape", TVM, "bug", r"/mismatch/shape( 0-d)? @view",
          "x[0] on a dim of size 1 comes back unsliced: shape (1, 3, 3, 2) where eager gives "
          "(3, 3, 2). Silently wrong shape."),
    Known("tvm-bfloat16-constant", TVM, "bug", r"Got unsupported ScalarType BFloatN",
          "A bfloat16 constant or parameter crashes the importer (it goes through numpy, which has "
          "no bfloat16)."),
    Known("tvm-fx-python-bool-as-int", ("tvm-fx",), "bug", r"leaf_type: bool \w+ -> int",
          "A Python bool output comes back as an int."),
    # -- TVM: found by the value domains and state --------------------------------------------
    Known("tvm-ep-mutations-dropped", ("tvm-ep",), "unsupported", r"/mismatch/state mutation_lost( 0-d)? @",
          "Buffer and input mutations are not written back, as documented: from_exported_program returns only the "
          "user outputs ('Only user-facing outputs should be returned', exported_program_translator.py, "
          "ExportedProgramImporter.from_exported_program) and binds buffers as constants. Matches only a mismatch "
          "whose every difference is a lost mutation."),
    Known("tvm-ep-mutation-returned-as-output", ("tvm-ep",), "bug",
          r"^tvm-ep/judge/mismatch/(container_type: \w+( -> tuple)?|arity)$",
          "A forward that mutates a buffer or an input and returns no tensor (`return OrderedDict()`, `return ()`) "
          "comes back as a tuple holding the mutated value, or as the bare value: with no user output left, the "
          "importer returns the "
          "mutation outputs it otherwise drops. Matched only where the adapter saw leaves come back from an export "
          "whose out_spec has none.", note=r"^returned [1-9]\d* leaves, the export's out_spec has 0$"),
    Known("tvm-ep-slice-assign-not-written-back", ("tvm-ep",), "bug", r"^tvm-ep/judge/mismatch/values: \w+ @buffer_update$",
          "With run_ep_decomposition=False, a slice assignment into a buffer and a read of the buffer after it "
          "(`self.s[:, 0:1] = x; return self.s`, s zeros of shape (2, 2), x = [[1], [2]]: eager returns "
          "[[1, 0], [2, 0]]) return the buffer's old contents ([[0, 0], [0, 0]]). The undecomposed export has "
          "aten.slice and aten.copy_ on that view; the importer's _copy_ (base_fx_graph_translator.py) only rebinds "
          "the slice node to the source, so the base tensor never sees the write (a local `t = x.clone(); "
          "t[:, 0:1] = y; return t` comes back unchanged too). With the default decomposition (slice_scatter) the "
          "output is right; the buffer itself not being updated is tvm-ep-mutations-dropped."),
    Known("tvm-fx-var-std-no-correction", ("tvm-fx", "tvm-dynamo"), "bug", r"/mismatch/values: float\d+ @(var|std)$",
          "torch.var and torch.std ignore Bessel's correction on the FX paths: var([1, 2, 4]) comes back 1.5556 "
          "(the population variance), PyTorch's default (correction=1) is 2.3333. from_exported_program, which "
          "sees the decomposed ops, gets it right. Found by the float64 precision benchmark."),
    Known("tvm-fx-inplace-ops-rebound", ("tvm-fx",), "bug",
          _STATE_NOT_UPDATED,
          "from_fx converts the in-place ops it maps (copy_, clamp_, iadd on a buffer) into new values: the buffer "
          "or input is never updated, and a later read of it in the same forward (`self.s.copy_(x); return "
          "self.s`) returns the old contents. Undocumented; silently wrong output and state."),
    Known("tvm-dynamo-inplace-ops-eliminated", ("tvm-dynamo",), "bug",
          _STATE_NOT_UPDATED,
          "relax_dynamo drops in-place updates of buffers and inputs: its backend runs "
          "graph.eliminate_dead_code(), which deletes add_/mul_/clamp_ nodes whose result is unused, so the state "
          "is never updated and a later read returns the old contents. torch.compile promises eager semantics."),
    Known("tvm-fx-python-float-through-float32", ("tvm-fx",), "bug", r"/mismatch/values @const_float",
          "A Python float output comes back rounded through float32 (0.1 returns 0.10000000149011612)."),
    Known("tvm-fx-narrow-length-as-end", TVM, "bug",
          r"(Input \[Begin=N, End=N\] is invalid for axis=N|/mismatch/(shape( 0-d)?|values: \w+) @narrow"
          r"|the second input shape at dim N is T\.intN\(-N\))",
          "x.narrow(dim, start, length) is converted as a slice from start to `length` (an end index): wrong values "
          "where start > 0, a build failure where length < start, and a negative dim seen by the next op. Both "
          "_narrow converters (fx_translator.py, which relax_dynamo uses too, and exported_program_translator.py) "
          "emit relax.op.strided_slice(x, [dim], [start], [length]); from_exported_program meets it only with "
          "run_ep_decomposition=False (the decomposition turns narrow into a slice)."),
    # -- TVM: found by the program generator ------------------------------------------------
    Known("tvm-unary-float-op-int-input", TVM, "bug",
          r"TypeError: ir\.Op\(relax\.\w+\) requires the input tensor to have float dtype",
          "A unary float function (log, log1p, sigmoid, cos, erf, ...) of an int or bool tensor fails the import: "
          "PyTorch computes it in float32, the importer emits the Relax op on the integer tensor as it is.",
          "", ("import",)),
    Known("tvm-int-true-divide-not-promoted", TVM, "bug",
          r"/mismatch/dtype: torch\.float32 -> torch\.(int\d+|uint8|bool) @(div|div_scalar|true_div)",
          "True division of integers or bools (`torch.div(a, b)`, `2 / x`, `mask / 1`) comes back integer or bool: "
          "PyTorch returns float32 (true division promotes to the default float). Silently wrong dtype and values.", "https://github.com/apache/tvm/pull/20373"),
    # -- TVM: found by the size class and the NaN classes -------------------------------------
    Known("tvm-max-min-nan-lost", TVM, "bug", r"/mismatch/values: \w+ NaN lost @(relu|clamp|maximum|minimum)$",
          "relu, clamp, maximum and minimum turn NaN into a number in every float dtype: relu(NaN) is 0, "
          "maximum(NaN, 1) is 1. The Relax max/min lowerings drop NaN; PyTorch propagates it (torch.maximum: "
          "'If one of the elements being compared is a NaN, then that element is returned'). Silently wrong values.", "https://github.com/apache/tvm/issues/19579"),
    Known("tvm-bool-true-divide-then-abs-build", TVM, "bug",
          r"/build/crash/InternalError: Data type T\.bool not supported for absolute op",
          "abs (or norm(p=1)) of a bool tensor divided by a Python number (`(mask / -2).abs()`) fails the build: "
          "the true division is not promoted to float (see tvm-int-true-divide-not-promoted), so abs is emitted "
          "on a bool tensor. Eager computes it in float32.", "https://github.com/apache/tvm/pull/20373"),
    Known("tvm-bool-div-mode-then-logical-build", TVM, "bug",
          r"/build/crash/InternalError: Check failed: \((lhs|rhs|arg)\.ty\(\)\.MatchesCode\([\w:, ]+\)\) is false: "
          r"Expected (boolean|integer) argument (as [LR]HS of|for) \S+ operator \((logical (OR|AND|NOT)|bitwise XOR)\), "
          r"but received T\.te\.tensor_load",
          "torch.div(mask, x, rounding_mode='trunc' or 'floor') of a bool tensor by a float tensor (float32 in "
          "eager), then logical_or / logical_and / logical_xor / logical_not of it, fails the build "
          "(`torch.logical_or(torch.div(torch.tensor(True), x, rounding_mode='trunc'), x)`; eager gives a bool "
          "tensor): the importer's _div emits relax.op.divide / floor_divide on the bool and float operands "
          "unpromoted, Relax infers the result bool (the lhs's dtype) while the legalized kernel computes in float, "
          "and the logical op, which casts only operands not already typed bool, gets a float operand: "
          "tvm::logical_or's boolean check fails. The division alone runs and is right; an int numerator fails at "
          "import (tvm-binary-op-no-type-promotion).", "", ("build",)),
    Known("tvm-finiteness-op-dtype", TVM, "bug",
          r"/build/crash/InternalError: Data type T\.\w+ not supported for (finiteness ops|isnan op|isinf op)",
          "isfinite/isnan/isinf of a bool or bfloat16 tensor fails the build with an InternalError (the legalization "
          "has no path for them); eager returns a bool tensor."),
    Known("tvm-clamp-one-sided-int", TVM, "bug", r"/build/crash/RuntimeError: Cannot convert infinity to BigInt",
          "clamp(min=k) of an integer tensor (no max) fails the build: the importer fills the missing bound with inf."),
    Known("tvm-fx-sdpa-3d", TVM, "unsupported",
          r"ValueError: scaled_dot_product_attention expects ND or ND inputs, but got ND input",
          "The scaled_dot_product_attention converter (from_fx's and from_exported_program's) takes 2-D or 4-D "
          "inputs only and says so; PyTorch takes 3-D (batch, sequence, features) too.", "", ("import",)),
    Known("tvm-fx-uint8-negative-scalar", TVM, "bug", r"OverflowError: Python integer -N out of bounds for uintN",
          "A uint8 tensor with a negative Python scalar (`-1.25 <= x`, `x + -2`, which wraps in eager) fails the "
          "import: the scalar is made a uint8 constant; PyTorch compares in float and adds modulo 256.",
          "https://github.com/apache/tvm/pull/20372", ("import",)),
    Known("tvm-fx-where-python-scalar", ("tvm-fx", "tvm-dynamo"), "bug", r"/import/crash/KeyError: (True|False|-?N(\.N)?)$",
          "torch.where(c, x, 1) (or where(c, True, c)) with a Python scalar branch fails the import: from_fx's _where "
          "converter (base_fx_graph_translator.py, which relax_dynamo uses too, wrapped in BackendCompilerFailed) looks "
          "the scalar up among the graph's nodes (self.env[node.args[1]]).", "", ("import",)),
    Known("tvm-fx-min-max-dim-unpack", ("tvm-fx", "tvm-dynamo"), "bug",
          r"/import/crash/ValueError: not enough values to unpack \(expected N, got N\)",
          "torch.min(x, dim=d) / torch.max(x, dim=d) (a (values, indices) structseq) fails the import: the converter "
          "returns one value where the graph unpacks two.", "", ("import",)),
    Known("tvm-sort-small-int", TVM, "bug", r"/(run|compile-on-call)/crash/InternalError: Unsupported input dtype: u?intN",
          "argsort/sort of an int16 or uint8 tensor builds, then fails when called: the sort kernel has no path for "
          "those dtypes.", "", ("run", "compile-on-call")),
    Known("tvm-power-bfloat16", TVM, "bug", r"/build/crash/InternalError: Check failed: \(IsFloatType\(x\.ty\(\)\)\) "
          r"is false: power only applies to float",
          "A power of a bfloat16 tensor (`2 ** x`) fails the build: the power op does not count bfloat16 as a float."),
    Known("tvm-interpolate-values", TVM, "bug", r"/mismatch/values: \w+ @interpolate",
          "F.interpolate(scale_factor=2) comes back with wrong values (seen: mode='nearest' on bfloat16 through "
          "relax_dynamo): the resize picks other source pixels than PyTorch's floor(dst / scale)."),
    Known("tvm-softmax-zero-dim", TVM, "bug",
          r"/import/crash/ValueError: In ir\.Op\(relax\.nn\.(log_)?softmax\), the input axis -?N is out of range",
          "softmax/log_softmax of a 0-d tensor (dim=0 or dim=-1) fails the import: Relax's NormalizeAxes allows no "
          "axis on a rank-0 tensor; PyTorch takes dim 0 (or -1) of a 0-d tensor.",
          "", ("import",)),
    Known("tvm-where-bool-branch-not-promoted", TVM, "bug",
          r"/build/crash/InternalError: Check failed: x->dtype == y->dtype \((T\.\w+ vs\. T\.bool|T\.bool vs\. T\.\w+)\) : "
          r"x and y must have the same dtype",
          "torch.where(c, x, mask) with one bool branch and one int or float branch (int8 in eager) fails the "
          "build: the importer emits R.where without promoting the branches, Relax's dtype inference lets a bool "
          "operand through, and topi::where (topi/transform.h, the one place of this message) then requires equal "
          "dtypes. Both branches non-bool is tvm-binary-op-no-type-promotion (it fails at import).",
          "", ("build",)),
    Known("tvm-stack-cat-no-type-promotion", TVM, "bug",
          r"/import/crash/TypeError: (Stack|Concat) expects all input tensors to have the same dtype",
          "torch.stack / torch.cat of tensors of two dtypes (int32 with bfloat16, bool with float32) fails the "
          "import: the converter emits R.stack / R.concat on the tensors as they are, where PyTorch promotes them "
          "(bfloat16). from_fx and relax_dynamo say Stack, from_exported_program (stack is decomposed to cat) "
          "says Concat.",
          "", ("import",)),
    Known("tvm-scalar-mod-bool-not-promoted", TVM, "bug",
          r"/import/crash/TypeError: Softmax requires the input tensor to have float dtype\. However, the given input "
          r"dtype is T\.bool",
          "`2.5 % mask` (a Python float modulo a bool tensor) stays bool in the importer where PyTorch gives float32; "
          "the softmax after it then fails the import.", "https://github.com/apache/tvm/pull/20372", ("import",)),
    # -- TVM: found by the deep programs, wrap-around and bool ops (issue 24) ---------------------
    Known("tvm-sign-bool-build", TVM, "bug",
          r"/build/crash/ValueError: Check failed: \(value == N \|\| value == N\) is false: -N exceeds range of bool",
          "torch.sign of a bool tensor (bool in eager: sign(True) is True) fails the build: the lowering makes a "
          "-1 constant of the input's dtype, and -1 is no bool.", "", ("build",)),
    Known("tvm-div-mode-scalar-int32", TVM, "bug", r"/mismatch/dtype: torch\.int64 -> torch\.int32 @div_mode_scalar$",
          "torch.div(mask, 1, rounding_mode='floor') of a bool tensor by a Python int comes back int32; PyTorch "
          "promotes bool with an int scalar to int64. Silently wrong dtype."),
    Known("tvm-sort-zero-dim", ("tvm-fx", "tvm-dynamo"), "bug",
          r"/import/crash/ValueError: GatherElements requires axis to be within the input dimension range \[N, -N\]",
          "torch.sort of a 0-d tensor (dim=-1) fails the import: the sort converter from_fx and relax_dynamo share "
          "(base_fx_graph_translator.py _sort: argsort, then gather_elements) gathers along axis -1 of a 0-d "
          "tensor; PyTorch sorts a 0-d tensor as itself. (Once two rows, tvm-fx-sort-zero-dim and "
          "tvm-dynamo-sort-gather-axis: the same reproducer through the one converter.)", "", ("import",)),
    Known("tvm-dynamo-round-int-constant", ("tvm-dynamo",), "bug",
          r"/crash/ValueError: torch\.tensor with value not a float or int is not accepted",
          "A graph of an int32 input through round(), a buffer add and casts to float16 fails relax_dynamo's "
          "compile: a constant is built with torch.tensor of a value that is neither float nor int.",
          "", ("import", "build")),
    Known("tvm-attention-values", ("tvm-ep", "tvm-dynamo"), "bug",
          r"/mismatch/values: float(32|64) @cross_attention$",
          "scaled_dot_product_attention of 2-D inputs (softmax(q k^T / sqrt(d)) v, no buffer involved) comes back "
          "wrong, far past the op's error bound, in float32 and float64, on from_exported_program and relax_dynamo "
          "alike: q = zeros(2, 1), k = v = [[1], [0]] gives v itself ([[1], [0]]) where eager gives [[0.5], [0.5]]. "
          "The converter lays 2-D inputs out so that each query attends only to itself."),
    Known("tvm-compare-zero-dim-operand-promoted", TVM, "bug", r"/mismatch/values: bool( 0-d)? @(lt|le|gt|ge|eq|ne)$",
          "A comparison of a dimensioned integer tensor with a 0-d tensor of a wider integer dtype (`x1 <= x` with x "
          "uint8 and x1 an int64 0-d tensor of -1) compares in the wider dtype: PyTorch's result type is uint8 (a 0-d "
          "operand of the same category does not promote), so eager compares 255 <= x; TVM compares -1 <= x and returns "
          "True everywhere. _binary_op's _promote_common_dtype (base_fx_graph_translator.py) uses "
          "torch.promote_types on the dtypes alone, ignoring rank. Silently wrong values.", "https://github.com/apache/tvm/pull/20405"),
    Known("tvm-compare-int-float-scalar-truncated", TVM, "bug", r"/mismatch/values: bool( 0-d)? @compare_scalar$",
          "An integer tensor compared with a float Python scalar (`x < 2.5`, `x >= 1.5` on int32) compares against the "
          "scalar truncated to the tensor's dtype: 2 < 2.5 comes back False, 1 >= 1.5 True. _binary_op makes the "
          "scalar a relax.const of the tensor's dtype (base_fx_graph_translator.py); PyTorch compares in float. "
          "Silently wrong values.", "https://github.com/apache/tvm/pull/20372"),
    Known("tvm-int-mod-float-scalar-zero-divisor", TVM, "bug",
          r"/crash/InternalError: Check failed: \(!divisor\.is_const\(N\)\) is false: Find divide by zero$",
          "An integer tensor modulo a float Python scalar below 1 (`x % 0.1` of a uint8 tensor; eager promotes to "
          "float32 and returns 0.1) fails the build: _binary_op makes the scalar a constant of the tensor's dtype, 0, "
          "and the arithmetic simplifier rejects the floor_mod by the constant 0. The wrong-dtype result of a "
          "non-zero scalar is tvm-arith-result-not-promoted.", "https://github.com/apache/tvm/pull/20372", ("build",)),
    Known("tvm-fx-inplace-op-result-dtype", ("tvm-fx", "tvm-dynamo"), "bug",
          r"/mismatch/dtype: torch\.\w+ -> torch\.\w+ @(input_update|buffer_update)$",
          "An in-place arithmetic op whose other operand has a wider dtype (`x += y` with x int8 and y an int64 0-d "
          "or int16 tensor, float32 += float64) returns the promoted dtype (int64, int16, float64): the FX paths convert "
          "iadd as a promoting add (fx_translator.py, \"iadd\": _binary_op(relax.op.add)) and never cast the result "
          "back to self's dtype, which an in-place op keeps in eager."),
    Known("tvm-fx-argsort-bfloat16", ("tvm-fx", "tvm-dynamo"), "bug",
          r"/mismatch/values: (int64( 0-d)? @argsort|bfloat16( 0-d)? @sort)$",
          "torch.argsort of a bfloat16 tensor returns indices that do not sort it, and differ from call to call (the "
          "argsort of [1, 1, 1, 0, 1, 0, 0, 1] along its only dim comes back [7, 6, 1, 2, 5, 3, 0, 4]; eager "
          "[3, 5, 6, 0, 1, 2, 4, 7]; a stable argsort of eight equal values comes back [4, 7, 6, 5, 0, 1, 2, 3], eager "
          "[0, ..., 7]); float32 is right. Seen through relax_dynamo (the _argsort converter, shared "
          "with from_fx; from_exported_program rejects argsort.stable). torch.sort goes through the same argsort "
          "(base_fx_graph_translator.py _sort: relax.op.argsort, then gather_elements), so a bfloat16 sort comes "
          "back unsorted: sort of [[3, 1, 2], [0.5, -1, 2.5]] along dim 1, descending, gives values "
          "[[2, 3, 1], [0.5, -1, 2.5]], eager [[3, 2, 1], [2.5, 0.5, -1]]; float32 and float16 are right."),
    Known("tvm-true-divide-then-leaky-relu-import", TVM, "bug",
          r"TypeError: ir\.Op\(relax\.nn\.leakyrelu\) requires the input tensor to have float dtype",
          "leaky_relu of a true division of bool or integer tensors (`leaky_relu(torch.div(mask, mask + 1))`; eager "
          "divides in float32, and its leaky_relu takes float tensors only) fails the import: the division is not "
          "promoted to float (see tvm-int-true-divide-not-promoted), so relax.nn.leakyrelu gets a bool or integer "
          "tensor and rejects it.", "https://github.com/apache/tvm/pull/20373", ("import",)),
    Known("tvm-ep-group-norm-float64-build", ("tvm-ep",), "bug",
          r"/build/crash/InternalError: Check failed: \(data_type == PrimType::Float\(N\) \|\| data_type == "
          r"PrimType::Float\(N\)\) is false: group_norm: only support floatN and floatN for now$",
          "torch.nn.GroupNorm in float64 (GroupNorm(3, 3, dtype=float64) of a (3, 3, 1) tensor; eager computes it) "
          "fails relax.build with an InternalError: native_group_norm imports as relax.op.nn.group_norm, whose "
          "legalization calls topi's group_norm, which checks for float32/float16 (topi/nn/group_norm.h). No clean "
          "rejection at import. The bfloat16 case fails earlier (tvm-ep-group-norm-bfloat16); from_fx rejects float64 "
          "parameters (tvm-fx-low-precision-params).", "", ("build",)),
    Known("tvm-zero-size-transpose-reshape-rewrite", TVM, "bug",
          r"/build/crash/InternalError: Check failed: \(it != this->var_arg_map_\.end\(\)\) is false: "
          r"Var \w+ is not defined$",
          "A transpose or permute of some 0-size tensors (x.transpose(1, 2) of a (0, 2, 0) tensor, alone or before a "
          "matmul; eager returns an empty (0, 0, 2) tensor) fails relax.build in VM codegen: RewriteDataflowReshape takes the "
          "legalized transpose, whose loops run zero times, for a reshape, emits R.reshape(x, (0, 2, 2)) bound to a "
          "new var and leaves the original var unbound, so a later use of it is 'not defined'.", "", ("build",)),
    Known("tvm-ep-interpolate-5d-index-broadcast", ("tvm-ep",), "bug",
          r"/import/crash/ValueError: index_tensor: cannot broadcast index shapes\. Mismatch at axis N",
          "F.interpolate(mode='nearest') of a 5-D tensor whose batch or channel size is not 1 and differs from the "
          "output depth ((1, 3, 1, 1, 1) scaled by 2) fails from_exported_program's import: the decomposition "
          "indexes x[:, :, d, h, w] with index tensors of shapes (D, 1, 1), (H, 1), (W,), and _index_tensor "
          "(base_fx_graph_translator.py) replaces each None with arange(size).reshape(size, 1, 1), which broadcasts "
          "against the index tensors instead of standing for an outer dim. Eager returns (1, 3, 2, 2, 2).",
          "", ("import",)),
    Known("tvm-argmax-bfloat16-build", TVM, "bug",
          r"/build/crash/InternalError: Check failed: \(ffi::StructuralEqual\(\)\(value->ty, var->ty\)\) is false:",
          "argmax/argmin of a bfloat16 tensor (x.argmax(dim=0) of a (3, 3) bfloat16 tensor; eager returns int64 "
          "indices) fails relax.build: topi's argmax reducer binds the running maximum to a bfloat16 let-variable, "
          "and the TIR pass BF16ComputeLegalize rewrites its value to float32 without retyping the variable, so "
          "tirx::Bind's type check fails. float16/float32 build.", "", ("build",)),
    Known("export-decomposition-output-spec", ("tvm-ep", "onnx", "openvino"), "bug",
          r"SpecViolationError: User output \w+ is not in the correct order or is not found in the exported "
          r"program's user_output list",
          "A forward that updates a buffer in place twice (`self.s.copy_(a); ...; self.s.copy_(b)`) and returns "
          "values computed from it: the frontend's ExportedProgram.run_decompositions() leaves an output "
          "signature that torch.export's own verifier rejects. torch.export's bug, met through each frontend.",
          "", ("import", "convert", "onnx-export")),
    # -- Real architectures (strategies/architectures, suites/test_architectures.py) -----------
    Known("export-transformer-causal-mask-detection", ("reference", "tvm-ep", "onnx", "openvino"), "bug",
          r"/export/crash/GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq\(uN, N\) "
          r"\(unhinted: Eq\(uN, N\)\)",
          "nn.Transformer (and nn.TransformerDecoder) called with a tgt_mask cannot be exported: forward compares "
          "the mask with a generated causal one to set tgt_is_causal (_detect_is_causal_mask, "
          "bool((mask == causal).all())), a data-dependent branch torch.export refuses. Eager runs it; every "
          "frontend that starts from torch.export crashes. torch's bug (nn.Transformer is not exportable with "
          "the mask its documentation shows).",
          "https://github.com/pytorch/pytorch/issues/134616", ("export",)),
    Known("export-derived-root-suggestion-crash", ("reference", "tvm-ep", "onnx", "openvino"), "bug",
          r"/export@dynamic/crash/AssertionError: Cannot create Dim with inconsistent min=N, max=N$",
          "A program that pins a dynamic dimension to a multiple (torch.tensor_split(x, 3) over a dim declared "
          "Dim(min=3, max=4)) should fail torch.export with its constraint-violation report and suggested fixes; "
          "instead the report's own builder (DimConstraints.prettify_results -> _process_derived_dim_roots) creates "
          "Dim(root, min=k, max=k) for the single value left and Dim's check raises AssertionError. With min=2 the "
          "same program gets the proper UserError. torch.export's bug, met through each frontend that exports."),
    Known("export-decomposition-lifted-constant", ("tvm-ep", "onnx", "openvino"), "bug",
          r"SpecViolationError: Constant tensor lifted_tensor_N is not in the constants dictionary",
          "transformers' GPT-2 and Llama with use_cache=True export (a DynamicCache is built in forward, and "
          "GPT-2's attention lifts tensor constants), but the frontend's ExportedProgram.run_decompositions() "
          "returns a program whose signature names lifted constants its constants table lacks, and torch.export's "
          "own verifier rejects it. torch.export's bug, met through each frontend.",
          "https://github.com/pytorch/pytorch/issues/164461", ("import", "convert", "onnx-export")),
    Known("onnx-lstm-projection", ("onnx",), "bug",
          r"Fail: \[ONNXRuntimeError\] : N : FAIL : (Non-zero status code returned while running LSTM node\. .*"
          r"Input initial_c must have shape|Node \(node_Concat_N\) Op \(Concat\) \[ShapeInferenceError\] All "
          r"inputs to Concat must have same rank)",
          "nn.LSTM with proj_size > 0: ONNX's LSTM has no projection (one size for h, c and the output); the "
          "exported node takes proj_size as its hidden size yet is handed a cell state of hidden_size, and ONNX "
          "Runtime fails to load it (bidirectional: Concat of ranks 1 and 2) or to run it ('Input initial_c must "
          "have shape {1,1,4}. Actual:{1,1,8}'). Every LSTM with a projection; none without.",
          "https://onnx.ai/onnx/operators/onnx__LSTM.html", ("session", "run")),
    Known("tvm-fx-default-parameters", ("tvm-fx",), "bug", r"/import/crash/AssertionError: Provided inputs is less than "
          r"actual inputs",
          "torch.fx.symbolic_trace makes a placeholder of every forward parameter, those with a default too "
          "(TransformerDecoderLayer's tgt_mask=None ... tgt_is_causal=False, a model's state=None); from_fx wants "
          "an input_info entry for each and asserts instead of taking the placeholder's default. No "
          "nn.TransformerDecoderLayer imports.", "", ("import",)),
    Known("tvm-ep-rnn-final-state-is-sequence", ("tvm-ep",), "bug", r"/judge/mismatch/shape @(lstm|gru|tagger)$",
          "With run_ep_decomposition=False (the importer converts aten.lstm/aten.gru itself), nn.LSTM's and nn.GRU's "
          "final hidden state h_n comes back as the whole output sequence: shape (length, batch, hidden) for "
          "(layers, batch, hidden). Silently wrong for any sequence longer than 1; the default path (decomposed "
          "first) is right.", "", ("judge",)),
    Known("tvm-ep-multi-layer-rnn", ("tvm-ep",), "unsupported",
          r"/import/crash/NotImplementedError: Multi-layer (LSTM|GRU) is not yet supported",
          "With run_ep_decomposition=False the importer converts aten.lstm/aten.gru itself, for one layer only, "
          "and says so for more.",
          "https://github.com/apache/tvm/blob/main/python/tvm/relax/frontend/torch/exported_program_translator.py",
          ("import",)),
    Known("fx-symbolic-trace-limitations", ("tvm-fx",), "unsupported",
          r"/trace/crash/(TraceError: symbolically traced variables cannot be used as inputs to control flow|"
          r"TypeError: slice indices must be integers or None or have an __index__ method|"
          r"RuntimeError: input to _none_or_dtype\(\) must be None or torch\.Tensor|ValueError: vmap\(|"
          r"TypeError: ones\(\) takes N positional argument but N were given|"
          r"TypeError: torch\.finfo\(\) requires a floating point input type)",
          "torch.fx.symbolic_trace documents that it cannot trace Python control flow on traced values, nor "
          "Python-level use of them (a Proxy as a slice bound or a size, an isinstance check, torch.finfo of "
          "its dtype, vmap): nn.LSTM/GRU/RNN, "
          "nn.TransformerEncoderLayer and transformers' models are rejected at tracing, before TVM is reached.",
          "https://docs.pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing", ("trace",)),
    # -- Torch-TensorRT 2.14.0: from reading its source; confirmed or corrected by the GPU
    # -- nightly job (never run here: no GPU). ----------------------------------------------
    Known("trt-none-output", TRT_EXPORT_PATHS, "bug", r"/crash/AttributeError: 'NoneType' object has no attribute 'target'",
          "compile_module reads .target of every graph output, so a None output raises (fix PR #4640 open).",
          "https://github.com/pytorch/TensorRT/pull/4640"),
    Known("trt-literal-output", TRT_EXPORT_PATHS, "bug",
          r"/crash/AttributeError: '(int|float|bool)' object has no attribute 'target'",
          "A Python-constant output (x.shape[0]) hits the same unguarded output loop.",
          "https://github.com/pytorch/TensorRT/pull/4640"),
    Known("trt-scalar-output-as-tensor", TRT, "bug", r"/mismatch/leaf_type: (int|float|bool) .* -> Tensor",
          "A scalar (SymInt) computed in an engine comes back as a tensor (fixed on main by PR #4628, "
          "not in 2.14.0).", "https://github.com/pytorch/TensorRT/issues/4614"),
    Known("trt-sym-size-output-rank", TRT, "bug", r"/mismatch/shape 0-d( @|$)",
          "A sym_size output is bound at rank 1 ([1]) where eager has rank 0: any 0-d result that comes back "
          "with one dimension (the 0-d class of a shape mismatch; never run here: no GPU).",
          "https://github.com/pytorch/TensorRT/issues/4677"),
    Known("trt-float64-output-truncated", TRT, "bug", r"/mismatch/dtype: torch\.float64 -> torch\.float32",
          "Engine outputs are never float64 (fixed on main by PR #4630, not in 2.14.0).",
          "https://github.com/pytorch/TensorRT/issues/4624"),
    Known("trt-fast-partitioner-return-type", TRT_EXPORT_PATHS, "bug",
          r"/mismatch/(container_type: (tuple|list)( -> (tuple|list))?|leaf_type: Tensor)",
          "The return type changes with use_fast_partitioner: bare tensor vs 1-tuple.",
          "https://github.com/pytorch/TensorRT/issues/2647"),
    Known("trt-input-or-duplicate-output", TRT, "bug",
          r"/crash/.*(cannot be both input and output|differ from number of outputs|index out of range)",
          "Returning an input directly, or one output twice, fails.", "https://github.com/pytorch/TensorRT/issues/2561"),
    # -- Other CPU frontends (torch 2.13.0): Inductor; torch.onnx.export(dynamo=True) with
    # -- onnxscript 0.7.2 on onnxruntime 1.32.0; OpenVINO 2026.4.1. From the `ci` survey.
    Known("inductor-any-uint8-returns-bool", ("inductor",), "bug", r"/mismatch/dtype: torch\.uint8 -> torch\.bool @any",
          "any() of a uint8 tensor comes back bool; eager (and aot_eager) keep uint8. Inductor's own reduce_any "
          "lowering casts to bool.", "https://github.com/pytorch/pytorch/issues/198081"),
    Known("inductor-rank0-float64-mutation-lost", ("inductor",), "bug",
          r"^inductor/judge/mismatch/(state mutation_lost 0-d @(buffer_update|input_update|counter)"
          r"|values: float64( 0-d)? @buffer_update)$",
          "An in-place update of a 0-d float64 tensor, a buffer or an input (`self.s.add_(x)`, `x2.mul_(y)`), is lost: "
          "the buffer keeps its old value, and forward returning it returns the old value. float32 and int64 "
          "0-d tensors, and a float64 tensor of shape (1,), are fine, whatever forward returns (checked with "
          "buffer.add_(x) returning x or the buffer). aot_eager does the same: dynamo's tensorify_python_scalars "
          "pass turns the 0-d float64 tensor into a Python float, restarts the analysis "
          "(TensorifyScalarRestartAnalysis), and the restarted graph has no in-place op on it. (Once two rows, "
          "inductor-rank0-buffer-mutation-dropped and inductor-rank0-buffer-returned-stale.)"),
    Known("onnx-mutations-dropped", ("onnx",), "bug", r"/mismatch/state mutation_lost( 0-d)? @",
          "Buffer and input mutations are not written back: the exporter keeps only the user outputs and turns "
          "buffers into initializers (torch/onnx/_internal/exporter/_core.py: 'TODO: Decide if we should keep "
          "mutated buffers as inputs/outputs'). Undocumented in the exporter's documentation."),
    Known("onnx-python-scalar-output", ("onnx",), "bug",
          r"/onnx-export/crash/ConversionError: AttributeError: '(int|float|bool)' object has no attribute 'name'",
          "A Python int/float/bool output (a constant, x.shape[d]) fails the export: _core._handle_output_node "
          "skips None outputs but reads .name of every other one."),
    Known("onnx-any-uint8-returns-bool", ("onnx",), "bug", r"/mismatch/dtype: torch\.uint8 -> torch\.bool @(any|all)",
          "any() / all() of a uint8 tensor comes back bool: torchlib's aten_any / aten_all cast to BOOL; eager "
          "keeps uint8."),
    Known("onnx-mean-dim-none-invalid-graph", ("onnx",), "bug",
          r"/session/crash/InvalidGraph: .*\(\"node_Reshape_N\", Reshape, \"\", -N\) : \(\"\",",
          "x.mean(dim=None) exports a Reshape whose data input is the empty name: onnx.checker and ONNX Runtime "
          "reject the model ('input 0 is marked single but has an empty string'). x.mean() exports fine."),
    Known("onnxruntime-no-output-graph", ("onnx",), "bug", r"/session/crash/Fail: .*SaveInitializedTensors",
          "A model whose output has no tensor (`return []`, `return {}`, `return None`) exports to a graph with "
          "no outputs, which onnx.checker accepts and ONNX Runtime fails to load with an internal check "
          "(ort_value_name_idx_map.MaxIdx() > -1)."),
    Known("onnxruntime-no-kernel-for-type", ("onnx",), "unsupported",
          r"NotImplemented: .*NOT_IMPLEMENTED : Could not find an implementation for \w+\(N\) node",
          "ONNX Runtime's CPU provider has no kernel for this op at this dtype (bfloat16 Mul and MatMul) "
          "and says so when the session is created.",
          "https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md", ("session", "session@dynamic")),
    Known("onnx-op-type-outside-spec", ("onnx",), "unsupported",
          r"InvalidGraph: .*Type Error: Type 'tensor\(\w+\)' of input parameter \(\w+\) of operator \(\w+\)",
          "The ONNX operator has no such input type (bfloat16 Conv, int8/int16/uint8 MatMul, bool Add, int8 Floor "
          "and Pow): the exporter emits it unchecked and ONNX Runtime rejects the model, naming op and type, when "
          "the session is created.",
          "https://onnx.ai/onnx/operators/onnx__Conv.html", ("session", "session@dynamic")),
    Known("onnx-no-function-for-op", ("onnx",), "unsupported",
          r"/onnx-export/crash/ConversionError: DispatchError: No ONNX function found for <OpOverload\(op='aten\.\w+'",
          "The exporter has no ONNX function for this aten overload (aten.sort.stable) and says so, naming it.",
          "https://github.com/microsoft/onnxscript/tree/main/onnxscript/function_libs/torch_lib", ("onnx-export",)),
    Known("onnx-aminmax-without-dim", ("onnx",), "bug",
          r"ValueError: Required parameter 'dim' is not provided\. Signature: pkg\.onnxscript\.torch_lib::aten_amin\(",
          "torch.aminmax(x) (no dim) fails the export: torchlib's aminmax calls aten_amin without its dim."),
    Known("onnx-low-precision-output-cast-dropped", ("onnx",), "bug",
          r"/mismatch/dtype: torch\.(float16|bfloat16) -> torch\.float32 @(abs|amax|amin|sum|prod|cumsum)$",
          "abs, sum, prod, amin, amax or cumsum of a float16/bfloat16 tensor returned as a model output comes back "
          "float32: the exporter's type-promotion pass computes them in float32 and casts back, but the ONNX graph "
          "outputs are taken by the export's output-spec names, which still name the node before the cast "
          "(torch/onnx/_internal/exporter/_core.py, values[spec.arg.name]). Used inside the graph, the cast is kept."),
    Known("onnx-float-remainder-rounded-quotient", ("onnx",), "bug",
          r"^onnx/judge/mismatch/values: (float16|bfloat16|float32|float64)( 0-d)? @mod_scalar$",
          "x % s with a float scalar takes the floor of the rounded quotient: uint8 x = 1 % (1/3) gives 0.0 where "
          "eager gives 0.3333333 (the float32 scalar 0.33333334 divides 1 just under 3 times, and eager's "
          "remainder is exact). torchlib's aten_remainder computes x - floor(x / y) * y, like its floor_divide, "
          "off by one whenever the exact quotient lies just below an integer.",
          "https://github.com/microsoft/onnxscript/issues/989"),
    Known("onnx-uint8-shift-signed", ("onnx",), "bug",
          r"/mismatch/dtype: torch\.uint8 -> torch\.int8 @(lshift_scalar|rshift_scalar)$",
          "uint8 << k and uint8 >> k come back int8 (x << 1 of [200, 3, 255] gives [-112, 6, -2], x >> 1 gives "
          "[100, 1, 127] as int8); eager keeps uint8. torchlib's aten_bitwise_left_shift and "
          "aten_bitwise_right_shift pick the output type by bit width alone and cast the result to the signed "
          "one (8 bits: INT8), whatever the input's signedness."),
    Known("openvino-unconverted-op", ("openvino",), "unsupported",
          r"/convert(@dynamic)?/crash/OpConversionFailure: Check 'false' failed at src/frontends/common_translators/src/"
          r"unconverted_ops_report\.cpp",
          "convert_model has no translator for an op in the graph (aten.sort.stable; sym_max of a dynamic size) and "
          "reports the unconverted ops.",
          "https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html",
          ("convert", "convert@dynamic")),
    Known("onnx-sdpa-not-4d", ("onnx",), "unsupported",
          r"/onnx-export/crash/ConversionError: AssertionError: only ND query, key, and value are supported",
          "The exporter's scaled_dot_product_attention takes 4-D query, key and value only and says so; PyTorch "
          "takes 3-D too.", "", ("onnx-export",)),
    Known("openvino-squeeze-non-unit-dim", ("openvino",), "bug", r"/mismatch/shape( 0-d)? @squeeze",
          "x.squeeze(d) on a dim whose size is not 1 squeezes it anyway: a (2,) tensor comes back with shape (); "
          "PyTorch leaves it as it is. Silently wrong shape."),
    Known("openvino-float64-computed-in-float32", ("openvino",), "documented", r"/mismatch/values: float64 @",
          "float64 is computed in float32 even with EXECUTION_MODE_HINT=ACCURACY: a float64 input comes back from "
          "a view, a gather or an add off by float32 rounding (~1e-8 relative; 1 + 2^-50 comes back 1). One root "
          "cause for every op: the CPU plugin's documented floating-point inference precisions are f32, bf16 and "
          "f16 (CPU device docs, 'Supported Model Precision'), so it narrows f64 at its inputs. Only float64 value "
          "mismatches match.", _OPENVINO_CPU_PRECISIONS),
    Known("openvino-python-scalar-output", ("openvino",), "bug",
          r"/convert/crash/ValueError: (-?N(\.N)?|True|False) is not in list",
          "A Python int/float/bool output (a constant, x.shape[d]) fails convert_model: the FX decoder looks the "
          "value up among the graph's nodes."),
    Known("openvino-same-tensor-twice", ("openvino",), "bug",
          r"/convert(@dynamic)?/crash/GeneralFailure: Check 'is_number\(name\)' failed at [\w/]+/translate_session\.cpp",
          "One computed tensor returned at two places (`y = x + 1; return y, y`) fails convert_model: 'Tensor name "
          "is not a number: add'. An input returned twice converts."),
    Known("openvino-integer-floor-divide-truncates", ("openvino",), "bug", r"/mismatch/values: (u?int\d+) @floor_div",
          "Integer floor_divide with a negative quotient rounds toward zero (-5 // 2 gives -2): the CPU plugin "
          "ignores Divide's pythondiv flag. Silently wrong values.",
          "https://github.com/openvinotoolkit/openvino/issues/38248"),
    Known("openvino-int-fmod-in-float32", ("openvino",), "bug",
          r"/mismatch/values: (int32|int64)( 0-d)? @(fmod|remainder|mod_scalar)$",
          "Integer fmod / remainder / % are computed through float32 (x - trunc(x / y) * y): wrong once |x| > 2^24, "
          "in int32 as in int64 (100000007 % 10 gives 0, fmod(16777217, 2) gives 0); int8/int16 are exact. Before "
          "openvino-int64-computed-in-int32: an int64 fmod is counted here (the float32 path breaks it from 2^24, "
          "before the int32 narrowing does at 2^31).", "https://github.com/openvinotoolkit/openvino/issues/35829"),
    # After the floor_div and fmod rows (the first row that matches counts).
    Known("openvino-int64-computed-in-int32", ("openvino",), "documented", r"/mismatch/values: int64( 0-d)? @",
          "int64 is computed in int32: an int64 value outside the int32 range comes back as its low 32 bits, "
          "sign-extended (minimum(x, x) of 376073971102 gives -1883150946; 2**32 + 3 gives 3), in minimum, add, mul "
          "and even a slice or reshape. One root cause for every op: the CPU plugin has no i64 inference "
          "precision (its documented integer precision is i32, CPU device docs, 'Supported Model Precision'). "
          "Only int64 value mismatches match.", _OPENVINO_CPU_PRECISIONS),
    Known("openvino-group-norm-2d-compile", ("openvino",), "bug",
          r"/compile-model/crash/RuntimeError: Check 'newNode' failed at src/plugins/intel_cpu/src/node\.cpp:N: "
          r"Unsupported operation of type: GroupNormalization\b",
          "GroupNorm of a 2-D (N, C) input (torch.nn.GroupNorm(1, 2) on a (3, 2) tensor, float32 or float64) fails "
          "compile_model: the CPU plugin has no GroupNormalization node for rank 2 and the op has no reference "
          "evaluate() to fall back on ('Cannot fallback on ngraph reference implementation'). The GroupNormalization-12 "
          "spec allows any shape; rank 3 and 4 compile and match eager.", "", ("compile-model",)),
    Known("openvino-var-all-no-correction", ("openvino",), "bug",
          r"/mismatch/values: (float16|bfloat16|float32) @(var|std|var_mean|std_mean)$",
          "var/std/var_mean over all elements (no dim) ignore Bessel's correction: var of [[1, 2, 4], [0, 5, 1]] "
          "comes back 3.1389 (the population variance) where PyTorch gives 3.7667; with a dim it is right. A "
          "float64 one is counted under openvino-float64-computed-in-float32 (every float64 value is off)."),
    Known("openvino-max-min-nan-lost", ("openvino",), "bug",
          r"/mismatch/values: \w+ NaN lost @(relu|maximum|minimum|amax|amin|clamp)$",
          "relu, maximum, minimum, amax, amin and clamp turn NaN into a number (relu(NaN) is 0, clamp(NaN, min=0.5) is "
          "0.5): the CPU plugin's max/min drop NaN; PyTorch propagates it.", "https://github.com/openvinotoolkit/openvino/issues/35649"),
    Known("onnx-sub-int-tensor-float-scalar", ("onnx",), "bug",
          r"Cannot find a compatible OpOverload for aten\.(sub|floor_divide) with the provided arguments",
          "`2.5 - int_tensor` (a float Python scalar on the left: aten.rsub) and `-1.25 // int_tensor` fail the "
          "export: the exporter's type-promotion pass casts the int tensor to float32 and then finds no aten.sub / "
          "aten.floor_divide overload taking a Python number as self (fx/passes/type_promotion.py, "
          "find_compatible_op_overload); eager promotes to float32 (`int_tensor - 2.5` exports).", "https://github.com/pytorch/pytorch/issues/194381"),
    Known("onnx-cumprod-no-function", ("onnx",), "bug",
          r"/onnx-export/crash/ConversionError: DispatchError: No ONNX function found for "
          r"<OpOverload\(op='prims\.prod', overload='default'\)>",
          "cumprod of any dtype fails the export: its decomposition reaches prims.prod, which torchlib has no "
          "function for ('No decompositions registered for the real-valued input'). ONNX has no CumProd op; "
          "eager computes it."),
    Known("openvino-mutations-dropped", ("openvino",), "bug", r"/mismatch/state mutation_lost( 0-d)? @",
          "Buffer and input mutations are not written back: convert_model(ExportedProgram) keeps only the user "
          "outputs and bakes buffers in as constants. Undocumented."),
    Known("openvino-int-cumsum-not-promoted", ("openvino",), "bug",
          r"/mismatch/dtype: torch\.int64 -> torch\.\w+ @cumsum",
          "cumsum of a small-int tensor keeps the input dtype (int8 comes back int8); eager returns int64."),
    # -- Found by the deep programs, wrap-around and bool ops (issue 24) ------------------------
    Known("inductor-mul-softmax-zero-dim", ("inductor",), "bug",
          r"^inductor/compile-on-call/crash/IndexError: list index out of range$",
          "torch.softmax(x * y, dim=-1) of 0-d tensors (eager: tensor(1.)) fails the compile: the joint-graph "
          "mul-softmax pattern's extra check _other_is_broadcasted_in_dim (torch/_inductor/fx_passes/joint_graph.py) "
          "indexes the empty shape list of a 0-d operand with dim -1 (its bounds check only catches d >= ndim).",
          "https://github.com/pytorch/pytorch/issues/190418", ("compile-on-call",)),
    Known("inductor-float-floor-divide-rounded-quotient", ("inductor",), "bug",
          r"^inductor/judge/mismatch/values: (float16|bfloat16|float32|float64)( 0-d)? @(floordiv_scalar|floor_div)$",
          "Floor division of floats floors the quotient after rounding it: x // 0.1 of x = 1 gives 10 (the float32 "
          "quotient 9.99999985 rounds to 10.0) where eager and Python give 9, the floor of the exact quotient. "
          "Inductor lowers it to floor(div_rn(a, b)) (torch/_inductor/lowering.py, div_mode); eager uses its "
          "fmod-based div_floor. Silently one too high wherever the exact quotient lies just below an integer.",
          "https://github.com/pytorch/pytorch/issues/197895"),
    Known("onnx-clamp-bool-float-bounds", ("onnx",), "bug",
          r"/onnx-export/crash/ConversionError: RuntimeError: Cannot find a compatible OpOverload for aten\.clamp "
          r"with the provided arguments",
          "torch.clamp of a bool tensor with one int and one float bound (x.clamp(min=1, max=2.5): float32 in "
          "eager) fails the export: the exporter finds no aten.clamp overload for those arguments (float bounds "
          "alone, or two float bounds, export)."),
    Known("onnx-squeeze-non-unit-dim", ("onnx",), "bug",
          r"/session/crash/Fail: \[ONNXRuntimeError\] : N : FAIL : Node \(\w+\) Op \(Squeeze\) "
          r"\[ShapeInferenceError\] Dimension of input N must be N instead of N",
          "x.squeeze(1) of a dim that is not 1 is a no-op in PyTorch; the exporter writes an ONNX Squeeze of that "
          "axis, which onnxruntime rejects when the session is made."),
    Known("onnx-broadcast-input-copy-shape", ("onnx",), "bug", r"/mismatch/shape @input_update$",
          "`x.copy_(y)` of an input from a broadcast one ((3,) from (1,)) and values computed after it come back "
          "in y's shape: the exported graph uses the source of the copy in place of the input it overwrote."),
    Known("openvino-bfloat16-inf-to-float64", ("openvino",), "bug", r"/mismatch/values: float64 inf lost @cast$",
          "A bfloat16 inf cast to float64 comes back finite: the CPU plugin's bf16 -> f64 conversion does not keep "
          "infinities; PyTorch does."),
    Known("openvino-float64-buffer-update-hang", ("openvino",), "bug",
          r"^openvino/compile-or-run/hang/Timeout: no answer within N s @(\w+\+)*add_buffer\+buffer_update\+full(\+\w+)* "
          r"on (\w+( 0-size)?|no input)$",
          "A float64 buffer updated in place with a constant plus another buffer (s4.add_(torch.full((1,), 0.5, "
          "dtype=torch.float64) + s1)) spins compile_model or the infer request past the case timeout, whatever the "
          "input (none, 0-size or not). In float32, or with zero buffers, it runs. (Once openvino-zero-size-buffer-hang: "
          "the case it was found in had a 0-size input, which plays no part.)"),
    Known("onnx-sdpa-zero-length-reshape", ("onnx",), "bug",
          r"/session/crash/Fail: \[ONNXRuntimeError\] : N : FAIL : Node \(node_Reshape_N\) Op \(Reshape\) "
          r"\[ShapeInferenceError\] Invalid position of N\.$",
          "scaled_dot_product_attention of 4-D inputs with a 0-length sequence dim (q = k = v of shape (1, 1, 0, 1); "
          "eager returns an empty (1, 1, 0, 1) tensor) fails when the session is made: torchlib's "
          "_aten_scaled_dot_product_attention_no_mask_onnx transposes key by two Reshapes whose shapes it builds from "
          "Shape(key) ([-1, S, E] and [..., E, S]) with allowzero=0, so S = 0 reads as 'copy the input dim': the first "
          "Reshape gives (0, 1, 1), and the second has a 0 at position 3 of a rank-3 input.",
          "", ("session",)),
    Known("onnx-gelu-float64-float32-constants", ("onnx",), "bug", r"^onnx/judge/mismatch/values: float64( 0-d)? @gelu$",
          "F.gelu(x, approximate='tanh') of a float64 tensor comes back off by ~5e-9 relative (gelu(0.5) is "
          "0.3457140080561641, eager 0.34571400982514394): the exporter writes ONNX Gelu-20 (aten_gelu_opset20), "
          "ONNX Runtime has no double Gelu kernel and inlines the op's function body, whose constants (0.044715, "
          "2/pi) are float32 cast to double. approximate='none' hits the missing double Erf kernel instead "
          "(onnxruntime-no-kernel-for-type)."),
    Known("onnx-stack-mixed-dtypes-not-promoted", ("onnx",), "bug",
          r"/session/crash/Fail: \[ONNXRuntimeError\] : N : FAIL : Type Error: Type parameter \(T\) of Optype "
          r"\(Concat\) bound to different types \(tensor\(\w+\) and tensor\(\w+\) in node \(node_stack(_N)?\)\.$",
          "torch.stack of tensors of different dtypes (bool and float32, bfloat16 and float16, int16 and bool; eager "
          "promotes, as torch.cat does) fails when the session is made: the exporter's type-promotion table has a "
          "rule for aten.cat but none for aten.stack, and torchlib's aten_stack emits Unsqueeze + Concat of the "
          "operands as they are, an ill-typed Concat. torch.cat of the same operands exports and runs.",
          "", ("session",)),
    Known("openvino-where-same-bool-branch-uint8-compile", ("openvino",), "bug",
          r"/compile-model/crash/RuntimeError: Check 'element::Type::merge\(result_et, get_input_element_type\(N\), "
          r"get_input_element_type\(N\)\)' failed at src/core/src/op/select\.cpp:N: Argument N and N element types "
          r"must match\.$",
          "torch.where(c, c, x) with c a computed bool tensor (c = x == x) and x uint8 (uint8 in eager) fails "
          "compile_model: convert_model emits a valid Select(c, Convert(c -> u8), x), and the CPU plugin's compile "
          "pipeline drops the bool -> u8 Convert, leaving Select with boolean and u8 branches. An input bool, "
          "a different bool as the branch, or an int8/int32/float other branch compile.",
          "", ("compile-model",)),
    Known("openvino-constant-input-parameter", ("openvino",), "bug",
          r"^openvino/compile-model/crash/RuntimeError: Check '!shape\.rank\(\)\.is_dynamic\(\)' failed at "
          r"src/plugins/intel_cpu/src/node\.cpp:N: Unexpected: CPU plug-in doesn't support Parameter operation with "
          r"dynamic rank\. Operation name: \w+$",
          "A model called with a None, bool, int or float argument (model(x, mask=None), a flag, a scale) fails "
          "compile_model on the CPU: convert_model(ExportedProgram) makes a Parameter of dynamic rank of each "
          "argument that torch.export specialised as a constant (a ConstantArgument user input, unused by the "
          "graph), and the CPU plugin rejects a Parameter of dynamic rank. Every tensor input has a static shape "
          "here, so only such a constant becomes one.", "", ("compile-model",)),
    Known("openvino-greater-nan-true", ("openvino",), "bug", r"/mismatch/values: bool( 0-d)? @(gt|ge)$",
          "x > y and x >= y return True where an operand is NaN (NaN >= NaN, NaN > 1, 1 >= NaN all True), in "
          "float16, bfloat16, float32 and float64; PyTorch (IEEE) gives False. The CPU plugin's Greater and "
          "GreaterEqual kernels do it: convert_model emits plain Greater/GreaterEqual, whose reference evaluate() "
          "gives False, and <, <=, == are right. Silently wrong values. It depends on the CPU: an AVX2-only AMD "
          "EPYC gives False; the entry is replayed only on CPUs with avx512f (meta cpu_flags), the instruction set "
          "taken to be the difference (the JIT kernels differ by it).", "https://github.com/openvinotoolkit/openvino/issues/35927"),
    Known("openvino-uint8-arith-saturates", ("openvino",), "bug",
          r"/mismatch/values: uint8( 0-d)? @(add|sub|mul|add_scalar|sub_scalar|mul_scalar|add_buffer|neg|square)$",
          "uint8 add, sub and mul saturate instead of wrapping modulo 256: x + 10 of 250 gives 255 (eager 4), "
          "x - 3 of 1 gives 0 (eager 254), and x + -2 (the -2 made a uint8 254, as eager does) gives 255 for "
          "every x >= 2 (eager x - 2). convert_model emits a plain u8 Add/Subtract/Multiply; the CPU plugin's "
          "8-bit eltwise kernels clamp the result (int8 too; int16 and int32 wrap). Silently wrong values. "
          "neg and square are the same kernels: -x of uint8 is converted to Multiply(x, 255) (-2 gives 255, "
          "eager 254) and x.square() to Power(x, 2) (16 squared gives 255, eager 0; x * x gives 255 too).", "https://github.com/openvinotoolkit/openvino/issues/35647"),
    Known("openvino-zero-size-buffer-setitem-sigfpe", ("openvino",), "bug",
          r"^openvino/compile-or-run/crash/WorkerDied: the worker process died: signal SIGFPE "
          r"@(\w+\+)*buffer_update(\+\w+)* on [\w/]+ 0-size$",
          "A slice assignment into a 0-size buffer (self.s[0:1] = x, s of shape (2, 0), x of shape (1, 0); eager "
          "leaves s as it is) kills convert_model with SIGFPE, in every dtype: the buffer is a constant, and "
          "ConstantFolding (apply_moc_transformations) folds a Broadcast of an empty tensor from the slice_scatter "
          "(ScatterNDUpdate) + copy_ subgraph; BroadcastBase::evaluate_broadcast divides by zero (gdb backtrace). A "
          "hand-built Broadcast(Constant of shape (2, 0), [2, 0]) does it too. copy_ or add_ of a whole 0-size "
          "buffer runs."),
    Known("openvino-zero-d-buffer-copy-segfault", ("openvino",), "bug",
          r"^openvino/compile-or-run/crash/WorkerDied: the worker process died: signal SIGSEGV @buffer_update "
          r"on [\w/]+$",
          "self.s.copy_(x) of a 0-d buffer from a 0-d input, the buffer returned (eager returns x's value), kills "
          "compile_model with SIGSEGV in the CPU plugin, in every dtype: the copy_ translator emits "
          "Broadcast(x, ShapeOf(s)), folded to Broadcast(Parameter of shape (), []), and the CPU plugin crashes on "
          "a Broadcast of a 0-d Parameter to shape () (a hand-built Parameter -> Broadcast(target []) -> Result "
          "does it too). A computed 0-d source, a (1,) buffer, or add_/mul_/clamp_ of the 0-d buffer run."),
    Known("openvino-bfloat16-inf-constant-finite", ("openvino",), "bug",
          r"^openvino/judge/mismatch/values: bool( 0-d)? @isfinite$",
          "torch.isfinite of a bfloat16 tensor returns True for +-inf (eager False): the export decomposes it to "
          "(x == x) & (abs(x) != inf) with a bfloat16 inf constant, and the CPU plugin turns that constant into "
          "+-3.4028235e38 (FLT_MAX) when it converts bf16 constants to f32 (x == inf and x + inf of bfloat16 are "
          "wrong the same way; float16/float32 are right). The value is the one of openvino-bfloat16-inf-to-float64, "
          "perhaps the same conversion.", "https://github.com/openvinotoolkit/openvino/pull/35484"),
    # Dynamic shapes (strategies/dynamic.py): compiled once, called at other sizes.
    Known("onnx-dynamic-zero-size-flatten-reshape", ("onnx",), "bug",
          r"^onnx/session@dynamic/crash/Fail: \[ONNXRuntimeError\] : N : FAIL : Node \(node_Reshape_N\) Op \(Reshape\) "
          r"\[ShapeInferenceError\] Invalid Target shape product of N\. Product cannot be N in combination with -N",
          "flatten of a zero-size tensor one of whose other dims is dynamic (x of shape (s0, 1, 0), flatten(x, 1)) "
          "is exported as Reshape(x, [s0, -1]); ONNX Runtime's shape inference rejects a -1 beside a product of 0 "
          "when it creates the session. Static, the export writes the literal shape and the session loads. Related: "
          "ORT calls a -1 beside a zero product undefined by design (microsoft/onnxruntime#9940).",
          link="https://github.com/microsoft/onnxruntime/issues/9940"),
    Known("onnx-amax-nan-lost", ("onnx",), "bug", r"^onnx/judge/mismatch/values: \w+ NaN lost @amax$",
          "amax over a dim turns NaN into a number: the exported ReduceMax run by ONNX Runtime's CPU kernel skips "
          "NaN; PyTorch propagates it. Reached by the dynamic search's draws, compiled statically too.", "https://github.com/microsoft/onnxruntime/issues/10514"),
    Known("openvino-dynamic-zero-size-flatten-shape", ("openvino",), "bug",
          r"^openvino/judge@\w+/mismatch/shape @relu$",
          "With a dynamic dim declared, relu(flatten(x, 1)) of a zero-size tensor of shape (s0, 1, 0) comes back "
          "with the wrong shape even at the example (the static compile gets it right): the converted dynamic "
          "Reshape of a zero-size input resolves its -1 wrongly."),
    Known("openvino-zero-size-bfloat16-matmul-buffer-compile", ("openvino",), "bug",
          r"^openvino/compile-model/crash/RuntimeError: object is not initialized",
          "compile_model fails with 'object is not initialized' on a bfloat16 matmul of a zero-size float64 input "
          "cast down (x of shape (3, 2, 0)) added into a buffer and summed; met by the dynamic search's draws, "
          "compiled statically. It depends on the CPU: the bf16 oneDNN matmul of AVX512-BF16 machines fails, an "
          "AVX2-only AMD EPYC compiles and runs it (meta cpu_flags).",
          "https://github.com/openvinotoolkit/openvino/issues/37966"),
    Known("tvm-dynamo-dynamic-weight-operand-codegen", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/InternalError: CodeGenVM cannot emit this Relax operator directly",
          "torch.compile(dynamic=True) with relax_dynamo of an elementwise op between a module's weight (a buffer "
          "or a parameter) and an input (self.s0 + x0, float32 or int8, in place or not): VM codegen meets a Relax "
          "operator no pass lowered. x0 + x0 builds; compiled without dynamic=True, the same program builds. (Once "
          "tvm-dynamo-dynamic-buffer-mul-codegen: found as an int8 buffer multiplied in place, which plays no part.)"),
    Known("tvm-dynamo-dynamic-unbind-symbolic-dim", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/(BackendCompilerFailed: )?AttributeError: 'Var' object has no attribute "
          r"'value'$",
          "x.unbind(0) under torch.compile(dynamic=True) or mark_dynamic: the fx translator's _unbind reads the "
          "unbound dim's length as a constant (shape[dim].value), and under dynamic shapes it is a symbolic tir.Var, "
          "so relax_dynamo fails with AttributeError. Statically it converts."),
    Known("tvm-dynamo-dynamic-layer-norm-symbolic-eps", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/(BackendCompilerFailed: )?TypeError: Mismatched type on argument #N when "
          r"calling: `relax\.op\.nn\.layer_norm\(.*Expected `float` but got `ffi\.OpaquePyObject`$",
          "nn.LayerNorm under torch.compile(dynamic=True): dynamo no longer specialises float attributes there, so "
          "the graph hands the module's eps to layer_norm as a symbolic float, and the fx translator's "
          "_layer_norm_impl passes it on to relax.op.nn.layer_norm, whose epsilon must be a Python float. "
          "Statically it converts."),
    Known("tvm-dynamo-dynamic-size-expression-slice", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/(BackendCompilerFailed: )?TypeError: Cannot convert floordiv with type "
          r"<class 'torch\.fx\.node\.Node'> to `relax\.Expr`$",
          "x.narrow(0, 0, x.size(0) // 2) under torch.compile(dynamic=True): the length is an fx node computing "
          "floordiv of a symbolic size, and the translator's strided_slice hands it to convert_to_expr, which "
          "converts constants and Relax values but not a size expression left as an fx Node. Statically the "
          "length is a constant."),
    Known("tvm-dynamo-dynamic-size-output", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/compile-on-call@\w+/crash/ValueError: Unsupported type <class 'int'>$",
          "A size returned beside a tensor (return x.neg(), x.shape[0]) under torch.compile(dynamic=True) or "
          "mark_dynamic: the graph returns the symbolic size, the Relax VM hands it back as a Python int, and "
          "relax_dynamo's exec_tvm -> to_torch_tensor (tvm/relax/frontend/torch/dynamo.py) converts only tensors "
          "and tuples and raises ValueError. Statically the size is a constant dynamo returns itself: it runs."),
    Known("tvm-dynamo-dynamic-roll-symbolic-shift", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/TypeError: Unsupported type for shift/dim: <class 'tvm\.ir\.expr\.Var'>",
          "torch.roll over a dynamic dim: relax_dynamo's roll converter takes the shift and dim as Python ints and "
          "fails on the symbolic size (a tvm.ir.expr.Var) that dynamo's symbolic shapes bring in."),
    Known("tvm-ep-dynamic-empty-reduction-uninitialised", ("tvm-ep",), "bug",
          r"^tvm-ep/judge@min/mismatch/values: \w+( NaN made| inf made)? @sum$",
          "x.sum(0) over a dim declared Dim(min=0), called at size 0: the result is whatever the output buffer "
          "held (garbage, NaN at times), not zeros. The zero-size reduction fix (apache/tvm PR 19680, after "
          "apache/tvm#19578) zero-fills only where the reduced extent is a constant 0; a symbolic extent that is 0 "
          "at run time still reads uninitialised memory. Statically the same size compiles to zeros.",
          "https://github.com/apache/tvm/issues/19578",
          no_entry="not stable: the buffer is at times fresh, zeroed memory, and the replay then passes (seen: the "
                   "first of two replays of the 15-line case passed); a strict replay cannot hold it"),
    Known("tvm-dynamo-dynamic-float16-expand-values", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/judge@\w+/mismatch/values: float16 @expand$",
          "torch.compile(dynamic=True) through relax_dynamo: a float16 max_pool2d result expanded to a new leading "
          "dim comes back with wrong values, where the static compile returns eager's.",
          no_entry="not stable: filed from the survey's case, the simplified case passed on the next run (values "
                   "that change from run to run, as from memory never written); kept so the survey counts it"),
    Known("tvm-dynamo-dynamic-trunc-div-emit-te", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/AssertionError: emit_te now only supports Tensor that has ShapeExpr shape",
          "torch.compile(dynamic=True) through relax_dynamo: div(rounding_mode='trunc') of a stacked int16 tensor by "
          "|x| + 1 fails the import (emit_te meets a tensor whose shape is not a ShapeExpr); static, it builds."),
    Known("tvm-dynamo-bool-clamp-float-bounds", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+/crash/(BackendCompilerFailed: )?ValueError: Check failed: \(value == N \|\| value == N\) is "
          r"false: N exceeds range of bool",
          "clamp of a bool tensor with float bounds (b.clamp(min=-1.25, max=2.5)): relax_dynamo makes the bounds "
          "bool constants and TVM rejects -1 as out of bool's range; eager promotes to float32. Static too."),
    Known("tvm-ep-dynamic-symbolic-size-functions", ("tvm-ep",), "bug",
          r"^tvm-ep/import@dynamic/crash/AssertionError: Unsupported function types \[.*'(sym_\w+|truediv|pow)'",
          "A program that computes with a dynamic size (torch.sym_max(x.shape[-1] - 1, 1) as a slice bound, a mean "
          "over a dynamic dim dividing by it) exports Python-level functions on symbolic sizes (sym_max, sym_min, "
          "sym_float, operator.truediv, pow) into the graph, and from_exported_program has no converter for them. "
          "Static, the sizes are numbers and the program imports. Related: the open tracking issue of dynamic "
          "shapes in the ExportedProgram frontend (apache/tvm#17818).",
          link="https://github.com/apache/tvm/issues/17818"),
    Known("tvm-dynamo-dynamic-arange-of-size-keyerror", ("tvm-dynamo",), "bug",
          r"^tvm-dynamo/[\w-]+@\w+/crash/(BackendCompilerFailed: )?KeyError: NAME$",
          "torch.compile(dynamic=True) through relax_dynamo of torch.arange(x.shape[-2]) over a zero-size input: "
          "the importer looks the symbolic size up among the graph's inputs and fails with a KeyError naming it."),
    Known("inductor-int8-maximum-mixed-width-codegen", ("inductor",), "bug",
          r"^inductor/compile-on-call/crash/InductorError: CppCompileError: C\+\+ compile error: error: no matching "
          r"function for call to ‘(max|min)_propagate_nan\(signed char&, int&\)’",
          "torch.maximum of an int8 value and a wider int computed with it (x1 + buffer, abs) fused with a narrowed "
          "int32 tensor: Inductor's C++ emits max_propagate_nan(signed char, int), which no overload takes."),
    Known("onnx-any-int-values", ("onnx",), "bug", r"^onnx/judge/mismatch/values: bool( 0-d)? @any$",
          "any() of an empty int8 tensor (shape (0, 15)) comes back True; eager gives False (no element is "
          "nonzero). Found through a remainder of a sum; the smallest case is the empty any alone."),
    Known("openvino-gather-narrow-index-garbage", ("openvino",), "bug",
          r"^openvino/judge/mismatch/values: \w+( 0-d)? @gather$",
          "torch.gather along dim 0 with an index smaller than the input in another dim (x of (2, 3), index "
          "[[0, 1], [1, 0]] of (2, 2)) returns uninitialised memory, in every dtype tried (bool, int8, int64, float32); "
          "torch.gather documents index.size(d) <= input.size(d) for d != dim. Along dim 1, or with an index of the "
          "input's size, it is right. (Once openvino-bool-gather-values: the dynamic case it was found in drew bool.)"),
    Known("onnx-dynamic-size-output-as-tensor", ("onnx",), "bug",
          r"^onnx/judge@\w+/mismatch/leaf_type: int( N| \d+)? -> Tensor @shape$",
          "x.shape[0] returned by a model exported with a dynamic dim comes back as a 0-d int64 tensor, not a "
          "Python int, even at the example: the symbolic size becomes a graph output (TensorRT #4614 is the "
          "same class). Static, the exporter fails on a Python int output instead (onnx-python-scalar-output)."),
    Known("openvino-int-prod-not-promoted", ("openvino",), "bug",
          r"^openvino/judge/mismatch/dtype: torch\.int64 -> torch\.(u?int(8|16|32)|bool) @prod$",
          "prod over a dim of a small-int tensor keeps the input dtype (int16 comes back int16); eager returns int64."),
)

def counted_outcome(verdict: Verdict, known: Known | None) -> str:
    """The outcome a verdict counts as: ``unsupported`` where a row of that kind explains
    it (a clean rejection, or mutations a frontend documents that it drops), else its own."""
    return "unsupported" if known is not None and known.kind == "unsupported" else verdict.outcome


def passed_or_rejected_cleanly(verdict: Verdict, known: Known | None) -> bool:
    """Nothing to report: the case passed, or the frontend refused it as a row says it does."""
    return counted_outcome(verdict, known) in ("pass", "unsupported")


def match(verdict: Verdict, rows: tuple[Known, ...] = KNOWN) -> Known | None:
    """The first of ``rows`` that explains this verdict. The suite passes the table and
    the open corpus entries' rows (``reports.corpus.known_rows``)."""
    if verdict.outcome == "pass":
        return None
    return next((row for row in rows if row.matches(verdict)), None)


def row(row_id: str) -> Known:
    """The table's row of that id."""
    found = next((k for k in KNOWN if k.id == row_id), None)
    if found is None:
        raise KeyError(f"no row {row_id!r} in suites.known.KNOWN")
    return found


def _cause(signature: Signature) -> tuple[str, str]:
    """(what failed, the op) of a signature: the error type of a crash (the inner error
    of a wrapper) with its op when a native crash names one; the difference kind of a
    mismatch with the op of the differing leaf."""
    op = signature.trigger
    if signature.outcome == "mismatch":  # the kind: dtype, values, shape, state ... (the dtypes may vary)
        if op in ("buffer_update", "input_update", "counter"):  # state, or a later read of it: not updated
            return "mutation not applied", op
        return signature.what.split(":")[0].removesuffix(" 0-d"), op
    return signature.error_type or signature.what.removeprefix(WRAPPER), op


def root_causes(row: Known, verdicts: list[dict[str, Any]]) -> dict[tuple[str, str], list[str]]:
    """The distinct (failure, op) pairs among ``verdicts`` (signature, backend, notes)
    that ``row`` matches, each with the signatures behind it. A row of one root cause
    has one failure, and, if it names ops at all, names every op it matches."""
    found: dict[tuple[str, str], list[str]] = {}
    for v in verdicts:
        verdict = SignatureOnly.recorded(v["signature"], v["backend"], v.get("notes", []))
        if row.matches(verdict):
            found.setdefault(_cause(verdict.as_signature()), []).append(v["signature"])
    return found


@dataclass
class SignatureOnly:
    """A recorded verdict: as much of ``Verdict`` as ``Known.matches`` reads."""

    backend: str
    outcome: str
    stage: str
    notes: list[str]
    _signature: str
    differences: tuple = ()

    @classmethod
    def recorded(cls, signature: str, backend: str, notes: list[str]) -> SignatureOnly:
        """A verdict recorded by its signature (a survey's, an entry's). One a row counted
        as ``unsupported`` is recorded under that outcome: it is read back as what it was,
        a crash or a mismatch of lost mutations."""
        parts = Signature.parse(signature)
        differences: tuple[dict[str, str], ...] = ()
        if parts.outcome == "unsupported":
            lost = parts.what.startswith("state mutation_lost")
            differences = ({"kind": "mutation_lost"},) if lost else ()
            parts = replace(parts, outcome="mismatch" if lost else "crash")
        return cls(backend, parts.outcome, parts.stage, notes, str(parts), differences)

    def signature(self) -> str:
        return self._signature

    def as_signature(self) -> Signature:
        return Signature.parse(self._signature)


def _snapshot(findings: Path) -> None:
    data = json.loads(findings.read_text())
    seen = {sig: {"signature": sig, "backend": e["backend"], "notes": e.get("notes", [])}
            for per_row in data.get("absorbed", {}).values() for sig, e in per_row.items()}
    # Findings new to the table then are verdicts the survey saw too.
    seen.update((sig, {"signature": sig, "backend": e["backend"], "notes": []}) for sig, e in data.get("new", {}).items()
                if sig not in seen)
    verdicts = sorted(seen.values(), key=lambda v: v["signature"])
    SURVEY.write_text(json.dumps(verdicts, indent=1) + "\n")
    print(f"{SURVEY}: {len(verdicts)} verdicts")


if __name__ == "__main__":
    _snapshot(Path(sys.argv[1]))
