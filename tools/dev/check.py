#!/usr/bin/env python
"""Every check CI runs, in order, counted: this script's own command line, notebooks and modules in sync, notebooks
clean, ruff (pyflakes rules) on gridpe/ and tools/, every third-party import of gridpe declared in pyproject.toml
(the embedding library's in the dependencies, the training harness's in the `train` extra), the embedding library
imported and run in a bare venv (torch and what it requires, numpy, fastcore and gridpe alone: tools/dev/bare.py),
README in sync with nbs/index.ipynb and its links resolving, every notebook run once, top to bottom, in a fresh
Jupyter kernel as a user runs it (its test cells included: `nbdev-test` would run the same cells again, so it is not
a default check), the docs pages (tools/dev/proc_docs.py: processed quietly, each valid, convertible and free of
error outputs, absolute paths and issue numbers), the docs site built from them and checked page by page in headless
chromium (tools/dev/site_check.py), the wheel built, installed with the `all` extra into a fresh venv (the torch pair
linked from this environment) and smoke-tested there (tools/dev/smoke.py: every module of the wheel imports, every
public name resolves and is used by a notebook test) with README.md's quick start run in it as written
(tools/dev/quickstart.py), and the main job run once against its committed table (tools/dev/main_job.py: its
self-test, then equal in a listed environment, within the spread of seeds elsewhere). Before the last line it prints
each step's time; the last line is `N passed, N failed`; the exit code is 1 if anything failed.

Usage: python tools/dev/check.py [--skip-wheel] [--only=CHECK,...]   (the checks, in order: cli, export, clean, ruff,
imports, bare, readme, setup, driver, jupyter, docs, site, wheel, main_job; `--only=test` runs `nbdev-test` on every
notebook)
"""
import argparse, ast, hashlib, importlib.metadata, json, os, re, subprocess, sys, tempfile, textwrap, time, tomllib
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

def build_wheel(out, isolated=True):
    "gridpe's wheel built into the folder `out` (`python -m build`), recorded; None if it did not build."
    r = sh(f'{sys.executable} -m build --wheel {"" if isolated else "--no-isolation "}--outdir {out} .')
    whl = sorted(Path(out).glob('gridpe-*.whl'))
    ok = r.returncode == 0 and len(whl) == 1
    record('wheel builds' + ('' if isolated else ' (without build isolation)'), ok, r.stdout[-2000:] + r.stderr[-2000:])
    return whl[0] if ok else None

# what the wheel check's venv may write (MB): gridpe, the extras' packages and pip, not a second torch (5 GB with CUDA)
VENV_MB = 1500

def disk_mb(folder):
    "MB that the files below `folder` take on disk, each inode once and symbolic links not followed (`du -s`)."
    seen, total = set(), 0
    for top, dirs, files in os.walk(folder):
        for st in (os.lstat(os.path.join(top, f)) for f in dirs + files):
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total / 2**20

def pip_says(out, n=3000):
    """pip's output `out` without its warnings for index folders that lack a project (one per project and folder:
    thousands of lines that hide the error), pip's ERROR lines first, then the last `n` characters of the rest."""
    lines = [l for l in out.splitlines() if not re.match(r'\s*WARNING: Location .* is ignored', l)]
    errors = [l for l in lines if l.lstrip().startswith('ERROR')]
    return '\n'.join(errors + ['…'] + ['\n'.join(lines)[-n:]])

def wheel():
    """gridpe's wheel in a fresh venv as the README installs it: the torch pair first, then `pip install "gridpe[all]"`
    from the wheel; then the smoke test and README's quick start in that venv. The torch pair and what it requires
    are this environment's, linked (`bare_venv`: the same build, no download, no second copy of several GB) and held
    at their versions while pip installs everything else."""
    with tempfile.TemporaryDirectory() as tmp:
        whl = build_wheel(f'{tmp}/dist')
        if not whl: return
        venv = Path(tmp)/'venv'
        try: dists = bare_venv(venv, ('torch', 'torchvision'), pip=True)
        except Exception as e:
            record('fresh venv with the torch pair built', False, f'{type(e).__name__}: {e}')
            return
        # pip may not replace a linked distribution: its files are this environment's
        held = Path(tmp)/'held.txt'
        held.write_text(''.join(f'{n}=={d.version}\n' for n, d in sorted(dists.items())))
        # outside the source tree and without PYTHONPATH: pip must not take a checkout's gridpe for an installed one
        env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
        r = subprocess.run([f'{venv}/bin/python', '-m', 'pip', 'install', '-q', '-c', str(held),
                            f'gridpe[all] @ {whl.as_uri()}'], cwd=tmp, env=env, text=True, capture_output=True)
        record('wheel installs into a fresh venv with the all extra (as the README says)', r.returncode == 0,
               pip_says(r.stdout + r.stderr))
        written = disk_mb(venv)
        record(f'the fresh venv holds the torch pair without a second copy ({written:.0f} MB written)',
               written < VENV_MB, f'more than {VENV_MB} MB written: the torch pair was copied, not linked')
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

