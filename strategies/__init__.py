"""Roundtrip's generator: random nn.Modules with nested, varied-dtype outputs, as data."""

from __future__ import annotations

from .cases import ALL_DTYPES, cases, dtypes, input_specs, output_trees, shapes
from .containers import ModelOutput, PlainDictSubclass
from .ops import FAMILIES, OPS
from .render import materialize, model_source, to_source
from .spec import CONTAINER_KINDS, Case, Container, Input, Ref, Value, case_from_json, case_to_json

__all__ = [
    "ALL_DTYPES",
    "CONTAINER_KINDS",
    "FAMILIES",
    "OPS",
    "Case",
    "Container",
    "Input",
    "ModelOutput",
    "PlainDictSubclass",
    "Ref",
    "Value",
    "case_from_json",
    "case_to_json",
    "cases",
    "dtypes",
    "input_specs",
    "materialize",
    "model_source",
    "output_trees",
    "shapes",
    "to_source",
]
