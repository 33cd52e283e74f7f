"""``python -m harness.known SURVEY_DIR/findings.json``: rewrite the recorded survey."""

import sys
from pathlib import Path

from . import snapshot

if __name__ == "__main__":
    snapshot(Path(sys.argv[1]))
