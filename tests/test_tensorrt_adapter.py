"""The Torch-TensorRT adapters, checked on a CPU machine without TensorRT.

What can be checked here: the gate, the drawn options, the option -> keyword mapping,
the device moves and the output conversion, and the keyword names the adapters pass,
against the torch-tensorrt 2.14.0 signatures copied below from the wheel's source. The
compile/save/load plumbing runs end to end against a stand-in ``torch_tensorrt`` on the
CPU. Whether TensorRT then returns the right thing is the GPU nightly's job.
"""

from __future__ import annotations

import collections
import re
import sys
import types
from typing import Any, NamedTuple

import pytest
import torch
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from harness.backends import tensorrt as trt
from harness.backends.base import CompileContext, Contract, HarnessError
from harness.known import KNOWN, match
from harness.oracle import compare
from harness.registry import BUILTIN_BACKENDS, load_backend
from harness.verdict import Verdict
from strategies import ModelOutput

ADAPTERS = [trt.TrtDynamo, trt.TrtTorchCompile, trt.TrtExportedProgram, trt.TrtSaveLoad]
NAMES = ["trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved"]

# --- Signatures of torch-tensorrt 2.14.0, read from the unpacked wheel -----------------
# (torch_tensorrt-2.14.0-cp311-cp311-manylinux_2_28_x86_64.whl; paths below torch_tensorrt/)

# _compile.py L208-216: compile(module, ir="default", inputs=None, arg_inputs=None,
# kwarg_inputs=None, enabled_precisions=None, **kwargs). ir values: _compile.py L147-150.
TOP_COMPILE_PARAMS = {"module", "ir", "inputs", "arg_inputs", "kwarg_inputs", "enabled_precisions"}
IR_VALUES = {"default", "ts", "torchscript", "fx", "dynamo", "torch_compile"}

# dynamo/_compiler.py L438-508: compile(exported_program, inputs=None, *, <these>, **kwargs).
# ir="dynamo" forwards its **kwargs here (_compile.py L341-356).
DYNAMO_COMPILE_KEYWORDS = {
    "arg_inputs", "kwarg_inputs", "device", "disable_tf32", "assume_dynamic_shape_support",
    "sparse_weights", "engine_capability", "num_avg_timing_iters", "workspace_size",
    "dla_sram_size", "dla_local_dram_size", "dla_global_dram_size", "truncate_double",
    "use_complex_decomposition", "require_full_compilation", "min_block_size",
    "torch_executed_ops", "torch_executed_modules", "pass_through_build_failures",
    "max_aux_streams", "version_compatible", "optimization_level", "use_python_runtime",
    "use_fast_partitioner", "enable_experimental_decompositions", "dryrun",
    "hardware_compatible", "timing_cache_path", "lazy_engine_init", "cache_built_engines",
    "reuse_cached_engines", "engine_cache_dir", "engine_cache_size", "custom_engine_cache",
    "use_fp32_acc", "refit_identical_engine_weights", "strip_engine_weights",
    "immutable_weights", "enable_weight_streaming", "tiling_optimization_level",
    "l2_limit_for_tiling", "offload_module_to_cpu", "use_distributed_mode_trace",
    "enable_autocast", "autocast_low_precision_type", "autocast_excluded_nodes",
    "autocast_excluded_ops", "autocast_max_output_threshold", "autocast_max_depth_of_reduction",
    "autocast_calibration_dataloader", "cpu_memory_budget", "enable_resource_partitioning",
    "dynamically_allocate_resources", "decompose_attention", "disabled_constant_fold_exclusions",
    "attn_bias_is_causal", "fallback_data_dependent_ops",
}

