"""One way a frontend's result differs from eager's, where it is (a ``torch.utils._pytree``
key path), and how a verdict records it and a signature names it."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from torch.utils import _pytree as pytree

__all__ = ["Difference", "InState", "KeyPath", "in_state", "own_key"]


@dataclass(frozen=True)
class InState:
    """The first key of a state path: into the buffers or the inputs after the call. The
    rest of a path is ``torch.utils._pytree``'s own keys (``SequenceKey``, ``MappingKey``,
    ``GetAttrKey``), so ``pytree.keystr`` writes any path (``state.buffers['s0']``)."""

    part: str

    def __str__(self) -> str:
        return f"state.{self.part}"

    def get(self, state: dict[str, Any]) -> Any:
        return state[self.part]


#: Where a leaf or container is: key entries down the output tree (or the state).
KeyPath = tuple[Any, ...]


def in_state(path: KeyPath) -> bool:
    """The path leads into a buffer or an input after the call, not into the output."""
    return bool(path) and isinstance(path[0], InState)


#: How a verdict records a path's keys: [kind, value] pairs, read back by ``Difference.from_dict``.
_KEY_KINDS = {"index": pytree.SequenceKey, "key": pytree.MappingKey, "field": pytree.GetAttrKey, "state": InState}


def _recorded_key(key: Any) -> list[Any]:
    kind = next(k for k, cls in _KEY_KINDS.items() if isinstance(key, cls))
    return [kind, dataclasses.astuple(key)[0]]


def own_key(key: Any) -> Any:
    """A key of a registered node's own kind (a ``FlattenedKey``...) as a mapping key on
    its text: every path then holds the three pytree kinds and ``InState`` only."""
    return key if isinstance(key, tuple(_KEY_KINDS.values())) else pytree.MappingKey(str(key))


@dataclass(frozen=True)
class Difference:
    """One way a frontend's result differs from eager's: what a verdict records, and what
    its signature names (the kind, in the state or not, both sides, a special class)."""

    #: Where: the keys from the output (or the state) to the leaf or container.
    path: KeyPath
    #: container_type | keys | arity | leaf_type | dtype | shape | values | mutation_lost
    kind: str
    expected: str
    actual: str
    detail: str = ""
    #: The leaf's dtype, for a values difference (a float64 off by float32 rounding is
    #: a different bug from an int64 off by a wrap-around).
    dtype: str = ""
    #: A class of its own within the kind: for a float values difference where a
    #: special value is involved, which way (``NaN lost``, ``NaN made``, ``inf lost``,
    #: ``inf made``); for a lost mutation, ``0-d`` state; for a shape, a ``0-d`` result.
    special: str = ""
    #: For a values difference: the largest absolute and relative difference, and the
    #: index of the first element off the tolerance (computed, never read from a message).
    largest: tuple[float, float] | None = None
    index: tuple[int, ...] | None = None

    @property
    def where(self) -> str:
        """The path written out (``[0]['a'].f``, ``state.buffers['s0']``); empty for the output itself."""
        return pytree.keystr(self.path)

    @property
    def in_state(self) -> bool:
        """In a buffer or an input after the call, not in the output."""
        return in_state(self.path)

    def __str__(self) -> str:
        text = f"{self.where or '<output>'}: {self.kind} differs: expected {self.expected}, got {self.actual}"
        return f"{text} ({self.detail})" if self.detail else text

    # -- the parts a known-table row matches ---------------------------------------------

    def named(self) -> Difference:
        """As a signature names it: where only as in the state or not, a repr's contents
        dropped (values, not the kind of bug), and of the rest what the kind shows (a
        values difference's dtype and special class, a type change's two sides)."""
        state: KeyPath = (InState(""),) if self.in_state else ()
        if self.kind in _TYPE_KINDS:
            sides = _without_repr(f"{self.expected} -> {self.actual}")
            expected, arrow, actual = sides.partition(" -> ")
            return Difference(state, self.kind, expected, actual) if arrow else Difference(state, self.kind, "", "",
                                                                                        dtype=sides)
        dtype = self.dtype if self.kind == "values" else ""
        special = self.special if self.kind in _SPECIAL_KINDS else ""
        return Difference(state, self.kind, "", "", dtype=dtype, special=special)

    @property
    def sides(self) -> tuple[str, str]:
        """(eager's, the frontend's) as a row names them: the dtypes of a ``dtype``
        difference (without ``torch.``), the types of a ``leaf_type`` (without a value) or
        ``container_type`` difference; a values difference's dtype, and nothing."""
        if self.kind in _TYPE_KINDS and (self.expected or self.actual):
            expected, got = (side.strip().removeprefix("torch.") for side in (self.expected, self.actual))
            if self.kind == "leaf_type":  # a Python number's type, without its value
                expected, got = expected.split(" ")[0], got.split(" ")[0]
            return expected, got
        return self.dtype, ""

    def what(self) -> str:
        """A signature's text of it: the kind, both sides of a type change, the leaf's
        dtype for values, a special class where one applies, and ``state`` before a
        difference in a buffer or an input after the call."""
        if self.kind in _TYPE_KINDS and (self.expected or self.actual):
            what = f"{self.kind}: {self.expected} -> {self.actual}"
        else:
            what = self.kind + (f": {self.dtype}" if self.dtype and self.kind in ("values", *_TYPE_KINDS) else "")
        if self.kind in _SPECIAL_KINDS and self.special:
            what += f" {self.special}"  # NaN lost, 0-d, ...: a class of its own
        if self.in_state:
            what = f"state {what}"
        return _without_repr(what)

    # -- the JSON boundary ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """As a verdict records it: the path written out, and its keys as [kind, value] pairs."""
        data = {"path": self.where, "steps": [_recorded_key(k) for k in self.path],
                **{f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "path"}}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()
                if not (k in ("largest", "index") and v is None)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Difference:
        """A recorded difference (old reports too: a state path recorded by its text only)."""
        steps = data.get("steps")
        if steps is not None:
            path: KeyPath = tuple(_KEY_KINDS[kind](value) for kind, value in steps)
        else:
            path = (InState(""),) if (data.get("path") or "").startswith("state.") else ()
        largest, index = data.get("largest"), data.get("index")
        return cls(path, data.get("kind", "?"), str(data.get("expected", "")), str(data.get("actual", "")),
                   data.get("detail", ""), data.get("dtype", ""), data.get("special", ""),
                   tuple(largest) if largest is not None else None, tuple(index) if index is not None else None)

    @classmethod
    def from_what(cls, what: str) -> Difference:
        """The difference a signature's text names (``state dtype: torch.int64 -> torch.int32``,
        ``values: float64 NaN lost``): ``what()`` read back, at the JSON boundary only."""
        state = what.startswith("state ")
        what = what.removeprefix("state ")
        head, colon, detail = what.partition(": ")
        kind, _, special = head.partition(" ")
        expected = actual = dtype = ""
        if colon and " -> " in detail:
            expected, actual = detail.split(" -> ", 1)
        elif colon:
            dtype, _, special = detail.partition(" ")
        return cls((InState(""),) if state else (), kind, expected, actual, dtype=dtype, special=special)


#: Kinds whose difference is a change of type: a signature names both sides.
_TYPE_KINDS = ("dtype", "leaf_type", "container_type")
#: Kinds whose special class (``NaN lost``, ``0-d``) a signature names.
_SPECIAL_KINDS = ("values", "mutation_lost", "shape")


def _without_repr(text: str) -> str:
    """A repr's contents are values, not the kind of bug: ``Tensor(float32, (2,))`` is ``Tensor``."""
    return re.sub(r"\(.*\)", "", text)
