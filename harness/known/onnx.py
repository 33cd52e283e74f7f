"""Known rows: torch.onnx.export (dynamo) and ONNX Runtime's CPU session."""

from __future__ import annotations

from .rows import Known, When

ROWS: tuple[Known, ...] = (
    Known(
        id="onnx-lstm-projection", backends=("onnx",), kind="bug",
        stages=("session", "run"), dynamic=False, errors=("Fail",),
        message=(r"\[ONNXRuntimeError\] : N : FAIL : (Non-zero status code returned while running LSTM node\. .*Input "
                 r"initial_c must have shape|Node \(node_Concat_N\) Op \(Concat\) \[ShapeInferenceError\] All inputs to "
                 r"Concat must have same rank)"),
        reason=("nn.LSTM with proj_size > 0: ONNX's LSTM has no projection (one size for h, c and the output); the "
                "exported node takes proj_size as its hidden size yet is handed a cell state of hidden_size, and ONNX "
                "Runtime fails to load it (bidirectional: Concat of ranks 1 and 2) or to run it ('Input initial_c must "
                "have shape {1,1,4}. Actual:{1,1,8}'). Every LSTM with a projection; none without."),
        link="https://onnx.ai/onnx/operators/onnx__LSTM.html",
    ),
    Known(
        id="onnx-mutations-dropped", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("mutation_lost",), state=True, special=("", "0-d"),
        reason=("Buffer and input mutations are not written back: the exporter keeps only the user outputs and turns "
                "buffers into initializers (torch/onnx/_internal/exporter/_core.py: 'TODO: Decide if we should keep "
                "mutated buffers as inputs/outputs'). Undocumented in the exporter's documentation."),
    ),
    Known(
        id="onnx-python-scalar-output", backends=("onnx",), kind="bug",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=r"AttributeError: '(int|float|bool)' object has no attribute 'name'",
        reason=("A Python int/float/bool output (a constant, x.shape[d]) fails the export: _core._handle_output_node "
                "skips None outputs but reads .name of every other one."),
    ),
    Known(
        id="onnx-any-uint8-returns-bool", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("uint8",), got=("bool",), ops=("any", "all"),
        reason=("any() / all() of a uint8 tensor comes back bool: torchlib's aten_any / aten_all cast to BOOL; eager "
                "keeps uint8."),
    ),
    Known(
        id="onnx-mean-dim-none-invalid-graph", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("InvalidGraph",),
        message=r'.*\(\"node_Reshape_N\", Reshape, \"\", -N\) : \(\"\",',
        reason=("x.mean(dim=None) exports a Reshape whose data input is the empty name: onnx.checker and ONNX Runtime "
                "reject the model ('input 0 is marked single but has an empty string'). x.mean() exports fine."),
    ),
    Known(
        id="onnxruntime-no-output-graph", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
        message=r".*SaveInitializedTensors",
        reason=("A model whose output has no tensor (`return []`, `return {}`, `return None`) exports to a graph with "
                "no outputs, which onnx.checker accepts and ONNX Runtime fails to load with an internal check "
                "(ort_value_name_idx_map.MaxIdx() > -1)."),
    ),
    Known(
        id="onnxruntime-no-kernel-for-type", backends=("onnx",), kind="unsupported",
        stages=("session",), errors=("NotImplemented",),
        message=r".*NOT_IMPLEMENTED : Could not find an implementation for \w+\(N\) node",
        reason=("ONNX Runtime's CPU provider has no kernel for this op at this dtype (bfloat16 Mul and MatMul) and says"
                " so when the session is created."),
        link="https://github.com/microsoft/onnxruntime/blob/main/docs/OperatorKernels.md",
    ),
    Known(
        id="onnx-op-type-outside-spec", backends=("onnx",), kind="unsupported",
        stages=("session",), errors=("InvalidGraph",),
        message=r".*Type Error: Type 'tensor\(\w+\)' of input parameter \(\w+\) of operator \(\w+\)",
        reason=("The ONNX operator has no such input type (bfloat16 Conv, int8/int16/uint8 MatMul, bool Add, int8 Floor"
                " and Pow): the exporter emits it unchecked and ONNX Runtime rejects the model, naming op and type, "
                "when the session is created."),
        link="https://onnx.ai/onnx/operators/onnx__Conv.html",
    ),
    Known(
        id="onnx-no-function-for-op", backends=("onnx",), kind="unsupported",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=(r"DispatchError: No ONNX function found for <OpOverload\(op='(aten\.\w+|prims\.(bessel_\w+|digamma|"
                 r"erf_inv|ndtri|log_ndtr|erfcx|spherical_bessel_\w+|lgamma|polygamma|hypot))'"),
        reason=("The exporter has no ONNX function for this overload (aten.sort.stable; prims.digamma, prims.erf_inv, "
                "prims.hypot and the prims.bessel_* that torch.special's functions decompose to) and says so, naming it."),
        link="https://github.com/microsoft/onnxscript/tree/main/onnxscript/function_libs/torch_lib",
    ),
    Known(
        id="onnx-aminmax-without-dim", backends=("onnx",), kind="bug",
        errors=("ConversionError",),
        message=(r"^ValueError: Required parameter 'dim' is not provided\. Signature: "
                 r"pkg\.onnxscript\.torch_lib::aten_amin\("),
        reason="torch.aminmax(x) (no dim) fails the export: torchlib's aminmax calls aten_amin without its dim.",
    ),
    Known(
        id="onnx-low-precision-output-cast-dropped", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float16", "bfloat16"), got=("float32",),
        ops=("abs", "amax", "amin", "aminmax", "sum", "prod", "cumsum", "reduce_form"),
        reason=("abs, sum, prod, amin, amax, aminmax or cumsum of a float16/bfloat16 tensor returned as a model output comes "
                "back float32 (and the model-code forms torch.sum(x, dim=[-1]), x.amax((-2, -1)); the mean forms come back "
                "float16, right): the exporter's type-promotion pass computes them in float32 and casts back, but the ONNX"
                " graph outputs are taken by the export's output-spec names, which still name the node before the cast "
                "(torch/onnx/_internal/exporter/_core.py, values[spec.arg.name])."),
    ),
    Known(
        id="onnx-float-remainder-rounded-quotient", backends=("onnx",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",),
        expected=("float16", "bfloat16", "float32", "float64"), special=("", "0-d"), ops=("mod_scalar",),
        reason=("x % s with a float scalar takes the floor of the rounded quotient: uint8 x = 1 % (1/3) gives 0.0 where"
                " eager gives 0.3333333 (the float32 scalar 0.33333334 divides 1 just under 3 times, and eager's "
                "remainder is exact). torchlib's aten_remainder computes x - floor(x / y) * y, like its floor_divide, "
                "off by one whenever the exact quotient lies just below an integer."),
        link="https://github.com/microsoft/onnxscript/issues/989",
    ),
    Known(
        id="onnx-uint8-shift-signed", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("uint8",), got=("int8",),
        ops=("lshift_scalar", "rshift_scalar"),
        reason=("uint8 << k and uint8 >> k come back int8 (x << 1 of [200, 3, 255] gives [-112, 6, -2], x >> 1 gives "
                "[100, 1, 127] as int8); eager keeps uint8. torchlib's aten_bitwise_left_shift and "
                "aten_bitwise_right_shift pick the output type by bit width alone and cast the result to the signed one"
                " (8 bits: INT8), whatever the input's signedness."),
    ),
    Known(
        id="onnx-sdpa-not-4d", backends=("onnx",), kind="unsupported",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=r"AssertionError: only ND query, key, and value are supported",
        reason=("The exporter's scaled_dot_product_attention takes 4-D query, key and value only and says so; PyTorch "
                "takes 3-D too."),
    ),
    Known(
        id="onnx-sub-int-tensor-float-scalar", backends=("onnx",), kind="bug",
        message=r"Cannot find a compatible OpOverload for aten\.(sub|floor_divide) with the provided arguments",
        reason=("`2.5 - int_tensor` (a float Python scalar on the left: aten.rsub) and `-1.25 // int_tensor` fail the "
                "export: the exporter's type-promotion pass casts the int tensor to float32 and then finds no aten.sub "
                "/ aten.floor_divide overload taking a Python number as self (fx/passes/type_promotion.py, "
                "find_compatible_op_overload); eager promotes to float32 (`int_tensor - 2.5` exports)."),
        link="https://github.com/pytorch/pytorch/issues/194381",
    ),
    Known(
        id="onnx-cumprod-no-function", backends=("onnx",), kind="bug",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=r"DispatchError: No ONNX function found for <OpOverload\(op='prims\.prod', overload='default'\)>",
        reason=("cumprod of any dtype fails the export: its decomposition reaches prims.prod, which torchlib has no "
                "function for ('No decompositions registered for the real-valued input'). ONNX has no CumProd op; eager"
                " computes it."),
    ),
    Known(
        id="onnx-clamp-bool-float-bounds", backends=("onnx",), kind="bug",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=r"RuntimeError: Cannot find a compatible OpOverload for aten\.clamp with the provided arguments",
        reason=("torch.clamp of a bool tensor with one int and one float bound (x.clamp(min=1, max=2.5): float32 in "
                "eager) fails the export: the exporter finds no aten.clamp overload for those arguments (float bounds "
                "alone, or two float bounds, export)."),
    ),
    Known(
        id="onnx-squeeze-non-unit-dim", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
        message=(r"\[ONNXRuntimeError\] : N : FAIL : Node \(\w+\) Op \(Squeeze\) \[ShapeInferenceError\] Dimension of "
                 r"input N must be N instead of N"),
        also=(When(stages=("run",), dynamic=True, outcome="crash", errors=("Fail",),
                   message=r"\[ONNXRuntimeError\] : N : FAIL : Non-zero status code returned while running Squeeze node"),),
        reason=("x.squeeze(1) of a dim that is not 1 is a no-op in PyTorch; the exporter writes an ONNX Squeeze of that"
                " axis, which onnxruntime rejects when the session is made; over a dynamic dim, when it runs at a size"
                " that is not 1."),
    ),
    Known(
        id="onnx-broadcast-input-copy-shape", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("shape",), special=("",), ops=("input_update",),
        also=(When(stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
                   message=(r"\[ONNXRuntimeError\] : N : FAIL : Node \(node_GatherND_N\) Op \(GatherND\) "
                            r"\[ShapeInferenceError\] Both `data` and `indices` input tensors in GatherND op need to "
                            r"have rank larger than N")),),
        reason=("`x.copy_(y)` of an input from a broadcast one ((3,) from (1,)) and values computed after it come back "
                "in y's shape: the exported graph uses the source of the copy in place of the input it overwrote. From "
                "a 0-d y, an index of x after it (`x1.copy_(x0); x1[[0]]`) becomes a GatherND of a 0-d tensor, which "
                "ONNX Runtime rejects when the session is made."),
    ),
    Known(
        id="onnx-sdpa-zero-length-reshape", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
        message=(r"\[ONNXRuntimeError\] : N : FAIL : Node \(node_Reshape_N\) Op \(Reshape\) \[ShapeInferenceError\] "
                 r"Invalid position of N\.$"),
        reason=("scaled_dot_product_attention of 4-D inputs with a 0-length sequence dim (q = k = v of shape (1, 1, 0, "
                "1); eager returns an empty (1, 1, 0, 1) tensor) fails when the session is made: torchlib's "
                "_aten_scaled_dot_product_attention_no_mask_onnx transposes key by two Reshapes whose shapes it builds "
                "from Shape(key) ([-1, S, E] and [..., E, S]) with allowzero=0, so S = 0 reads as 'copy the input dim':"
                " the first Reshape gives (0, 1, 1), and the second has a 0 at position 3 of a rank-3 input."),
    ),
    Known(
        id="onnx-gelu-float64-float32-constants", backends=("onnx",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), expected=("float64",),
        special=("", "0-d"), ops=("gelu",),
        reason=("F.gelu(x, approximate='tanh') of a float64 tensor comes back off by ~5e-9 relative (gelu(0.5) is "
                "0.3457140080561641, eager 0.34571400982514394): the exporter writes ONNX Gelu-20 (aten_gelu_opset20), "
                "ONNX Runtime has no double Gelu kernel and inlines the op's function body, whose constants (0.044715, "
                "2/pi) are float32 cast to double. approximate='none' hits the missing double Erf kernel instead "
                "(onnxruntime-no-kernel-for-type)."),
    ),
    Known(
        id="onnx-stack-mixed-dtypes-not-promoted", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
        message=(r"\[ONNXRuntimeError\] : N : FAIL : Type Error: Type parameter \(T\) of Optype \(Concat\) bound to "
                 r"different types \(tensor\(\w+\) and tensor\(\w+\) in node \(node_stack(_N)?\)\.$"),
        reason=("torch.stack of tensors of different dtypes (bool and float32, bfloat16 and float16, int16 and bool; "
                "eager promotes, as torch.cat does) fails when the session is made: the exporter's type-promotion table"
                " has a rule for aten.cat but none for aten.stack, and torchlib's aten_stack emits Unsqueeze + Concat "
                "of the operands as they are, an ill-typed Concat. torch.cat of the same operands exports and runs."),
    ),
    Known(
        id="onnx-mean-empty-nan-lost", backends=("onnx",), kind="bug",
        stages=("judge",), outcome="mismatch", differences=("values",), special=("NaN lost",),
        expected=("float16", "bfloat16", "float32", "float64"), ops=("mean",),
        reason=("The mean over a dim of length 0 (x.mean(dim=1) of x of shape (2, 0)) is NaN in PyTorch (0 / 0, "
                "documented) and 0 from the exported ReduceMean on ONNX Runtime's CPU kernel, which fills an empty "
                "reduction with the sum's 0; the ONNX spec leaves ReduceMean of an empty set undefined, so the "
                "exporter would have to guard it. Met at a dynamic range's minimum of 0, static too."),
    ),
    Known(
        id="onnx-amax-nan-lost", backends=("onnx",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), special=("NaN lost",),
        ops=("amax",),
        reason=("amax over a dim turns NaN into a number: the exported ReduceMax run by ONNX Runtime's CPU kernel skips"
                " NaN; PyTorch propagates it. Reached by the dynamic search's draws, compiled statically too."),
        link="https://github.com/microsoft/onnxruntime/issues/10514",
    ),
    Known(
        id="onnx-any-int-values", backends=("onnx",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), expected=("bool",),
        special=("", "0-d"), ops=("any",),
        reason=("any() of an empty int8 tensor (shape (0, 15)) comes back True; eager gives False (no element is "
                "nonzero). Found through a remainder of a sum; the smallest case is the empty any alone."),
    ),
    Known(
        id="onnx-dynamic-size-output-as-tensor", backends=("onnx",), kind="bug",
        stages=("judge",), dynamic=True, outcome="mismatch", differences=("leaf_type",), expected=("int",),
        got=("Tensor",), ops=("shape",),
        reason=("x.shape[0] returned by a model exported with a dynamic dim comes back as a 0-d int64 tensor, not a "
                "Python int, even at the example: the symbolic size becomes a graph output (TensorRT #4614 is the same "
                "class). Static, the exporter fails on a Python int output instead (onnx-python-scalar-output)."),
    ),
    Known(
        id="onnx-float64-constant-in-float32", backends=("onnx",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("float64",), special=("", "0-d"),
        ops=("log10", "log2", "deg2rad", "rad2deg", "sinc", "log10_", "log2_", "deg2rad_", "rad2deg_", "sinc_",
             "add_scalar", "sub_scalar", "mul_scalar", "div_scalar", "floordiv_scalar", "div_mode_scalar",
             "where_scalar", "masked_fill", "clamp", "full", "full_like", "addcmul", "lerp"),
        reason=("torchlib writes a float constant of a float64 computation in float32 and casts it to double: the "
                "constants of its own decompositions (log10(x) is Log(x) / ln 10 with ln 10 as 2.3025851249694824, "
                "deg2rad and rad2deg multiply by a float32 pi / 180, sinc by a float32 pi, in place or not), and a "
                "Python float beside a float64 tensor (x * 0.1 multiplies by 0.10000000149011612: the export keeps "
                "the scalar in float64, aten.scalar_tensor(0.1, dtype=float64), a clamp bound, full_like's fill "
                "value, addcmul's value, lerp's weight). Off by float32's rounding (1e-8 relative) where eager keeps "
                "float64's 1e-16, and x // 0.1 by a whole unit. Exact scalars (0.5, 2.5) and float32 tensors are "
                "right. Once two rows (onnx-float64-python-float-in-float32): one float32 default for a float "
                "constant."),
    ),
    Known(
        id="onnx-optimizer-shared-clip-bound-dropped", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("InvalidArgument",),
        message=(r"\[ONNXRuntimeError\] : N : INVALID_ARGUMENT : Invalid model\. Node input '\w+_min_N' is not a graph "
                 r"input, initializer, or output of a previous node\."),
        reason=("Two clamps of one float64 input to the same bounds, one feeding a HardSigmoid (which ONNX Runtime has no"
                " float64 kernel for) and the other another op: the exporter's optimizer (torch.onnx.export's "
                "optimize=True, onnxscript's) leaves a Clip whose min bound no node makes, and making the session "
                "fails on the invalid model. With optimize=False the model is valid and the session refuses it "
                "cleanly (NOT_IMPLEMENTED: no HardSigmoid(6) kernel). Alone, the float64 HardSigmoid is that clean "
                "rejection (onnxruntime-no-kernel-for-type). Component: the exporter's optimizer, not ONNX Runtime."),
    ),
    Known(
        id="onnx-cat-all-empty", backends=("onnx",), kind="bug",
        stages=("onnx-export",), dynamic=False, outcome="crash", errors=("ConversionError",),
        message=r"AssertionError: aten::cat received all None or empty tensors",
        reason=("torch.cat of tensors that are all empty (two of shape (0,); eager returns one of shape (0,)) fails the "
                "export: torchlib's aten_cat drops empty inputs and then asserts that something is left."),
    ),
    Known(
        id="onnx-topk-zero-dim", backends=("onnx",), kind="bug",
        stages=("session",), dynamic=False, outcome="crash", errors=("Fail",),
        message=r"\[ONNXRuntimeError\] : N : FAIL : Node \(node_topk_+N\) Op \(TopK\) \[ShapeInferenceError\] Invalid value for "
                r"attribute axis",
        reason=("torch.topk(x, 1) of a 0-d tensor (eager returns 0-d values and indices) fails when the session is made: "
                "the exporter writes an ONNX TopK over axis -1 of a rank-0 input, which ONNX's TopK does not take."),
    ),
    Known(
        id="onnx-zero-size-reshape-minus-one", backends=("onnx",), kind="bug",
        stages=("session",), outcome="crash", errors=("Fail",),
        message=(r"\[ONNXRuntimeError\] : N : FAIL : Node \(node_Reshape_N\) Op \(Reshape\) \[ShapeInferenceError\] "
                 r"Invalid Target shape product of N\. Product cannot be N in combination with -N"),
        reason=("A Reshape whose target holds a -1 beside a product of 0 fails when the session is made: ONNX "
                "Runtime's shape inference cannot infer the -1 (undefined by design, microsoft/onnxruntime#9940), "
                "and the exporter writes such targets for zero-size tensors PyTorch handles: nn.GroupNorm over a "
                "zero-size batch ((0, 1); torchlib's group_norm reshapes to (N, groups, -1)), and flatten of a "
                "zero-size tensor one of whose other dims is dynamic (x of shape (s0, 1, 0), flatten(x, 1) as "
                "Reshape(x, [s0, -1]); static, the export writes the literal shape). Once two rows "
                "(onnx-dynamic-zero-size-flatten-reshape): the same Reshape, the same message."),
        link="https://github.com/microsoft/onnxruntime/issues/9940",
    ),
    Known(
        id="onnx-cross-entropy-unbatched-invalid-reshape", backends=("onnx",), kind="bug",
        stages=("session",), outcome="crash", errors=("Fail",),
        ops=("sample_cross_entropy", "sample_nn_CrossEntropyLoss", "sample_linear_cross_entropy"),
        message=r"\[ONNXRuntimeError\] : N : FAIL : Node \(\) Op \(Reshape\) \[ShapeInferenceError\] Invalid position of N\.",
        reason=("F.cross_entropy of an unbatched input (1-D logits, a 0-d class index: F.cross_entropy(x, "
                "torch.tensor(2)) for x of shape (4,)) exports a Reshape whose shape has a 0 where the data has no "
                "such dim, and ONNX Runtime refuses to load the model. Batched inputs export fine; so does "
                "F.linear_cross_entropy of a batch, not of one row."),
    ),
    Known(
        id="onnx-vector-norm-zero-dim-axis", backends=("onnx",), kind="bug",
        stages=("session",), outcome="crash", errors=("Fail",),
        ops=("sample_linalg_vector_norm", "sample_linalg_norm"),
        message=(r"Op \(Reduce(Sum|L1|L2|Max|Min)\) \[ShapeInferenceError\] axis must be in \[-rank, rank-N\]\. "
                 r"Input rank was N"),
        reason=("torch.linalg.vector_norm(x, dim=-1) of a 0-d tensor (eager reads dim -1 of a scalar as the scalar "
                "itself) exports a ReduceL2 (ReduceSum for another ord) with axis -1 over a rank-0 input, which ONNX "
                "Runtime refuses to load. torch.sum(x, dim=-1) of the same tensor exports fine."),
    ),
)
