"""torch.nn's own architectures: LSTM, GRU and RNN (stacked, bidirectional, with an
initial state or without), MultiheadAttention (weights averaged or per head, key padding
and attention masks), TransformerEncoderLayer, TransformerDecoderLayer and Transformer
(pre- or post-norm), and an embedding + recurrent + head model returning nested tuples
and dicts of its parts."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .family import Drawn, Family, literal, padding_rows, tensor_literal
from .spec import Architecture

__all__ = ["TORCH_NN"]

_HIDDEN = st.sampled_from([8, 16, 32])
_HEADS = st.sampled_from([1, 2, 4])


def _head(arch: Architecture, constructor: str) -> list[str]:
    return [f"torch.manual_seed({arch.seed})",
            f"model = {constructor}.eval().to(torch.{arch.dtype})",
            f"g = torch.Generator().manual_seed({arch.seed})"]


def _randn(name: str, shape: tuple[int, ...], dtype: str) -> str:
    return f"{name} = torch.randn({shape!r}, generator=g).to(torch.{dtype})"


# -- LSTM, GRU, RNN -------------------------------------------------------------------


def _recurrent(cell: str) -> Family:
    def draw(d: st.DrawFn) -> Drawn:
        config: dict[str, Any] = {"input_size": d(st.sampled_from([4, 8])), "hidden_size": d(_HIDDEN),
                                  "num_layers": d(st.integers(1, 2)), "bidirectional": d(st.booleans()),
                                  "batch_first": d(st.booleans())}
        if cell == "LSTM":
            config["proj_size"] = d(st.sampled_from([0, 4]))
        if cell == "RNN":
            config["nonlinearity"] = d(st.sampled_from(["tanh", "relu"]))
        return config, {"batch": d(st.integers(1, 2)), "length": d(st.integers(1, 4)), "state": d(st.booleans())}

    def source(arch: Architecture) -> tuple[list[str], list[str]]:
        c, f = arch.settings, arch.options
        lines = _head(arch, f"torch.nn.{cell}({literal(c)})")
        shape = (f["batch"], f["length"]) if c["batch_first"] else (f["length"], f["batch"])
        lines.append(_randn("x", (*shape, c["input_size"]), arch.dtype))
        if not f["state"]:
            return ["import torch"], [*lines, "args, kwargs = (x,), {}"]
        layers = c["num_layers"] * (2 if c["bidirectional"] else 1)
        out = c.get("proj_size") or c["hidden_size"]
        lines.append(_randn("h0", (layers, f["batch"], out), arch.dtype))
        if cell != "LSTM":
            return ["import torch"], [*lines, "args, kwargs = (x, h0), {}"]
        lines.append(_randn("c0", (layers, f["batch"], c["hidden_size"]), arch.dtype))
        return ["import torch"], [*lines, "args, kwargs = (x, (h0, c0)), {}"]

    return Family(cell.lower(), draw, source, depth=lambda a: a.settings["num_layers"] * a.options["length"],
                  width=lambda a: a.settings["hidden_size"] + a.settings["input_size"], output_flags=("state",))


# -- MultiheadAttention ----------------------------------------------------------------


def _mha_draw(d: st.DrawFn) -> Drawn:
    config = {"embed_dim": d(_HIDDEN), "num_heads": d(_HEADS), "bias": d(st.booleans()),
              "batch_first": d(st.booleans())}
    flags = {"batch": d(st.integers(1, 2)), "length": d(st.integers(1, 4)), "self_attention": d(st.booleans()),
             "need_weights": d(st.booleans()), "average_attn_weights": d(st.booleans()),
             "key_padding_mask": d(st.booleans()), "causal_mask": d(st.booleans())}
    return config, flags


def _sequence(arch: Architecture, name: str, width: int) -> str:
    f = arch.options
    shape = (f["batch"], f["length"]) if arch.settings["batch_first"] else (f["length"], f["batch"])
    return _randn(name, (*shape, width), arch.dtype)


def _masks(arch: Architecture, padding: str, causal: str, flags: tuple[str, str] = ("", "")) -> tuple[list[str], list[str]]:
    """Statements making the masks the flags ask for (``flags``: their names, when not the
    keywords'), and the keyword arguments passing them."""
    f = arch.options
    lines, kwargs = [], []
    if f[flags[0] or padding]:
        lines.append(f"{padding} = {tensor_literal(padding_rows(f['batch'], f['length'], pad=True))}")
        kwargs.append(f"{padding!r}: {padding}")
    if f[flags[1] or causal]:
        lines.append(f"{causal} = torch.ones({f['length']}, {f['length']}, dtype=torch.bool).triu(1)")
        kwargs.append(f"{causal!r}: {causal}")
    return lines, kwargs


def _mha_source(arch: Architecture) -> tuple[list[str], list[str]]:
    c, f = arch.settings, arch.options
    lines = _head(arch, f"torch.nn.MultiheadAttention({literal(c)})")
    lines.append(_sequence(arch, "q", c["embed_dim"]))
    if f["self_attention"]:
        inputs = "q, q, q"
    else:
        lines.append(_sequence(arch, "kv", c["embed_dim"]))
        inputs = "q, kv, kv"
    masks, kwargs = _masks(arch, "key_padding_mask", "attn_mask", ("key_padding_mask", "causal_mask"))
    kwargs = [*kwargs, f"'need_weights': {f['need_weights']}", f"'average_attn_weights': {f['average_attn_weights']}"]
    return ["import torch"], [*lines, *masks, f"args, kwargs = ({inputs}), {{{', '.join(kwargs)}}}"]


# -- Transformer layers ---------------------------------------------------------------


def _layer_config(d: st.DrawFn) -> dict[str, Any]:
    d_model = d(_HIDDEN)
    return {"d_model": d_model, "nhead": d(_HEADS), "dim_feedforward": d_model * d(st.sampled_from([2, 4])),
            "dropout": 0.0, "activation": d(st.sampled_from(["relu", "gelu"])), "batch_first": d(st.booleans()),
            "norm_first": d(st.booleans())}


def _transformer_draw(kind: str):
    def draw(d: st.DrawFn) -> Drawn:
        config = _layer_config(d)
        if kind == "transformer":
            config = {**config, "num_encoder_layers": d(st.integers(1, 2)), "num_decoder_layers": d(st.integers(1, 2))}
        flags = {"batch": d(st.integers(1, 2)), "length": d(st.integers(1, 4)), "padding_mask": d(st.booleans()),
                 "causal_mask": d(st.booleans())}
        return config, flags
    return draw


_CLASSES = {"encoder_layer": "TransformerEncoderLayer", "decoder_layer": "TransformerDecoderLayer",
            "transformer": "Transformer"}
#: (the inputs, the padding mask's keyword, the causal mask's keyword) per class.
_CALLS = {"encoder_layer": ("src", "src_key_padding_mask", "src_mask"),
          "decoder_layer": ("tgt, memory", "memory_key_padding_mask", "tgt_mask"),
          "transformer": ("src, tgt", "src_key_padding_mask", "tgt_mask")}


def _transformer_source(kind: str):
    def source(arch: Architecture) -> tuple[list[str], list[str]]:
        c = arch.settings
        lines = _head(arch, f"torch.nn.{_CLASSES[kind]}({literal(c)})")
        inputs, padding, causal = _CALLS[kind]
        lines += [_sequence(arch, name, c["d_model"]) for name in inputs.split(", ")]
        masks, kwargs = _masks(arch, padding, causal, ("padding_mask", "causal_mask"))
        return ["import torch"], [*lines, *masks, f"args, kwargs = ({inputs},), {{{', '.join(kwargs)}}}"]
    return source


def _transformer_depth(arch: Architecture) -> int:
    c = arch.settings
    return 2 * c.get("num_encoder_layers", 1) + 3 * c.get("num_decoder_layers", 1)


def _transformer_width(arch: Architecture) -> int:
    return arch.settings["dim_feedforward"] + arch.options["length"]


# -- embedding + recurrent + head ------------------------------------------------------

_MODEL = '''\
class Model(torch.nn.Module):
    def __init__(self, cell, vocab, hidden, layers, classes, returns):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.rnn = getattr(torch.nn, cell)(hidden, hidden, num_layers=layers, batch_first=True)
        self.head = torch.nn.Linear(hidden, classes)
        self.returns = returns

    def forward(self, ids, state=None):
        out, state = self.rnn(self.embed(ids), state)
        if self.returns == "dict":
            return {"logits": self.head(out), "state": state}
        return self.head(out), {"features": out, "state": state}
'''


def _tagger_draw(d: st.DrawFn) -> Drawn:
    config = {"cell": d(st.sampled_from(["LSTM", "GRU"])), "vocab": 16, "hidden": d(_HIDDEN),
              "layers": d(st.integers(1, 2)), "classes": d(st.integers(2, 4)), "returns": d(st.sampled_from(["dict", "nested"]))}
    return config, {"batch": d(st.integers(1, 2)), "length": d(st.integers(1, 4)), "state": d(st.booleans())}


def _tagger_source(arch: Architecture) -> tuple[list[str], list[str]]:
    c, f = arch.settings, arch.options
    lines = [*_MODEL.splitlines(), "", "", *_head(arch, f"Model({literal(c)})"),
             f"ids = torch.randint(0, {c['vocab']}, ({f['batch']}, {f['length']}), generator=g)"]
    if not f["state"]:
        return ["import torch"], [*lines, "args, kwargs = (ids,), {}"]
    lines.append(_randn("h0", (c["layers"], f["batch"], c["hidden"]), arch.dtype))
    if c["cell"] == "GRU":
        return ["import torch"], [*lines, "args, kwargs = (ids, h0), {}"]
    lines.append(_randn("c0", (c["layers"], f["batch"], c["hidden"]), arch.dtype))
    return ["import torch"], [*lines, "args, kwargs = (ids, (h0, c0)), {}"]


TORCH_NN: tuple[Family, ...] = (
    _recurrent("LSTM"),
    _recurrent("GRU"),
    _recurrent("RNN"),
    Family("mha", _mha_draw, _mha_source, depth=lambda a: 2, width=lambda a: a.settings["embed_dim"] + a.options["length"],
           output_flags=("need_weights", "average_attn_weights", "key_padding_mask", "causal_mask")),
    *(Family(kind, _transformer_draw(kind), _transformer_source(kind), _transformer_depth, _transformer_width,
             output_flags=("padding_mask", "causal_mask")) for kind in _CLASSES),
    Family("tagger", _tagger_draw, _tagger_source, depth=lambda a: a.settings["layers"] * a.options["length"] + 1,
           width=lambda a: 2 * a.settings["hidden"], output_flags=("state",)),
)
