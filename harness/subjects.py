"""What a verdict is about, as one protocol: a generated ``Case``, a user's own model
(``harness.own.OwnModel``) or a drawn real architecture (``strategies.architectures.Architecture``).

Each kind of subject is a ``SubjectKind``: how to build its module and inputs, how it is
written to and read from JSON (an explicit ``"kind"`` tag), the features it exercises, its
source for a report, and what names it where no op does (a process that died). The
runner, the worker, the property and the reports ask ``kind_of(subject)``; nothing else
tells the three apart.
"""

from __future__ import annotations

import json
from typing import Any, Generic, TypeVar

import torch

from strategies import Case, case_from_json, case_to_json, materialize, op_dtype_pairs
from strategies.architectures import Architecture, error_bound
from strategies.architectures import build as build_architecture
from strategies.architectures import to_source as architecture_source
from strategies.render import to_source
from strategies.spec import Const, ParamNode, ParamTree

from .own import OwnModel
from .signature import Trigger

__all__ = ["KINDS", "Subject", "SubjectKind", "kind_of", "subject_from_json", "subject_to_json"]

#: What a verdict is about: a generated case, a user's own model, or a real architecture.
Subject = Case | OwnModel | Architecture
S = TypeVar("S", Case, OwnModel, Architecture)


class SubjectKind(Generic[S]):
    """The protocol every subject implements, for one kind of them."""

    #: The JSON's ``"kind"``: ``case``, ``own_model``, ``architecture``.
    tag: str
    type: type[S]
    #: A program the generator wrote: the runner knows each value's op and rounding error,
    #: the shrinker simplifies it, it may be dynamic.
    generated = False
    #: Code the suite did not write, whose ops are read from its exported graph
    #: (``harness.attribution``): a differing leaf is named by cutting the graph, a crash by
    #: the graph's ops.
    graph_named = False
    #: The file of a corpus entry that holds it.
    file_name = "case.json"

    def to_json(self, subject: S) -> str:
        return json.dumps({"kind": self.tag, **self.payload(subject)})

    def payload(self, subject: S) -> dict[str, Any]:
        raise NotImplementedError

    def from_dict(self, data: dict[str, Any]) -> S:
        raise NotImplementedError

    def build(self, subject: S) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        """The module and its inputs (args, kwargs), fresh."""
        raise NotImplementedError

    def describe(self, subject: S) -> str:
        """What a message calls it."""
        raise NotImplementedError

    def source(self, subject: S) -> str:
        """The model as a report prints it."""
        raise NotImplementedError

    def trigger(self, subject: S) -> Trigger:
        """What a case that killed or hung its process ran, for its signature: no message
        tells one segfault from another."""
        raise NotImplementedError

    def features(self, subject: S) -> set[str]:
        """The feature families it exercises, for the backend x feature matrix."""
        raise NotImplementedError

    def error_bound(self, subject: S) -> float:
        """A bound on eager's own rounding error at any float leaf, where the kind has one
        for the whole model; a generated case bounds each leaf apart, a user's model has none."""
        return 0.0

    def pruned(self, subject: S) -> S:
        """Without what its output does not need; as it is where nothing can go."""
        return subject

    def leaf_name(self, subject: S) -> str:
        """What names a differing leaf where no op of the program is known (an
        architecture: its family); empty for a user's model, whose state updates the
        runner names."""
        return ""


class _GeneratedCase(SubjectKind[Case]):
    tag, type, generated = "case", Case, True

    def payload(self, subject: Case) -> dict[str, Any]:
        return json.loads(case_to_json(subject))

    def from_dict(self, data: dict[str, Any]) -> Case:
        return case_from_json(data)

    def build(self, subject: Case) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        return materialize(subject)

    def describe(self, subject: Case) -> str:
        return "a generated case"

    def source(self, subject: Case) -> str:
        return to_source(subject)

    def trigger(self, subject: Case) -> Trigger:
        # The ops and the input dtypes, and an empty tensor (a frequent trigger).
        dtypes = sorted({i.dtype for i in subject.inputs})
        empty = any(0 in i.shape for i in subject.inputs) or any(v.shape and 0 in v.shape for v in subject.values)
        return Trigger(tuple(subject.ops()) or ("no op",), "/".join(dtypes) or "no input", empty)

    def features(self, subject: Case) -> set[str]:
        return _case_features(subject)

    def pruned(self, subject: Case) -> Case:
        return subject.pruned()


