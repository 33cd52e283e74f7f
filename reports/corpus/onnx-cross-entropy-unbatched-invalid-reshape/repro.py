# sample_nn_CrossEntropyLoss: Fail: [ONNXRuntimeError] : N : FAIL : Node () Op (Reshape) [ShapeInferenceError] Invalid position o… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s0 = torch.nn.CrossEntropyLoss(reduction='mean')

    def forward(self, x0):
        v0 = self.s0(x0.reshape(-1).repeat(3).reshape((3,)), torch.tensor(0, dtype=torch.int64).reshape(()))
        return v0


model = Model().eval()
args, kwargs = (torch.tensor(0.0, dtype=torch.float32), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
