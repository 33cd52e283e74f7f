"""The repository's pytest wiring: Roundtrip's plugin, ``suites.plugin``. The installed
package registers it as a ``pytest11`` entry point; a checkout run without the package
installed loads it from here (never both: pytest would register it twice)."""

from __future__ import annotations

from importlib.metadata import entry_points

pytest_plugins = [] if any(e.value == "suites.plugin" for e in entry_points(group="pytest11")) else ["suites.plugin"]
