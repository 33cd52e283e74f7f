"""``models()``: drawn cases, built, for a user's own ``@given`` tests.

``cases()`` draws a model as data (what the suite shrinks, replays and writes reproducers
from); a test of one's own compiler wants the module and its inputs. Each drawn
``Model`` is ``materialize(case)``: the case alone decides it, so its repr is the case,
which rebuilds it (``Model.of(case)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
from hypothesis import strategies as st

from .cases import cases
from .drawing import Named
from .render import materialize, to_source
from .spec import Case

__all__ = ["Model", "models"]


@dataclass(frozen=True)
class Model:
    """A drawn model: ``module(*args, **kwargs)`` is what eager PyTorch computes."""

    case: Case
    module: torch.nn.Module = field(repr=False, compare=False)
    args: tuple[Any, ...] = field(repr=False, compare=False)
    kwargs: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, case: Case) -> Model:
        return cls(case, *materialize(case))

    def source(self) -> str:
        """The same model as standalone Python (torch only)."""
        return to_source(self.case)


def models(**options: Any) -> st.SearchStrategy[Model]:
    """Random ``nn.Module``s with their inputs, built: ``cases(**options)`` (the same
    keyword options, checked the same way) mapped through ``Model.of``. Fresh inputs each
    draw; a failing example shrinks as its case does."""
    inner = cases(**options)
    return Named(inner.map(Model.of), repr(inner).replace("cases(", "models(", 1))
