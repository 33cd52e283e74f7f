"""``python -m suites check pkg.module:factory``: a user's own model through the suite
(``suites.check``)."""

from __future__ import annotations

import sys

from .check import main

if __name__ == "__main__":
    if sys.argv[1:2] != ["check"]:
        sys.exit("usage: python -m suites check pkg.module:factory [--backend NAME ...] [--keep-going]")
    sys.exit(main(sys.argv[2:]))
