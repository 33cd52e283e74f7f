"""Known rows: torch.compile's default backend, Inductor, on the CPU."""

from __future__ import annotations

from .rows import Known, When

ROWS: tuple[Known, ...] = (
    Known(
        id="inductor-any-uint8-returns-bool", backends=("inductor",), kind="bug",
        outcome="mismatch", differences=("dtype",), expected=("uint8",), got=("bool",), ops=("any",),
        reason=("any() of a uint8 tensor comes back bool; eager (and aot_eager) keep uint8. Inductor's own reduce_any "
                "lowering casts to bool."),
        link="https://github.com/pytorch/pytorch/issues/198081",
    ),
    Known(
        id="inductor-rank0-float64-mutation-lost", backends=("inductor",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("mutation_lost",), special=("0-d",),
        ops=("buffer_update", "input_update", "counter"),
        also=(
            When(stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",),
                 expected=("float64",), special=("", "0-d"), ops=("buffer_update",)),
        ),
        reason=("An in-place update of a 0-d float64 tensor, a buffer or an input (`self.s.add_(x)`, `x2.mul_(y)`), is "
                "lost: the buffer keeps its old value, and forward returning it returns the old value. float32 and "
                "int64 0-d tensors, and a float64 tensor of shape (1,), are fine, whatever forward returns (checked "
                "with buffer.add_(x) returning x or the buffer). aot_eager does the same: dynamo's "
                "tensorify_python_scalars pass turns the 0-d float64 tensor into a Python float, restarts the analysis "
                "(TensorifyScalarRestartAnalysis), and the restarted graph has no in-place op on it."),
    ),
    Known(
        id="inductor-mul-softmax-zero-dim", backends=("inductor",), kind="bug",
        stages=("compile-on-call",), dynamic=False, outcome="crash", errors=("IndexError",),
        message=r"list index out of range$",
        reason=("torch.softmax(x * y, dim=-1) of 0-d tensors (eager: tensor(1.)) fails the compile: the joint-graph "
                "mul-softmax pattern's extra check _other_is_broadcasted_in_dim "
                "(torch/_inductor/fx_passes/joint_graph.py) indexes the empty shape list of a 0-d operand with dim -1 "
                "(its bounds check only catches d >= ndim)."),
        link="https://github.com/pytorch/pytorch/issues/190418",
    ),
    Known(
        id="inductor-float-floor-divide-rounded-quotient", backends=("inductor",), kind="bug",
        stages=("judge",), dynamic=False, outcome="mismatch", differences=("values",),
        expected=("float16", "bfloat16", "float32", "float64"), special=("", "0-d"),
        ops=("floordiv_scalar", "floor_div"),
        reason=("Floor division of floats floors the quotient after rounding it: x // 0.1 of x = 1 gives 10 (the "
                "float32 quotient 9.99999985 rounds to 10.0) where eager and Python give 9, the floor of the exact "
                "quotient."),
        link="https://github.com/pytorch/pytorch/issues/197895",
    ),
    Known(
        id="inductor-int8-maximum-mixed-width-codegen", backends=("inductor",), kind="bug",
        stages=("compile-on-call",), dynamic=False, outcome="crash", errors=("InductorError",),
        message=(r"CppCompileError: C\+\+ compile error: error: no matching function for call to "
                 r"‘(max|min)_propagate_nan\(((un)?signed char|u?intN_t)&, int&\)’"),
        reason=("torch.maximum of an int8 or uint8 value and a wider int computed with it (x1 + buffer, abs; "
                "`torch.maximum(x, x.abs())` of a 0-d uint8), or an int16 amax of a truncating division: Inductor's C++"
                " emits max_propagate_nan of a narrow int and an int (signed char, unsigned char, int16_t), which no "
                "overload takes."),
    ),
)
