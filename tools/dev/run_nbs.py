#!/usr/bin/env python
"""Execute notebooks so their committed outputs (tables, plots) are current.

Usage: python tools/dev/run_nbs.py nbs/00_theory.ipynb [more.ipynb ...] [--skip cuda,slow] [--execnb] [--out DIR]

Cells whose `#|` directives name a skipped flag are left as they are (by default `cuda` when no GPU is visible).
Notebooks run in a Jupyter kernel through nbclient, or in this process through execnb's CaptureShell with `--execnb`
(used automatically when nbclient or ipykernel is missing, e.g. on a GPU host with only the runtime wheels and execnb).
Each notebook runs in its own folder and is written back in place, or to `--out DIR`. Run `nbdev-clean --fname` on it
afterwards. E.g. the benchmarks page on a GPU host, its results written to $OUT:
    GRIDPE_BENCH_OUT=$OUT python3 tools/dev/run_nbs.py nbs/benchmarks/speed.ipynb --execnb --out $OUT
"""
import argparse, os, re
from pathlib import Path

def flags(src):
    "The directive names of a cell's `#| ...` lines (`#| cuda: what it shows` is `cuda`)."
    return {m[1] for l in src.splitlines() if (m := re.match(r'#\|\s*([^\s:]+)', l))}

def run(path, skip, out=None, timeout=1800):
    "Execute `path` in a Jupyter kernel (nbclient), leaving cells flagged in `skip` as they are; write it to `out` or in place."
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    kept = {i: c for i, c in enumerate(nb.cells) if c.cell_type == 'code' and flags(c.source) & skip}
    for i in kept: nb.cells[i] = nbformat.v4.new_raw_cell('')            # not executed
    NotebookClient(nb, timeout=timeout, kernel_name='python3', resources={'metadata': {'path': str(Path(path).parent)}}).execute()
    for i, c in kept.items(): nb.cells[i] = c
    nbformat.write(nb, out or path)

def run_execnb(path, skip, out=None, timeout=1800):
    "Execute `path` in this process with execnb's CaptureShell (no Jupyter kernel), stopping at the first error; write it to `out` or in place."
    from fastcore.nbio import read_nb, write_nb
    from execnb.shell import CaptureShell
    path, out = Path(path).resolve(), Path(out or path).resolve()
    nb, cwd = read_nb(path), os.getcwd()
    os.chdir(path.parent)
    try: CaptureShell().run_all(nb, exc_stop=True, preproc=lambda c: c.cell_type == 'code' and bool(flags(c.source) & skip), cell_timeout=timeout)
    finally: os.chdir(cwd)
    write_nb(nb, out)

def has_kernel():
    "Whether nbclient and a Python kernel (ipykernel) are importable."
    try: import nbformat, nbclient, ipykernel  # noqa: F401
    except ImportError: return False
    return True

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('nbs', nargs='+')
    p.add_argument('--skip', default=None, help='comma-separated flags whose cells are not run (default: cuda without a GPU)')
    p.add_argument('--execnb', action='store_true', help="run in this process with execnb's CaptureShell instead of a Jupyter kernel")
    p.add_argument('--out', default=None, help='folder for the executed notebooks (default: in place)')
    a = p.parse_args()
    if a.skip is None:
        import torch
        skip = set() if torch.cuda.is_available() else {'cuda'}
    else: skip = set(filter(None, a.skip.split(',')))
    use_execnb = a.execnb or not has_kernel()
    if a.out: Path(a.out).mkdir(parents=True, exist_ok=True)
    for nb in a.nbs:
        print('running', nb, 'with execnb' if use_execnb else 'in a Jupyter kernel', flush=True)
        (run_execnb if use_execnb else run)(nb, skip, Path(a.out)/Path(nb).name if a.out else None)