# the embedding library: the modules `pip install gridpe` (no extra) imports, with torch, numpy and fastcore alone
CORE = ('positions', 'scaling', 'rope', 'embeddings', 'triton_kernels', 'fused', 'attention', 'timm_rope')
# the extra that holds the training harness: the other modules may import it at module level
HARNESS = 'train'

def _imports(f):
    """(line, module, where) for each import of the file `f`; where: 'optional' inside `try: ... except ImportError`,
    'function' inside a function, else 'module'. A relative import's module starts with its dots."""
    tree = ast.parse(f.read_text())
    lazy = {id(n) for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(fn)}
    # try: import x / except ImportError
    optional = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)
                and any(isinstance(h.type, ast.Name) and h.type.id in ('ImportError', 'ModuleNotFoundError')
                        for h in t.handlers)
                for b in t.body for n in ast.walk(b)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import): names = [a.name for a in n.names]
        elif isinstance(n, ast.ImportFrom) and n.module: names = ['.' * n.level + n.module]
        # from . import x
        elif isinstance(n, ast.ImportFrom): names = ['.' * n.level + a.name for a in n.names]
        else: continue
        where = 'optional' if id(n) in optional else 'function' if id(n) in lazy else 'module'
        for m in names: yield n.lineno, m, where

def core_modules():
    "CORE and the modules of gridpe/ they import at module level, recursively."
    found, todo = set(), list(CORE)
    while todo:
        m = todo.pop()
        if m in found: continue
        found.add(m)
        for _, x, where in _imports(ROOT/'gridpe'/f'{m}.py'):
            if where == 'module' and x.startswith(('.', 'gridpe.')):
                todo.append(x.lstrip('.').removeprefix('gridpe.').split('.')[0])
    return found

def requirements():
    "{extra: the distributions it installs} of pyproject.toml, '' the dependencies; `gridpe[...]` in an extra expanded."
    proj = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']
    groups = {'': proj['dependencies'], **proj.get('optional-dependencies', {})}
    def names(extra):
        out = set()
        for r in groups[extra]:
            name = _dist(re.split(r'[<>=!~\[; ]', r, maxsplit=1)[0])
            if name != 'gridpe': out.add(name)
            else: out |= set().union(*(names(e.strip()) for e in re.search(r'\[(.*?)\]', r)[1].split(',')))
        return out
    return {e: names(e) for e in groups}

def imports_declared():
    """Every third-party module gridpe imports at module level is in [project].dependencies (the embedding library:
    CORE and what it imports) or in them or the `train` extra (the other modules); inside functions, in any extra;
    inside `try: ... except ImportError` it is optional."""
    reqs = requirements()
    allowed = {'core': reqs[''], 'module': reqs[''] | reqs[HARNESS], 'function': set().union(*reqs.values())}
    say = {'core': "in [project].dependencies (an embedding library's module: `pip install gridpe` imports it)",
           'module': f'in [project].dependencies or the {HARNESS} extra', 'function': 'in dependencies or an extra'}
    core, provides, problems = core_modules(), importlib.metadata.packages_distributions(), []
    for f in sorted((ROOT/'gridpe').glob('*.py')):
        if f.name == '_modidx.py': continue
        seen = set()
        for line, m, where in _imports(f):
            top = m.split('.')[0]
            if where == 'optional' or top in ('', '__future__', 'gridpe') or top in sys.stdlib_module_names: continue
            if (line, top) in seen: continue
            seen.add((line, top))
            where = 'core' if where == 'module' and f.stem in core else where
            dists = {_dist(d) for d in provides.get(top, [])}
            if not dists: problems.append(f'{f.name}:{line}: imports {top}, which no installed distribution provides')
            elif not dists & allowed[where]:
                problems.append(f"{f.name}:{line}: imports {top} ({', '.join(sorted(dists))}) but pyproject.toml does "
                                f"not declare it {say[where]}")
    record(f'every third-party import of gridpe/ is declared in pyproject.toml (the embedding library, '
           f"{', '.join(sorted(core))}: in the dependencies)", not problems, '\n'.join(problems))

