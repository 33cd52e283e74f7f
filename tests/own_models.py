"""Models as users write them, for ``python -m suites check`` and its self-tests: inputs
that are trees (an ``(h0, c0)`` state, a dict batch, a cache of ``(key, value)``
pairs), ``None`` and Python flags, outputs that are nested tuples and dicts.

Each factory returns ``(model, args, kwargs)``; weights and inputs come from a fixed
seed, so every process builds the same model.
"""

from __future__ import annotations

from collections import OrderedDict

import torch
from torch import nn

__all__ = ["attention_with_cache", "cache_updated_in_place", "dict_batch", "encoder_with_flags", "lstm_with_state"]


def _generator() -> torch.Generator:
    return torch.Generator().manual_seed(0)


def lstm_with_state():
    """``nn.LSTM`` fed an initial ``(h0, c0)``; returns ``(out, (h, c))`` as the module does."""
    torch.manual_seed(0)  # the LSTM's own initialisation
    model = nn.LSTM(input_size=4, hidden_size=3, num_layers=2, batch_first=True)
    g = _generator()
    x = torch.randn(2, 5, 4, generator=g)
    state = (torch.randn(2, 2, 3, generator=g), torch.randn(2, 2, 3, generator=g))
    return model, (x, state), {}


class Encoder(nn.Module):
    """A transformers-like call: ``model(input_ids, attention_mask=None, return_dict=True)``."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(11, 8)
        self.proj = nn.Linear(8, 8)

    def forward(self, input_ids, attention_mask=None, return_dict=True, scale=1.0):
        hidden = self.proj(self.embed(input_ids)) * scale
        if attention_mask is not None:
            hidden = hidden * attention_mask.unsqueeze(-1)
        pooled = hidden.mean(dim=1)
        if not return_dict:
            return hidden, pooled
        return OrderedDict(last_hidden_state=hidden, pooler_output=pooled, lengths=input_ids.ne(0).sum(-1))


def encoder_with_flags():
    """A ``None`` mask, a ``return_dict=True`` flag and a float scale, all keywords."""
    torch.manual_seed(0)
    ids = torch.randint(0, 11, (2, 6), generator=_generator())
    return Encoder(), (ids,), {"attention_mask": None, "return_dict": True, "scale": 0.5}


class Batch(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.head = nn.Linear(4, 2)

    def forward(self, batch):
        logits = self.head(batch["features"]).masked_fill(~batch["mask"].unsqueeze(-1), 0.0)
        return {"logits": logits, "labels": batch["labels"] * 2}


def dict_batch():
    """One dict input of a float, a bool and an int64 tensor."""
    torch.manual_seed(0)
    g = _generator()
    batch = {"features": torch.randn(3, 4, generator=g), "mask": torch.tensor([True, False, True]),
             "labels": torch.tensor([1, 0, 2])}
    return Batch(), (batch,), {}


class CachedAttention(nn.Module):
    """One attention step over a cache of ``(key, value)`` pairs, one per layer."""

    def __init__(self, layers: int = 2) -> None:
        super().__init__()
        self.qkv = nn.ModuleList(nn.Linear(4, 12) for _ in range(layers))

    def forward(self, x, past_key_values):
        new_cache = []
        for layer, (past_k, past_v) in zip(self.qkv, past_key_values):
            q, k, v = layer(x).chunk(3, dim=-1)
            k, v = torch.cat([past_k, k], dim=1), torch.cat([past_v, v], dim=1)
            x = torch.softmax(q @ k.transpose(1, 2) / 2.0, dim=-1) @ v
            new_cache.append((k, v))
        return x, tuple(new_cache)


def attention_with_cache():
    """A ``past_key_values`` tuple of ``(k, v)`` tuples from an earlier step."""
    torch.manual_seed(0)
    g = _generator()
    cache = tuple((torch.randn(1, 3, 4, generator=g), torch.randn(1, 3, 4, generator=g)) for _ in range(2))
    return CachedAttention(), (torch.randn(1, 1, 4, generator=g), cache), {}


class StaticCache(nn.Module):
    """Writes this step's key into a cache it is handed, in place, and counts the step."""

    def __init__(self) -> None:
        super().__init__()
        self.key = nn.Linear(4, 4)

    def forward(self, x, cache):
        k = self.key(x)
        cache["keys"][0].copy_(k)
        cache["step"].add_(1)
        return k.sum(), cache["keys"]


def cache_updated_in_place():
    """A dict cache whose tensors forward updates in place (a static KV cache)."""
    torch.manual_seed(0)
    g = _generator()
    cache = {"keys": [torch.zeros(2, 4), torch.zeros(2, 4)], "step": torch.tensor(0)}
    return StaticCache(), (torch.randn(2, 4, generator=g), cache), {}