class _OwnModel(SubjectKind[OwnModel]):
    tag, type, file_name = "own_model", OwnModel, "model.json"
    graph_named = True

    def payload(self, subject: OwnModel) -> dict[str, Any]:
        return json.loads(subject.to_json())["own_model"]

    def from_dict(self, data: dict[str, Any]) -> OwnModel:
        return OwnModel(data["factory"], data.get("path", ""), cut=data.get("cut", ""))

    def build(self, subject: OwnModel) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        return subject.build()

    def describe(self, subject: OwnModel) -> str:
        return f"the model {subject.factory} builds"

    def source(self, subject: OwnModel) -> str:  # code the suite cannot write out
        return f"# the model {subject.factory}() builds (python -m suites check)"

    def trigger(self, subject: OwnModel) -> Trigger:
        # The ops of its graph, as a generated case's, so that a row naming ops matches it.
        graph = subject.graph()
        return graph.trigger() if graph is not None else Trigger((f"own model {subject.factory}",))

    def features(self, subject: OwnModel) -> set[str]:
        return {f"model:{subject.factory}"}


class _Architecture(SubjectKind[Architecture]):
    tag, type = "architecture", Architecture

    def payload(self, subject: Architecture) -> dict[str, Any]:
        return json.loads(subject.to_json())["architecture"]

    def from_dict(self, data: dict[str, Any]) -> Architecture:
        return Architecture.from_json(json.dumps({"architecture": data}))

    def build(self, subject: Architecture) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
        return build_architecture(subject)

    def describe(self, subject: Architecture) -> str:
        return f"the architecture {self.to_json(subject)}"

    def source(self, subject: Architecture) -> str:
        return architecture_source(subject)

    def trigger(self, subject: Architecture) -> Trigger:
        return Trigger((f"architecture {subject.family} in {subject.dtype}",))

    def features(self, subject: Architecture) -> set[str]:  # the family, and the dtype and flags it was drawn with
        return {f"architecture:{subject.family}", f"dtype:{subject.dtype}",
                *(f"flag:{k}" for k, v in subject.flags if v is True)}

    def error_bound(self, subject: Architecture) -> float:  # from its dtype, depth and width
        return error_bound(subject)

    def leaf_name(self, subject: Architecture) -> str:
        return subject.family


KINDS: dict[str, SubjectKind] = {kind.tag: kind for kind in (_GeneratedCase(), _OwnModel(), _Architecture())}
_BY_TYPE = {kind.type: kind for kind in KINDS.values()}


def kind_of(subject: Subject) -> SubjectKind:
    """The protocol of ``subject``'s kind."""
    try:
        return _BY_TYPE[type(subject)]
    except KeyError:
        raise TypeError(f"not a subject: {type(subject).__name__}") from None


def subject_to_json(subject: Subject) -> str:
    return kind_of(subject).to_json(subject)


def subject_from_json(text: str) -> Subject:
    """A subject from its JSON: by its ``"kind"``, or, written before the tag, by the key
    its kind wrapped it in (``own_model``, ``architecture``; a case had none)."""
    data = json.loads(text)
    tag = data.pop("kind", None)
    if tag is None:
        tag = next((t for t in ("own_model", "architecture") if t in data), "case")
        data = data.get(tag, data)
    if tag not in KINDS:
        raise ValueError(f"unknown subject kind {tag!r} (one of {', '.join(KINDS)})")
    return KINDS[tag].from_dict(data)


def _case_features(case: Case) -> set[str]:
    features = {f"container:{c.kind}" for c in case.containers()}
    refs = case.refs()
    for value in case.returned_values():
        if value.dtype:
            features.add(f"dtype:{value.dtype}")
            if value.shape == ():
                features.add("leaf:0-d tensor")
            if value.shape and 0 in value.shape:
                features.add("leaf:0-size tensor")
        else:
            features.add(f"leaf:python {value.pytype}")
        if value.op in ("input", "view", "parameter", "buffer"):
            features.add(f"leaf:{value.op} returned")
    if len(refs) != len(set(refs)):
        features.add("leaf:same value twice")
    if any(not c.items for c in case.containers()):
        features.add("leaf:empty container")
    if not case.containers():
        features.add("container:none (bare leaf)")
    features |= _input_features(case)
    if case.dynamic is not None:
        features.add(f"dynamic:{len(case.dynamic.symbols)} symbols")
        if any((d.scale, d.offset) != (1, 0) for d in case.dynamic.dims):
            features.add("dynamic:derived dim")
    # Every op the output needs, returned or intermediate: the backend x op table; and
    # each on its first operand's dtype, for op x dtype coverage (``strategies.coverage``).
    features |= {f"op:{op}" for op in case.ops()}
    features |= {f"op:{pair}" for pair in op_dtype_pairs(case)}
    return features


def _input_features(case: Case) -> set[str]:
    """How ``forward`` takes its inputs: the kinds of tree, and the constants beside them."""
    found: set[str] = set()

    def walk(node: ParamTree, nested: bool) -> None:
        if isinstance(node, Const):
            found.add(f"input:constant {type(node.value).__name__}")
        elif isinstance(node, ParamNode):
            found.add(f"input:{'nested ' if nested else ''}{node.kind}")
            for child in node.items:
                walk(child, True)

    for p in case.params:
        walk(p.tree, False)
        if p.keyword:
            found.add("input:by keyword")
    return found
