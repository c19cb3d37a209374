#!/usr/bin/env python
"""The README's table, checked: rerun the main job and compare its top-1 accuracy with the committed results.

The main job is `gridpe-compare image` (the README's table) and `gridpe-compare points`, with their defaults on the
embedded data, seed 0; their committed results are `nbs/experiments/results/cpu_{image,points}_default.csv`.
The image job also evaluates its rotary kinds with frequency scaling (pi, ntk, yarn): a second table shows them at the
largest size; it must be equal in a listed environment, and is shown, not tested, elsewhere.
- In a listed environment (`cpu_default_env.json`: torch build, the CPU's vector instructions as torch uses them,
  threads; each one reproduced the committed tables bit for bit), every number must be equal.
- Elsewhere float sums are ordered differently, and training can amplify last-bit differences as a change of seed
  would. There the new table is tested against the spread of K seeds (`cpu_main_job_seeds.csv`): per kind, the mean
  over sizes of new − reference (Student t), and all cells at once (F), Bonferroni over the tests of both tasks at a
  family-wise ALPHA. DEVELOPERS.md ("The main job's numbers") gives the reasoning and the measurements.

Usage: python tools/dev/main_job.py [image points] [--results DIR ...] [--record]
       python tools/dev/main_job.py --spread 0 1 2 3 [--keep DIR]   (refresh: the seeds, seed 0's tables, this env)
       python tools/dev/main_job.py --planted NAME [--save]           (a planted change: does the check fail it?)
       python tools/dev/main_job.py --self-test                       (each seed passes; each plant of MUST_FAIL fails)
"""
import argparse, contextlib, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np
import pandas as pd
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT/'nbs'/'experiments'/'results'
ENV_FILE = RESULTS/'cpu_default_env.json'
SEEDS_FILE = RESULTS/'cpu_main_job_seeds.csv'
PLANTED_FILE = RESULTS/'cpu_main_job_planted.csv'
TASKS = ('image', 'points')
KINDS = ('gridpe', 'rope_axial', 'rope_mixed', 'ape', 'none')
SCALINGS = ('none', 'pi', 'ntk', 'yarn')
ISA_VARS = ('ATEN_CPU_CAPABILITY', 'ONEDNN_MAX_CPU_ISA', 'DNNL_MAX_CPU_ISA', 'MKL_ENABLE_INSTRUCTIONS', 'MKL_CBWR')
# family-wise false-failure rate outside the listed environments: one CI run in a hundred
ALPHA = 0.01
# the tests of the family: per task, one per kind, one of all cells, one per cell (image 4 + 1 + 20, points 5 + 1 + 20)
N_TESTS = 51
# planted changes: (python run before gridpe-compare's main, extra flags); each must fail the check
PLANTS = dict(
    gridpe_angles_zero=("import gridpe.rope as r; f = r.GridPE.forward\n"
                        "r.GridPE.forward = lambda self, *a, **k: 0*f(self, *a, **k)", []),
    lr_half=('', ['--lr', '0.001']))
# the plants the check fails (the self-test requires it); the others are changes below what it sees (DEVELOPERS.md)
MUST_FAIL = ('gridpe_angles_zero',)

def cpu_vector_flags():
    "The CPU's vector instruction sets (avx*, amx*, fma) as Linux lists them: which kernels torch, oneDNN and MKL pick."
    try: line = next(l for l in Path('/proc/cpuinfo').read_text().splitlines() if l.startswith('flags'))
    except (OSError, StopIteration): return platform.processor()
    return ' '.join(sorted(f for f in line.split(':')[1].split() if f.startswith(('avx', 'amx', 'fma'))))

def environment():
    "What decides the job's floating-point results on a CPU: torch's build, the CPU's vector instructions, threads."
    import torch
    return dict(torch=torch.__version__, machine=platform.machine(),
                cpu_capability=torch.backends.cpu.get_cpu_capability(),
                cpu_flags=cpu_vector_flags(), threads=torch.get_num_threads(),
                **{k: os.environ[k] for k in ISA_VARS if k in os.environ})

def listed_environments():
    "The environments that reproduced the committed tables bit for bit."
    envs = json.loads(ENV_FILE.read_text()) if ENV_FILE.exists() else []
    return envs if isinstance(envs, list) else [envs]

def run_job(task, out, seeds=(0,), plant=None):
    "Run `gridpe-compare <task>` with its defaults (and a plant's change) into `out`; return its rows and seconds."
    code, flags = PLANTS[plant] if plant else ('', [])
    argv = [task, '--out', str(out), '--quiet', '--go-on', '--seeds', *map(str, seeds), *flags]
    t0 = time.time()
    r = subprocess.run([sys.executable, '-c', f'{code}\nfrom gridpe.compare import main; main({argv!r})'], cwd=ROOT,
                       text=True, capture_output=True, env=dict(os.environ, MPLBACKEND='Agg'))
    if r.returncode:
        raise RuntimeError(f'gridpe-compare {task} failed (exit {r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-3000:]}')
    return pd.read_csv(Path(out)/'results.csv'), time.time() - t0

