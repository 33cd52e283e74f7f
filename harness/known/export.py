"""Known rows: torch.export itself: what PyTorch refuses, and its bugs every exporting frontend meets."""

from __future__ import annotations

from .rows import Known

ROWS: tuple[Known, ...] = (
    Known(
        id="export-unregistered-dict-subclass", backends=("*",), kind="unsupported",
        message=r"Found <class '[\w.]*PlainDictSubclass'> in output, which is not a known type",
        reason=("torch.export rejects a dict subclass not registered with pytree; eager accepts it. Not a frontend bug "
                "(the TensorRT paths export inside their compile stage)."),
        link="https://github.com/pytorch/pytorch/issues/94497",
    ),
    Known(
        id="export-decomposition-output-spec", backends=("tvm-ep", "onnx", "openvino"), kind="bug",
        stages=("import", "convert", "onnx-export"), dynamic=False, errors=("SpecViolationError", "ConversionError"),
        message=(r"^(SpecViolationError: )?User output \w+ is not in the correct order or is not found in the exported "
                 r"program's user_output list"),
        reason=("A forward that updates a buffer in place twice (`self.s.copy_(a); ...; self.s.copy_(b)`) and returns "
                "values computed from it: the frontend's ExportedProgram.run_decompositions() leaves an output "
                "signature that torch.export's own verifier rejects. torch.export's bug, met through each frontend."),
    ),
    Known(
        id="export-transformer-causal-mask-detection", backends=("reference", "tvm-ep", "onnx", "openvino"), kind="bug",
        stages=("export",), dynamic=False, outcome="crash", errors=("GuardOnDataDependentSymNode",),
        message=r"Could not guard on data-dependent expression Eq\(uN, N\) \(unhinted: Eq\(uN, N\)\)",
        reason=("nn.Transformer (and nn.TransformerDecoder) called with a tgt_mask cannot be exported: forward compares"
                " the mask with a generated causal one to set tgt_is_causal (_detect_is_causal_mask, bool((mask == "
                "causal).all())), a data-dependent branch torch.export refuses."),
        link="https://github.com/pytorch/pytorch/issues/134616",
    ),
    Known(
        id="export-derived-root-suggestion-crash", backends=("reference", "tvm-ep", "onnx", "openvino"), kind="bug",
        stages=("export",), sizes=("dynamic",), outcome="crash", errors=("AssertionError",),
        message=r"Cannot create Dim with inconsistent min=N, max=N$",
        reason=("A program that pins a dynamic dimension to a multiple (torch.tensor_split(x, 3) over a dim declared "
                "Dim(min=3, max=4)) should fail torch.export with its constraint-violation report and suggested fixes; "
                "instead the report's own builder (DimConstraints.prettify_results -> _process_derived_dim_roots) "
                "creates Dim(root, min=k, max=k) for the single value left and Dim's check raises AssertionError."),
    ),
    Known(
        id="export-decomposition-lifted-constant", backends=("tvm-ep", "onnx", "openvino"), kind="bug",
        stages=("import", "convert", "onnx-export"), dynamic=False, errors=("SpecViolationError", "ConversionError"),
        message=r"^(SpecViolationError: )?Constant tensor lifted_tensor_N is not in the constants dictionary",
        reason=("transformers' GPT-2 and Llama with use_cache=True export (a DynamicCache is built in forward, and "
                "GPT-2's attention lifts tensor constants), but the frontend's ExportedProgram.run_decompositions() "
                "returns a program whose signature names lifted constants its constants table lacks, and torch.export's"
                " own verifier rejects it. torch.export's bug, met through each frontend."),
        link="https://github.com/pytorch/pytorch/issues/164461",
    ),
    Known(
        id="export-wrapped-forward-keyword", backends=("reference", "tvm-ep", "onnx", "openvino"), kind="bug",
        stages=("export",), outcome="crash", errors=("TypeError",),
        message=r"^got an unexpected keyword argument '\w+'$",
        reason=("A model whose forward is wrapped by a decorator that takes a keyword itself (transformers' "
                "can_return_tuple pops return_dict: CLIPTextModel or ConvNextModel called with return_dict=True) runs "
                "in eager but fails torch.export before tracing: _combine_args (torch/export/dynamic_shapes.py) binds "
                "the call to inspect.signature(forward), which follows the wrapper's __wrapped__ to the undecorated "
                "forward, and that signature has no such parameter. torch.export's, met through every exporting "
                "frontend; found by check on real models (tests/real_models.py)."),
    ),
    Known(
        id="export-loss-target-requires-grad", backends=("reference", "tvm-ep", "onnx", "openvino"),
        kind="unsupported", stages=("export",), outcome="crash", errors=("RuntimeError",),
        message=(r"The function '\w+' is not differentiable with respect to argument 'target'\. This input cannot "
                 r"have requires_grad True\."),
        reason=("A loss whose target is computed from a parameter (F.soft_margin_loss(x, w * 2), w an nn.Parameter) "
                "runs in eager under no_grad, as the suite and inference run it, but torch.export traces with grad "
                "enabled and the loss refuses a target that requires grad. By design: PyTorch does not differentiate "
                "these losses by their targets."),
    ),
)