def closure(names):
    """The installed distributions `names` and those they require here, recursively ({name: distribution}): markers
    evaluated for this Python, requested extras followed; a requirement this environment lacks is left out."""
    from packaging.requirements import Requirement
    found, seen, todo = {}, set(), [(n, '') for n in names]
    while todo:
        name, extra = todo.pop()
        if (_dist(name), extra) in seen: continue
        seen.add((_dist(name), extra))
        try: d = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError: continue
        found[_dist(name)] = d
        for r in map(Requirement, d.requires or []):
            if not r.marker or r.marker.evaluate({'extra': extra}): todo += [(r.name, e) for e in ('', *r.extras)]
    return found

def _link(src, dst, mine, theirs):
    """Link into the folder `dst` each entry of the folder `src` that a path of `mine` starts with; an entry that a
    path of `theirs` (another distribution's) also starts with becomes a folder, linked entry by entry."""
    for top in sorted({p.parts[0] for p in mine}):
        if top in {p.parts[0] for p in theirs} and (src/top).is_dir():
            below = lambda ps: {Path(*p.parts[1:]) for p in ps if p.parts[0] == top and len(p.parts) > 1}
            (dst/top).mkdir(exist_ok=True)
            _link(src/top, dst/top, below(mine), below(theirs))
        elif (src/top).exists() and not (dst/top).exists(): (dst/top).symlink_to(src/top)

def bare_venv(venv, names=('torch', 'numpy', 'fastcore'), pip=False):
    """A venv at `venv` without system site packages (and without pip unless `pip`), into whose site-packages the
    installed distributions `names` and what they require (`closure`) are linked from this environment (no download);
    returns them."""
    dists = closure(names)
    subprocess.run([sys.executable, '-m', 'venv', *([] if pip else ['--without-pip']), str(venv)], check=True)
    site = Path(subprocess.run([f'{venv}/bin/python', '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))'],
                               check=True, text=True, capture_output=True).stdout.strip())
    # each distribution's files below its folder of site-packages (not the scripts and data outside it)
    files = lambda d: {Path(f) for f in d.files or [] if f.parts and f.parts[0] != '..' and not Path(f).is_absolute()}
    others = [d for d in importlib.metadata.distributions() if _dist(d.metadata['Name'] or '') not in dists]
    for root in {Path(d.locate_file('')) for d in dists.values()}:
        mine = set().union(*(files(d) for d in dists.values() if Path(d.locate_file('')) == root))
        theirs = set().union(*(files(d) for d in others if Path(d.locate_file('')) == root))
        _link(root, site, mine, theirs)
    return dists

def bare():
    """The embedding library as `pip install gridpe` (no extra) installs it: a venv of torch and what it requires,
    numpy and fastcore (`bare_venv`), gridpe's wheel installed into it without dependencies, and tools/dev/bare.py run
    with its Python: CORE imports, every extra's modules are missing, a small example runs, `gridpe-compare` says what
    to install."""
    with tempfile.TemporaryDirectory() as tmp:
        # without build isolation: setuptools from this environment, so no index is needed
        whl = build_wheel(f'{tmp}/dist', isolated=False)
        if not whl: return
        venv = Path(tmp)/'venv'
        try: dists = bare_venv(venv)
        except Exception as e:
            record('bare venv (torch, numpy, fastcore and what they require) built', False, f'{type(e).__name__}: {e}')
            return
        # outside the source tree and without PYTHONPATH: pip must not take a checkout's gridpe for an installed one
        env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
        r = subprocess.run([sys.executable, '-m', 'pip', '--python', f'{venv}/bin/python', 'install', '-q', '--no-deps',
                            '--no-index', str(whl)], cwd=tmp, env=env, text=True, capture_output=True)
        record('gridpe installs into the bare venv without dependencies', r.returncode == 0, r.stdout + r.stderr)
        if r.returncode: return
        # every extra's modules (as this environment maps distributions to them), less those the venv holds
        by_dist = {}
        for m, ds in importlib.metadata.packages_distributions().items():
            for d in ds: by_dist.setdefault(_dist(d), set()).add(m)
        mods = lambda ds: set().union(*(by_dist.get(d, {d.replace('-', '_')}) for d in ds))
        extras = mods(set().union(*requirements().values()) - set(requirements()['']))
        held = sorted(extras & mods(dists))
        absent = sorted(m for m in extras - mods(dists) if not m.startswith('_'))
        print(f"      bare venv: {len(dists)} distributions linked; of the extras' modules it holds "
              f"{', '.join(held) or 'none'}, which torch, numpy or fastcore require", flush=True)
        script_tests(f'{venv}/bin/python -I tools/dev/bare.py --core {" ".join(CORE)} --absent {" ".join(absent)}',
                     'bare venv')

