"""Known rows: OpenVINO: convert_model of an ExportedProgram, compiled for the CPU plugin."""

from __future__ import annotations

from .rows import Known, When

#: The CPU plugin's inference precisions (f32, bf16, f16; i32): the documented reason for two rows.
_OPENVINO_CPU_PRECISIONS = ("https://docs.openvino.ai/2024/openvino-workflow/running-inference/"
                            "inference-devices-and-modes/cpu-device.html")

ROWS: tuple[Known, ...] = (
    Known(
        id="openvino-unconverted-op", backends=("openvino",), kind="unsupported",
        stages=("convert",), outcome="crash", errors=("OpConversionFailure",),
        message=r"Check 'false' failed at src/frontends/common_translators/src/unconverted_ops_report\.cpp",
        reason=("convert_model has no translator for an op in the graph (aten.sort.stable; sym_max of a dynamic size) "
                "and reports the unconverted ops."),
        link="https://docs.openvino.ai/2026/openvino-workflow/model-preparation/convert-model-pytorch.html",
    ),
    Known(
        id="openvino-float64-computed-in-float32", backends=("openvino",), kind="documented",
        outcome="mismatch", differences=("values",), expected=("float64",), special=("",),
        reason=("float64 is computed in float32 even with EXECUTION_MODE_HINT=ACCURACY: a float64 input comes back from"
                " a view, a gather or an add off by float32 rounding (~1e-8 relative; 1 + 2^-50 comes back 1). One root"
                " cause for every op: the CPU plugin's documented floating-point inference precisions are f32, bf16 and"
                " f16 (CPU device docs, 'Supported Model Precision'), so it narrows f64 at its inputs. Only float64 "
                "value mismatches match."),
        link=_OPENVINO_CPU_PRECISIONS,
    ),
    Known(
        id="openvino-python-scalar-output", backends=("openvino",), kind="bug",
        stages=("convert",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"(-?N(\.N)?|True|False) is not in list",
        reason=("A Python int/float/bool output (a constant, x.shape[d]) fails convert_model: the FX decoder looks the "
                "value up among the graph's nodes."),
    ),
    Known(
        id="openvino-same-tensor-twice", backends=("openvino",), kind="bug",
        stages=("convert",), outcome="crash", errors=("GeneralFailure",),
        message=r"Check 'is_number\(name\)' failed at [\w/]+/translate_session\.cpp",
        reason=("One computed tensor returned at two places (`y = x + 1; return y, y`) fails convert_model: 'Tensor "
                "name is not a number: add'. An input returned twice converts."),
    ),
    Known(
        id="openvino-integer-floor-divide-truncates", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("uint8", "int8", "int16", "int32", "int64"),
        special=("",), ops=("floor_div", "div_mode_scalar"),
        reason=("Integer floor_divide with a negative quotient rounds toward zero (-5 // 2 gives -2), and so does "
                "torch.div(x, 2, rounding_mode='floor') of an int16 tensor (its 'trunc' mode is right): the CPU plugin "
                "ignores Divide's pythondiv flag. Silently wrong values."),
        link="https://github.com/openvinotoolkit/openvino/issues/38248",
    ),
    Known(
        id="openvino-int-fmod-in-float32", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("int32", "int64"), special=("", "0-d"),
        ops=("fmod", "remainder", "mod_scalar"),
        reason=("Integer fmod / remainder / % are computed through float32 (x - trunc(x / y) * y): wrong once |x| > "
                "2^24, in int32 as in int64 (100000007 % 10 gives 0, fmod(16777217, 2) gives 0); int8/int16 are exact. "
                "Before openvino-int64-computed-in-int32: an int64 fmod is counted here (the float32 path breaks it "
                "from 2^24, before the int32 narrowing does at 2^31)."),
        link="https://github.com/openvinotoolkit/openvino/issues/35829",
    ),
    Known(
        id="openvino-int64-computed-in-int32", backends=("openvino",), kind="documented",
        outcome="mismatch", differences=("values",), expected=("int64",), special=("", "0-d"),
        reason=("int64 is computed in int32: an int64 value outside the int32 range comes back as its low 32 bits, "
                "sign-extended (minimum(x, x) of 376073971102 gives -1883150946; 2**32 + 3 gives 3), in minimum, add, "
                "mul and even a slice or reshape. One root cause for every op: the CPU plugin has no i64 inference "
                "precision (its documented integer precision is i32, CPU device docs, 'Supported Model Precision'). "
                "Only int64 value mismatches match."),
        link=_OPENVINO_CPU_PRECISIONS,
    ),
    Known(
        id="openvino-group-norm-2d-compile", backends=("openvino",), kind="bug",
        stages=("compile-model",), dynamic=False, outcome="crash", errors=("RuntimeError",),
        message=(r"Check 'newNode' failed at src/plugins/intel_cpu/src/node\.cpp:N: Unsupported operation of type: "
                 r"GroupNormalization\b"),
        reason=("GroupNorm of a 2-D (N, C) input (torch.nn.GroupNorm(1, 2) on a (3, 2) tensor, float32 or float64) "
                "fails compile_model: the CPU plugin has no GroupNormalization node for rank 2 and the op has no "
                "reference evaluate() to fall back on ('Cannot fallback on ngraph reference implementation'). The "
                "GroupNormalization-12 spec allows any shape; rank 3 and 4 compile and match eager."),
    ),
    Known(
        id="openvino-var-all-no-correction", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("float16", "bfloat16", "float32"), special=("",),
        ops=("var", "std", "var_mean", "std_mean"),
        reason=("var/std/var_mean over all elements (no dim) ignore Bessel's correction: var of [[1, 2, 4], [0, 5, 1]] "
                "comes back 3.1389 (the population variance) where PyTorch gives 3.7667; with a dim it is right. A "
                "float64 one is counted under openvino-float64-computed-in-float32 (every float64 value is off)."),
    ),
    Known(
        id="openvino-max-min-nan-lost", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), special=("NaN lost",),
        ops=("relu", "maximum", "minimum", "amax", "amin", "clamp"),
        reason=("relu, maximum, minimum, amax, amin and clamp turn NaN into a number (relu(NaN) is 0, clamp(NaN, "
                "min=0.5) is 0.5): the CPU plugin's max/min drop NaN; PyTorch propagates it."),
        link="https://github.com/openvinotoolkit/openvino/issues/35649",
    ),
    Known(
        id="openvino-mutations-dropped", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("mutation_lost",), state=True, special=("", "0-d"),
        reason=("Buffer and input mutations are not written back: convert_model(ExportedProgram) keeps only the user "
                "outputs and bakes buffers in as constants. Undocumented."),
    ),
    Known(
        id="openvino-int-cumsum-not-promoted", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("int64",), ops=("cumsum",),
        reason="cumsum of a small-int tensor keeps the input dtype (int8 comes back int8); eager returns int64.",
    ),
    Known(
        id="openvino-bfloat16-inf-to-float64", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("float64",), special=("inf lost",), ops=("cast",),
        reason=("A bfloat16 inf cast to float64 comes back finite: the CPU plugin's bf16 -> f64 conversion does not "
                "keep infinities; PyTorch does."),
    ),
    Known(
        id="openvino-float64-buffer-update-hang", backends=("openvino",), kind="bug",
        stages=("compile-or-run",), dynamic=False, outcome="hang", errors=("Timeout",),
        ops=("add_buffer+buffer_update+full",),
        message=r"no answer within N s",
        reason=("A float64 buffer updated in place with a constant plus another buffer (s4.add_(torch.full((1,), 0.5, "
                "dtype=torch.float64) + s1)) spins compile_model or the infer request past the case timeout, whatever "
                "the input (none, 0-size or not). In float32, or with zero buffers, it runs. (Once "
                "openvino-zero-size-buffer-hang: the case it was found in had a 0-size input, which plays no part.)"),
    ),
    Known(
        id="openvino-where-same-bool-branch-uint8-compile", backends=("openvino",), kind="bug",
        stages=("compile-model",), dynamic=False, outcome="crash", errors=("RuntimeError",),
        message=(r"Check 'element::Type::merge\(result_et, get_input_element_type\(N\), get_input_element_type\(N\)\)' "
                 r"failed at src/core/src/op/select\.cpp:N: Argument N and N element types must match\.$"),
        reason=("torch.where(c, c, x) with c a computed bool tensor (c = x == x) and x uint8 (uint8 in eager) fails "
                "compile_model: convert_model emits a valid Select(c, Convert(c -> u8), x), and the CPU plugin's "
                "compile pipeline drops the bool -> u8 Convert, leaving Select with boolean and u8 branches. An input "
                "bool, a different bool as the branch, or an int8/int32/float other branch compile."),
    ),
    Known(
        id="openvino-constant-input-parameter", backends=("openvino",), kind="bug",
        stages=("compile-model",), dynamic=False, outcome="crash", errors=("RuntimeError",),
        message=(r"Check '!shape\.rank\(\)\.is_dynamic\(\)' failed at src/plugins/intel_cpu/src/node\.cpp:N: Unexpected: "
                 r"CPU plug-in doesn't support Parameter operation with dynamic rank\. Operation name: \w+$"),
        reason=("A model called with a None, bool, int or float argument (model(x, mask=None), a flag, a scale) fails "
                "compile_model on the CPU: convert_model(ExportedProgram) makes a Parameter of dynamic rank of each "
                "argument that torch.export specialised as a constant (a ConstantArgument user input, unused by the "
                "graph), and the CPU plugin rejects a Parameter of dynamic rank."),
    ),
    Known(
        id="openvino-greater-nan-true", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("bool",), special=("", "0-d"), ops=("gt", "ge"),
        reason=("x > y and x >= y return True where an operand is NaN (NaN >= NaN, NaN > 1, 1 >= NaN all True), in "
                "float16, bfloat16, float32 and float64; PyTorch (IEEE) gives False."),
        link="https://github.com/openvinotoolkit/openvino/issues/35927",
    ),
    Known(
        id="openvino-uint8-arith-saturates", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("uint8",), special=("", "0-d"),
        ops=("add", "sub", "mul", "add_scalar", "sub_scalar", "mul_scalar", "add_buffer", "neg", "square"),
        reason=("uint8 add, sub and mul saturate instead of wrapping modulo 256: x + 10 of 250 gives 255 (eager 4), x -"
                " 3 of 1 gives 0 (eager 254), and x + -2 (the -2 made a uint8 254, as eager does) gives 255 for every x"
                " >= 2 (eager x - 2). convert_model emits a plain u8 Add/Subtract/Multiply; the CPU plugin's 8-bit "
                "eltwise kernels clamp the result (int8 too; int16 and int32 wrap)."),
        link="https://github.com/openvinotoolkit/openvino/issues/35647",
    ),
    Known(
        id="openvino-zero-size-buffer-setitem-sigfpe", backends=("openvino",), kind="bug",
        stages=("compile-or-run",), dynamic=False, outcome="crash", errors=("WorkerDied",), ops=("buffer_update",),
        zero_size=True,
        message=r"the worker process died: signal SIGFPE",
        reason=("A slice assignment into a 0-size buffer (self.s[0:1] = x, s of shape (2, 0), x of shape (1, 0); eager "
                "leaves s as it is) kills convert_model with SIGFPE, in every dtype: the buffer is a constant, and "
                "ConstantFolding (apply_moc_transformations) folds a Broadcast of an empty tensor from the "
                "slice_scatter (ScatterNDUpdate) + copy_ subgraph; BroadcastBase::evaluate_broadcast divides by zero "
                "(gdb backtrace)."),
    ),
    Known(
        id="openvino-zero-d-buffer-copy-segfault", backends=("openvino",), kind="bug",
        stages=("compile-or-run",), dynamic=False, outcome="crash", errors=("WorkerDied",), ops=("buffer_update",),
        alone=True, zero_size=False,
        message=r"the worker process died: signal SIGSEGV",
        reason=("self.s.copy_(x) of a 0-d buffer from a 0-d input, the buffer returned (eager returns x's value), kills"
                " compile_model with SIGSEGV in the CPU plugin, in every dtype: the copy_ translator emits Broadcast(x,"
                " ShapeOf(s)), folded to Broadcast(Parameter of shape (), []), and the CPU plugin crashes on a "
                "Broadcast of a 0-d Parameter to shape () (a hand-built Parameter -> Broadcast(target []) -> Result "
                "does it too)."),
    ),
    Known(
        id="openvino-float64-inf-constant-saturated", backends=("openvino",), kind="bug",
        stages=("judge",), outcome="mismatch", differences=("values",), expected=("float64",),
        special=("NaN lost", "inf lost"), ops=("mask_softmax",),
        reason=("A float64 -inf constant (scores.masked_fill(mask, float('-inf')), torch.where(m, -inf, x), "
                "torch.full(..., -inf)) becomes -3.3895314e38, bfloat16's lowest, so a row of attention scores with "
                "every entry masked softmaxes to a uniform row where eager gives NaN. +inf and 1e300 saturate the same "
                "way; the float32 forms keep their infinities. The CPU plugin converts f64 to f32 (which clamps an "
                "infinity, openvinotoolkit/openvino#34138) and saturates constants to bf16's range (#28542); seen on "
                "a CPU with avx512_bf16, where the clamp lands on bf16's largest value."),
        link="https://github.com/openvinotoolkit/openvino/issues/37968",
    ),
    Known(
        id="openvino-bfloat16-inf-constant-finite", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), expected=("bool",),
        special=("", "0-d"), ops=("isfinite",),
        reason=("torch.isfinite of a bfloat16 tensor returns True for +-inf (eager False): the export decomposes it to "
                "(x == x) & (abs(x) != inf) with a bfloat16 inf constant, and the CPU plugin turns that constant into "
                "+-3.4028235e38 (FLT_MAX) when it converts bf16 constants to f32 (x == inf and x + inf of bfloat16 are "
                "wrong the same way; float16/float32 are right)."),
        link="https://github.com/openvinotoolkit/openvino/pull/35484",
    ),
    Known(
        id="openvino-dynamic-zero-size-flatten-shape", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=True, outcome="mismatch", differences=("shape",), special=("",), ops=("relu",),
        reason=("With a dynamic dim declared, relu(flatten(x, 1)) of a zero-size tensor of shape (s0, 1, 0) comes back "
                "with the wrong shape even at the example (the static compile gets it right): the converted dynamic "
                "Reshape of a zero-size input resolves its -1 wrongly."),
    ),
    Known(
        id="openvino-zero-size-bfloat16-matmul-buffer-compile", backends=("openvino",), kind="bug",
        stages=("compile-model",), dynamic=False, outcome="crash", errors=("RuntimeError",),
        message=r"object is not initialized",
        reason=("compile_model fails with 'object is not initialized' on a static MatMul with a zero-length dim wherever"
                " the CPU plugin has only the oneDNN executor for it (#37966: DnnlMatMulPrimitive is given the zero "
                "dims): a bfloat16 matmul of a zero-size input on AVX512-BF16 machines (this entry; an AVX2-only AMD "
                "EPYC compiles and runs it, meta cpu_flags), an integer batched matmul with M = 0 ((3, 0, 4) @ (3, 4, "
                "2) of int32 fails on that EPYC too; float32, with or without transposes, runs there)."),
        link="https://github.com/openvinotoolkit/openvino/issues/37966",
    ),
    Known(
        id="openvino-zero-k-matmul-fused-eltwise", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("shape",),
        ops=("relu", "abs", "sigmoid", "tanh", "gelu", "elu", "leaky_relu", "silu", "clamp", "sqrt", "add_scalar",
             "activation_form"),
        also=(
            When(stages=("compile-model",), dynamic=False, outcome="crash", errors=("RuntimeError",),
                 message=r"Matmul doesn't support a degenerate case when other ops are fused"),
        ),
        reason=("A matmul whose reduction dim is 0 (x @ x.T of x of shape (2, 0); eager: zeros of (2, 2)) followed by an"
                " elementwise op the CPU plugin fuses into the MatMul node (relu, abs, sigmoid, tanh, gelu, clamp, + a "
                "scalar; not exp, neg, * a scalar, + a tensor) is wrong in one of two ways: in 2-D the result comes back"
                " of shape (0, 0); batched ((3, 2, 0)), compile_model fails the check 'Matmul doesn't support a "
                "degenerate case when other ops are fused' (intel_cpu nodes/matmul.cpp, whose comment leaves such an "
                "executor as a todo). Without the fused op, or followed by a sum, the zeros are right."),
    ),
    Known(
        id="openvino-gather-narrow-index-garbage", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), special=("", "0-d"),
        ops=("gather",),
        reason=("torch.gather along dim 0 with an index smaller than the input in another dim (x of (2, 3), index [[0, "
                "1], [1, 0]] of (2, 2)) returns uninitialised memory, in every dtype tried (bool, int8, int64, "
                "float32); torch.gather documents index.size(d) <= input.size(d) for d != dim."),
    ),
    Known(
        id="openvino-int-prod-not-promoted", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("dtype",), expected=("int64",),
        got=("uint8", "int8", "int16", "int32", "bool"), ops=("prod",),
        reason=("prod over a dim of a small-int tensor keeps the input dtype (int16 comes back int16); eager returns "
                "int64."),
    ),
    Known(
        id="openvino-squeeze-copy-drops-every-dim", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("shape",), special=("", "0-d"), ops=("squeeze_copy", "squeeze"),
        also=(When(stages=("compile-or-run",), dynamic=False, outcome="crash", errors=("WorkerDied",),
                   message=r"the worker process died: signal SIGABRT", ops=("squeeze_copy",)),),
        reason=("OpenVINO's squeeze translator (src/frontends/pytorch/src/op/squeeze.cpp, one for aten::squeeze and "
                "squeeze_copy) emits v0::Squeeze(x[, dims]), which drops the dims it is given, or every dim, without "
                "checking that their size is 1: torch.squeeze_copy(x) without a dim comes back as a 0-d tensor whatever x's shape "
                "((3, 2, 3, 2) or (2,), with no dim of size 1), and x.squeeze(d) on a dim whose size is not 1 "
                "squeezes it anyway ((2,) comes back with shape ()); PyTorch leaves such a dim as it is. The data of "
                "a multi-element tensor as a scalar; a float op after it on bfloat16 aborts the process. Once two "
                "rows (openvino-squeeze-non-unit-dim): one translator, one missing size check. torch.squeeze(x) "
                "without a dim is converted right."),
    ),
    Known(
        id="openvino-dynamic-size-output-as-tensor", backends=("openvino",), kind="bug",
        stages=("judge",), dynamic=True, outcome="mismatch", differences=("leaf_type",), expected=("int",),
        got=("Tensor",), ops=("shape",),
        reason=("A size returned by forward (`return x.shape[0]`) over a dynamic dim comes back as a 0-d tensor, not the"
                " Python int eager returns: convert_model makes the symbolic size a graph output like any tensor."),
    ),
    Known(
        id="openvino-int32-relu-in-float32", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("int32",), special=("", "0-d"), ops=("relu",),
        reason=("relu of an int32 tensor goes through float32: 2147483646 comes back -2147483648 (rounded to 2^31, then"
                " cast back out of range); values up to 2^24 are right."),
    ),
    Known(
        id="openvino-bfloat16-clamped-atanh", backends=("openvino",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("bfloat16",), special=("", "0-d"), ops=("atanh",),
        reason=("torch.atanh(x.clamp(-0.996, 0.997)) of a bfloat16 -1.0 comes back -2.7656, atanh(-0.9921875), where "
                "eager clamps to -0.99609375 (-0.996 rounded to bfloat16) and returns -3.125: the clamped value reaches "
                "atanh one bfloat16 step nearer zero. The clamp alone and atanh alone of -0.99609375 are right; float16"
                " is right."),
        no_entry=("Its reproducer needs the bfloat16 transfer helpers (numpy has no bfloat16) and runs past the corpus's"
                  " 30-line limit: `torch.atanh(x.clamp(-0.996, 0.997))` of `torch.tensor(-1.0, dtype=torch.bfloat16)` "
                  "through openvino.convert_model and the CPU plugin gives -2.7656, eager -3.125."),
    ),
)
