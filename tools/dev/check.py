#!/usr/bin/env python
"""Every check CI runs, in order, counted: notebooks and modules in sync, notebooks clean, ruff (pyflakes rules) on
gridpe/ and tools/, every third-party import of gridpe declared in pyproject.toml, README in sync with nbs/index.ipynb
and its links resolving, every notebook run once, top to bottom, in a fresh Jupyter kernel as a user runs it (its test
cells included: `nbdev-test` would run the same cells again, so it is not a default check), the docs pages
(tools/dev/proc_docs.py: processed quietly, each valid, convertible and free of error outputs, absolute paths and issue
numbers), the docs site built from them and checked page by page in headless chromium (tools/dev/site_check.py), the
wheel built, installed with the timm extra into a fresh venv and smoke-tested there (tools/dev/smoke.py:
every module of the wheel imports, every public name resolves and is used by a notebook test) with README.md's quick
start run in it as written (tools/dev/quickstart.py), and the main job run once against its committed table
(tools/dev/main_job.py: its self-test, then equal in a listed environment, within the spread of seeds elsewhere).
Before the last line it prints each step's time; the last line is `N passed, N failed`; the exit code is 1 if
anything failed.

Usage: python tools/dev/check.py [--skip-wheel] [--only=CHECK,...]   (the checks, in order: export, clean, ruff,
imports, readme, setup, jupyter, docs, site, wheel, main_job; `--only=test` runs `nbdev-test` on every notebook)
"""
import ast, hashlib, importlib.metadata, json, os, re, subprocess, sys, tempfile, time, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
results = []
# (check, seconds) of the checks run so far
times = []

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

# what no docs page may show: an absolute path of a machine (Debian's dataset folder, which the docs name, excepted)
# or an issue number
ABS_PATH = re.compile(r'(?<![\w.~])/(?:work|tmp|home|root|Users|opt|mnt|scratch|private|var/folders)/|site-packages|\b[A-Z]:\\\\')
ISSUE = re.compile(r'(?i)\bissues?\s*#?\d+\b|(?<![\w&#/])#\d+\b|\bgh-\d+\b')

def page_problems(nb):
    "Error outputs, tracebacks, absolute paths and issue numbers in a processed notebook's sources and outputs."
    out = []
    for i, c in enumerate(nb['cells']):
        texts = [''.join(c['source'])]
        for o in c.get('outputs', []):
            if o['output_type'] == 'error': out.append(f"cell {i}: an error output ({o['ename']}: {o['evalue'][:100]})")
            data = o.get('data', {})
            texts += [o.get('text', '')] + [data.get(k, '') for k in ('text/plain', 'text/markdown', 'text/html')]
        for t in (''.join(t) if isinstance(t, list) else t for t in texts):
            if 'Traceback (most recent call last)' in t: out.append(f'cell {i}: a traceback')
            for rx, what in ((ABS_PATH, 'an absolute path'), (ISSUE, 'an issue number')):
                out += [f'cell {i}: {what}: …{t[max(0, m.start()-40):m.end()+40]}…'.replace('\n', ' ') for m in rx.finditer(t)]
    return out

def proc_docs():
    """`_proc/` as the docs site gets it (tools/dev/proc_docs.py: `nbdev-proc-nbs` without installing Quarto, quiet):
    each processed notebook valid as it is (nbformat.validate), convertible, and free of error outputs, tracebacks,
    absolute paths and issue numbers."""
    import nbformat
    from nbconvert import MarkdownExporter, HTMLExporter
    r = sh(f'{sys.executable} tools/dev/proc_docs.py --n-workers 1')
    procs = sorted((ROOT/'_proc').rglob('*.ipynb'))
    noise = (r.stdout + r.stderr).strip()
    record('nbdev-proc-nbs (tools/dev/proc_docs.py) processes every notebook, quietly', r.returncode == 0 and not noise
           and len(procs) == len(notebooks()), noise + f'\n{len(procs)} processed of {len(notebooks())}')
    for p in procs:
        name = f'docs page {p.relative_to(ROOT)} valid, converts, shows no error, absolute path or issue number'
        try:
            nb = nbformat.read(p, as_version=4)
            nbformat.validate(nb)
            md, _ = MarkdownExporter().from_notebook_node(nb)
            html, _ = HTMLExporter().from_notebook_node(nb)
            assert md.strip() and '<html' in html
            problems = page_problems(json.loads(p.read_text()))
            record(name, not problems, '\n'.join(problems))
        except Exception as e: record(name, False, f'{type(e).__name__}: {e}')

