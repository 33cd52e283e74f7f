#!/usr/bin/env bash
# The test command: the harness's self-tests, and the derandomised `ci` profile of the
# conformance suite against every frontend installed here. Green exactly when the
# harness works and no new frontend bug appeared.
source "$(dirname "$0")/env.sh"
export ROUNDTRIP_PROFILE=ci
# The conformance items (a backend each, the longest ones) go first, and idle workers
# steal queued items: both cores stay busy to the end.
exec python -m pytest suites tests -n auto --dist worksteal "$@"
