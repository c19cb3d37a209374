#!/usr/bin/env python
"""What `pip install gridpe` (no extra) gives, tested in a venv that holds torch and what it requires, numpy, fastcore
and gridpe alone (tools/dev/check.py, check `bare`, builds it and runs this with its Python, isolated): the embedding
library's modules import, the extras' modules are missing (the proof that the venv is bare), a small example runs on
the CPU, and `gridpe-compare` answers --help and --dry-run and says in one line what training needs. Each test prints
a PASS or FAIL line (a failure's traceback below it); the exit code is 1 if one failed.

Usage: python -I tools/dev/bare.py --core MODULE... --absent MODULE...
"""
import argparse, importlib, importlib.util, subprocess, sys, traceback
from pathlib import Path

results = []

def test(name, fn):
    "Run `fn`, print a PASS or FAIL line for it (with the traceback of a failure) and keep its outcome."
    try:
        fn()
        error = ''
    except Exception:
        error = traceback.format_exc()
    print(f"{'FAIL' if error else 'PASS'}  {name}", flush=True)
    if error: print('      ' + error.strip().replace('\n', '\n      '), flush=True)
    results.append(not error)

def imports(core):
    "Each module of `core` imports, from this venv's gridpe (not a source tree's)."
    for m in core: importlib.import_module(f'gridpe.{m}')
    import gridpe
    assert Path(gridpe.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), gridpe.__file__

def absent(modules):
    "No module of `modules` can be imported here."
    found = [m for m in modules if importlib.util.find_spec(m) is not None]
    assert not found, f'importable: {found}'

def example():
    "make_pe's angles rotate q and k without changing their norms; rope_qkv agrees with apply_rope; Attention runs."
    import torch
    from gridpe.rope import apply_rope, RotaryTable
    from gridpe.embeddings import make_pe
    from gridpe.positions import grid_positions
    from gridpe.fused import rope_qkv
    from gridpe.attention import Attention
    torch.manual_seed(0)
    B, H, D = 2, 4, 16
    pe = make_pe('gridpe', head_dim=D, n_heads=H, ndim=2)
    pos = grid_positions(6, 5)
    theta = pe(pos)
    assert theta.shape == (1, H, 30, D // 2), theta.shape
    q = torch.randn(B, H, 30, D)
    torch.testing.assert_close(apply_rope(q, theta).norm(dim=-1), q.norm(dim=-1))
    # a score depends only on the offset: moving every position by the same vector leaves q·k unchanged
    k = torch.randn(B, H, 30, D)
    score = lambda p: (apply_rope(q, pe(p)) * apply_rope(k, pe(p))).sum(-1)
    torch.testing.assert_close(score(pos), score(pos + torch.tensor([3., -2.])), atol=1e-4, rtol=1e-4)
    x = torch.randn(B, 30, 3, H, D)
    table = RotaryTable.from_angles(theta)
    qr, kr, v = rope_qkv(x, table.cos, table.sin)
    torch.testing.assert_close(qr, apply_rope(x[:, :, 0].transpose(1, 2), theta))
    torch.testing.assert_close(kr, apply_rope(x[:, :, 1].transpose(1, 2), theta))
    torch.testing.assert_close(v, x[:, :, 2].transpose(1, 2))
    assert Attention(H * D, n_heads=H)(torch.randn(B, 30, H * D), table).shape == (B, 30, H * D)

def compare_says():
    "`gridpe-compare`: --help and --dry-run answer; a job that trains exits with one line saying which extra it needs."
    gc = str(Path(sys.executable).parent/'gridpe-compare')
    for args in (['--help'], ['points', '--dry-run']):
        r = subprocess.run([gc, *args], capture_output=True, text=True)
        assert r.returncode == 0 and r.stdout, (args, r.returncode, r.stderr[-2000:])
    r = subprocess.run([gc, 'points'], capture_output=True, text=True)
    want = "gridpe-compare: error: training needs the training extra: pip install 'gridpe[train]'"
    assert (r.returncode, r.stdout, r.stderr) == (2, '', want + '\n'), (r.returncode, r.stdout, r.stderr[-2000:])

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--core', nargs='+', required=True, help="gridpe's modules that must import")
    p.add_argument('--absent', nargs='+', required=True, help='modules that must be missing')
    a = p.parse_args()
    test('import ' + ', '.join(f'gridpe.{m}' for m in a.core), lambda: imports(a.core))
    test(f"none of the extras' modules is importable ({', '.join(a.absent)})", lambda: absent(a.absent))
    test('make_pe, apply_rope, rope_qkv and Attention run on the CPU: norms kept, scores depend on offsets alone',
         example)
    test("gridpe-compare answers --help and --dry-run, and says in one line that training needs the extra",
         compare_says)
    sys.exit(0 if all(results) else 1)
