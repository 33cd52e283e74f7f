"""The backends by name: the built-in adapters, the default and CPU sets, and loading one
(a built-in name or ``package.module:ClassName``) configured from a run's settings."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from .backends.base import Backend, HarnessError
from .config import Config

__all__ = ["BUILTIN_BACKENDS", "CPU_BACKENDS", "DEFAULT_BACKENDS", "load_backend", "preload_for"]

#: Built-in backend names and where their adapters live.
BUILTIN_BACKENDS = {
    "reference": "harness.backends.reference:ExportRoundTrip",
    "eager": "harness.backends.reference:Eager",
    "tvm-ep": "harness.backends.tvm:TvmExportedProgram",
    "tvm-fx": "harness.backends.tvm:TvmFx",
    "tvm-dynamo": "harness.backends.tvm:TvmDynamo",
    "trt-dynamo": "harness.backends.tensorrt:TrtDynamo",
    "trt-torch-compile": "harness.backends.tensorrt:TrtTorchCompile",
    "trt-exported-program": "harness.backends.tensorrt:TrtExportedProgram",
    "trt-saved": "harness.backends.tensorrt:TrtSaveLoad",
    "inductor": "harness.backends.inductor:Inductor",
    "onnx": "harness.backends.onnx:OnnxRuntime",
    "openvino": "harness.backends.openvino:OpenVino",
}

#: The frontends a run (and a check) covers when none is named; those not installed here
#: (TensorRT without a GPU) are skipped with the reason.
DEFAULT_BACKENDS = ("reference", "tvm-ep", "tvm-fx", "tvm-dynamo", "inductor", "onnx", "openvino",
                    "trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved")
#: Those of them that run on a CPU.
CPU_BACKENDS = DEFAULT_BACKENDS[:7]

#: One adapter per backend and configuration: (spec, the values of its ``settings``).
_loaded: dict[tuple[str, tuple[Any, ...]], Backend] = {}
_classes: dict[str, type[Backend]] = {}


def load_backend(spec: str, config: Config | None = None) -> Backend:
    """A built-in name (``tvm-ep``) or ``package.module:ClassName``, configured from
    ``config`` (the run's settings; None: the environment's, ``Config.from_environment``)
    always, so that no caller gets an adapter configured by another's settings."""
    cls = _backend_class(spec)
    config = config if config is not None else Config.from_environment()
    key = (spec, tuple(getattr(config, name) for name in cls.settings))
    if key not in _loaded:
        backend = cls()
        backend.configure(config)
        backend.configured = dict(zip(cls.settings, key[1]))
        _loaded[key] = backend
    return _loaded[key]


def _backend_class(spec: str) -> type[Backend]:
    if spec not in _classes:
        target = BUILTIN_BACKENDS.get(spec, spec)
        if ":" not in target:
            raise HarnessError(
                f"--backend {spec!r}: not a built-in name ({', '.join(BUILTIN_BACKENDS)}) "
                "nor a 'package.module:ClassName' path"
            )
        module_name, _, class_name = target.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as exc:
            raise HarnessError(f"--backend {spec!r}: cannot load {target}: {exc}") from exc
        if not (isinstance(cls, type) and issubclass(cls, Backend)):
            raise HarnessError(f"--backend {spec!r}: {target} is not a harness.backends.base.Backend")
        _classes[spec] = cls
    return _classes[spec]


def preload_for(specs: Iterable[str]) -> list[str]:
    """The modules the adapters of ``specs`` ask a worker's fork server to import
    (``Backend.preload``), in order, each once; a spec that does not load asks nothing."""
    found: dict[str, None] = {}
    for spec in specs:
        try:
            found.update(dict.fromkeys(_backend_class(spec).preload))
        except HarnessError:
            continue
    return list(found)