def long_top1(res):
    "Top-1 accuracy (%) of the last epoch as rows seed, size, kind, top1."
    r = res[(res.metric == 'top1') & (res.checkpoint.fillna('last') == 'last')]
    return r.assign(top1=100*r.value)[['seed', 'size', 'kind', 'top1']].reset_index(drop=True)

def table(rows, seed=0):
    "One seed's top-1 (%) as a table: rows sizes, columns kinds."
    t = rows[rows.seed == seed].pivot_table(index='size', columns='kind', values='top1')
    order = [k for k in KINDS if k in t] + [k for k in t if k not in KINDS]
    return t[order].rename_axis(columns='top-1 (%)')

def scaling_table(res):
    "Seed 0's top-1 (%) at the largest size with each frequency scaling method (none: plain): rows methods, columns kinds."
    r = res[(res.checkpoint.fillna('last') == 'last') & (res.seed == 0)]
    r = r[(r['size'] == r['size'].max()) & r.metric.str.fullmatch(r'top1(@(pi|ntk|yarn))?')]
    t = r.assign(scaling=r.metric.str.partition('@')[2].replace('', 'none'), top1=100*r.value)
    t = t.pivot_table(index='scaling', columns='kind', values='top1')
    rows, cols = [m for m in SCALINGS if m in t.index], [k for k in KINDS if k in t]
    return t.loc[rows, cols].rename_axis(index=f"scaling at {int(r['size'].max())}", columns='top-1 (%)')

def spread_model(rows):
    "From K seeds' rows (seed, size, kind, top1): the reference (mean over seeds) and the variances between seeds."
    cells = rows.pivot_table(index=['size', 'kind'], columns='seed', values='top1')
    K, P = cells.shape[1], cells.index.get_level_values('kind').nunique()
    kind_means = rows.groupby(['kind', 'seed']).top1.mean().unstack('seed')
    return dict(K=K, df=P*(K - 1), mean=cells.mean(axis=1),
                # pooled over the kinds of a size; pooled over the kinds
                var_size=cells.var(axis=1, ddof=1).groupby(level='size').mean(),
                var_kind=float(kind_means.var(axis=1, ddof=1).mean()))

def differences(new, model):
    "New − reference (points) per cell, indexed by (size, kind)."
    long = new.rename_axis(columns='kind').stack()
    return long - model['mean'].reindex(long.index)

def tests(new, model, n_tests=N_TESTS, alpha=ALPHA):
    "The tests of one task's new table (sizes × kinds) against the spread model: per kind, per cell, all cells (F)."
    a, K, df = alpha/n_tests, model['K'], model['df']
    d = differences(new, model)
    inflate, t_allowed = 1 + 1/K, stats.t.ppf(1 - a/2, df)
    se = (model['var_kind']*inflate)**0.5
    rows = [dict(test=f'kind {kind}', diff=dk.mean(), allowed=t_allowed*se, p=2*stats.t.sf(abs(dk.mean()/se), df))
            for kind, dk in d.groupby(level='kind')]
    se_cell = (model['var_size'].reindex(d.index.get_level_values('size')).to_numpy()*inflate)**0.5
    for (size, kind), dc, se in zip(d.index, d, se_cell):
        rows.append(dict(test=f'cell {kind} {size}', diff=dc, allowed=t_allowed*se, p=2*stats.t.sf(abs(dc/se), df)))
    z2 = (d/se_cell)**2
    F, n = float(z2.mean()), len(z2)
    rows.append(dict(test=f'all {n} cells (F)', diff=float((d**2).mean()**0.5), allowed=None, F=F,
                     F_allowed=stats.f.ppf(1 - a, n, df), p=stats.f.sf(F, n, df)))
    out = pd.DataFrame(rows)
    return out.assign(ok=out.p > a)

def show_tests(task, new, model, res):
    "Print a task's tests: the difference (points) and what is allowed, the p-value and the verdict."
    d = differences(new, model).unstack()[list(new.columns)]
    print(f'new − mean of {model["K"]} seeds (points)\n{d.round(1)}')
    cells = res[res.test.str.startswith('cell')]
    closest = cells.p.idxmin()
    shown = res[~res.test.str.startswith('cell') | ~res.ok | (res.index == closest)]
    print(f'  {len(cells)} cells tested one by one: {int((~cells.ok).sum())} too far; the closest to its limit:')
    for r in shown.itertuples():
        if r.allowed == r.allowed and r.allowed is not None:
            mean = '' if r.test.startswith('cell') else 'mean '
            what = f'{mean}difference {r.diff:+.1f} points, ±{r.allowed:.1f} allowed'
        else: what = f'rms difference {r.diff:.1f} points, F {r.F:.2f} ({r.F_allowed:.2f} allowed)'
        print(f"  {task} {r.test:<18} {what}, p {r.p:.2g}: {'ok' if r.ok else 'TOO FAR'}")