def readme():
    r = sh(f'{sys.executable} tools/dev/readme.py --check')
    record('README.md and its figures in sync with nbs/index.ipynb', r.returncode == 0, r.stdout + r.stderr)
    r = sh(f'{sys.executable} tools/dev/readme.py --links')
    record('every relative link and image of README.md exists in the repository', r.returncode == 0, r.stdout + r.stderr)

def script_tests(test, name):
    "Each PASS or FAIL line of the test command `test` recorded as a check of `name`."
    r = sh(test)
    # each PASS or FAIL line with the indented lines after it (what a failure says)
    blocks = re.findall(r'^((?:PASS|FAIL)  .*)\n((?:[ \t].*\n)*)', r.stdout, re.M)
    for l, more in blocks: record(f'{name}: ' + l[6:], l.startswith('PASS'), textwrap.dedent(more) or r.stdout[-2000:])
    if not blocks or r.returncode: record(f'{test} ran', False, r.stdout[-2000:] + r.stderr[-2000:])

def setup():
    "tools/dev/setup_test.sh: how setup.sh chooses torch, shows its steps, and keeps what a second call finds installed."
    script_tests('bash tools/dev/setup_test.sh', 'setup.sh')

def cli():
    "tools/dev/check_test.sh: this script's own command line answers --help at once and refuses what it does not know."
    script_tests('bash tools/dev/check_test.sh', 'check.py')

def driver():
    """tools/gpu/run_set_test.sh: the experiments' driver starts the order's runs, less those done, and none too late;
    tools/gpu/gpu_bench_compile_e2e_test.sh: the end-to-end benchmark gives its jobs to the cards of any host, and
    tools/gpu/cards.sh counts the cards this process may use."""
    script_tests('bash tools/gpu/run_set_test.sh', 'run_set.sh')
    script_tests('bash tools/gpu/gpu_bench_compile_e2e_test.sh', 'gpu_bench_compile_e2e.sh')

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
    cli=cli,
    export=lambda: unchanged('nbdev-export', 'gridpe', '*.py', 'nbdev-export leaves gridpe/ unchanged (notebooks and modules in sync)'),
    clean=lambda: unchanged('nbdev-clean', 'nbs', '*.ipynb', 'nbdev-clean leaves nbs/ unchanged (notebooks clean)'),
    ruff=ruff, imports=imports_declared, bare=bare, readme=readme,
    setup=setup, driver=driver, test=nbdev_test, jupyter=jupyter_all, docs=proc_docs, site=site,
    wheel=wheel,
    main_job=main_job)
# what CI runs: each notebook once (in Jupyter); `test` runs the same cells again under nbdev-test
DEFAULT = [c for c in CHECKS if c != 'test']

def show_times(times):
    "Each step's wall time (s), the setup's (tools/test.sh's GRIDPE_SETUP_S) first, and the total."
    steps = ([('setup', float(os.environ['GRIDPE_SETUP_S']))] if os.environ.get('GRIDPE_SETUP_S') else []) + times
    print('step times (s): ' + ', '.join(f'{n} {t:.0f}' for n, t in steps) + f'; total {sum(t for _, t in steps):.0f}')

def parse(argv=None)->list:
    "The checks to run, from the command line (`--help` prints the usage; an unknown check or flag exits with 2)."
    p = argparse.ArgumentParser(prog='check.py', description=__doc__.split('\n\nUsage:')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--only', help=f"the checks to run, comma-separated (default: all but test): {', '.join(CHECKS)}")
    p.add_argument('--skip-wheel', action='store_true', help="leave out the wheel check")
    a = p.parse_args(argv)
    only = a.only.split(',') if a.only else DEFAULT
    if unknown := set(only) - set(CHECKS):
        p.error(f"unknown check {', '.join(sorted(unknown))}; the checks: {', '.join(CHECKS)}")
    return [c for c in only if not (a.skip_wheel and c == 'wheel')]

if __name__ == '__main__':
    os.environ.setdefault('MPLBACKEND', 'Agg')
    only = parse()
    for name in only:
        t0 = time.time()
        CHECKS[name]()
        times.append((name, time.time() - t0))
    show_times(times)
    n_ok = sum(results)
    print(f'{n_ok} passed, {len(results) - n_ok} failed')
    sys.exit(0 if n_ok == len(results) else 1)
