"""Known rows: Apache TVM: from_exported_program (tvm-ep), from_fx (tvm-fx), relax_dynamo (tvm-dynamo)."""

from __future__ import annotations

from .backends import TVM
from .rows import Known, When

ROWS: tuple[Known, ...] = (
    Known(
        id="tvm-fx-container-constructor", backends=("tvm-fx",), kind="unsupported",
        stages=("import",), dynamic=False,
        message=r"Unsupported function types \[.*'(PlainDictSubclass|ModelOutput|Output\w*)'",
        reason="from_fx sees a namedtuple / dict subclass constructor as a call it cannot convert.",
    ),
    Known(
        id="tvm-unsupported-op", backends=TVM, kind="unsupported",
        stages=("import",), dynamic=False, errors=("AssertionError",),
        message=r"Unsupported (function (types|target)|module type)",
        reason="The importer has no converter for this aten op, function or module (from_fx: nn.LSTM), and says so.",
    ),
    Known(
        id="tvm-ep-python-scalar-output", backends=("tvm-ep",), kind="unsupported",
        stages=("import",),
        message=r"Unsupported output type in exported graph output: <class '(int|float|bool)'>",
        reason="from_exported_program rejects Python int/float/bool outputs (constants, x.shape[d]).",
    ),
    Known(
        id="tvm-fx-low-precision-params", backends=("tvm-fx",), kind="unsupported",
        stages=("import",), dynamic=False,
        message=r"Unsupported data type for model parameters: (bfloat|float)N",
        reason="from_fx rejects float16/bfloat16 parameters with a clear message.",
    ),
    Known(
        id="tvm-ep-no-tensor-output", backends=("tvm-ep",), kind="bug",
        message=r"Exported graph produced no Relax outputs",
        reason=("A model whose output has no tensor (`return ()`, `return {}`, `return None`) cannot be imported; eager"
                " and torch.export accept it."),
    ),
    Known(
        id="tvm-zero-size-input-strides", backends=TVM, kind="bug",
        message=r"Mismatched [\w.]*strides on argument",
        reason=("A contiguous torch tensor with a 0-size dim is rejected at call time: DLPack's strides for 0-size dims"
                " are not the compact ones TVM checks for."),
    ),
    Known(
        id="tvm-fx-dict-output", backends=("tvm-fx",), kind="bug",
        message=r"but got `(ffi\.Map|Array\[index N: ffi\.Map)",
        reason="from_fx crashes with an FFI type error on any dict (or OrderedDict / ModelOutput) output.",
    ),
    Known(
        id="tvm-binary-op-no-type-promotion", backends=TVM, kind="bug",
        message=r"Binary operators must have the same datatype for both operands",
        reason=("Mixed-dtype arithmetic (e.g. uint8 // int16, float + bfloat16 constant) is not promoted as PyTorch "
                "promotes; the importer emits an ill-typed op."),
    ),
    Known(
        id="tvm-tuple-struct-info", backends=TVM, kind="bug",
        message=r"The type of Tuple must be TupleType",
        reason="InternalError on a single (or aliased) output with no_bind_return_tuple / unwrap options.",
    ),
    Known(
        id="tvm-bool-scalar-build", backends=TVM, kind="bug",
        message=r"(LLVM module verification failed|MatchesCode\(DLDataTypeCode::kDLFloat\))",
        reason="Build fails on graphs of bool values (comparisons of 0-d/bool inputs, bool parameters).",
    ),
    Known(
        id="tvm-zero-size-build", backends=TVM, kind="bug",
        errors=("IndexError",),
        message=r"Index N out of bounds N",
        reason=("Build (or import) fails with an IndexError on ops over 0-size dims (cumsum, views of empty tensors, an"
                " embedding of an empty index)."),
    ),
    Known(
        id="tvm-int-float-scalar-truncated-divide-by-zero", backends=TVM, kind="bug",
        errors=("InternalError",), ops=("div_scalar", "floordiv_scalar", "mod_scalar", "div_mode_scalar"),
        message=r"Check failed: pb->value != N \(N vs\. N\) : Divide by zero",
        reason=("An integer tensor divided (/, //, %) by a Python float below 1 fails the build: the scalar is cast to "
                "the tensor's integer dtype, 0.75 becomes 0, and the arithmetic simplifier stops on the division by "
                "zero. Eager promotes to float (uint8 // 0.75 is a float32 tensor)."),
    ),
    Known(
        id="tvm-zero-size-matmul-reshape", backends=TVM, kind="bug",
        message=r"Reshape expects the new shape to be convertible",
        reason="matmul over a 0-size inner dim ((1, 0) @ (0, 1)) fails to build: a reshape from 0 to 1 elements.",
    ),
    Known(
        id="tvm-fx-unit-tuple-unwrapped", backends=("tvm-fx",), kind="documented",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("container_type",),
        expected=("tuple", "list"),
        note=r"^unwrap_unit_return_tuple: ",
        also=(
            When(stages=("judge",), dynamic=False, outcome="mismatch", differences=("arity",),
                 note=r"^unwrap_unit_return_tuple: "),
        ),
        reason=("With unwrap_unit_return_tuple=True, a 1-tuple or 1-list the model returns comes back as the bare value"
                " from from_fx: what the option is documented to do (from_fx's docstring: 'A boolean flag indicating if"
                " to the return value when it is an unit tuple'). The bare value is a tensor (container_type) or, where"
                " the unit tuple held a tuple, that tuple (arity). The suite draws the option; a user who sets it gets "
                "the bare value."),
        link="https://github.com/apache/tvm/blob/main/python/tvm/relax/frontend/torch/fx_translator.py",
    ),
    Known(
        id="tvm-layer-norm-low-precision", backends=TVM, kind="bug",
        message=r"layer_norm: only support float",
        reason="InternalError at build for LayerNorm in bfloat16/float64 instead of a clean rejection.",
    ),
    Known(
        id="tvm-dynamo-graph-without-inputs", backends=("tvm-dynamo",), kind="bug",
        outcome="crash", errors=("AssertionError",),
        message=r"^ ?$",
        reason=("A graph that reads no input (a constant output) fails relax_dynamo's `assert len(example_inputs)` "
                "(tvm/relax/frontend/torch/dynamo.py, _relax_backend); eager and Inductor run it."),
    ),
    Known(
        id="tvm-cumsum-empty-segfault", backends=TVM, kind="bug",
        errors=("WorkerDied",), ops=("cumsum", "cumprod"), zero_size=True,
        message=r"the worker process died: signal SIG(SEGV|ABRT)",
        reason=("cumsum or cumprod along a 0-length axis (x.cumprod(dim=0) of a (0, 1, 9, 3) tensor) writes out of "
                "bounds: topi.scan's CPU kernel stores out[base] = data[base] for every row before its loop over the "
                "axis, even when the axis is empty, corrupting the heap."),
    ),
    Known(
        id="tvm-sign-unsigned-build", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Check failed: \(value >= N\) is false: cannot make uint from negative value -N",
        reason=("torch.sign of a uint8 tensor (uint8 in eager: 0 or 1) fails the build: topi.sign makes a -1 constant "
                "of the input's dtype, and -1 is no uint8 (the bool case is tvm-sign-bool-build)."),
    ),
    Known(
        id="tvm-clamp-tensor-bound-broadcast", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, errors=("ValueError",),
        message=(r"broadcast_to expects the input (tensor shape is broadcastable to the target shape\. The target shape "
                 r"at dim N is T\.intN\(N\) while the input tensor shape at dim N is T\.intN\(N\), which are not "
                 r"equal|shape to have the number of ndim at least as the input tensor's)"),
        reason=("torch.clamp(x, min=t, max=t) with a tensor bound of a larger broadcast shape than x ((2, 1) clamped by"
                " (1, 3) is (2, 3) in eager) fails the import: the clamp/clamp_min/clamp_max converter broadcasts the "
                "bound to x's shape instead of the common shape."),
    ),
    Known(
        id="tvm-fx-interpolate-3d", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), dynamic=False, errors=("ValueError",),
        message=(r"In ir\.Op\(relax\.image\.resizeNd\), layout NCHW requires the input to be N-dim tensor\. However, the "
                 r"given input has ndim N"),
        reason=("F.interpolate of a 3-D (N, C, W) tensor fails the import on the FX paths: from_fx's interpolate "
                "converter emits resize3d for a 5-D input and resize2d (NCHW, 4-D only) for every other rank. "
                "from_exported_program, which sees upsample_nearest1d, runs it."),
    ),
    Known(
        id="tvm-fx-roll-zero-size", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ZeroDivisionError",),
        message=r"integer modulo by zero$",
        reason=("torch.roll(x, 1, 0) of a tensor with a 0-size dim (eager returns it unchanged) fails the import on the"
                " FX paths: the roll converter takes the shift modulo the dim's size, 0. from_exported_program runs it."),
    ),
    Known(
        id="tvm-dynamo-argsort-zero-dim-segfault", backends=("tvm-dynamo",), kind="bug",
        outcome="crash", errors=("WorkerDied",), ops=("argsort",), alone=True, zero_size=False,
        message=r"the worker process died: signal SIGSEGV",
        reason=("torch.argsort of a 0-d tensor (eager: tensor(0)) kills the process with SIGSEGV in relax_dynamo's "
                "compiled module; from_fx runs it, and from_exported_program rejects sort.stable cleanly."),
    ),
    Known(
        id="tvm-ep-none-input", backends=("tvm-ep",), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r'Cannot determine shape and dtype for input \"\w+\"$',
        reason=("A model called with a None argument (model(ids, attention_mask=None)) fails from_exported_program's "
                "import: torch.export keeps None as a ConstantArgument user input (specialised, its placeholder "
                "unused), and create_input_vars (exported_program_translator.py) makes a tensor input of every "
                "USER_INPUT placeholder from its meta value, which is None here."),
    ),
    Known(
        id="tvm-ep-number-input", backends=("tvm-ep",), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("AttributeError",),
        message=r"'(bool|int|float)' object has no attribute 'shape'$",
        reason=("A model called with a bool, int or float argument (return_dict=True, a scale) fails "
                "from_exported_program's import: torch.export specialises it as a ConstantArgument user input, and "
                "create_input_vars (exported_program_translator.py) reads the .shape of every USER_INPUT placeholder's "
                "meta value, here a Python number. The None case is tvm-ep-none-input."),
    ),
    Known(
        id="tvm-ep-group-norm-bfloat16", backends=("tvm-ep",), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("TypeError",),
        message=r"ir\.Op\(relax\.nn\.group_norm\) expects that data must be float, but got T\.bfloatN$",
        reason=("torch.nn.GroupNorm in bfloat16 (GroupNorm(1, 2, dtype=bfloat16) of a (1, 2) tensor; eager computes it)"
                " fails from_exported_program's import: the native_group_norm converter passes the bfloat16 tensor to "
                "relax.op.nn.group_norm, whose struct-info check accepts only float dtypes and does not count bfloat16 "
                "as one. float16/float32/float64 import. from_fx rejects bfloat16 parameters first "
                "(tvm-fx-low-precision-params); relax_dynamo has no group_norm converter (tvm-unsupported-op)."),
    ),
    Known(
        id="tvm-int-reduction-not-promoted", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("int64",), ops=("sum", "prod", "cumsum", "cumprod"),
        also=(
            When(stages=("judge",), dynamic=False, outcome="mismatch", differences=("dtype",), expected=("int64",),
                 got=("uint8", "int8", "int16", "int32"), ops=("split_heads",)),
        ),
        reason=("sum/prod/cumsum/cumprod of bool or small ints keep the input dtype; PyTorch returns int64. A cumsum "
                "reshaped to (*x.shape[:-1], 2, -1) is named by the reshape (@split_heads) where the harness's probe of"
                " the cumsum alone crashed under the drawn importer options (no_bind_return_tuple, "
                "unwrap_unit_return_tuple): the same cause (once the row tvm-ep-cumsum-split-heads-dtype)."),
        link="https://github.com/apache/tvm/pull/20374",
    ),
    Known(
        id="tvm-arith-result-not-promoted", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",),
        ops=("add_scalar", "sub_scalar", "mul_scalar", "floordiv_scalar", "mod_scalar"),
        reason=("Arithmetic with a Python scalar of a higher category returns the tensor's dtype instead of PyTorch's "
                "promoted one (uint8 + 2.5 comes back uint8, int64 // 2.5 int64, int16 % -1.25 int16, mask % 2 bool, "
                "int32 * 2.5 int32): _binary_op builds the scalar in the tensor's own dtype. Silently wrong values. (A "
                "tensor-tensor op's dtype is another cause, not this row's.)"),
        link="https://github.com/apache/tvm/pull/20372",
    ),
    Known(
        id="tvm-bitwise-zero-dim-promotion", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), ops=("bitwise_and", "bitwise_or", "bitwise_xor"),
        reason=("A 0-d integer tensor widens the result of a bitwise op with a dimensioned one: int8[1] & int16[] is "
                "int8 in PyTorch (a 0-d operand of the same category does not promote), TVM returns int16."),
        link="https://github.com/apache/tvm/pull/20405",
    ),
    Known(
        id="tvm-any-not-bool", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("bool",), ops=("any",),
        reason=("any of a non-bool tensor returns its maximum in the input's dtype (x.any(0) of a float32 tensor comes "
                "back float32, the column maxima): the _any converter emits relax.op.max and casts to bool only when "
                "the input is bool already. PyTorch returns bool. (Once tvm-reduction-dtype, which also claimed "
                "all/amax/argmax/mean without a case of them.)"),
        link="https://github.com/apache/tvm/pull/20376",
    ),
    Known(
        id="tvm-float64-narrowed", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float64",), got=("float32",),
        reason="float64 results come back float32 (linear/matmul/true_divide in float64).",
    ),
    Known(
        id="tvm-low-precision-widened", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float16", "bfloat16"), got=("float32",),
        reason="float16/bfloat16 results come back float32 (linear in half precision).",
    ),
    Known(
        id="tvm-select-view-shape", backends=TVM, kind="bug",
        outcome="mismatch", differences=("shape",), special=("", "0-d"), ops=("view", "select_negative"),
        reason=("x[0] or x[-1] (an int subscript alone) comes back unsliced: shape (1, 3, 3, 2) where eager gives (3, 3,"
                " 2). from_fx's getitem converter (base_fx_graph_translator._getitem, which relax_dynamo uses too) "
                "returns the tensor itself for an int index ('if isinstance(node.args[1], int): return x'). Silently "
                "wrong shape."),
    ),
    Known(
        id="tvm-bfloat16-constant", backends=TVM, kind="bug",
        message=r"Got unsupported ScalarType BFloatN",
        reason=("A bfloat16 constant or parameter crashes the importer (it goes through numpy, which has no bfloat16)."),
    ),
    Known(
        id="tvm-fx-python-bool-as-int", backends=("tvm-fx",), kind="bug",
        outcome="mismatch", differences=("leaf_type",), expected=("bool",), got=("int",),
        reason="A Python bool output comes back as an int.",
    ),
    Known(
        id="tvm-ep-mutations-dropped", backends=("tvm-ep",), kind="unsupported",
        outcome="mismatch", differences=("mutation_lost",), state=True, special=("", "0-d"),
        reason=("Buffer and input mutations are not written back, as documented: from_exported_program returns only the"
                " user outputs ('Only user-facing outputs should be returned', exported_program_translator.py, "
                "ExportedProgramImporter.from_exported_program) and binds buffers as constants. Matches only a mismatch"
                " whose every difference is a lost mutation."),
    ),
    Known(
        id="tvm-ep-mutation-returned-as-output", backends=("tvm-ep",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("container_type",), got=("tuple", ""),
        note=r"^returned [1-9]\d* leaves, the export's out_spec has 0$",
        also=(
            When(stages=("judge",), dynamic=False, outcome="mismatch", differences=("arity",),
                 note=r"^returned [1-9]\d* leaves, the export's out_spec has 0$"),
        ),
        reason=("A forward that mutates a buffer or an input and returns no tensor (`return OrderedDict()`, `return "
                "()`) comes back as a tuple holding the mutated value, or as the bare value: with no user output left, "
                "the importer returns the mutation outputs it otherwise drops. Matched only where the adapter saw "
                "leaves come back from an export whose out_spec has none."),
    ),
    Known(
        id="tvm-ep-slice-assign-not-written-back", backends=("tvm-ep",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), special=("",),
        ops=("buffer_update",),
        also=(When(stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",), special=("",),
                   ops=("setitem_slice",)),),
        reason=("With run_ep_decomposition=False, a slice assignment into a buffer and a read of the buffer after it "
                "(`self.s[:, 0:1] = x; return self.s`, s zeros of shape (2, 2), x = [[1], [2]]: eager returns [[1, 0], "
                "[2, 0]]) return the buffer's old contents ([[0, 0], [0, 0]]). The same for a fresh copy updated "
                "through a slice (`h = x.clone(); h[..., 1:] += 1; return h` returns x): the importer converts the "
                "`copy_` into the slice as a new value and never writes it back into the tensor the slice views."),
    ),
    Known(
        id="tvm-fx-var-std-no-correction", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        outcome="mismatch", differences=("values",), expected=("float16", "float32", "float64"), special=("",),
        ops=("var", "std"),
        reason=("torch.var and torch.std ignore Bessel's correction on the FX paths: var([1, 2, 4]) comes back 1.5556 "
                "(the population variance), PyTorch's default (correction=1) is 2.3333. from_exported_program, which "
                "sees the decomposed ops, gets it right. Found by the float64 precision benchmark."),
    ),
    Known(
        id="tvm-fx-inplace-ops-rebound", backends=("tvm-fx",), kind="bug",
        outcome="mismatch", differences=("mutation_lost",), special=("", "0-d"),
        ops=("buffer_update", "input_update", "counter"),
        also=(
            When(outcome="mismatch", differences=("values",), state=False, special=("",),
                 ops=("buffer_update", "input_update", "counter")),
        ),
        reason=("from_fx converts the in-place ops it maps (copy_, clamp_, iadd on a buffer) into new values: the "
                "buffer or input is never updated, and a later read of it in the same forward (`self.s.copy_(x); return"
                " self.s`) returns the old contents. Undocumented; silently wrong output and state."),
    ),
    Known(
        id="tvm-dynamo-inplace-ops-eliminated", backends=("tvm-dynamo",), kind="bug",
        outcome="mismatch", differences=("mutation_lost",), special=("", "0-d"),
        ops=("buffer_update", "input_update", "counter"),
        also=(
            When(outcome="mismatch", differences=("values",), state=False, special=("",),
                 ops=("buffer_update", "input_update", "counter")),
        ),
        reason=("relax_dynamo drops in-place updates of buffers and inputs: its backend runs "
                "graph.eliminate_dead_code(), which deletes add_/mul_/clamp_ nodes whose result is unused, so the state"
                " is never updated and a later read returns the old contents. torch.compile promises eager semantics."),
    ),
    Known(
        id="tvm-fx-python-float-through-float32", backends=("tvm-fx",), kind="bug",
        outcome="mismatch", differences=("values",), expected=("",), ops=("const_float",),
        reason="A Python float output comes back rounded through float32 (0.1 returns 0.10000000149011612).",
    ),
    Known(
        id="tvm-fx-narrow-length-as-end", backends=TVM, kind="bug",
        message=r"Input \[Begin=N, End=N\] is invalid for axis=N|the second input shape at dim N is T\.intN\(-N\)",
        also=(
            When(outcome="mismatch", differences=("shape",), special=("", "0-d"), ops=("narrow",)),
            When(outcome="mismatch", differences=("values",), special=("",), ops=("narrow",)),
            # The next op's shape check meeting the empty slice (x.narrow(0, 1, 1) is x[1:1]): a crash names
            # no op, so these two are the narrow's only where the survey met them (a linear, an ==).
            When(stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
                 message=(r"Matmul requires the reduction length of the operands to be equal\.  However, the LHS lvN has "
                          r"shape R\.shape\(\[N\]\)|In ir\.Op\(relax\.equal\), the first input shape at dim N is "
                          r"T\.intN\(N\) and the second input shape at dim N is T\.intN\(N\), which are not broadcastable")),
        ),
        reason=("x.narrow(dim, start, length) is converted as a slice from start to `length` (an end index): wrong "
                "values where start > 0, a build failure where length < start, and a negative or empty dim seen by the "
                "next op (a linear's reduction length, an =='s broadcast)."),
    ),
    Known(
        id="tvm-unary-float-op-int-input", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, errors=("TypeError",),
        message=r"ir\.Op\(relax\.\w+\) requires the input tensor to have float dtype",
        reason=("A unary float function (log, log1p, sigmoid, cos, erf, ...) of an int or bool tensor fails the import:"
                " PyTorch computes it in float32, the importer emits the Relax op on the integer tensor as it is."),
    ),
    Known(
        id="tvm-int-true-divide-not-promoted", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float32",),
        got=("int8", "int16", "int32", "int64", "uint8", "bool"), ops=("div", "div_scalar", "true_div"),
        reason=("True division of integers or bools (`torch.div(a, b)`, `2 / x`, `mask / 1`) comes back integer or "
                "bool: PyTorch returns float32 (true division promotes to the default float). Silently wrong dtype and "
                "values."),
        link="https://github.com/apache/tvm/pull/20373",
    ),
    Known(
        id="tvm-reciprocal-int-not-promoted", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float32",),
        got=("int8", "int16", "int32", "int64", "uint8"), ops=("reciprocal",),
        reason=("torch.reciprocal of an integer tensor comes back integer: PyTorch computes it in float32. The "
                "reciprocal converters (exported_program_translator._reciprocal, fx_translator._reciprocal) divide a "
                "1.0 constant made in the input's dtype by the input. Silently wrong dtype and values."),
        link="https://github.com/apache/tvm/pull/20373",
    ),
    Known(
        id="tvm-max-min-nan-lost", backends=TVM, kind="bug",
        outcome="mismatch", differences=("values",), special=("NaN lost",),
        ops=("relu", "clamp", "maximum", "minimum"),
        reason=("relu, clamp, maximum and minimum turn NaN into a number in every float dtype: relu(NaN) is 0, "
                "maximum(NaN, 1) is 1. The Relax max/min lowerings drop NaN; PyTorch propagates it (torch.maximum: 'If "
                "one of the elements being compared is a NaN, then that element is returned'). Silently wrong values."),
        link="https://github.com/apache/tvm/issues/19579",
    ),
    Known(
        id="tvm-bool-true-divide-then-abs-build", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Data type T\.bool not supported for absolute op",
        reason=("abs (or norm(p=1)) of a bool tensor divided by a Python number (`(mask / -2).abs()`) fails the build: "
                "the true division is not promoted to float (see tvm-int-true-divide-not-promoted), so abs is emitted "
                "on a bool tensor. Eager computes it in float32."),
        link="https://github.com/apache/tvm/pull/20373",
    ),
    Known(
        id="tvm-bool-div-mode-then-logical-build", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=(r"Check failed: \((lhs|rhs|arg)\.ty\(\)\.MatchesCode\([\w:, ]+\)\) is false: Expected (boolean|integer) "
                 r"argument (as [LR]HS of|for) \S+ operator \((logical (OR|AND|NOT)|bitwise XOR)\), but received "
                 r"T\.te\.tensor_load"),
        reason=("torch.div(mask, x, rounding_mode='trunc' or 'floor') of a bool tensor by a float tensor (float32 in "
                "eager), then logical_or / logical_and / logical_xor / logical_not of it, fails the build "
                "(`torch.logical_or(torch.div(torch.tensor(True), x, rounding_mode='trunc'), x)`; eager gives a bool "
                "tensor): the importer's _div emits relax.op.divide / floor_divide on the bool and float operands "
                "unpromoted, Relax infers the result bool (the lhs's dtype) while the legalized kernel computes in "
                "float, and the logical op, which casts only operands not already typed bool, gets a float operand: "
                "tvm::logical_or's boolean check fails."),
    ),
    Known(
        id="tvm-finiteness-op-dtype", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Data type T\.\w+ not supported for (finiteness ops|isnan op|isinf op)",
        reason=("isfinite/isnan/isinf of a bool or bfloat16 tensor fails the build with an InternalError (the "
                "legalization has no path for them); eager returns a bool tensor."),
    ),
    Known(
        id="tvm-clamp-one-sided-int", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("RuntimeError",),
        message=r"Cannot convert infinity to BigInt",
        reason=("clamp(min=k) of an integer tensor (no max) fails the build: the importer fills the missing bound with "
                "inf."),
    ),
    Known(
        id="tvm-fx-sdpa-3d", backends=TVM, kind="unsupported",
        stages=("import",), dynamic=False, errors=("ValueError",),
        message=r"scaled_dot_product_attention expects ND or ND inputs, but got ND input",
        reason=("The scaled_dot_product_attention converter (from_fx's and from_exported_program's) takes 2-D or 4-D "
                "inputs only and says so; PyTorch takes 3-D (batch, sequence, features) too."),
    ),
    Known(
        id="tvm-fx-uint8-negative-scalar", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, errors=("OverflowError",),
        message=r"Python integer -N out of bounds for uintN",
        reason=("A uint8 tensor with a negative Python scalar (`-1.25 <= x`, `x + -2`, which wraps in eager) fails the "
                "import: the scalar is made a uint8 constant; PyTorch compares in float and adds modulo 256."),
        link="https://github.com/apache/tvm/pull/20372",
    ),
    Known(
        id="tvm-fx-where-python-scalar", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("KeyError",),
        message=r"(True|False|-?N(\.N)?)$",
        reason=("torch.where(c, x, 1) (or where(c, True, c)) with a Python scalar branch, or torch.lerp(a, b, 0.25) "
                "with a Python float weight, fails the import with a KeyError naming the scalar: from_fx's where and "
                "lerp converters (base_fx_graph_translator.py, which relax_dynamo uses too, wrapped in "
                "BackendCompilerFailed) look the scalar up among the graph's nodes (self.env[node.args[k]]). The two "
                "converters fail alike and their crashes read the same, so one row holds both."),
    ),
    Known(
        id="tvm-fx-min-max-dim-unpack", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"not enough values to unpack \(expected N, got N\)",
        reason=("torch.min(x, dim=d) / torch.max(x, dim=d) (a (values, indices) structseq) fails the import: the "
                "converter returns one value where the graph unpacks two."),
    ),
    Known(
        id="tvm-sort-small-int", backends=TVM, kind="bug",
        stages=("run", "compile-on-call"), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Unsupported input dtype: u?intN",
        reason=("argsort/sort of an int16 or uint8 tensor builds, then fails when called: the sort kernel has no path "
                "for those dtypes."),
    ),
    Known(
        id="tvm-power-bfloat16", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Check failed: \(IsFloatType\(x\.ty\(\)\)\) is false: power only applies to float",
        reason=("A power of a bfloat16 tensor (`2 ** x`) fails the build: the power op does not count bfloat16 as a "
                "float."),
    ),
    Known(
        id="tvm-interpolate-values", backends=TVM, kind="bug",
        outcome="mismatch", differences=("values",), special=("",), ops=("interpolate",),
        reason=("F.interpolate(scale_factor=2) comes back with wrong values (seen: mode='nearest' on bfloat16 through "
                "relax_dynamo): the resize picks other source pixels than PyTorch's floor(dst / scale)."),
    ),
    Known(
        id="tvm-softmax-zero-dim", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"In ir\.Op\(relax\.nn\.(log_)?softmax\), the input axis -?N is out of range",
        reason=("softmax/log_softmax of a 0-d tensor (dim=0 or dim=-1) fails the import: Relax's NormalizeAxes allows "
                "no axis on a rank-0 tensor; PyTorch takes dim 0 (or -1) of a 0-d tensor."),
    ),
    Known(
        id="tvm-where-bool-branch-not-promoted", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=(r"Check failed: x->dtype == y->dtype \((T\.\w+ vs\. T\.bool|T\.bool vs\. T\.\w+)\) : x and y must have "
                 r"the same dtype"),
        reason=("torch.where(c, x, mask) with one bool branch and one int or float branch (int8 in eager) fails the "
                "build: the importer emits R.where without promoting the branches, Relax's dtype inference lets a bool "
                "operand through, and topi::where (topi/transform.h, the one place of this message) then requires equal"
                " dtypes. Both branches non-bool is tvm-binary-op-no-type-promotion (it fails at import)."),
    ),
    Known(
        id="tvm-stack-cat-no-type-promotion", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("TypeError",),
        message=r"(Stack|Concat) expects all input tensors to have the same dtype",
        reason=("torch.stack / torch.cat of tensors of two dtypes (int32 with bfloat16, bool with float32) fails the "
                "import: the converter emits R.stack / R.concat on the tensors as they are, where PyTorch promotes them"
                " (bfloat16). from_fx and relax_dynamo say Stack, from_exported_program (stack is decomposed to cat) "
                "says Concat."),
    ),
    Known(
        id="tvm-scalar-mod-bool-not-promoted", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("TypeError",),
        message=r"Softmax requires the input tensor to have float dtype\. However, the given input dtype is T\.bool",
        reason=("Arithmetic of a bool tensor with a Python float (`mask + 0.5`, `2.5 % mask`) stays bool in the "
                "importer where PyTorch gives float32; the softmax after it then fails the import."),
        link="https://github.com/apache/tvm/pull/20372",
    ),
    Known(
        id="tvm-sign-bool-build", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"Check failed: \(value == N \|\| value == N\) is false: -N exceeds range of bool",
        reason=("torch.sign of a bool tensor (bool in eager: sign(True) is True) fails the build: the lowering makes a "
                "-1 constant of the input's dtype, and -1 is no bool."),
    ),
    Known(
        id="tvm-div-mode-scalar-int32", backends=TVM, kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("int64",), got=("int32",), ops=("div_mode_scalar",),
        also=(When(stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
                   message=(r"Expected integer argument as RHS of << operator \(left shift\), but received "
                            r"T\.bool\(True\) of type T\.bool")),),
        reason=("torch.div(mask, 1, rounding_mode='floor') of a bool tensor by a Python int comes back int32; PyTorch "
                "promotes bool with an int scalar to int64. Silently wrong dtype. Relax still types the quotient bool, "
                "so a shift after it (`torch.div(mask, 3, rounding_mode='floor') << 1`) makes its constant a bool and "
                "fails the build."),
    ),
    Known(
        id="tvm-sort-zero-dim", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"GatherElements requires axis to be within the input dimension range \[N, -N\]",
        reason=("torch.sort of a 0-d tensor (dim=-1) fails the import: the sort converter from_fx and relax_dynamo "
                "share (base_fx_graph_translator.py _sort: argsort, then gather_elements) gathers along axis -1 of a "
                "0-d tensor; PyTorch sorts a 0-d tensor as itself. (Once two rows, tvm-fx-sort-zero-dim and "
                "tvm-dynamo-sort-gather-axis: the same reproducer through the one converter.)"),
    ),
    Known(
        id="tvm-dynamo-round-int-constant", backends=("tvm-dynamo",), kind="bug",
        stages=("import", "build"), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"torch\.tensor with value not a float or int is not accepted",
        reason=("A graph of an int32 input through round(), a buffer add and casts to float16 fails relax_dynamo's "
                "compile: a constant is built with torch.tensor of a value that is neither float nor int."),
    ),
    Known(
        id="tvm-attention-values", backends=("tvm-ep", "tvm-dynamo"), kind="bug",
        outcome="mismatch", differences=("values",), expected=("float32", "float64"), special=("",),
        ops=("cross_attention",),
        reason=("scaled_dot_product_attention of 2-D inputs (softmax(q k^T / sqrt(d)) v, no buffer involved) comes back"
                " wrong, far past the op's error bound, in float32 and float64, on from_exported_program and "
                "relax_dynamo alike: q = zeros(2, 1), k = v = [[1], [0]] gives v itself ([[1], [0]]) where eager gives "
                "[[0.5], [0.5]]. The converter lays 2-D inputs out so that each query attends only to itself."),
    ),
    Known(
        id="tvm-compare-zero-dim-operand-promoted", backends=TVM, kind="bug",
        outcome="mismatch", differences=("values",), expected=("bool",), special=("", "0-d"),
        ops=("lt", "le", "gt", "ge", "eq", "ne"),
        reason=("A comparison of a dimensioned integer tensor with a 0-d tensor of a wider integer dtype (`x1 <= x` "
                "with x uint8 and x1 an int64 0-d tensor of -1) compares in the wider dtype: PyTorch's result type is "
                "uint8 (a 0-d operand of the same category does not promote), so eager compares 255 <= x; TVM compares "
                "-1 <= x and returns True everywhere. _binary_op's _promote_common_dtype (base_fx_graph_translator.py) "
                "uses torch.promote_types on the dtypes alone, ignoring rank."),
        link="https://github.com/apache/tvm/pull/20405",
    ),
    Known(
        id="tvm-compare-int-float-scalar-truncated", backends=TVM, kind="bug",
        outcome="mismatch", differences=("values",), expected=("bool",), special=("", "0-d"),
        ops=("compare_scalar",),
        reason=("An integer tensor compared with a float Python scalar (`x < 2.5`, `x >= 1.5` on int32) compares "
                "against the scalar truncated to the tensor's dtype: 2 < 2.5 comes back False, 1 >= 1.5 True. "
                "_binary_op makes the scalar a relax.const of the tensor's dtype (base_fx_graph_translator.py); PyTorch"
                " compares in float. Silently wrong values."),
        link="https://github.com/apache/tvm/pull/20372",
    ),
    Known(
        id="tvm-int-mod-float-scalar-zero-divisor", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Check failed: \(!divisor\.is_const\(N\)\) is false: Find divide by zero$",
        reason=("An integer tensor modulo a float Python scalar below 1 (`x % 0.1` of a uint8 tensor; eager promotes to"
                " float32 and returns 0.1) fails the build: _binary_op makes the scalar a constant of the tensor's "
                "dtype, 0, and the arithmetic simplifier rejects the floor_mod by the constant 0. The wrong-dtype "
                "result of a non-zero scalar is tvm-arith-result-not-promoted."),
        link="https://github.com/apache/tvm/pull/20372",
    ),
    Known(
        id="tvm-fx-inplace-op-result-dtype", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        outcome="mismatch", differences=("dtype",), ops=("input_update", "buffer_update"),
        reason=("An in-place arithmetic op whose other operand has a wider dtype (`x += y` with x int8 and y an int64 "
                "0-d or int16 tensor, float32 += float64) returns the promoted dtype (int64, int16, float64): the FX "
                "paths convert iadd as a promoting add (fx_translator.py, \"iadd\": _binary_op(relax.op.add)) and never "
                "cast the result back to self's dtype, which an in-place op keeps in eager."),
    ),
    Known(
        id="tvm-fx-argsort-bfloat16", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        outcome="mismatch", differences=("values",), expected=("int64",), special=("", "0-d"), ops=("argsort",),
        also=(
            When(outcome="mismatch", differences=("values",), expected=("bfloat16",), special=("", "0-d"),
                 ops=("sort", "scatter_sorted")),
        ),
        reason=("torch.argsort of a bfloat16 tensor returns indices that do not sort it, and differ from call to call "
                "(the argsort of [1, 1, 1, 0, 1, 0, 0, 1] along its only dim comes back [7, 6, 1, 2, 5, 3, 0, 4]; eager"
                " [3, 5, 6, 0, 1, 2, 4, 7]; a stable argsort of eight equal values comes back [4, 7, 6, 5, 0, 1, 2, 3],"
                " eager [0, ..., 7]); float32 is right. A scatter by that argsort (zeros_like(x).scatter(d, "
                "torch.argsort(x, dim=d, stable=True), x)) writes the values to the wrong places."),
    ),
    Known(
        id="tvm-true-divide-then-leaky-relu-import", backends=TVM, kind="bug",
        stages=("import",), dynamic=False, errors=("TypeError",),
        message=r"ir\.Op\(relax\.nn\.leakyrelu\) requires the input tensor to have float dtype",
        reason=("leaky_relu of a true division of bool or integer tensors (`leaky_relu(torch.div(mask, mask + 1))`; "
                "eager divides in float32, and its leaky_relu takes float tensors only) fails the import: the division "
                "is not promoted to float (see tvm-int-true-divide-not-promoted), so relax.nn.leakyrelu gets a bool or "
                "integer tensor and rejects it."),
        link="https://github.com/apache/tvm/pull/20373",
    ),
    Known(
        id="tvm-ep-group-norm-float64-build", backends=("tvm-ep",), kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=(r"Check failed: \(data_type == PrimType::Float\(N\) \|\| data_type == PrimType::Float\(N\)\) is false: "
                 r"group_norm: only support floatN and floatN for now$"),
        reason=("torch.nn.GroupNorm in float64 (GroupNorm(3, 3, dtype=float64) of a (3, 3, 1) tensor; eager computes "
                "it) fails relax.build with an InternalError: native_group_norm imports as relax.op.nn.group_norm, "
                "whose legalization calls topi's group_norm, which checks for float32/float16 (topi/nn/group_norm.h)."),
    ),
    Known(
        id="tvm-zero-size-transpose-reshape-rewrite", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Check failed: \(it != this->var_arg_map_\.end\(\)\) is false: Var \w+ is not defined$",
        reason=("A transpose or permute of some 0-size tensors (x.transpose(1, 2) of a (0, 2, 0) tensor, alone or "
                "before a matmul; eager returns an empty (0, 0, 2) tensor) fails relax.build in VM codegen: "
                "RewriteDataflowReshape takes the legalized transpose, whose loops run zero times, for a reshape, emits"
                " R.reshape(x, (0, 2, 2)) bound to a new var and leaves the original var unbound, so a later use of it "
                "is 'not defined'."),
    ),
    Known(
        id="tvm-ep-interpolate-5d-index-broadcast", backends=("tvm-ep",), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"index_tensor: cannot broadcast index shapes\. Mismatch at axis N",
        reason=("F.interpolate(mode='nearest') of a 5-D tensor whose batch or channel size is not 1 and differs from "
                "the output depth ((1, 3, 1, 1, 1) scaled by 2) fails from_exported_program's import: the decomposition"
                " indexes x[:, :, d, h, w] with index tensors of shapes (D, 1, 1), (H, 1), (W,), and _index_tensor "
                "(base_fx_graph_translator.py) replaces each None with arange(size).reshape(size, 1, 1), which "
                "broadcasts against the index tensors instead of standing for an outer dim."),
    ),
    Known(
        id="tvm-argmax-bfloat16-build", backends=TVM, kind="bug",
        stages=("build",), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"Check failed: \(ffi::StructuralEqual\(\)\(value->ty, var->ty\)\) is false:",
        reason=("argmax/argmin of a bfloat16 tensor (x.argmax(dim=0) of a (3, 3) bfloat16 tensor; eager returns int64 "
                "indices) fails relax.build: topi's argmax reducer binds the running maximum to a bfloat16 "
                "let-variable, and the TIR pass BF16ComputeLegalize rewrites its value to float32 without retyping the "
                "variable, so tirx::Bind's type check fails. float16/float32 build."),
    ),
    Known(
        id="tvm-fx-default-parameters", backends=("tvm-fx",), kind="bug",
        stages=("import",), dynamic=False, outcome="crash", errors=("AssertionError",),
        message=r"Provided inputs is less than actual inputs",
        reason=("torch.fx.symbolic_trace makes a placeholder of every forward parameter, those with a default too "
                "(TransformerDecoderLayer's tgt_mask=None ... tgt_is_causal=False, a model's state=None); from_fx wants"
                " an input_info entry for each and asserts instead of taking the placeholder's default. No "
                "nn.TransformerDecoderLayer imports."),
    ),
    Known(
        id="tvm-full-non-finite-fill-build", backends=("tvm-ep", "tvm-dynamo"), kind="bug",
        stages=("build", "compile-on-call"), outcome="crash", errors=("TypeError",), ops=("causal_softmax",),
        message=r"argument of type 'PrimType' is not iterable",
        reason=("torch.full(shape, float('-inf')) (a causal attention mask) fails relax.build: topi.full's check that "
                "an inf or NaN fill has a float dtype tests `'float' in dtype`, and legalization passes the dtype as a "
                "PrimType, not a string. A finite fill builds. The check came with the fix for masked_fill's -inf on "
                "integer tensors."),
        link="https://github.com/apache/tvm/pull/18459",
    ),
    Known(
        id="tvm-full-float64-fill-beyond-float32", backends=("tvm-ep", "tvm-dynamo"), kind="bug",
        stages=("build", "compile-on-call"), outcome="crash", errors=("ValueError",), ops=("causal_softmax",),
        message=r"Literal value -?N\.Ne\+N exceeds (minimum|maximum) of floatN$",
        reason=("A float64 torch.full whose fill float32 cannot hold (torch.finfo(torch.float64).min, the lowest "
                "float64, as transformers fills a causal mask) fails relax.build: the fill becomes a float32 literal, "
                "and TVM checks it against float32's range."),
    ),
    Known(
        id="tvm-fx-tensor-device-attribute", backends=("tvm-fx",), kind="bug",
        stages=("import",), outcome="crash", errors=("AttributeError",), ops=("causal_softmax",),
        message=r"'Var' object has no attribute 'device'$",
        reason=("x.device in forward (torch.full(..., dtype=x.dtype, device=x.device), as model code makes a tensor "
                "beside another) fails from_fx: the getattr converter reads the attribute off the relax Var, which "
                "has dtype and shape handled but no device."),
    ),
    Known(
        id="tvm-fx-size-arithmetic-argument", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import",), outcome="crash", errors=("TypeError",), ops=("narrow_half", "slice_but_last"),
        message=r"Cannot convert (floordiv|sub|add|mul|truediv|sym_max) with type <class 'torch\.fx\.node\.Node'> to `relax\.Expr`",
        also=(When(dynamic=True, outcome="crash", errors=("TypeError",),
                   message=r"Cannot convert floordiv with type <class 'torch\.fx\.node\.Node'> to `relax\.Expr`$"),),
        reason=("An op argument computed from a size (x.narrow(0, 0, x.size(0) // 2), x[: x.size(0) - 1]) reaches the "
                "fx translator's narrow or slice converter as the fx Node itself, not its value, and convert_to_expr "
                "converts constants and Relax values only: from_fx of a static program (symbolic_trace records the "
                "int arithmetic as a floordiv or sub node), and relax_dynamo under torch.compile(dynamic=True) (the "
                "length is a node computing floordiv of a symbolic size; statically dynamo folds it to a constant). "
                "One converter (TorchFXImporter's _narrow / strided_slice), two frontends on it: the two rows this "
                "was (tvm-dynamo-dynamic-size-expression-slice) fail on the same line with the same message. "
                "x.reshape(x.size(0) // 2, -1) imports (its converter looks the node up). Related: apache/tvm PR "
                "18918 resolves fx.Node bounds in the ExportedProgram frontend's _slice only."),
    ),
    Known(
        id="tvm-fx-shape-slice-argument", backends=("tvm-fx",), kind="bug",
        stages=("import",), outcome="crash", errors=("TypeError",), ops=("new_zeros_rows",),
        message=r"'>=' not supported between instances of 'slice' and 'int'$",
        reason=("x.new_zeros(x.shape[:-1]) fails from_fx: the traced shape slice (a getitem of x.shape by a slice) "
                "reaches new_zeros' converter as the slice itself, compared with an int. x.new_zeros(x.shape[0]) "
                "imports."),
    ),
    Known(
        id="tvm-fx-fill-value-keyword", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import", "compile-on-call"), outcome="crash", errors=("IndexError",), ops=("fill_",),
        message=r"tuple index out of range",
        reason=("x.fill_(value=v), the value passed by keyword as Tensor.fill_'s signature names it, fails the FX "
                "importers: _inplace_fill reads the value as node.args[1] only (positional) and raises IndexError. "
                "x.fill_(v) imports; from_exported_program gets the value positional from export."),
    ),
    Known(
        id="tvm-ep-rnn-final-state-is-sequence", backends=("tvm-ep",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("shape",), special=("",),
        ops=("lstm", "gru", "tagger"),
        reason=("With run_ep_decomposition=False (the importer converts aten.lstm/aten.gru itself), nn.LSTM's and "
                "nn.GRU's final hidden state h_n comes back as the whole output sequence: shape (length, batch, hidden)"
                " for (layers, batch, hidden). Silently wrong for any sequence longer than 1; the default path "
                "(decomposed first) is right."),
    ),
    Known(
        id="tvm-ep-multi-layer-rnn", backends=("tvm-ep",), kind="unsupported",
        stages=("import",), dynamic=False, outcome="crash", errors=("NotImplementedError",),
        message=r"Multi-layer (LSTM|GRU) is not yet supported",
        reason=("With run_ep_decomposition=False the importer converts aten.lstm/aten.gru itself, for one layer only, "
                "and says so for more."),
        link="https://github.com/apache/tvm/blob/main/python/tvm/relax/frontend/torch/exported_program_translator.py",
    ),
    Known(
        id="fx-wrapped-forward-arity", backends=("tvm-fx",), kind="bug",
        stages=("trace",), outcome="crash", errors=("ValueError",), message=r"^code: co_varnames is too small$",
        reason=("torch.fx.symbolic_trace of a model whose forward is a decorator's (*args, **kwargs) wrapper with "
                "__wrapped__ set (transformers' OPTModel) fails before tracing anything: create_args_for_root counts "
                "the parameters of inspect.signature(forward), which follows __wrapped__ to the undecorated forward "
                "(12 of them), and _patch_function rebuilds the wrapper's own code object (6 local names) with that "
                "argument count, which CodeType refuses. torch.fx's, met through from_fx; the same misreading of a "
                "wrapped signature as export-wrapped-forward-keyword, in another component. Found by check on real "
                "models (tests/real_models.py)."),
    ),
    Known(
        id="fx-symbolic-trace-limitations", backends=("tvm-fx",), kind="unsupported",
        stages=("trace",), dynamic=False, outcome="crash",
        errors=("TraceError", "TypeError", "RuntimeError", "ValueError"),
        message=(r"symbolically traced variables cannot be used as inputs to control flow|slice indices must be integers "
                 r"or None or have an __index__ method|input to _none_or_dtype\(\) must be None or "
                 r"torch\.Tensor|vmap\(|ones\(\) takes N positional argument but N were given|torch\.finfo\(\) requires a"
                 r" floating point input type|'Proxy' object does not support item assignment|Proxy object cannot be "
                 r"iterated|'Attribute' object cannot be interpreted as an integer|You cannot specify both input_ids "
                 r"and inputs_embeds at the same time"),
        reason=("torch.fx.symbolic_trace documents that it cannot trace Python control flow on traced values, nor "
                "Python-level use of them (a Proxy as a slice bound or a size, its ndim as an int as torch.masked's "
                "reductions read it, an isinstance check, torch.finfo of its "
                "dtype, vmap, an item assignment h[idx] = v on a traced value, iterating one: list(x.shape); a defaulted "
                "parameter the call leaves out is a Proxy, not its default, so transformers' `inputs_embeds is not "
                "None` check fails a DistilBertModel called with input_ids alone): nn.LSTM/GRU/RNN, "
                "nn.TransformerEncoderLayer and transformers' models are rejected at tracing, before TVM is reached."),
        link="https://docs.pytorch.org/docs/stable/fx.html#limitations-of-symbolic-tracing",
    ),
    Known(
        id="tvm-dynamo-dynamic-weight-operand-codegen", backends=("tvm-dynamo",), kind="bug",
        dynamic=True, outcome="crash", errors=("InternalError",),
        message=r"CodeGenVM cannot emit this Relax operator directly",
        reason=("torch.compile(dynamic=True) with relax_dynamo of an elementwise op between a module's weight (a buffer"
                " or a parameter) and an input (self.s0 + x0, float32 or int8, in place or not): VM codegen meets a "
                "Relax operator no pass lowered. x0 + x0 builds; compiled without dynamic=True, the same program "
                "builds."),
    ),
    Known(
        id="tvm-dynamo-dynamic-unbind-symbolic-dim", backends=("tvm-dynamo",), kind="bug",
        dynamic=True, outcome="crash", errors=("AttributeError",),
        message=r"'Var' object has no attribute 'value'$",
        reason=("x.unbind(0) under torch.compile(dynamic=True) or mark_dynamic: the fx translator's _unbind reads the "
                "unbound dim's length as a constant (shape[dim].value), and under dynamic shapes it is a symbolic "
                "tir.Var, so relax_dynamo fails with AttributeError. Statically it converts."),
    ),
    Known(
        id="tvm-dynamo-dynamic-layer-norm-symbolic-eps", backends=("tvm-dynamo",), kind="bug",
        dynamic=True, outcome="crash", errors=("TypeError",),
        message=(r"Mismatched type on argument #N when calling: `relax\.op\.nn\.layer_norm\(.*Expected `float` but got "
                 r"`ffi\.OpaquePyObject`$"),
        reason=("nn.LayerNorm under torch.compile(dynamic=True): dynamo no longer specialises float attributes there, "
                "so the graph hands the module's eps to layer_norm as a symbolic float, and the fx translator's "
                "_layer_norm_impl passes it on to relax.op.nn.layer_norm, whose epsilon must be a Python float. "
                "Statically it converts."),
    ),
    Known(
        id="tvm-dynamo-dynamic-size-output", backends=("tvm-dynamo",), kind="bug",
        stages=("compile-on-call",), dynamic=True, outcome="crash", errors=("ValueError",),
        message=r"Unsupported type <class 'int'>$",
        reason=("A size returned beside a tensor (return x.neg(), x.shape[0]) under torch.compile(dynamic=True) or "
                "mark_dynamic: the graph returns the symbolic size, the Relax VM hands it back as a Python int, and "
                "relax_dynamo's exec_tvm -> to_torch_tensor (tvm/relax/frontend/torch/dynamo.py) converts only tensors "
                "and tuples and raises ValueError. Statically the size is a constant dynamo returns itself: it runs."),
    ),
    Known(
        id="tvm-dynamo-dynamic-roll-symbolic-shift", backends=("tvm-dynamo", "tvm-ep"), kind="bug",
        dynamic=True, outcome="crash", errors=("TypeError",),
        message=r"Unsupported type for shift/dim: <class 'tvm\.ir\.expr\.Var'>",
        reason=("torch.roll over a dynamic dim: the roll converter both importers share (relax_dynamo's, and "
                "from_exported_program's with run_ep_decomposition=False) takes the shift and dim as Python ints and "
                "fails on the symbolic size (a tvm.ir.expr.Var) that symbolic shapes bring in."),
    ),
    Known(
        id="tvm-ep-dynamic-empty-reduction-uninitialised", backends=("tvm-ep",), kind="bug",
        stages=("judge",), sizes=("min",), outcome="mismatch", differences=("values",),
        special=("", "NaN made", "inf made"), ops=("sum",),
        reason=("x.sum(0) over a dim declared Dim(min=0), called at size 0: the result is whatever the output buffer "
                "held (garbage, NaN at times), not zeros. The zero-size reduction fix (apache/tvm PR 19680, after "
                "apache/tvm#19578) zero-fills only where the reduced extent is a constant 0; a symbolic extent that is "
                "0 at run time still reads uninitialised memory. Statically the same size compiles to zeros."),
        link="https://github.com/apache/tvm/issues/19578",
        no_entry=("not stable: the buffer is at times fresh, zeroed memory, and the replay then passes (seen: the first "
                  "of two replays of the 15-line case passed); a strict replay cannot hold it"),
    ),
    Known(
        id="tvm-dynamo-dynamic-float16-expand-values", backends=("tvm-dynamo",), kind="bug",
        stages=("judge",), dynamic=True, outcome="mismatch", differences=("values",), expected=("float16",),
        special=("",), ops=("expand",),
        reason=("torch.compile(dynamic=True) through relax_dynamo: a float16 max_pool2d result expanded to a new "
                "leading dim comes back with wrong values, where the static compile returns eager's."),
        no_entry=("not stable: filed from the survey's case, the simplified case passed on the next run (values that "
                  "change from run to run, as from memory never written); kept so the survey counts it"),
    ),
    Known(
        id="tvm-dynamo-dynamic-trunc-div-emit-te", backends=("tvm-dynamo",), kind="bug",
        dynamic=True, outcome="crash", errors=("AssertionError",),
        message=r"emit_te now only supports Tensor that has ShapeExpr shape",
        reason=("torch.compile(dynamic=True) through relax_dynamo: div(rounding_mode='trunc') of a stacked int16 tensor"
                " by |x| + 1 fails the import (emit_te meets a tensor whose shape is not a ShapeExpr); static, it "
                "builds."),
    ),
    Known(
        id="tvm-dynamo-bool-clamp-float-bounds", backends=TVM, kind="bug",
        dynamic=False, outcome="crash", errors=("ValueError",),
        message=r"Check failed: \(value == N \|\| value == N\) is false: N exceeds range of bool",
        reason=("clamp of a bool tensor with a number bound outside bool's range (b.clamp(max=2), b.clamp(min=-1.25, "
                "max=2.5)): the clamp converter every TVM frontend shares (base_fx_graph_translator._clamp) makes the "
                "bounds constants of the input's dtype and TVM rejects the value; eager promotes (to int64, to float32). "
                "Static too; from_exported_program fails at the build."),
    ),
    Known(
        id="tvm-ep-dynamic-symbolic-size-functions", backends=("tvm-ep",), kind="bug",
        stages=("import",), sizes=("dynamic",), outcome="crash", errors=("AssertionError",),
        message=r"Unsupported function types \[.*'(sym_\w+|truediv|pow)'",
        reason=("A program that computes with a dynamic size (torch.sym_max(x.shape[-1] - 1, 1) as a slice bound, a "
                "mean over a dynamic dim dividing by it) exports Python-level functions on symbolic sizes (sym_max, "
                "sym_min, sym_float, operator.truediv, pow) into the graph, and from_exported_program has no converter "
                "for them."),
        link="https://github.com/apache/tvm/issues/17818",
    ),
    Known(
        id="tvm-dynamo-dynamic-arange-of-size-keyerror", backends=("tvm-dynamo",), kind="bug",
        dynamic=True, outcome="crash", errors=("KeyError",),
        message=r"NAME$",
        reason=("torch.compile(dynamic=True) through relax_dynamo of torch.arange(x.shape[-2]) over a zero-size input: "
                "the importer looks the symbolic size up among the graph's inputs and fails with a KeyError naming it."),
    ),
    Known(
        id="tvm-ep-take-negative-index", backends=("tvm-ep",), kind="bug",
        outcome="mismatch", differences=("values",), ops=("select_negative", "index_list", "setitem_select"),
        reason=("A negative index, as models read the last token, picks the wrong elements: x[-1], x[:, -1], x[..., -1]"
                " (aten.select.int) and x[..., [0, -1]] (aten.index.Tensor with one index) both become "
                "relax.op.take(x, index, axis) (exported_program_translator._select, "
                "base_fx_graph_translator._index_tensor), and take does not count a negative index from the end as "
                "PyTorch does. An augmented update h[-1] += c reads h[-1] through the same take (uninitialised values "
                "come back; h[-1] = c and h[1] += c are right). Silently wrong values."),
    ),
    Known(
        id="tvm-fx-getitem-list-index", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        outcome="crash",
        message=(r"Unsupported index type: <class 'torch\.fx\.immutable_collections\.immutable_list'>|In ir\.Op\(relax\."
                 r"strided_slice\), the input axis N is out of range|Input \[Begin=-N, End=N\] is invalid for axis=N"),
        also=(When(outcome="mismatch", ops=("index_list",)),),
        reason=("x[[0, -1]] or x[..., [0, 2]] (a Python list of indices, advanced indexing) fails or picks the wrong "
                "elements: from_fx's getitem converter (base_fx_graph_translator._getitem, which relax_dynamo uses "
                "too) reads a list subscript as one int per dim (x[[0, 1]] slices dims 0 and 1: strided_slice axis out"
                " of range, or an empty slice Begin=-1, End=0 for a negative one) and rejects a list inside a tuple "
                "('Unsupported index type: immutable_list')."),
    ),
    Known(
        id="tvm-fx-getitem-negative-int", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        outcome="crash", errors=("InternalError",),
        message=r"Reshape requires all values in the new shape to be positive except a single \"-N\"",
        also=(When(dynamic=True, outcome="crash", errors=("InternalError",), message=r"std::bad_alloc$"),),
        reason=("x[..., -1] or x[:, -1] (a negative int inside a tuple subscript) fails the import: from_fx's getitem "
                "converter slices [index, index + 1), which for -1 is the empty [-1, 0), then reshapes to a negative "
                "size; relax_dynamo, with symbolic shapes, fails allocating it (std::bad_alloc: matched on dynamic "
                "cases only, where x[..., -1] is what the survey met it on; the crash names no op)."),
    ),
    Known(
        id="tvm-ep-index-put-partial-indices", backends=("tvm-ep",), kind="bug",
        stages=("import",), outcome="crash", errors=("ValueError",),
        message=r"IndexPut requires the number of index tensors \(N\) to match the data tensor dimensions \(N\)",
        reason=("h[[0, -1]] = v on a tensor of two or more dims (an index list on the leading dim; PyTorch takes the "
                "other dims whole) fails the import: the index_put converter requires one index tensor per dim."),
    ),
    Known(
        id="tvm-ep-index-put-bool-mask", backends=("tvm-ep",), kind="bug",
        stages=("import",), outcome="crash", errors=("TypeError",),
        message=r"IndexPut requires each index tensor to have integer dtype\. However, index tensor N has dtype=T\.bool",
        reason=("h[mask] = v with a bool mask, as models mask scores, fails the import: aten.index_put with a bool "
                "index (PyTorch takes the mask's True positions) reaches the index_put converter, which takes integer"
                " index tensors only."),
    ),
    Known(
        id="tvm-fx-softmax-dtype-ignored", backends=("tvm-fx", "tvm-dynamo", "tvm-ep"), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("float32",), ops=("softmax_form",),
        reason=("F.softmax(x, dim=-1, dtype=torch.float32) (or log_softmax, or the method) of a float16/bfloat16 "
                "tensor, as models compute attention in float32, comes back in the input's dtype: the softmax and "
                "log_softmax converters every TVM importer shares (base_fx_graph_translator.py, _softmax and "
                "_log_softmax) drop the dtype argument. from_exported_program meets them with run_ep_decomposition="
                "False (aten.softmax.int); decomposed, the export casts first (_to_copy, then _softmax) and the dtype "
                "is right. Silently wrong dtype (and precision)."),
    ),
    Known(
        id="tvm-slice-begin-past-end", backends=TVM, kind="bug",
        outcome="crash", errors=("InternalError",),
        message=r"Input \[Begin=N, End=-N\] is invalid for axis=N",
        reason=("x[..., 1:-1] of a dim of size 1 (an empty slice in eager: the start past the stop gives no elements) "
                "fails the build on every TVM frontend: strided_slice checks begin <= end where PyTorch clamps the "
                "slice to empty."),
    ),
    Known(
        id="tvm-strided-slice-negative-extent", backends=("tvm-fx", "tvm-ep"), kind="bug",
        stages=("import",), outcome="crash", errors=("ValueError",),
        message=(r"broadcast_to expects the input tensor shape is broadcastable to the target shape\. The target shape "
                 r"at dim N is T\.intN\(N\) while the input tensor shape at dim N is T\.intN\(-N\)"),
        reason=("The same empty slice, x[..., 1:-1] of a size-1 dim, is given the extent -1 by Relax's shape inference "
                "at import (end - begin, unclamped), so the next op's shape check fails before any build: "
                "buf.copy_(x[..., 1:-1]) into a buffer of shape (1, 0) reads as broadcast_to from a dim of -1 (on "
                "from_exported_program too: `buf[0:0] = x[..., None][..., 1:-1]`)."),
    ),
    Known(
        id="tvm-dynamo-topk-zero-dim", backends=("tvm-dynamo",), kind="bug",
        stages=("compile-on-call",), dynamic=False, outcome="crash", errors=("IndexError",),
        message=r"^Index -N out of bounds N$",
        reason=("torch.topk(x, 1) of a 0-d tensor (eager returns 0-d values and indices) fails relax_dynamo's import: "
                "the converter reads the size of dim -1, which a 0-d tensor does not have."),
    ),
    Known(
        id="tvm-float16-inverse-trig-unlowered", backends=TVM, kind="bug",
        stages=("build", "compile-on-call"), dynamic=False, outcome="crash", errors=("InternalError",),
        message=r"unknown intrinsic ir\.Op\(tirx\.(asin|acos|atan|asinh|acosh|sinh|cosh)\)",
        reason=("asin, acos, atan, asinh, acosh, sinh and cosh of a float16 tensor fail the build: LLVM codegen has no "
                "lowering of the tirx intrinsic at float16 ('unknown intrinsic'); float32 builds, and so do float16 atanh,"
                " tan, log2, log10 and expm1."),
    ),
    Known(
        id="tvm-dynamo-tensor-literal-dtype", backends=("tvm-dynamo",), kind="bug",
        stages=("compile-on-call",), outcome="crash", errors=("TypeError",), ops=("sample_take",),
        message=r"^Cannot interpret 'torch\.\w+' as a data type$",
        reason=("A tensor made in forward from a literal with a dtype (`torch.take(x, torch.tensor(0, dtype=torch.int64))`)"
                " fails relax_dynamo's import: dynamo keeps the torch.tensor call in the graph, and the converter hands "
                "the torch.dtype to Relax, which cannot read it. from_fx (the call runs at trace time) and "
                "from_exported_program (a lifted constant) take it."),
    ),
    Known(
        id="tvm-adaptive-pool-none-output-size", backends=("tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("import", "compile-on-call"), outcome="crash", errors=("TypeError",),
        ops=("sample_nn_AdaptiveAvgPool1d", "sample_nn_AdaptiveAvgPool2d", "sample_nn_AdaptiveAvgPool3d"),
        message=(r"Mismatched type on argument #N when calling: `relax\.op\.nn\.adaptive_avg_poolNd\(.*Expected "
                 r"`Optional<Array<int>>` but got `Array\[index N: None\]`"),
        reason=("nn.AdaptiveAvgPool2d((None, 2)) (None: keep that dim's size, as documented) fails the FX importers: "
                "the module's output_size is passed to relax.op.nn.adaptive_avg_pool2d as it is, None included. "
                "from_exported_program takes it (the functional form resolves None before aten). A fix for the "
                "2d converter was proposed upstream and closed unmerged."),
        link="https://github.com/apache/tvm/pull/16014",
    ),
    Known(
        id="tvm-avg-pool-divisor-override-ignored", backends=("tvm-ep", "tvm-fx", "tvm-dynamo"), kind="bug",
        stages=("judge",), outcome="mismatch", differences=("values",), special=("",),
        ops=("sample_avg_pool2d", "sample_avg_pool3d", "sample_nn_AvgPool2d", "sample_nn_AvgPool3d"),
        reason=("avg_pool2d/avg_pool3d with divisor_override (F.avg_pool2d(x, 2, divisor_override=1): the window's "
                "sum) divide by the window's size on all three TVM paths: the converter drops divisor_override, and "
                "the result is off by the ratio of the two, without an error. The Relay frontend had the same bug."),
        link="https://github.com/apache/tvm/issues/14795",
    ),
    Known(
        id="tvm-ep-group-norm-without-affine", backends=("tvm-ep",), kind="bug",
        stages=("import",), outcome="crash", errors=("InternalError",),
        ops=("sample_nn_GroupNorm", "sample_group_norm", "sample_native_group_norm"),
        message=r"Found null pointer node while traversing AST\. The previous pass may have generated invalid data\.",
        reason=("nn.GroupNorm(1, 10, affine=False) (no weight, no bias) fails from_exported_program's import: the "
                "group_norm converter hands Relax the missing weight and bias as null, and the next pass finds a null "
                "node. With affine=True it imports; float16 and float32 alike."),
    ),
    Known(
        id="tvm-ep-vector-norm-ord-zero", backends=("tvm-ep",), kind="bug",
        stages=("import",), outcome="crash", errors=("ZeroDivisionError",),
        ops=("sample_linalg_norm", "sample_linalg_vector_norm", "sample_norm"),
        message=r"^float division by zero$",
        reason=("torch.linalg.norm(x, 0) of a vector (ord 0: the count of nonzero elements) fails "
                "from_exported_program's import: the linalg_vector_norm converter computes sum(|x|^ord)^(1/ord) for "
                "every finite ord, and 1/0 raises in Python. The message is Python's own, so this row takes any "
                "ZeroDivisionError at tvm-ep's import; no other is known."),
    ),
)
