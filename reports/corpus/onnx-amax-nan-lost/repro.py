# amax, flatten, gather, relu, view: values: float32 NaN lost (onnx)
# torch 2.13.0+cpu, onnxscript 0.7.2, onnxruntime 1.32.0. Exits 1 while the bug reproduces.
import torch
import collections
import onnxruntime
from torch.utils import _pytree as pytree


def to_ort(tensor):
    import onnxruntime

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return onnxruntime.OrtValue.ortvalue_from_numpy_with_onnx_type(
            tensor.view(torch.uint16).numpy(), onnx_element_type=16)
    return onnxruntime.OrtValue.ortvalue_from_numpy(tensor.numpy())


def from_ort(value):
    if value.element_type() == 16:  # bfloat16: numpy has none, DLPack does
        return torch.from_dlpack(value).clone()
    return torch.from_numpy(value.numpy().copy())


def user_output_slots(exported):
    from torch.export.graph_signature import ConstantArgument, OutputKind

    specs = exported.graph_signature.output_specs
    skipped = sum(1 for s in specs if s.kind != OutputKind.USER_OUTPUT)
    slots = [None if isinstance(s.arg, ConstantArgument) and s.arg.value is None else True
             for s in specs if s.kind == OutputKind.USER_OUTPUT]
    return slots, skipped


def tensor_inputs(exported, args, kwargs):
    from torch.export.graph_signature import InputKind, TensorArgument
    from torch.fx._pytree import tree_flatten_spec

    specs = [s for s in exported.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    leaves = tree_flatten_spec((args, kwargs), exported.call_spec.in_spec)
    return [leaf for spec, leaf in zip(specs, leaves, strict=True) if isinstance(spec.arg, TensorArgument)]


def session_feeds(session, exported, args, kwargs):
    flat = tensor_inputs(exported, args, kwargs)
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(flat):
        raise ValueError(f"the ONNX graph has {len(names)} inputs ({names}), the export {len(flat)}")
    return {name: to_ort(t) for name, t in zip(names, flat, strict=True)}


def reassemble(raw, exported):
    slots, skipped = user_output_slots(exported)
    raw = raw[skipped:]
    if len(raw) != sum(1 for s in slots if s is not None):
        return tuple(raw), False
    outputs = iter(raw)
    leaves = [None if s is None else next(outputs) for s in slots]
    return pytree.tree_unflatten(leaves, exported.call_spec.out_spec), True
Output0 = collections.namedtuple('Output0', ['hidden_states'])


class Model(torch.nn.Module):
    def forward(self, x0):
        v0 = x0.amax(dim=2, keepdim=True)
        v1 = torch.relu(v0)
        v2 = torch.flatten(v1, start_dim=0)
        v3 = torch.gather(v2, 0, torch.tensor([7, 39, 17]).reshape((3,)))
        v4 = v3.unsqueeze(0)
        return Output0(v4)


SEED = 1017209


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
args, kwargs = (random_tensor((8, 2, 9, 3), torch.float32, generator, 'extreme'), ), {}
expected = model(*args, **kwargs)
exported = torch.export.export(model, args, kwargs)
program = torch.onnx.export(exported, args, kwargs=kwargs, dynamo=True)
session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), providers=['CPUExecutionProvider'])
raw = [from_ort(v) for v in session.run_with_ort_values(None, session_feeds(session, exported, args, kwargs))]
actual = reassemble(raw, exported)[0]  # flat: re-assembled as a user would
torch.set_printoptions(precision=9)
e, a = expected.hidden_states, actual.hidden_states
print("eager:   ", e.dtype, tuple(e.shape), e)
print("onnx:    ", a.dtype, tuple(a.shape), a)
torch.testing.assert_close(actual, expected, equal_nan=True, rtol=0.0001, atol=1e-05)
