#!/usr/bin/env python
"""Execute notebooks in place so their committed outputs (tables, plots) are current.

Usage: python tools/run_nbs.py nbs/00_theory.ipynb [more.ipynb ...] [--skip cuda,slow]

Cells whose `#|` directives name a skipped flag are left as they are (by default `cuda` when no GPU is visible).
Run `nbdev-clean` afterwards.
"""
import argparse, re, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient

def flags(src):
    "The directive words of a cell's `#| ...` lines."
    return {w for l in src.splitlines() if l.startswith('#|') for w in re.split(r'[\s:]+', l[2:].strip()) if w}

def run(path, skip, timeout=1800):
    nb = nbformat.read(path, as_version=4)
    kept = {i: c for i, c in enumerate(nb.cells) if c.cell_type == 'code' and flags(c.source) & skip}
    for i in kept: nb.cells[i] = nbformat.v4.new_raw_cell('')            # not executed
    NotebookClient(nb, timeout=timeout, kernel_name='python3', resources={'metadata': {'path': str(Path(path).parent)}}).execute()
    for i, c in kept.items(): nb.cells[i] = c
    nbformat.write(nb, path)

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('nbs', nargs='+')
    p.add_argument('--skip', default=None, help='comma-separated flags whose cells are not run (default: cuda without a GPU)')
    a = p.parse_args()
    if a.skip is None:
        import torch
        skip = set() if torch.cuda.is_available() else {'cuda'}
    else: skip = set(filter(None, a.skip.split(',')))
    for nb in a.nbs:
        print('running', nb, flush=True); run(nb, skip)
