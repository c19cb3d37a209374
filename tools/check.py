#!/usr/bin/env python
"""Every check CI runs, in order, counted: notebooks and modules in sync, notebooks clean, `nbdev-test` per notebook,
`nbdev-proc-nbs` and each processed notebook valid and convertible, README in sync with nbs/index.ipynb, and the wheel
built and imported from a fresh venv. The last line is `N passed, N failed`; the exit code is 1 if anything failed.

Usage: python tools/check.py [--skip-wheel]
"""
import hashlib, json, os, re, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
results = []

def record(name, ok, detail=''):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}", flush=True)
    if not ok and detail: print('      ' + detail.strip().replace('\n', '\n      ')[-4000:], flush=True)

def sh(cmd, **kw):
    "Run `cmd` in the repo root, capturing its output."
    return subprocess.run(cmd, shell=True, cwd=ROOT, text=True, capture_output=True, **kw)

def snapshot(folder, pattern):
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((ROOT/folder).rglob(pattern))
            if '_proc' not in p.parts and '.ipynb_checkpoints' not in p.parts}

def unchanged(cmd, folder, pattern, name):
    before = snapshot(folder, pattern)
    r = sh(cmd)
    after = snapshot(folder, pattern)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    record(name, r.returncode == 0 and not changed, r.stdout + r.stderr + ('\nchanged: ' + ', '.join(changed) if changed else ''))

def notebooks():
    return sorted(p for p in (ROOT/'nbs').rglob('*.ipynb') if not any(s.startswith(('_', '.')) for s in p.relative_to(ROOT/'nbs').parts))

def nbdev_test():
    t0 = time.time()
    r = sh('nbdev-test --do-print --timing --n-workers 2')
    m = re.search(r'Failed On The Following Notebooks:\n=+\n(.*)', r.stderr, re.S)
    failed = {l.strip() for l in m.group(1).splitlines() if l.strip()} if m else set()
    if r.returncode and not failed: failed = {nb.name for nb in notebooks()}     # it did not run: nothing passed
    for nb in notebooks(): record(f'nbdev-test {nb.relative_to(ROOT)}', nb.name not in failed, r.stderr[-3000:] if nb.name in failed else '')
    print(f'      nbdev-test took {time.time()-t0:.0f} s\n      ' + r.stdout.strip().replace('\n', '\n      ')[-1500:], flush=True)

# what nbdev's processing adds beyond nbformat: cell attributes and per-cell execution timings (`exec_profile`)
NBDEV_KEYS = {'cell': {'has_sd', 'directives_', 'idx_'}, 'cell_metadata': {'execution'}, 'nb': {'path_'}}

def clean_for_validation(nb):
    for k in NBDEV_KEYS['nb']: nb.pop(k, None)
    for c in nb['cells']:
        for k in NBDEV_KEYS['cell']: c.pop(k, None)
        for k in NBDEV_KEYS['cell_metadata']: c.get('metadata', {}).pop(k, None)
        if c['cell_type'] != 'code': c.pop('outputs', None); c.pop('execution_count', None)
    return nb

def proc_docs():
    import nbformat
    from nbconvert import MarkdownExporter, HTMLExporter
    r = sh('nbdev-proc-nbs --n-workers 1')
    procs = sorted((ROOT/'_proc').rglob('*.ipynb'))
    record('nbdev-proc-nbs', r.returncode == 0 and len(procs) == len(notebooks()),
           r.stdout + r.stderr + f'\n{len(procs)} processed of {len(notebooks())}')
    for p in procs:
        try:
            nb = nbformat.reads(json.dumps(clean_for_validation(json.loads(p.read_text()))), as_version=4)
            nbformat.validate(nb)
            md, _ = MarkdownExporter().from_notebook_node(nb)
            html, _ = HTMLExporter().from_notebook_node(nb)
            assert md.strip() and '<html' in html
            record(f'docs source {p.relative_to(ROOT)} valid and converts', True)
        except Exception as e: record(f'docs source {p.relative_to(ROOT)} valid and converts', False, f'{type(e).__name__}: {e}')

def wheel():
    with tempfile.TemporaryDirectory() as tmp:
        r = sh(f'{sys.executable} -m build --wheel --outdir {tmp}/dist .')
        whl = sorted(Path(tmp, 'dist').glob('gridpe-*.whl'))
        record('wheel builds', r.returncode == 0 and len(whl) == 1, r.stdout[-2000:] + r.stderr[-2000:])
        if not whl: return
        env = dict(os.environ, GRIDPE_VENV=f'{tmp}/venv')
        venv = f'{tmp}/venv'
        torch_pair = ('torch==2.14.1 torchvision==0.29.1' if Path('/etc/xdg/pip/constraints.txt').exists() else 'torch torchvision')
        r = sh(f'{sys.executable} -m venv {venv} && {venv}/bin/python -m pip install -q {os.environ.get("GRIDPE_TORCH", torch_pair)} '
               f'&& {venv}/bin/python -m pip install -q {whl[0]}', env=env)
        record('wheel installs into a fresh venv', r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:])
        code = ('import gridpe, gridpe.theory; from gridpe.simplex import simplex_wave_vectors, random_rotation; '
                'from gridpe.rope import make_pe, apply_rope, grid_positions; from gridpe.attention import Attention; '
                'assert simplex_wave_vectors(2).shape == (3, 2); assert make_pe("gridpe", 64, 6, 2)(grid_positions(14, 14)).shape == (1, 6, 196, 32); '
                'from gridpe.data import fashion_mnist_small, furniture_points; '
                'assert len(fashion_mnist_small()["train"]) == 5000 and furniture_points()["train"].c == 10; '
                'assert "site-packages" in gridpe.__file__; print(gridpe.__version__)')
        r = subprocess.run([f'{venv}/bin/python', '-c', code], cwd=tmp, text=True, capture_output=True)
        record('gridpe imports from the installed wheel', r.returncode == 0, r.stdout + r.stderr)

def readme():
    r = sh(f'{sys.executable} tools/readme.py --check')
    record('README.md in sync with nbs/index.ipynb', r.returncode == 0, r.stdout + r.stderr)

if __name__ == '__main__':
    os.environ.setdefault('MPLBACKEND', 'Agg')
    unchanged('nbdev-export', 'gridpe', '*.py', 'nbdev-export leaves gridpe/ unchanged (notebooks and modules in sync)')
    unchanged('nbdev-clean', 'nbs', '*.ipynb', 'nbdev-clean leaves nbs/ unchanged (notebooks clean)')
    readme()
    nbdev_test()
    proc_docs()
    if '--skip-wheel' not in sys.argv: wheel()
    n_ok = sum(results)
    print(f'{n_ok} passed, {len(results) - n_ok} failed')
    sys.exit(0 if n_ok == len(results) else 1)
