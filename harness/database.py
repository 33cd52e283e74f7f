"""One Hypothesis example database across runs and machines, from Hypothesis's own
classes: a run saves its shrunk failures in a local directory, and replays first the
failures in that directory and in any read-only sources (last night's database, an
artifact another runner uploaded).

Each backend has its own key (``database_key``), shared by all its shards: a failure
one shard found and shrank is replayed first by every shard of that backend next time.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    ExampleDatabase,
    GitHubArtifactDatabase,
    MultiplexedDatabase,
    ReadOnlyDatabase,
)

__all__ = ["database_key", "example_database"]

#: The artifact name GitHubArtifactDatabase looks for unless told otherwise.
DEFAULT_ARTIFACT = "hypothesis-example-db"


def database_key(backend_name: str) -> bytes:
    """Where a backend's failures are kept: by name, not by the test function's source
    (which every backend shares, and which an edit would change)."""
    return f"roundtrip conformance {backend_name}".encode()


def example_database(save_to: str | None, read_from: list[str]) -> ExampleDatabase:
    """Save to ``save_to`` (the profile's database when None), and read from it and from
    each of ``read_from``: a directory, or ``github:OWNER/REPO[/ARTIFACT]`` for the
    latest such artifact of the repository's workflows (GITHUB_TOKEN in the environment)."""
    local = DirectoryBasedExampleDatabase(save_to) if save_to else settings().database
    if local is None:
        raise ValueError("the active profile has no example database: name one to save to")
    sources = [ReadOnlyDatabase(_source(spec)) for spec in read_from]
    return MultiplexedDatabase(local, *sources) if sources else local


def _source(spec: str) -> ExampleDatabase:
    if not spec.startswith("github:"):
        return DirectoryBasedExampleDatabase(spec)
    owner, _, rest = spec.removeprefix("github:").partition("/")
    repo, _, artifact = rest.partition("/")
    if not owner or not repo:
        raise ValueError(f"{spec!r}: expected github:OWNER/REPO or github:OWNER/REPO/ARTIFACT")
    return GitHubArtifactDatabase(owner, repo, artifact_name=artifact or DEFAULT_ARTIFACT)
