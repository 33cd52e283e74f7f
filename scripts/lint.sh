#!/usr/bin/env bash
# The lint step: style, the import layers (pyproject.toml's import-linter contracts), the
# docs against the data, and the workflows. None of it runs a frontend; CI runs it before
# the test command.
source "$(dirname "$0")/env.sh"
ruff check strategies harness suites reports tests conftest.py benchmarks scripts
lint-imports --no-cache
python -m pytest scripts/lint_docs.py -q -p no:xdist "$@"
check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
zizmor --offline --min-severity high .github/workflows/
