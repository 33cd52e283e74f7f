"""transformers' architectures, built from small drawn configs with random weights
(``torch.manual_seed``): never the hub, never a tokenizer. An encoder (BertModel), two
decoders (GPT2Model or GPT2LMHeadModel; LlamaModel, with rotary embeddings and
grouped-query attention), an encoder-decoder (T5Model) and a vision model (ViTModel).

Each draws the flags that change the output tree (``return_dict``,
``output_hidden_states``, ``output_attentions``, ``use_cache``), the optional inputs
(``attention_mask``, ``token_type_ids``, ``position_ids``), and for the decoders a
``DynamicCache`` from a first call passed to the second. Attention is the ``eager``
implementation, defined on the CPU in every dtype.

transformers 4.57.6 (``pyproject.toml``'s ``models`` extra): a ``DynamicCache`` is a
pytree node only after ``register_dynamic_cache_export_support()``, which the source
calls wherever a cache is in or out. T5's ``EncoderDecoderCache`` has no such
registration, and ``torch.export`` rejects it ("Found <class ...EncoderDecoderCache> in
output, which is not a known type"): T5 is drawn with ``use_cache=False``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .family import Drawn, Family, literal, padding_rows, tensor_literal
from .spec import Architecture

__all__ = ["HF"]

VOCAB = 32
POSITIONS = 16
_HIDDEN = st.sampled_from([8, 16, 32])
_HEADS = st.sampled_from([1, 2, 4])
_REGISTER = ("from transformers.integrations.executorch import register_dynamic_cache_export_support",
             "register_dynamic_cache_export_support()  # DynamicCache as a pytree node (transformers 4.57)")


def _outputs(d: st.DrawFn) -> tuple[dict[str, Any], bool]:
    """The flags that shape the output, drawn first and in the same places in every
    family: the shrinker's move to a simpler family (a ViT to a BERT) keeps the output
    tree, where flags drawn after configs of other lengths read other choices. The
    last, a head (BERT's and ViT's pooler, GPT-2's LM head), is drawn where a family
    has none too, to keep the places."""
    return {"return_dict": d(st.booleans()), "output_hidden_states": d(st.booleans()),
            "output_attentions": d(st.booleans())}, d(st.booleans())


def _cache(d: st.DrawFn) -> dict[str, Any]:
    use_cache = d(st.booleans())
    return {"use_cache": use_cache, "past": d(st.integers(0, 2)) if use_cache else 0}  # positions already cached


def _sizes(d: st.DrawFn) -> dict[str, Any]:
    return {"batch": d(st.integers(1, 2)), "length": d(st.integers(1, 4))}


def _bert_draw(d: st.DrawFn) -> Drawn:
    (outputs, head), hidden = _outputs(d), d(_HIDDEN)
    config = {"vocab_size": VOCAB, "hidden_size": hidden, "num_hidden_layers": d(st.integers(1, 2)),
              "num_attention_heads": d(_HEADS), "intermediate_size": hidden * d(st.sampled_from([2, 4])),
              "max_position_embeddings": POSITIONS, "hidden_act": d(st.sampled_from(["gelu", "relu"]))}
    flags = {**_sizes(d), "pooler": head, **outputs, "attention_mask": d(st.booleans()),
             "token_type_ids": d(st.booleans()), "position_ids": d(st.booleans())}
    return config, flags


def _gpt2_draw(d: st.DrawFn) -> Drawn:
    (outputs, head), hidden = _outputs(d), d(_HIDDEN)
    config = {"vocab_size": VOCAB, "n_embd": hidden, "n_layer": d(st.integers(1, 2)), "n_head": d(_HEADS),
              "n_inner": hidden * d(st.sampled_from([2, 4])), "n_positions": POSITIONS,
              "activation_function": d(st.sampled_from(["gelu_new", "relu"]))}
    flags = {**_sizes(d), "lm_head": head, **outputs, **_cache(d), "attention_mask": d(st.booleans()),
             "token_type_ids": d(st.booleans()), "position_ids": d(st.booleans())}
    return config, flags


def _llama_draw(d: st.DrawFn) -> Drawn:
    (outputs, _), hidden, heads = _outputs(d), d(_HIDDEN), d(_HEADS)
    # Grouped-query attention: fewer key/value heads than query heads, a divisor of them.
    kv_heads = d(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0]))
    config = {"vocab_size": VOCAB, "hidden_size": hidden, "intermediate_size": hidden * d(st.sampled_from([2, 4])),
              "num_hidden_layers": d(st.integers(1, 2)), "num_attention_heads": heads, "num_key_value_heads": kv_heads,
              "max_position_embeddings": POSITIONS, "rope_theta": d(st.sampled_from([10000.0, 500000.0]))}
    flags = {**_sizes(d), **outputs, **_cache(d), "attention_mask": d(st.booleans()), "position_ids": d(st.booleans())}
    return config, flags


def _t5_draw(d: st.DrawFn) -> Drawn:
    (outputs, _), hidden, heads = _outputs(d), d(_HIDDEN), d(_HEADS)
    config = {"vocab_size": VOCAB, "d_model": hidden, "d_kv": hidden // heads, "d_ff": hidden * d(st.sampled_from([2, 4])),
              "num_layers": d(st.integers(1, 2)), "num_decoder_layers": d(st.integers(1, 2)), "num_heads": heads,
              "relative_attention_num_buckets": 8, "relative_attention_max_distance": POSITIONS,
              "feed_forward_proj": d(st.sampled_from(["relu", "gated-gelu"])), "decoder_start_token_id": 0}
    flags = {**_sizes(d), "decoder_length": d(st.integers(1, 3)), **outputs,
             "attention_mask": d(st.booleans())}
    return config, flags


def _vit_draw(d: st.DrawFn) -> Drawn:
    (outputs, head), hidden = _outputs(d), d(_HIDDEN)
    config = {"image_size": 8, "patch_size": d(st.sampled_from([4, 2])), "num_channels": 3, "hidden_size": hidden,
              "num_hidden_layers": d(st.integers(1, 2)), "num_attention_heads": d(_HEADS),
              "intermediate_size": hidden * d(st.sampled_from([2, 4]))}
    flags = {"batch": d(st.integers(1, 2)), "pooler": head, **outputs}
    return config, flags


#: family -> (config class, model class, the model class with a head where drawn)
_CLASSES = {"bert": ("BertConfig", "BertModel"), "gpt2": ("GPT2Config", "GPT2Model"), "llama": ("LlamaConfig", "LlamaModel"),
            "t5": ("T5Config", "T5Model"), "vit": ("ViTConfig", "ViTModel")}


def _source(arch: Architecture) -> tuple[list[str], list[str]]:
    c, f = arch.settings, arch.options
    config_class, model_class = _CLASSES[arch.family]
    if f.get("lm_head"):
        model_class = "GPT2LMHeadModel"
    imports = ["import torch", f"from transformers import {config_class}, {model_class}"]
    extra = f", add_pooling_layer={f['pooler']}" if "pooler" in f else ""
    lines = [f"torch.manual_seed({arch.seed})",
             f"config = {config_class}({literal(c)}, attn_implementation='eager')",
             f"model = {model_class}(config{extra}).eval().to(torch.{arch.dtype})",
             f"g = torch.Generator().manual_seed({arch.seed})"]
    batch, past = f["batch"], f.get("past", 0)
    kwargs: list[str] = []
    if f.get("use_cache"):
        imports.append(_REGISTER[0])
        lines.append(_REGISTER[1])
    if arch.family == "vit":
        size = (batch, c["num_channels"], c["image_size"], c["image_size"])
        lines.append(f"pixel_values = torch.randn({size!r}, generator=g).to(torch.{arch.dtype})")
        inputs = "pixel_values"
    else:
        if past:
            lines += ["with torch.no_grad():  # the cache of a first call, handed to the second",
                      f"    past = model(torch.randint(0, {VOCAB}, ({batch}, {past}), generator=g), use_cache=True)"
                      ".past_key_values"]
            kwargs.append("'past_key_values': past")
        lines.append(f"input_ids = torch.randint(0, {VOCAB}, ({batch}, {f['length']}), generator=g)")
        inputs = "input_ids"
        if f.get("attention_mask"):  # padded on the right, over the cached positions too
            rows = [[int(not p) for p in row] for row in padding_rows(batch, past + f["length"], pad=True)]
            kwargs.append(f"'attention_mask': {tensor_literal(rows)}")
        if f.get("token_type_ids"):
            kwargs.append(f"'token_type_ids': torch.randint(0, 2, ({batch}, {f['length']}), generator=g)")
        if f.get("position_ids"):
            kwargs.append(f"'position_ids': torch.arange({past}, {past + f['length']}).expand({batch}, -1)")
        if arch.family == "t5":
            kwargs.append(f"'decoder_input_ids': torch.randint(0, {VOCAB}, ({batch}, {f['decoder_length']}), generator=g)")
    for flag in ("use_cache", "return_dict", "output_hidden_states", "output_attentions"):
        if flag in f:
            kwargs.append(f"{flag!r}: {f[flag]}")
    if arch.family == "t5":
        kwargs.append("'use_cache': False")
    lines.append(f"args, kwargs = ({inputs},), {{{', '.join(kwargs)}}}")
    return imports, lines


def _layers(arch: Architecture) -> int:
    c = arch.settings
    return sum(c.get(k, 0) for k in ("num_hidden_layers", "n_layer", "num_layers", "num_decoder_layers"))


def _width(arch: Architecture) -> int:
    c = arch.settings
    return max(c.get(k, 0) for k in ("intermediate_size", "n_inner", "d_ff")) + POSITIONS


_FLAGS = ("return_dict", "output_hidden_states", "output_attentions")
HF: tuple[Family, ...] = (
    Family("bert", _bert_draw, _source, lambda a: 2 * _layers(a) + 1, _width,
           output_flags=(*_FLAGS, "pooler", "attention_mask", "token_type_ids", "position_ids")),
    Family("gpt2", _gpt2_draw, _source, lambda a: 2 * _layers(a) + 1, _width,
           output_flags=(*_FLAGS, "use_cache", "past", "lm_head", "attention_mask", "token_type_ids", "position_ids")),
    Family("llama", _llama_draw, _source, lambda a: 2 * _layers(a) + 1, _width,
           output_flags=(*_FLAGS, "use_cache", "past", "attention_mask", "position_ids")),
    Family("t5", _t5_draw, _source, lambda a: 3 * _layers(a) + 1, _width, output_flags=(*_FLAGS, "attention_mask")),
    Family("vit", _vit_draw, _source, lambda a: 2 * _layers(a) + 1, _width, output_flags=(*_FLAGS, "pooler")),
)
