#!/usr/bin/env bash
# The test command: the harness's self-tests, and the derandomised `ci` profile of the
# conformance suite against every frontend installed here. Green exactly when the
# harness works and no new frontend bug appeared.
source "$(dirname "$0")/env.sh"
export ROUNDTRIP_PROFILE=ci
# Each backend's budget is split in two items (--shards 2, each seeded apart) so that no
# single slow frontend keeps one core busy while the other idles; idle workers steal
# queued items (worksteal).
exec python -m pytest suites tests -n auto --dist worksteal --shards 2 "$@"