# ir="torch_compile" passes **kwargs as torch.compile(options=...) (_compile.py L457-470);
# the backend keeps only CompilationSettings fields (dynamo/_settings.py L78-205, filtered
# at dynamo/utils.py L730-732) and handles use_python_runtime itself (utils.py L700-707).
SETTINGS_FIELDS = {
    "workspace_size", "min_block_size", "torch_executed_ops", "pass_through_build_failures",
    "max_aux_streams", "version_compatible", "optimization_level", "truncate_double",
    "use_complex_decomposition", "use_fast_partitioner", "enable_experimental_decompositions",
    "device", "require_full_compilation", "disable_tf32", "assume_dynamic_shape_support",
    "sparse_weights", "engine_capability", "num_avg_timing_iters", "dla_sram_size",
    "dla_local_dram_size", "dla_global_dram_size", "dryrun", "hardware_compatible",
    "timing_cache_path", "lazy_engine_init", "cache_built_engines", "reuse_cached_engines",
    "use_fp32_acc", "refit_identical_engine_weights", "strip_engine_weights",
    "immutable_weights", "enable_weight_streaming", "enable_cross_compile_for_windows",
    "tiling_optimization_level", "l2_limit_for_tiling", "use_distributed_mode_trace",
    "offload_module_to_cpu", "enable_autocast", "autocast_low_precision_type",
    "autocast_excluded_nodes", "autocast_excluded_ops", "autocast_max_output_threshold",
    "autocast_max_depth_of_reduction", "autocast_calibration_dataloader",
    "enable_resource_partitioning", "cpu_memory_budget", "dynamically_allocate_resources",
    "decompose_attention", "disabled_constant_fold_exclusions", "attn_bias_is_causal",
    "fallback_data_dependent_ops",
}
TORCH_COMPILE_OPTION_NAMES = SETTINGS_FIELDS | {"use_python_runtime"}

# _compile.py L688-703: save(module, file_path="", *, <these>, **kwargs).
SAVE_KEYWORDS = {
    "extra_files", "output_format", "inputs", "arg_inputs", "kwarg_inputs", "retrace",
    "use_legacy_exporter", "pickle_protocol", "dynamic_shapes",
}
SAVE_OUTPUT_FORMATS = {"exported_program", "torchscript", "aot_inductor", "executorch"}

# Defaults the adapter relies on (dynamo/_defaults.py): MIN_BLOCK_SIZE = 5 (L18),
# PASS_THROUGH_BUILD_FAILURES = False (L19), TRUNCATE_DOUBLE = False (L25),
# USE_FAST_PARTITIONER = True (L36), REQUIRE_FULL_COMPILATION = False (L38),
# USE_FP32_ACC = False (L58), IMMUTABLE_WEIGHTS = True (L61), DISABLE_TF32 = False (L11);
# use_python_runtime=False (dynamo/_compiler.py L464).
DEFAULTS = {
    "min_block_size": 5, "pass_through_build_failures": False, "truncate_double": False,
    "use_fast_partitioner": True, "require_full_compilation": False, "use_fp32_acc": False,
    "immutable_weights": True, "disable_tf32": False, "use_python_runtime": False,
}


@pytest.fixture(autouse=True)
def _fresh_import_gate():
    trt._import_error.cache_clear()
    yield
    trt._import_error.cache_clear()


# --- Gating -------------------------------------------------------------------------


def test_adapters_are_the_builtin_names():
    for name, cls in zip(NAMES, ADAPTERS, strict=True):
        assert BUILTIN_BACKENDS[name] == f"harness.backends.tensorrt:{cls.__name__}"
        backend = load_backend(name)
        assert type(backend) is cls and backend.name == name
        assert backend.contract is Contract.EXACT
        assert backend.requires == ("torch_tensorrt", "tensorrt")
        assert backend.distribution == "torch-tensorrt"


@pytest.mark.parametrize("cls", ADAPTERS)
def test_unavailable_here_names_cuda_or_the_package(cls):
    reason = cls().unavailable_reason()
    assert reason and cls.name in reason
    assert "CUDA" in reason or "tensorrt" in reason
    assert "torch_tensorrt" not in sys.modules


def test_import_does_not_import_torch_tensorrt():
    import harness.backends.tensorrt  # noqa: F401

    assert "torch_tensorrt" not in sys.modules
    assert "tensorrt" not in sys.modules


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on a machine without a GPU")
def test_no_gpu_is_named_first():
    assert trt.TrtDynamo().unavailable_reason() == "trt-dynamo: needs a CUDA GPU; torch sees none"