def site():
    """The Quarto-free docs site built from `_proc/` (processed again unless the `docs` check just did), every page
    loaded in headless chromium and checked, and the check's self-test (tools/dev/site_check.py)."""
    sys.path.insert(0, str(ROOT/'tools'/'dev'))
    from site_check import site_check_main
    # `_proc/` is current only if the `docs` check processed it in this run
    try: rows = site_check_main(proc='docs' not in dict(times))
    except Exception as e: rows = [('docs site builds and its pages pass the browser check', False, f'{type(e).__name__}: {e}')]
    for name, ok, detail in rows: record(name, ok, detail)

def wheel():
    with tempfile.TemporaryDirectory() as tmp:
        r = sh(f'{sys.executable} -m build --wheel --outdir {tmp}/dist .')
        whl = sorted(Path(tmp, 'dist').glob('gridpe-*.whl'))
        record('wheel builds', r.returncode == 0 and len(whl) == 1, r.stdout[-2000:] + r.stderr[-2000:])
        if not whl: return
        env = dict(os.environ, GRIDPE_VENV=f'{tmp}/venv')
        venv = f'{tmp}/venv'
        # the torch pair of the environment that runs the checks (a CPU build comes from torch's CPU index again)
        v = {d: importlib.metadata.version(d) for d in ('torch', 'torchvision')}
        torch_pair = ' '.join(f"{d}=={x.split('+')[0]}" for d, x in v.items())
        if v['torch'].endswith('+cpu'): torch_pair += ' --index-url https://download.pytorch.org/whl/cpu'
        r = sh(f'{sys.executable} -m venv {venv} && {venv}/bin/python -m pip install -q {os.environ.get("GRIDPE_TORCH", torch_pair)} '
               f'&& {venv}/bin/python -m pip install -q "gridpe[timm] @ {whl[0].as_uri()}"', env=env)
        record('wheel installs into a fresh venv with the timm extra (as the README says)', r.returncode == 0,
               r.stdout[-2000:] + r.stderr[-3000:])
        smoke(f'{venv}/bin/python', tmp)
        quickstart(f'{venv}/bin/python', tmp)

def quickstart(python, tmp):
    "README.md's quick start, every python block in order, run with `python` (the fresh venv's) outside the source tree."
    r = subprocess.run([python, str(ROOT/'tools'/'dev'/'quickstart.py'), str(ROOT/'README.md')], cwd=tmp, text=True,
                       capture_output=True, env=dict(os.environ, MPLBACKEND='Agg'), timeout=600)
    record("README.md's quick start runs as written in the fresh venv, showing the README's outputs", r.returncode == 0,
           r.stdout[-3000:] + r.stderr[-3000:])

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

def run_notebook(nb, out_dir, timeout=1200, threads=None):
    """Execute `nb` as a user does: `jupyter nbconvert --execute`, a fresh kernel started in the notebook's folder, every
    cell in order, nothing skipped by flag (cells marked `#| cuda` skip themselves without a GPU). Returns
    (ok, seconds, first error)."""
    t0 = time.time()
    r = sh(f'{sys.executable} -m jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout={timeout} '
           f'--output-dir {out_dir} --output {nb.stem}_{abs(hash(str(nb))) % 10**6} {nb}',
           env=dict(os.environ, **({'OMP_NUM_THREADS': str(threads)} if threads else {})))
    err = '' if r.returncode == 0 else '\n'.join(l for l in r.stderr.splitlines() if not l.startswith('[NbConvertApp]'))
    return r.returncode == 0, time.time() - t0, err

