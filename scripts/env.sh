# Sourced by the quick-start scripts: a virtual environment with everything the suite
# needs on a CPU machine. torch is pinned first to the CPU wheel, so that nothing
# later pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV="${ROUNDTRIP_VENV:-.venv}"
if [[ ! -x "$VENV/bin/python" ]]; then
  python3.11 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import torch, tvm, hypothesis, xdist, onnx, onnxscript, onnxruntime, openvino, transformers" \
    >/dev/null 2>&1 || [[ ! -x "$VENV/bin/lint-imports" ]]; then
  # TORCH_INDEX_URL (optional): a wheel index holding the CPU build, e.g. on a CI runner.
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "torch==2.13.0" \
    ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"}
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[cpu,tvm,inductor,onnx,openvino,models,dev]"
fi
export PATH="$PWD/$VENV/bin:$PATH"
