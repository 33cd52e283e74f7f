# hardsigmoid, nan_to_num: InvalidArgument: [ONNXRuntimeError] : N : INVALID_ARGUMENT : Invalid model. Node input 'xN_min_N' i… (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import onnxruntime


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = torch.nn.functional.hardsigmoid(x0.clamp(-7.999, 7.999))
        v1 = torch.nan_to_num(x0.clamp(-7.999, 7.999))
        return (v1, v0)


SEED = 263451


def random_tensor(shape, dtype, generator, domain="small"):
    """Values within the domain on which every generated op is defined."""
    if domain != "small":
        return random_edge_tensor(shape, dtype, generator, domain)
    if dtype.is_floating_point or dtype.is_complex:
        real = torch.empty(shape, dtype=torch.float64).uniform_(-3.0, 3.0, generator=generator)
        if dtype.is_complex:
            imag = torch.empty(shape, dtype=torch.float64).uniform_(-3.0, 3.0, generator=generator)
            return torch.complex(real, imag).to(dtype)
        return real.to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool()
    low, high = (0, 10) if dtype == torch.uint8 else (-5, 5)
    return torch.randint(low, high + 1, shape, generator=generator).to(dtype)


def random_edge_tensor(shape, dtype, generator, domain):
    """Values a narrower dtype cannot hold ("wide"), the dtype's limits, infinities, NaN,
    signed zeros and subnormals ("extreme"), or that need its last bit ("precise")."""
    if not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        if domain == "wide":
            top = {'int64': 1099511627776, 'int32': 1048576, 'int16': 4096, 'int8': 127, 'uint8': 255}[str(dtype).removeprefix("torch.")]
            low = 0 if dtype == torch.uint8 else max(-top - 1, info.min)
            return torch.randint(low, top + 1, shape, generator=generator, dtype=torch.int64).to(dtype)
        pool = torch.tensor([info.min, info.max, info.min + 1, info.max - 1, 0, 1], dtype=dtype)
    else:
        info = torch.finfo(dtype)
        if domain == "wide":
            top = {'float16': 4, 'bfloat16': 30, 'float32': 30, 'float64': 30}[str(dtype).removeprefix("torch.")]
            exponent = torch.empty(shape, dtype=torch.float64).uniform_(-top, top, generator=generator)
            sign = torch.randint(0, 2, shape, generator=generator) * 2 - 1
            return (sign * 10.0**exponent).to(dtype)
        if domain == "precise":
            steps = torch.randint(1, 64, shape, generator=generator, dtype=torch.float64)
            sign = torch.randint(0, 2, shape, generator=generator) * 2 - 1
            return (sign * (1 + steps * info.eps)).to(dtype)
        pool = torch.tensor([float("nan"), float("inf"), -float("inf"), float("nan"), -0.0, 0.0,
                             info.smallest_normal / 4, -info.smallest_normal], dtype=dtype)
    # Three elements in four from the pool, the rest from the small domain.
    small = random_tensor(shape, dtype, generator)
    pick = torch.randint(0, len(pool) * 4 // 3, shape, generator=generator)
    return torch.where(pick < len(pool), pool[pick.clamp(max=len(pool) - 1)], small)


def make_model():
    model = Model()
    generator = torch.Generator().manual_seed(SEED + 1)
    with torch.no_grad():
        for name, tensor in [*model.named_parameters(), *model.named_buffers()]:
            tensor.copy_(random_tensor(tensor.shape, tensor.dtype, generator))
            if name.endswith("running_var"):
                tensor.abs_().add_(0.5)  # a variance is positive
    return model.eval()


model = Model().eval()
generator = torch.Generator().manual_seed(SEED)
args, kwargs = (random_tensor((), torch.float64, generator, 'wide'), ), {}
print("eager:   ", model(*args, **kwargs))
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
print("no error: the bug is gone")