def jupyter_all(workers=2):
    """Every notebook runs top to bottom in a fresh Jupyter kernel (two at a time, the largest first), each kernel with
    its share of the CPUs as torch's threads: two kernels of two threads each on two cores run several times slower."""
    from concurrent.futures import ThreadPoolExecutor
    t0 = time.time()
    nbs = sorted(notebooks(), key=lambda p: -p.stat().st_size)
    threads = max(1, (os.cpu_count() or 1)//workers)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(workers) as ex:
        for nb, (ok, s, err) in zip(nbs, ex.map(lambda nb: run_notebook(nb, tmp, threads=threads), nbs)):
            record(f'{nb.relative_to(ROOT)} runs top to bottom in Jupyter ({s:.0f} s)', ok, err[-3000:])
    print(f'      the notebooks ran in Jupyter in {time.time()-t0:.0f} s', flush=True)

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

def script_tests(test, name):
    "Each PASS or FAIL line of the shell test `test` recorded as a check of the script `name`."
    r = sh(f'bash {test}')
    lines = [l for l in r.stdout.splitlines() if l.startswith(('PASS', 'FAIL'))]
    for l in lines: record(f'{name}: ' + l[6:], l.startswith('PASS'), r.stdout[-2000:] + r.stderr[-2000:])
    if not lines or r.returncode: record(f'{test} ran', False, r.stdout[-2000:] + r.stderr[-2000:])

def setup():
    "tools/dev/setup_test.sh: how setup.sh chooses torch, shows its steps, and keeps what a second call finds installed."
    script_tests('tools/dev/setup_test.sh', 'setup.sh')

def driver():
    "tools/gpu/run_set_test.sh: the experiments' driver starts the order's runs, less those done, and none too late."
    script_tests('tools/gpu/run_set_test.sh', 'run_set.sh')

def main_job():
    """The main job's check tested on its committed seeds and plants (tools/dev/main_job.py --self-test), then the main
    job run once (image and points) against the committed table: equal in a listed environment, elsewhere within the
    spread of seeds."""
    t0 = time.time()
    r = sh(f'{sys.executable} tools/dev/main_job.py --self-test')
    record("the main job's check passes each committed seed against the others and fails the plants it must fail",
           r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:])
    r = sh(f'{sys.executable} tools/dev/main_job.py image points')
    record("the main job reproduces the committed table: equal in a listed environment, else within the seeds' spread "
           "(tools/dev/main_job.py)", r.returncode == 0, r.stderr[-3000:])
    print('      ' + r.stdout.strip().replace('\n', '\n      ') + f'\n      the main job took {time.time()-t0:.0f} s', flush=True)

CHECKS = dict(  # name: check, in the order CI runs them
    export=lambda: unchanged('nbdev-export', 'gridpe', '*.py', 'nbdev-export leaves gridpe/ unchanged (notebooks and modules in sync)'),
    clean=lambda: unchanged('nbdev-clean', 'nbs', '*.ipynb', 'nbdev-clean leaves nbs/ unchanged (notebooks clean)'),
    ruff=ruff, imports=imports_declared, readme=readme, setup=setup, driver=driver, test=nbdev_test, jupyter=jupyter_all, docs=proc_docs, site=site,
    wheel=wheel,
    main_job=main_job)
# what CI runs: each notebook once (in Jupyter); `test` runs the same cells again under nbdev-test
DEFAULT = [c for c in CHECKS if c != 'test']

def show_times(times):
    "Each step's wall time (s), the setup's (tools/test.sh's GRIDPE_SETUP_S) first, and the total."
    steps = ([('setup', float(os.environ['GRIDPE_SETUP_S']))] if os.environ.get('GRIDPE_SETUP_S') else []) + times
    print('step times (s): ' + ', '.join(f'{n} {t:.0f}' for n, t in steps) + f'; total {sum(t for _, t in steps):.0f}')

if __name__ == '__main__':
    os.environ.setdefault('MPLBACKEND', 'Agg')
    only = next((a.split('=', 1)[1].split(',') for a in sys.argv[1:] if a.startswith('--only=')), DEFAULT)
    if '--skip-wheel' in sys.argv: only = [c for c in only if c != 'wheel']
    if unknown := set(only) - set(CHECKS): sys.exit(f"unknown check {', '.join(sorted(unknown))}; the checks: {', '.join(CHECKS)}")
    for name in only:
        t0 = time.time()
        CHECKS[name]()
        times.append((name, time.time() - t0))
    show_times(times)
    n_ok = sum(results)
    print(f'{n_ok} passed, {len(results) - n_ok} failed')
    sys.exit(0 if n_ok == len(results) else 1)
