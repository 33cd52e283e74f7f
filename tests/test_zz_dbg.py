import json, math, pytest
from tests.test_distortions import *
from tests import test_distortions as T
def test_dbg():
    backend = T.IgnoresAlignCorners()
    def run_case(case, options):
        return T.execute(backend, case, options)
    name = T.samples.op_name("nn.functional.interpolate.bilinear")
    strategy = T.cases(ops=[name, "add", "mul", "sample_max_pool2d", "sample_nn_AvgPool2d"], max_ops=5)
    check = T.seed(20261206)(T.settings(T.SEARCH, max_examples=400)(
        T.conformance_property(backend, "harness", run_case, T.Recorder(), case_strategy=strategy)))
    with pytest.raises(T.ConformanceFailure) as info, T.engine.unlimited_shrinking():
        check()
    print("SHRUNK", info.value.case)
    print("VERD", info.value.verdict.signature(), info.value.verdict.differences)
    print("RERUN", run_case(info.value.case, info.value.options).signature())
    s = T.simplified(info.value, run_case)
    print("SIMPL", s.case, s.verdict.signature())