def seed_rows(task):
    "The committed seeds' rows of a task."
    rows = pd.read_csv(SEEDS_FILE)
    rows = rows[rows.task == task]
    return rows[['seed', 'size', 'kind', 'top1']]

def check_spread(task, new):
    "Test a task's new table against the committed spread of seeds; print it and return ok."
    res = tests(new, model := spread_model(seed_rows(task)))
    show_tests(task, new, model, res)
    return bool(res.ok.all())

def compare_scaling(task, res):
    """Print the committed and the new frequency-scaling table (the largest size); whether they are equal. The spread
    of seeds covers the top-1 table only: elsewhere than a listed environment this table is shown, not tested."""
    old, new = scaling_table(pd.read_csv(RESULTS/f'cpu_{task}_default.csv')), scaling_table(res)
    if len(old) < 2 and len(new) < 2: return True
    print(f'gridpe-compare {task}, frequency scaling at evaluation: committed\n{old.round(1)}\nnew\n{new.round(1)}',
          flush=True)
    # NaN where a kind has no scaling (APE): equal when both hold it
    return old.shape == new.shape and bool(np.array_equal(old.to_numpy(float), new.to_numpy(float), equal_nan=True))

def compare(task, new, exact, res=None):
    "Print the committed and the new table; equal in a listed environment, else tested against the seeds' spread."
    scaling_equal = True if res is None else compare_scaling(task, res)
    old = table(long_top1(pd.read_csv(RESULTS/f'cpu_{task}_default.csv')))
    if list(old.index) != list(new.index) or sorted(old.columns) != sorted(new.columns):
        print(f'{task}: the new table has other sizes or kinds than the committed one\n{new.round(1)}')
        return False, float('inf')
    new = new[old.columns]
    diff = new - old
    worst = float(diff.abs().max().max())
    print(f'gridpe-compare {task}: committed\n{old.round(1)}\nnew\n{new.round(1)}\nnew − committed (points)\n'
          f'{diff.round(1)}\nlargest difference {worst:.1f} points', flush=True)
    if exact:
        ok = worst == 0 and scaling_equal
        print('  a listed environment: every number must be equal: ' + ('ok' if ok else "they differ. If a change to "
              "the code moved them, refresh the committed tables (DEVELOPERS.md, \"The main job's numbers\")"))
        return ok, worst
    ok = check_spread(task, new)
    if not ok: print("  outside what the spread of seeds allows: if a change to the code moved the numbers, refresh "
                     "the committed tables and seeds (DEVELOPERS.md, \"The main job's numbers\")", flush=True)
    return ok, worst

def main(tasks=TASKS, results=None, record=False):
    env, listed = environment(), listed_environments()
    exact = env in listed
    print(f'this environment: {env}\n' + ('a listed one: the numbers must be equal' if exact else
          f'not one of the {len(listed)} listed: the numbers are tested against the spread of seeds'), flush=True)
    oks, worsts = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, task in enumerate(tasks):
            if results: res = pd.read_csv(Path(results[i])/'results.csv')
            else:
                res, s = run_job(task, Path(tmp)/task)
                print(f'gridpe-compare {task} ran in {s:.0f} s')
            ok, worst = compare(task, table(long_top1(res)), exact, res)
            oks.append(ok)
            worsts.append(worst)
    if record and max(worsts) == 0 and not exact:
        ENV_FILE.write_text(json.dumps(listed + [env], indent=1) + '\n')
        print('recorded: this environment is listed')
    return all(oks)

def spread(seeds, keep=None):
    """Refresh the committed numbers: run both tasks with `seeds` (0 among them) in this environment, write their top-1
    per seed to cpu_main_job_seeds.csv, seed 0's results as the committed tables, and list this environment alone."""
    if 0 not in seeds: raise SystemExit('--spread: seed 0 is the committed tables\' seed; give it among the seeds')
    env, out = environment(), []
    with tempfile.TemporaryDirectory() as tmp:
        for task in TASKS:
            folder = Path(keep or tmp)/task
            res, s = (pd.read_csv(folder/'results.csv'), None) if (folder/'results.csv').exists() else run_job(
                task, folder, seeds)
            print(f'gridpe-compare {task}, seeds {seeds}' + (f': {s:.0f} s' if s else ': kept results'), flush=True)
            rows = long_top1(res)
            out.append(rows[rows.seed.isin(seeds)].assign(task=task))
            committed = RESULTS/f'cpu_{task}_default.csv'
            res[res.seed == 0][pd.read_csv(committed, nrows=0).columns].to_csv(committed, index=False)
    df = pd.concat(out).assign(cpu_capability=env['cpu_capability'],
                               kernels=os.environ.get('ATEN_CPU_CAPABILITY', 'default'))
    df[['task', 'seed', 'size', 'kind', 'top1', 'cpu_capability', 'kernels']].to_csv(SEEDS_FILE, index=False)
    ENV_FILE.write_text(json.dumps([env], indent=1) + '\n')
    print(f'wrote {SEEDS_FILE.relative_to(ROOT)} ({len(df)} rows), the committed tables (seed 0) and this environment')