def test_missing_packages_are_named(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(trt, "missing_modules", lambda *names: list(names))
    reason = trt.TrtSaveLoad().unavailable_reason()
    assert reason == "trt-saved: not installed (torch_tensorrt, tensorrt missing)"


def _fake_packages(tmp_path, init_source: str) -> None:
    for name, source in (("torch_tensorrt", init_source), ("tensorrt", "")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(source)


def test_import_failure_is_the_reason(monkeypatch, tmp_path):
    # What 2.14.0 raises without libnvinfer (_TensorRTProxyModule via __init__.py L29-44).
    message = "import error when try to import _TensorRTProxyModule, got error Could not find libnvinfer.so.11"
    _fake_packages(tmp_path, f"raise Exception({message!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    reason = trt.TrtDynamo().unavailable_reason()
    assert reason is not None
    assert reason.startswith(f"trt-dynamo: import torch_tensorrt failed: Exception: {message}")
    if not str(torch.version.cuda or "").startswith("13"):
        assert "needs torch 2.14 built for CUDA 13" in reason
    assert "torch_tensorrt" not in sys.modules


def test_importable_means_available(monkeypatch, tmp_path):
    _fake_packages(tmp_path, "")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    try:
        assert all(cls().unavailable_reason() is None for cls in ADAPTERS)
    finally:
        sys.modules.pop("torch_tensorrt", None)


# --- Options ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ADAPTERS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_drawn_options_are_known_and_valid(cls, data):
    options = data.draw(cls().option_strategy())
    assert options["pass_through_build_failures"] is True
    assert options["min_block_size"] in (1, 2, 3)
    allowed = TORCH_COMPILE_OPTION_NAMES if cls is trt.TrtTorchCompile else DYNAMO_COMPILE_KEYWORDS
    assert set(options) <= allowed
    for key, value in options.items():
        if key in DEFAULTS and key != "min_block_size":
            assert isinstance(value, bool)
    # A drawn optional key always differs from Torch-TensorRT's default.
    for key in set(options) - {"min_block_size", "pass_through_build_failures"}:
        assert options[key] != DEFAULTS[key]
    assert set(trt.compile_kwargs(options)) <= allowed


@pytest.mark.parametrize("cls", ADAPTERS)
def test_options_shrink_to_one_block_and_pass_through(cls):
    minimal = find(cls().option_strategy(), lambda options: True)
    assert minimal == {"min_block_size": 1, "pass_through_build_failures": True}


@pytest.mark.parametrize("cls", ADAPTERS)
def test_every_option_can_be_drawn(cls):
    everything = find(cls().option_strategy(), lambda o: len(o) == 2 + len(cls._option_names))
    assert {k: everything[k] for k in cls._option_names} == {k: trt.OPTIONS[k] for k in cls._option_names}
    # torch.compile forces require_full_compilation to False (dynamo/utils.py L744-750).
    assert ("require_full_compilation" in everything) is (cls is not trt.TrtTorchCompile)


def test_options_that_2_14_ignores_are_never_drawn():
    # Not parameters of dynamo.compile or fields of CompilationSettings any more.
    for ignored in ("enabled_precisions", "use_explicit_typing"):
        assert ignored not in DYNAMO_COMPILE_KEYWORDS and ignored not in SETTINGS_FIELDS
        assert ignored not in trt.OPTIONS


def test_compile_kwargs():
    assert trt.compile_kwargs({}) == {"min_block_size": 1, "pass_through_build_failures": True}
    options = {"min_block_size": 3, "pass_through_build_failures": True, "truncate_double": True,
               "use_fast_partitioner": False}
    assert trt.compile_kwargs(options) == options
    # pass_through_build_failures cannot be turned off: a fallback would pass as TensorRT.
    assert trt.compile_kwargs({"pass_through_build_failures": False})["pass_through_build_failures"] is True
    with pytest.raises(HarnessError, match="use_explicit_typing"):
        trt.compile_kwargs({"use_explicit_typing": True})


# --- Device moves and output conversion --------------------------------------------


class Pair(NamedTuple):
    first: Any
    second: Any


class ListSubclass(list):
    pass


class UnregisteredDict(dict):
    pass


def _nested_output() -> Any:
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    return (
        ModelOutput(logits=t, hidden=[t.int(), None, (t.double(), 3)]),
        collections.OrderedDict(b=Pair(t.bool(), 1.5), a={"z": True, "y": torch.tensor(7)}),
        [Pair(None, [t.half()]), ()],
        UnregisteredDict(k=t.clone(), n=[t, 2]),
        ListSubclass([t, None]),
        t,
        None,
        4,
    )


def _same_types(expected: Any, actual: Any, path: str = "<output>") -> None:
    assert type(actual) is type(expected), path
    if isinstance(expected, dict):
        assert list(actual) == list(expected), path
        for key in expected:
            _same_types(expected[key], actual[key], f"{path}[{key!r}]")
    elif isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _same_types(e, a, f"{path}[{i}]")
    elif isinstance(expected, torch.Tensor):
        assert actual.device.type == "cpu", path
    else:
        assert actual == expected, path


@pytest.mark.parametrize("convert", [trt.to_cpu, lambda tree: trt.to_device(tree, "cpu")],
                         ids=["to_cpu", "to_device"])
def test_conversion_keeps_structure_exactly(convert):
    expected = _nested_output()
    actual = convert(expected)
    _same_types(expected, actual)
    assert compare(expected, actual, contract=Contract.EXACT) == []


def test_to_cpu_returns_new_containers_and_keeps_leaves():
    tree = _nested_output()
    out = trt.to_cpu(tree)
    assert out[3] is not tree[3]  # an unregistered dict subclass is copied, not aliased
    assert out[0]["hidden"][1] is None and out[-1] == 4


# --- The calls, against a stand-in torch_tensorrt ----------------------------------


class NestedModel(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))

    def forward(self, x, *, scale):
        y = x * self.weight
        return ModelOutput(out=(y + scale, [y.sum(), None]), extra={"n": 2, "t": x.int()})


@pytest.fixture
def fake_trt(monkeypatch):
    """A stand-in torch_tensorrt that records each call and compiles to eager PyTorch."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def compile(module, ir="default", inputs=None, arg_inputs=None, kwarg_inputs=None,
                enabled_precisions=None, **kwargs):
        calls.append(("compile", (module,), dict(ir=ir, arg_inputs=arg_inputs, kwarg_inputs=kwarg_inputs,
                                                 **kwargs)))
        if ir == "torch_compile":
            return module
        return torch.export.export(module, tuple(arg_inputs), kwarg_inputs).module()

    def dynamo_compile(exported_program, inputs=None, **kwargs):
        calls.append(("dynamo.compile", (exported_program,), kwargs))
        return exported_program.module()

    def save(module, file_path="", **kwargs):
        calls.append(("save", (module, file_path), kwargs))
        exported = torch.export.export(module, tuple(kwargs["arg_inputs"]), kwargs["kwarg_inputs"])
        torch.export.save(exported, file_path)

    fake = types.ModuleType("torch_tensorrt")
    fake.compile = compile
    fake.save = save
    fake.dynamo = types.SimpleNamespace(compile=dynamo_compile)
    monkeypatch.setitem(sys.modules, "torch_tensorrt", fake)
    monkeypatch.setattr(trt, "DEVICE", "cpu")
    return calls


ALL_OPTIONS = {"min_block_size": 2, "pass_through_build_failures": True, **trt.OPTIONS}


@pytest.mark.parametrize("cls", ADAPTERS)
def test_adapter_calls_match_the_2_14_api(cls, fake_trt):
    model = NestedModel().eval()
    args, kwargs = (torch.tensor([1.0, 2.0, 3.0]),), {"scale": torch.tensor(0.5)}
    with torch.no_grad():
        expected = model(*args, **kwargs)
    options = {k: v for k, v in ALL_OPTIONS.items()
               if cls is not trt.TrtTorchCompile or k != "require_full_compilation"}
    backend = cls()
    ctx = CompileContext(model, args, kwargs, options)
    compiled = backend.compile(ctx)
    with torch.no_grad():
        actual = backend.run(compiled, ctx)
    assert compare(expected, actual, contract=Contract.EXACT) == []
    _same_types(expected, actual)

    by_name = {name: (positional, keywords) for name, positional, keywords in fake_trt}
    if cls is trt.TrtExportedProgram:
        (exported,), keywords = by_name["dynamo.compile"]
        assert isinstance(exported, torch.export.ExportedProgram)
        assert set(keywords) <= DYNAMO_COMPILE_KEYWORDS
    else:
        _, keywords = by_name["compile"]
        assert set(keywords) - {"ir"} <= TOP_COMPILE_PARAMS | DYNAMO_COMPILE_KEYWORDS
        assert keywords["ir"] in IR_VALUES
        if cls is trt.TrtTorchCompile:
            assert keywords["ir"] == "torch_compile"
            assert keywords["arg_inputs"] is None and keywords["kwarg_inputs"] is None
            options_passed = set(keywords) - {"ir", "arg_inputs", "kwarg_inputs"}
            assert options_passed <= TORCH_COMPILE_OPTION_NAMES
        else:
            assert keywords["ir"] == "dynamo"
    if cls is not trt.TrtTorchCompile:
        assert all(isinstance(t, torch.Tensor) for t in keywords["arg_inputs"])
        assert set(keywords["kwarg_inputs"]) == {"scale"}
        for key, value in options.items():
            assert keywords[key] == value
    if cls is trt.TrtSaveLoad:
        _, keywords = by_name["save"]
        assert set(keywords) <= SAVE_KEYWORDS
        assert keywords["output_format"] in SAVE_OUTPUT_FORMATS
        assert keywords["retrace"] is True
        # save requires Tensors in arg_inputs and no None kwarg (_compile.py L823-840).
        assert all(isinstance(t, torch.Tensor) for t in keywords["arg_inputs"])
        assert all(v is not None for v in keywords["kwarg_inputs"].values())


# --- Known-bug table ----------------------------------------------------------------


TRT_ROWS = [row for row in KNOWN if row.id.startswith("trt-")]


def test_known_bug_entries_are_well_formed():
    ids = [row.id for row in TRT_ROWS]
    assert len(ids) == len(set(ids)) and ids
    for row in TRT_ROWS:
        assert row.backends and set(row.backends) <= set(NAMES)
        assert row.kind == "bug"
        assert re.fullmatch(r"https://github\.com/pytorch/TensorRT/(issues|pull)/\d+", row.link)
        for form in (row, *row.also):
            re.compile(form.message)


def _crash(error_type: str, message: str) -> Verdict:
    return Verdict("trt-dynamo", "crash", "compile", error_type, message)


def _mismatch(expected: Any, actual: Any) -> Verdict:
    differences = compare(expected, actual, contract=Contract.EXACT)
    return Verdict("trt-dynamo", "mismatch", "judge", differences=differences)


_T = torch.ones(2)


# Each symptom as the runner would record it, matched the way harness.known matches rows.
@pytest.mark.parametrize(("bug", "verdict"), [
    ("trt-none-output", _crash("AttributeError", "'NoneType' object has no attribute 'target'")),
    ("trt-literal-output", _crash("AttributeError", "'int' object has no attribute 'target'")),
    ("trt-scalar-output-as-tensor", _mismatch(3, torch.tensor([3]))),
    ("trt-scalar-output-as-tensor", _mismatch(True, torch.tensor(True))),
    ("trt-sym-size-output-rank", _mismatch(torch.tensor(3), torch.tensor([3]))),
    ("trt-float64-output-truncated", _mismatch(_T.double(), _T.float())),
    ("trt-fast-partitioner-return-type", _mismatch((_T,), _T)),
    ("trt-fast-partitioner-return-type", _mismatch(_T, (_T,))),
    ("trt-fast-partitioner-return-type", _mismatch((_T,), [_T])),
    ("trt-input-or-duplicate-output", _crash("IndexError", "tuple index out of range")),
    ("trt-input-or-duplicate-output",
     _crash("RuntimeError", "Specified output dtypes (3) differ from number of outputs (2)")),
])
def test_known_bug_patterns_match_their_symptom(bug, verdict):
    known = match(verdict)
    assert known is not None and known.id == bug, verdict.signature()


@pytest.mark.parametrize("verdict", [
    _mismatch({"a": _T}, (_T,)),  # dict returns have no known bug in 2.14 (#3133/#3212)
    _mismatch(_T, _T + 1),
    _mismatch(3, 4),
    _mismatch(_T.float(), _T.half()),
    _crash("AttributeError", "'Tensor' object has no attribute 'foo'"),
], ids=["dict-to-tuple", "values", "int-values", "float32-to-half", "other-attribute-error"])
def test_known_bug_patterns_leave_other_symptoms_alone(verdict):
    assert match(verdict) is None, verdict.signature()
