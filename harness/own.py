"""A user's own model, named by the factory that builds it: the subject of a ``check``.

A generated case is data the suite can rebuild anywhere; a user's model is code, so
it is named by import path (``my_pkg.models:make``) and built again wherever it runs
(the worker process, a reproducer). ``factory()`` returns ``(model, args, kwargs)``,
``(model, args)``, or ``(model, inputs)`` where ``inputs()`` returns ``(args, kwargs)``
(fresh inputs for each call): args and kwargs are trees of tensors, ``None`` and
Python scalars, as the model takes them.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from .attribution import Graph, export_graph

__all__ = ["OwnModel", "build"]


@dataclass(frozen=True)
class OwnModel:
    #: ``package.module:callable``
    factory: str
    #: A directory to put on ``sys.path`` first (the factory's project), if any.
    path: str = ""
    #: The factory itself, where it was handed over as a callable (``assert_roundtrips``):
    #: such a model runs in the calling process only.
    call: Callable[[], Any] | None = field(default=None, compare=False, repr=False)
    #: A node of the model's exported graph: the model cut there, returning that value
    #: alone (the probes that name which op of a user's model made a differing leaf).
    cut: str = ""

    def to_json(self) -> str:
        if self.call is not None and ":" not in self.factory:
            raise ValueError(f"{self.factory}: a factory handed over as a callable runs in this process only")
        data = {"factory": self.factory, "path": self.path, **({"cut": self.cut} if self.cut else {})}
        return json.dumps({"own_model": data}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> OwnModel:
        return cls(**json.loads(text)["own_model"])

    def ops(self) -> list[str]:
        """What a report names for a generated case's ops: the factory."""
        return [self.factory]

    def build(self) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        model, args, kwargs = build(self.factory, self.path, self.call)
        if not self.cut:
            return model, args, kwargs
        graph = export_graph(model, args, kwargs)
        if graph is None:
            raise RuntimeError(f"{self.factory}: torch.export no longer reads the model to cut it at {self.cut}")
        return graph.cut(self.cut), args, kwargs

    def graph(self) -> Graph | None:
        """The model's exported graph (None where torch.export cannot read it)."""
        return export_graph(*build(self.factory, self.path, self.call))


def load_factory(factory: str, path: str = "") -> Any:
    module_name, colon, attribute = factory.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"{factory!r}: name the factory as package.module:callable")
    if path and str(Path(path).resolve()) not in sys.path:
        sys.path.insert(0, str(Path(path).resolve()))
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def build(factory: str, path: str = "", call: Callable[[], Any] | None = None
          ) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
    """The model and its inputs, in eval mode, from the factory's return value."""
    made = (call or load_factory(factory, path))()
    if not isinstance(made, tuple) or len(made) not in (2, 3) or not isinstance(made[0], torch.nn.Module):
        raise TypeError(f"{factory}() returned {type(made).__name__}: return (model, args, kwargs), (model, args) "
                        "or (model, inputs) with inputs() -> (args, kwargs)")
    model = made[0].eval()
    if len(made) == 3:
        args, kwargs = made[1], made[2]
    elif callable(made[1]):
        args, kwargs = made[1]()
    else:
        args, kwargs = made[1], {}
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    if not isinstance(kwargs, dict):
        raise TypeError(f"{factory}(): kwargs must be a dict, not {type(kwargs).__name__}")
    return model, args, dict(kwargs)
