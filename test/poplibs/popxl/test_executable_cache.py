"""The executable cache: the same Ir loads its compiled program instead of compiling it, a new
variable value reuses the entry, a changed program does not, and a corrupt entry is rebuilt."""
import numpy as np

import popxl
import popxl.ops as ops


def program(w0, scale):
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(w0, popxl.float32, name="w")
        x = popxl.h2d_stream((2,), popxl.float32, name="x")
        y = popxl.d2h_stream((2,), popxl.float32, name="y")
        ops.host_store(y, ops.host_load(x) * w * scale)
    return ir, x, y


def run(ir, x, y, cache_dir):
    session = popxl.Session(ir, "cpu", cache_dir=str(cache_dir))
    with session:
        out = session.run({x: np.array([1, 2], np.float32)})[y]
    return session.loaded_from_cache, out


def test_second_session_loads_the_cached_program(tmp_path):
    assert run(*program(np.ones(2, np.float32), 2.0), tmp_path)[0] is False
    hit, out = run(*program(np.full(2, 3, np.float32), 2.0), tmp_path)
    assert hit  # the variable's value is written at load, not compiled in
    np.testing.assert_allclose(out, [6, 12])
    hit, out = run(*program(np.ones(2, np.float32), 5.0), tmp_path)
    assert not hit  # another constant: another program
    np.testing.assert_allclose(out, [5, 10])
    assert len(list(tmp_path.glob("*.popxl_exe"))) == 2


def test_corrupt_entry_is_rebuilt(tmp_path):
    run(*program(np.ones(2, np.float32), 2.0), tmp_path)
    (entry,) = tmp_path.glob("*.popxl_exe")
    entry.write_bytes(entry.read_bytes()[:100])
    hit, out = run(*program(np.ones(2, np.float32), 2.0), tmp_path)
    assert not hit
    np.testing.assert_allclose(out, [2, 4])
    assert run(*program(np.ones(2, np.float32), 2.0), tmp_path)[0]
