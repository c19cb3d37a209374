#!/usr/bin/env python
"""Process the notebooks for the docs site into `_proc/` as `nbdev-proc-nbs` does, without installing anything, and
leave each processed notebook valid (`nbformat.validate`); `--render` then renders the site with Quarto, as `nbdev-docs`.

Two differences from nbdev's commands, both in `nbdev.quarto`:
- `nbdev-proc-nbs` and `nbdev-docs` first look for Quarto and, where it is missing, download and install it with sudo,
  although processing needs no Quarto. Here nothing is installed: `--render` without Quarto stops with one line.
- The processed notebooks are not valid notebooks: nbdev leaves its own attributes on cells (`has_sd`, `idx_`,
  `directives_`) and execnb, which runs the cells the docs need (those holding an import or a `show_doc`), records each
  cell's run time as a number in `metadata.execution`, where the format allows only strings; nbconvert refuses them.
  Here those attributes and run times are dropped from `_proc/` (Quarto uses neither).
nbdev's warnings are kept: "Found cells containing imports and other code" names a cell to split.

Usage: python tools/dev/proc_docs.py [--render] [--n-workers N]
"""
import argparse, json, shutil, sys
from pathlib import Path
import nbdev.quarto as quarto

CELL_KEYS = {'cell_type', 'id', 'metadata', 'source', 'outputs', 'execution_count', 'attachments'}   # nbformat 4's
NB_KEYS = {'cells', 'metadata', 'nbformat', 'nbformat_minor'}

def valid_notebooks(cache):
    "Drop from each notebook under `cache` the keys nbformat 4 does not allow (nbdev's, execnb's run times)."
    for p in Path(cache).rglob('*.ipynb'):
        nb = json.loads(p.read_text())
        new = {k: v for k, v in nb.items() if k in NB_KEYS}
        new['cells'] = [{k: v for k, v in c.items() if k in CELL_KEYS} for c in nb.get('cells', [])]
        for c in new['cells']:
            ex = c.get('metadata', {}).get('execution')
            if isinstance(ex, dict): c['metadata']['execution'] = {k: v for k, v in ex.items() if isinstance(v, str)}
        if new != nb: p.write_text(json.dumps(new, indent=1, ensure_ascii=False) + '\n')
    return cache

def no_install():
    if shutil.which('quarto') is None and quarto._ensure_quarto is not _no_install:
        sys.exit('Quarto is needed to render the docs and is not installed (https://quarto.org/docs/get-started/)')

def _no_install(): pass

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--render', action='store_true', help='render the site with Quarto into the docs folder, as nbdev-docs')
    p.add_argument('--n-workers', type=int, default=1, help='processes (1: one at a time)')
    a = p.parse_args()
    if not all(hasattr(quarto, n) for n in ('_ensure_quarto', 'proc_nbs', 'nbdev_proc_nbs', 'nbdev_docs')):
        sys.exit('nbdev.quarto changed (no _ensure_quarto, proc_nbs, nbdev_proc_nbs or nbdev_docs): update tools/dev/proc_docs.py')
    if a.render: no_install()
    quarto._ensure_quarto = _no_install                       # processing needs no Quarto: never download or install it
    proc_nbs = quarto.proc_nbs
    quarto.proc_nbs = lambda *args, **kw: valid_notebooks(proc_nbs(*args, **kw))
    (quarto.nbdev_docs if a.render else quarto.nbdev_proc_nbs).__wrapped__(n_workers=a.n_workers)
