"""The harness: run one case through one frontend, judge it against eager PyTorch, and
name what went wrong (the known table). Below the corpus and the reports; the pytest
suites, the plugin and the command lines (``suites``) sit on top."""
