# eq, where: RuntimeError: Check 'element::Type::merge(result_et, get_input_element_type(N), get_input_element_t… (openvino)
# openvino 2026.4.1, torch 2.13.0+cpu. Exits 1 while the bug reproduces.
import torch
import openvino


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0 == x0
        v1 = torch.where(v0, v0, x0)
        return v1


model = Model().eval()
args, kwargs = (torch.tensor(0, dtype=torch.uint8), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
converted = openvino.convert_model(exported)
compiled = openvino.compile_model(converted, 'CPU', {'EXECUTION_MODE_HINT': 'ACCURACY', 'INFERENCE_NUM_THREADS': 1})
print("no error: the bug is gone")