def planted(plant, save=False, keep=None):
    "Run the image job with a planted change and check it as a new table; `save` keeps its rows."
    with tempfile.TemporaryDirectory() as tmp:
        res, s = run_job('image', Path(keep or tmp)/f'image-{plant}', plant=plant)
    print(f'gridpe-compare image with the plant {plant}: {s:.0f} s')
    rows = long_top1(res).assign(task='image', plant=plant)
    ok = check_spread('image', table(rows))
    if save:
        old = pd.read_csv(PLANTED_FILE) if PLANTED_FILE.exists() else None
        keep_old = old[old.plant != plant] if old is not None else None
        pd.concat([keep_old, rows]).to_csv(PLANTED_FILE, index=False)
    print(f"the plant {plant}: " + ('passed: a change below what the check can see' if ok else 'the check fails it'))
    return not ok

def self_test():
    "Each committed seed, as a new run against the other seeds, passes; each plant of MUST_FAIL fails."
    rows, ok = pd.read_csv(SEEDS_FILE), True
    for task in TASKS:
        r = rows[rows.task == task]
        for s in sorted(r.seed.unique()):
            res = tests(table(r, s), spread_model(r[r.seed != s]))
            worst = res.loc[res.p.idxmin()]
            print(f"{task} seed {s} against the other seeds: {'passes' if res.ok.all() else 'FAILS'} "
                  f"(smallest p {worst.p:.2g}, {worst.test})")
            ok &= bool(res.ok.all())
    plants = pd.read_csv(PLANTED_FILE) if PLANTED_FILE.exists() else pd.DataFrame(columns=['task', 'plant'])
    for (task, plant), r in plants.groupby(['task', 'plant']):
        res = tests(table(r), spread_model(seed_rows(task)))
        worst, must = res.loc[res.p.idxmin()], plant in MUST_FAIL
        seen = 'fails' + (', as it must' if must else '') if not res.ok.all() else (
            'PASSES' if must else 'passes: below what the check sees')
        print(f"{task} with the plant {plant}: {seen} (smallest p {worst.p:.2g}, {worst.test}, "
              f"{worst['diff']:+.1f} points)")
        ok &= not (must and res.ok.all())
    ok &= set(MUST_FAIL) <= set(plants.plant)
    # the scaling table equals itself (kinds without scaling, as APE, hold NaN there), and not a changed copy
    res = pd.read_csv(RESULTS/'cpu_image_default.csv')
    moved = res.assign(value=res.value.where(~res.metric.eq('top1@yarn'), res.value + 0.01))
    with open(os.devnull, 'w') as quiet, contextlib.redirect_stdout(quiet):
        same, other = compare_scaling('image', res), compare_scaling('image', moved)
    print(f"the image scaling table against itself: {'equal' if same else 'DIFFERS'}; "
          f"against a moved copy: {'DIFFERS' if other else 'differs, as it must'}")
    return ok and same and not other

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('tasks', nargs='*', help='the tasks to check: image, points (default: both)')
    p.add_argument('--results', nargs='+', help='existing results folders, one per task, checked instead of rerunning')
    p.add_argument('--record', action='store_true',
                   help='list this environment if its numbers equal the committed ones')
    p.add_argument('--spread', nargs='+', type=int,
                   help="refresh: both tasks with these seeds (0 among them), seed 0's tables, this environment")
    p.add_argument('--keep', help='with --spread or --planted: keep (and reuse) the results folders here')
    p.add_argument('--planted', choices=sorted(PLANTS), help='run the image job with a planted change and check it')
    p.add_argument('--save', action='store_true', help="with --planted: keep its table in cpu_main_job_planted.csv")
    p.add_argument('--self-test', action='store_true',
                   help='each seed passes against the others; each plant of MUST_FAIL fails')
    a = p.parse_args()
    if bad := set(a.tasks) - set(TASKS): p.error(f"unknown task {', '.join(sorted(bad))}: image or points")
    if a.spread: sys.exit(spread(a.spread, a.keep))
    if a.planted: sys.exit(0 if planted(a.planted, a.save, a.keep) else 1)
    if a.self_test: sys.exit(0 if self_test() else 1)
    sys.exit(0 if main(a.tasks or TASKS, a.results, a.record) else 1)
