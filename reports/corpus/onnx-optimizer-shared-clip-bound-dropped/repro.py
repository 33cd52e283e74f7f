# hardsigmoid, nan_to_num: InvalidArgument: [ONNXRuntimeError] : N : INVALID_ARGUMENT : Invalid model. Node input 'xN_min_N' i… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.hardsigmoid(x0.clamp(-7.999, 7.999))
        v1 = torch.nan_to_num(x0.clamp(-7.999, 7.999))
        return (v1, v0)


model = Model().eval()
args, kwargs = (torch.tensor(1.5, dtype=torch.float64), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
