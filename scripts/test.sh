#!/usr/bin/env bash
# The test command: the harness's self-tests, and the derandomised `ci` profile of the
# conformance suite against every frontend installed here. Green exactly when the
# harness works and no new frontend bug appeared.
source "$(dirname "$0")/env.sh"
export ROUNDTRIP_PROFILE=ci
exec python -m pytest tests suites -n auto "$@"
