# sample_linalg_vector_norm: Fail: [ONNXRuntimeError] : N : FAIL : Node (node_ReduceSum_N) Op (ReduceSum) [ShapeInferenceError] … (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.linalg.vector_norm(x0.reshape(-1).reshape(()), dim=-1, keepdim=False, ord=0.9).clamp(-7.0, 7.0)
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
