#!/usr/bin/env bash
# Check a GPU machine by hand in under 5 minutes: the GPU, torch's CUDA, Torch-TensorRT,
# then a short conformance run (trt-dynamo builds real engines) that stops at the first
# failure.
# Runs from the repository root (it changes there), in the environment the nightly job builds
# (.github/workflows/nightly-gpu.yml). PYTHON selects the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}

echo "== nvidia-smi"
nvidia-smi

echo "== torch"
"$PYTHON" -c "
import torch
print('torch', torch.__version__, 'CUDA', torch.version.cuda)
assert torch.cuda.is_available(), 'torch sees no CUDA GPU'
print('device 0:', torch.cuda.get_device_name(0))
"

echo "== torch_tensorrt"
"$PYTHON" -c "
from importlib.metadata import PackageNotFoundError, version
import torch_tensorrt
from torch_tensorrt._version import __tensorrt_version__
try:
    installed = version('tensorrt-cu13')
except PackageNotFoundError:
    installed = 'not installed as tensorrt-cu13'
print('torch-tensorrt', torch_tensorrt.__version__, '| built for TensorRT', __tensorrt_version__,
      '| tensorrt-cu13', installed)
"

echo "== conformance (dev profile, stops at the first failure)"
timeout 280 "$PYTHON" -m pytest suites -p no:cacheprovider -q --roundtrip-profile=dev \
    --backend trt-dynamo --backend tvm-ep --tvm-target cuda -x
