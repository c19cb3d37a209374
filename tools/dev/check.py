#!/usr/bin/env python
"""Every check CI runs, in order, counted: notebooks and modules in sync, notebooks clean, ruff (pyflakes rules) on
gridpe/ and tools/, every third-party import of gridpe declared in pyproject.toml, README in sync with nbs/index.ipynb
and its links resolving, `nbdev-test` per notebook, `nbdev-proc-nbs` and each processed notebook valid and
convertible, and the wheel built, installed into a fresh venv and smoke-tested there (tools/dev/smoke.py: every
module of the wheel imports, every public name resolves and is used by a notebook test). The last line is
`N passed, N failed`; the exit code is 1 if anything failed.

Usage: python tools/dev/check.py [--skip-wheel]
"""
import ast, hashlib, importlib.metadata, json, os, re, subprocess, sys, tempfile, time, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
        smoke(f'{venv}/bin/python', tmp)

def smoke(python, tmp):
    "Run tools/dev/smoke.py with `python` (the fresh venv's) outside the source tree and count each of its results."
    out = Path(tmp)/'smoke.json'
    env = dict(os.environ, MPLBACKEND='Agg', GRIDPE_CACHE=f'{tmp}/cache')
    try: r = subprocess.run([python, str(ROOT/'tools'/'dev'/'smoke.py'), '--installed', '--json', str(out)], cwd=tmp, env=env,
                            text=True, capture_output=True, timeout=300)
    except subprocess.TimeoutExpired as e: r = subprocess.CompletedProcess(e.cmd, 1, str(e.stdout or ''), f'timed out after {e.timeout} s')
    if not out.exists():
        record('smoke test of the installed wheel ran', False, r.stdout[-3000:] + r.stderr[-3000:]); return
    for t in json.loads(out.read_text()): record(t['name'], t['ok'], t['detail'])
    print('      ' + (r.stdout.strip().splitlines() or [''])[-1], flush=True)

def ruff():
    r = sh(f'{sys.executable} -m ruff check --output-format concise gridpe tools')
    record('ruff check gridpe/ tools/ (pyflakes: undefined names, unused imports, ...)', r.returncode == 0,
           (r.stdout + r.stderr) if 'No module named ruff' not in r.stderr else 'ruff is not installed: pip install -e ".[dev]"')

def _dist(name): return re.sub(r'[-_.]+', '-', name).lower()

def imports_declared():
    """Every third-party module gridpe imports at module level is in [project].dependencies; inside functions, in any
    extra; inside `try: ... except ImportError` it is optional."""
    proj = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']
    req = lambda rs: {_dist(re.split(r'[<>=!~\[; ]', r, maxsplit=1)[0]) for r in rs}
    deps, extras = req(proj['dependencies']), set().union(*map(req, proj.get('optional-dependencies', {}).values()))
    provides = importlib.metadata.packages_distributions()
    problems = []
    for f in sorted((ROOT/'gridpe').glob('*.py')):
        if f.name == '_modidx.py': continue
        tree = ast.parse(f.read_text())
        lazy = {id(n) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(fn)}
        optional = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)                 # try: import x / except ImportError
                    and any(isinstance(h.type, ast.Name) and h.type.id in ('ImportError', 'ModuleNotFoundError') for h in t.handlers)
                    for b in t.body for n in ast.walk(b)}
        for n in ast.walk(tree):
            if id(n) in optional: continue
            names = ([a.name for a in n.names] if isinstance(n, ast.Import) else
                     [n.module] if isinstance(n, ast.ImportFrom) and n.level == 0 and n.module else [])
            for m in {x.split('.')[0] for x in names} - set(sys.stdlib_module_names) - {'__future__', 'gridpe'}:
                dists = {_dist(d) for d in provides.get(m, [])}
                if not dists: problems.append(f'{f.name}:{n.lineno}: imports {m}, which no installed distribution provides')
                elif not dists & (deps | extras if id(n) in lazy else deps):
                    problems.append(f"{f.name}:{n.lineno}: imports {m} ({', '.join(sorted(dists))}) but pyproject.toml does not declare it"
                                    + (' (in dependencies or an extra)' if id(n) in lazy else ' in [project].dependencies'))
    record('every third-party import of gridpe/ is declared in pyproject.toml', not problems, '\n'.join(problems))

def readme():
    r = sh(f'{sys.executable} tools/dev/readme.py --check')
    record('README.md and its figures in sync with nbs/index.ipynb', r.returncode == 0, r.stdout + r.stderr)
    r = sh(f'{sys.executable} tools/dev/readme.py --links')
    record('every relative link and image of README.md exists in the repository', r.returncode == 0, r.stdout + r.stderr)

if __name__ == '__main__':
    os.environ.setdefault('MPLBACKEND', 'Agg')
    unchanged('nbdev-export', 'gridpe', '*.py', 'nbdev-export leaves gridpe/ unchanged (notebooks and modules in sync)')
    unchanged('nbdev-clean', 'nbs', '*.ipynb', 'nbdev-clean leaves nbs/ unchanged (notebooks clean)')
    ruff()
    imports_declared()
    readme()
    nbdev_test()
    proc_docs()
    if '--skip-wheel' not in sys.argv: wheel()
    n_ok = sum(results)
    print(f'{n_ok} passed, {len(results) - n_ok} failed')
    sys.exit(0 if n_ok == len(results) else 1)
