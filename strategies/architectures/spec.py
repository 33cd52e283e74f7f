"""A real architecture as data: the family, its constructor's config as a literal, the
flags of the call, the dtype and the seed of its weights and inputs.

Like a generated ``Case``, an ``Architecture`` is frozen and JSON-serialisable: the
model, its inputs and its reproducer are all derived from it
(``strategies.architectures.to_source``), and a failure replays from its JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["Architecture"]

Pairs = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Architecture:
    #: ``lstm``, ``mha``, ``bert``, ... (``strategies.architectures.FAMILIES``)
    family: str
    #: The constructor's keyword arguments (``BertConfig(**config)``, ``nn.LSTM(**config)``).
    config: Pairs
    #: How the model is called: its inputs' sizes, the optional inputs given, the output flags.
    flags: Pairs
    dtype: str = "float32"
    #: ``torch.manual_seed`` for the weights, and the inputs' generator.
    seed: int = 0

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.config)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.flags)

    def ops(self) -> list[str]:
        """What a report names for a generated case's ops: the family."""
        return [self.family]

    def to_json(self) -> str:
        return json.dumps({"architecture": {"family": self.family, "config": dict(self.config),
                                            "flags": dict(self.flags), "dtype": self.dtype, "seed": self.seed}})

    @classmethod
    def from_json(cls, text: str) -> Architecture:
        data = json.loads(text)["architecture"]
        return cls(data["family"], tuple(data["config"].items()), tuple(data["flags"].items()), data["dtype"],
                   data["seed"])
