#!/usr/bin/env bash
# Run the conformance suite on every frontend this machine supports (TensorRT is
# skipped with the reason where there is no CUDA GPU). Extra arguments go to pytest,
# e.g. --roundtrip-profile=nightly or --backend tvm-ep.
source "$(dirname "$0")/env.sh"
exec python -m pytest suites -n auto --dist worksteal --shards 2 "$@"
