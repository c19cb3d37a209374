#!/usr/bin/env python
"""Every public name of gridpe, as installed, imports and is exercised by the notebooks' tests.

1. Installed: each module of the installed `gridpe` (any layout: the package is walked) imports and each name of its
   `__all__` resolves; every tracked file of `gridpe/` (package data too) is installed. `--installed`: gridpe must come
   from outside the source tree (`tools/dev/check.py` runs this from the wheel, installed in a fresh venv).
2. Exercised: each name of each `__all__` is used (as a name or attribute, parsed) by a non-exported code cell of `nbs/`
   that `nbdev-test` runs (not `#| cuda`, `#| slow`, `#| eval: false`), directly or through the exported definitions
   the cell uses (listed). Names reached only from skipped cells fail unless `--allow-skipped`.
3. `--run NB ...` (opt-in): those notebooks' tests run as `nbdev-test` runs them (execnb), each exported cell replaced
   by the installed module's namespace, so every call goes to the installed code.
CI runs 1 and 2 (seconds): 3 would repeat `nbdev-test`, whose tests run the exported code (equal to the modules, which
check.py verifies); what only an install can show (a failing import, a missing name or file) is 1's; a module using a
name it never imports fails ruff (F821) first. Usage: python tools/dev/smoke.py [--installed] [--run NB ...] [--json F]
"""
import argparse, ast, importlib, json, os, pkgutil, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP, EXPORT, results = {'cuda', 'slow'}, {'export', 'exports', 'exporti'}, []

def record(name, ok, detail=''):
    results.append(dict(name=name, ok=ok, detail=detail))
    print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f'\n      {detail}' if detail and not ok else ''), flush=True)

def directives(src):
    "{word: rest} of a cell's `#|` lines, e.g. {'export': '', 'eval': 'false'}."
    return {m[1]: m[2].strip() for l in src.splitlines() if (m := re.match(r'#\|\s*([\w-]+):?\s*(.*)', l))}
def skipped(d): return bool(SKIP & d.keys()) or d.get('eval') == 'false'
def notebooks(): return sorted(p for p in (ROOT/'nbs').rglob('*.ipynb') if not any(s[0] in '_.' for s in p.relative_to(ROOT/'nbs').parts))
def used(node): return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))}

def parse(src):
    "A cell's syntax tree (IPython's `%` and `!` lines blanked), or None."
    try: return ast.parse('\n'.join('' if l.lstrip().startswith(('%', '!')) else l for l in src.splitlines()))
    except SyntaxError: return None

def definitions(tree):
    "(name, names its statement uses) for each top-level definition of an exported cell."
    for st in tree.body if tree else []:
        for t in ([st.name] if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else
                  [t.id for t in getattr(st, 'targets', [getattr(st, 'target', None)]) if isinstance(t, ast.Name)]): yield t, used(st) - {t}
def modules(gridpe):
    names = ['gridpe'] + [m.name for m in pkgutil.walk_packages(gridpe.__path__, 'gridpe.')]
    return [n for n in names if not any(p.startswith('_') for p in n.split('.'))]

def check_installed(installed):
    import gridpe
    pkg = Path(gridpe.__file__).resolve().parent
    if installed: record(f'gridpe imported from outside the source tree ({pkg})', not pkg.is_relative_to(ROOT))
    tracked = subprocess.run(['git', 'ls-files', 'gridpe'], cwd=ROOT, text=True, capture_output=True).stdout.split()
    missing = [f for f in tracked if not (pkg.parent/f).exists()] if pkg != ROOT/'gridpe' else []
    record(f'every file of gridpe/ is installed ({len(tracked)} files)', not missing, ', '.join(missing))
    public = {}
    for name in modules(gridpe):   # any module layout
        try: mod = importlib.import_module(name)
        except Exception as e: record(f'{name} imports', False, f'{type(e).__name__}: {e}'); continue
        names = list(getattr(mod, '__all__', []))
        bad = [n for n in names if not hasattr(mod, n)]
        record(f'{name} imports and its {len(names)} public names resolve', not bad, f"__all__ names undefined: {', '.join(bad)}")
        public[name] = names
    return public

def reach(names, uses):
    "`names` and all that the exported definitions of those names use, transitively."
    todo, seen = list(names), set(names)
    while todo:
        for n in uses.get(todo.pop(), set()) - seen: seen.add(n); todo.append(n)
    return seen

def check_exercised(public, allow_skipped):
    run, skip, uses = set(), set(), {}
    for nb in notebooks():
        for c in json.loads(nb.read_text())['cells']:
            if c['cell_type'] != 'code': continue
            src = ''.join(c['source']); d, tree = directives(src), parse(src)
            if EXPORT & d.keys():
                for name, u in definitions(tree): uses.setdefault(name, set()).update(u)
            else: (skip if skipped(d) else run).update(used(tree) if tree else re.findall(r'\b[A-Za-z_]\w*\b', src))
    direct, run, skip = run, reach(run, uses), reach(run | skip, uses)
    for mod, names in public.items():
        never, only_skipped = [n for n in names if n not in skip], [n for n in names if n in skip and n not in run]
        record(f'{mod}: every public name is used by a notebook test', not never and (allow_skipped or not only_skipped),
               f"used by no test cell: {never}; used only in cuda/slow cells: {only_skipped}")
        if indirect := [n for n in names if n in run and n not in direct]: print(f"      only through other exported code: {', '.join(indirect)}")

def run_notebook(nb):
    "Run `nb`'s cells that nbdev-test runs, each exported cell replaced by the installed module's namespace."
    from fastcore.nbio import read_nb
    from execnb.shell import CaptureShell
    nb_, default = read_nb(nb), None
    for c in nb_.cells:
        d = directives(c.source) if c.cell_type == 'code' else {}
        if 'default_exp' in d: default = d['default_exp']
        if EXPORT & d.keys():
            mod = 'gridpe.' + (next(d[k] for k in EXPORT if k in d) or default)
            c.source = f"import importlib\nglobals().update({{k: v for k, v in vars(importlib.import_module('{mod}')).items() if not k.startswith('__')}})"
    cwd, err = os.getcwd(), ''
    os.chdir(nb.parent)
    try: CaptureShell(nb).run_all(nb_, exc_stop=True, preproc=lambda c: c.cell_type == 'code' and skipped(directives(c.source)))
    except Exception as e: err = f'{type(e).__name__}: {str(e)[-1500:]}'
    finally: os.chdir(cwd)
    record(f'{nb.relative_to(ROOT)} runs against the installed gridpe', not err, err)

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--installed', action='store_true', help='fail if gridpe is imported from the source tree')
    p.add_argument('--allow-skipped', action='store_true', help='accept names used only in cuda/slow cells')
    p.add_argument('--run', nargs='*', default=[], type=Path, help='notebooks to run against the installed gridpe')
    p.add_argument('--json', type=Path, help='also write the results to this file')
    a = p.parse_args()
    os.environ.setdefault('MPLBACKEND', 'Agg')
    public = check_installed(a.installed)
    check_exercised(public, a.allow_skipped)
    for nb in a.run: run_notebook(nb.resolve())
    if a.json: a.json.write_text(json.dumps(results, indent=1))
    n_ok = sum(r['ok'] for r in results)
    print(f'{n_ok} passed, {len(results) - n_ok} failed')
    sys.exit(n_ok != len(results))
