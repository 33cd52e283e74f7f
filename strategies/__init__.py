"""Roundtrip's generator: random nn.Modules with nested, varied-dtype outputs, as data."""

from __future__ import annotations

from .cases import cases
from .containers import ModelOutput, PlainDictSubclass
from .coverage import admitted_pairs, op_dtype_pairs
from .inputs import input_specs
from .models import Model, models
from .ops import FAMILIES, OPS
from .outputs import output_trees
from .render import materialize, model_source, to_source
from .spec import CONTAINER_KINDS, Case, Container, Input, Ref, Value, case_from_json, case_to_json
from .steering import Steer
from .tensors import ALL_DTYPES, dtypes, shapes

__all__ = [
    "ALL_DTYPES",
    "CONTAINER_KINDS",
    "FAMILIES",
    "OPS",
    "Case",
    "Container",
    "Input",
    "Model",
    "ModelOutput",
    "PlainDictSubclass",
    "Ref",
    "Steer",
    "Value",
    "admitted_pairs",
    "case_from_json",
    "case_to_json",
    "cases",
    "dtypes",
    "input_specs",
    "materialize",
    "models",
    "model_source",
    "op_dtype_pairs",
    "output_trees",
    "shapes",
    "to_source",
]
