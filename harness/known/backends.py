"""The groups of backends rows name together."""

from __future__ import annotations

__all__ = ["TRT", "TRT_EXPORT_PATHS", "TVM"]

TVM = ("tvm-ep", "tvm-fx", "tvm-dynamo")
TRT = ("trt-dynamo", "trt-torch-compile", "trt-exported-program", "trt-saved")
#: The TensorRT paths through torch.export (torch.compile keeps None and constants out).
TRT_EXPORT_PATHS = ("trt-dynamo", "trt-exported-program", "trt-saved")
