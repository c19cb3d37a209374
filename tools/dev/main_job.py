#!/usr/bin/env python
"""The README's table, checked: rerun the main job and compare its top-1 accuracy with the committed results.

The main job is `gridpe-compare image` (the README's table) and `gridpe-compare points`, with their defaults on the
embedded data, seed 0; their committed results are `nbs/experiments/results/cpu_{image,points}_default.csv`, written
in the environment `cpu_default_env.json` records (torch build, the CPU's vector instructions as torch uses them, torch's
thread count). On a CPU the job is deterministic in one environment: rerun there, every number must be equal. In another
environment float sums are ordered differently (other kernels, another thread split), and training amplifies those
last-bit differences into accuracy differences like those between seeds: each number must then lie within TOLERANCE
points of the committed one (where it comes from: DEVELOPERS.md, "The main job's numbers").

Prints, per task, the committed table, the new one and their difference (new − committed, points).
Usage: python tools/dev/main_job.py [image points] [--results DIR ...] [--record]
  --results DIR: compare an existing results folder (one per task given) instead of rerunning
  --record: write this environment into cpu_default_env.json (after committing results made here)
"""
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT/'nbs'/'experiments'/'results'
ENV_FILE = RESULTS/'cpu_default_env.json'
TOLERANCE = 10.0  # points of top-1 accuracy, per size and kind, outside the committed run's environment (DEVELOPERS.md)

KINDS = ('gridpe', 'rope_axial', 'rope_mixed', 'ape', 'none')
ISA_VARS = ('ATEN_CPU_CAPABILITY', 'ONEDNN_MAX_CPU_ISA', 'DNNL_MAX_CPU_ISA', 'MKL_ENABLE_INSTRUCTIONS', 'MKL_CBWR')

def cpu_vector_flags():
    "The CPU's vector instruction sets (avx*, amx*, fma) as Linux lists them: which kernels torch, oneDNN and MKL pick."
    try: flags = next(l for l in Path('/proc/cpuinfo').read_text().splitlines() if l.startswith('flags')).split(':')[1].split()
    except (OSError, StopIteration): return platform.processor()
    return ' '.join(sorted(f for f in flags if f.startswith(('avx', 'amx', 'fma'))))

def environment():
    "What decides the job's floating-point results on a CPU: torch's build, the CPU's vector instructions, threads."
    import torch
    return dict(torch=torch.__version__, machine=platform.machine(), cpu_capability=torch.backends.cpu.get_cpu_capability(),
                cpu_flags=cpu_vector_flags(), threads=torch.get_num_threads(),
                **{k: os.environ[k] for k in ISA_VARS if k in os.environ})

def run_job(task, out):
    "Run `gridpe-compare <task>` with its defaults into `out`; return its results rows and the seconds it took."
    t0 = time.time()
    r = subprocess.run([sys.executable, '-m', 'gridpe.compare', task, '--out', str(out), '--quiet'], cwd=ROOT,
                       text=True, capture_output=True, env=dict(os.environ, MPLBACKEND='Agg'))
    if r.returncode: raise RuntimeError(f'gridpe-compare {task} failed (exit {r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-3000:]}')
    return pd.read_csv(Path(out)/'results.csv'), time.time() - t0

def top1(res):
    "Top-1 accuracy (%) of the last epoch, rows sizes, columns kinds."
    r = res[(res.metric == 'top1') & (res.checkpoint.fillna('last') == 'last') & (res.seed == 0)]
    t = 100*r.pivot_table(index='size', columns='pe', values='value')
    order = [k for k in KINDS if k in t] + [k for k in t if k not in KINDS]
    return t[order].rename_axis(columns='top-1 (%)')

def compare(task, res, exact):
    "Print the committed and the new table and their differences; return (ok, largest difference in points)."
    old, new = top1(pd.read_csv(RESULTS/f'cpu_{task}_default.csv')), top1(res)
    if list(old.index) != list(new.index) or sorted(old.columns) != sorted(new.columns):
        print(f'{task}: the new table has other sizes or kinds than the committed one\n{new.round(1)}'); return False, float('inf')
    new = new[old.columns]
    diff = new - old
    worst = float(diff.abs().max().max())
    ok = worst == 0 if exact else worst <= TOLERANCE
    print(f'gridpe-compare {task}: committed\n{old.round(1)}\nnew\n{new.round(1)}\nnew − committed (points)\n{diff.round(1)}')
    print(f'largest difference {worst:.1f} points: ' + ('none allowed (the committed environment)' if exact else
          f'{TOLERANCE} allowed (another environment)') + (': ok' if ok else ': too large. If a change to the code moved '
          "them, refresh the committed table (DEVELOPERS.md, \"The main job's numbers\")"), flush=True)
    return ok, worst

def main(tasks=('image', 'points'), results=None, record=False):
    env = environment()
    if record: ENV_FILE.write_text(json.dumps(env, indent=1) + '\n'); print(f'recorded {env}')
    committed = json.loads(ENV_FILE.read_text()) if ENV_FILE.exists() else {}
    exact = env == committed
    print(f"this environment: {env}\ncommitted run's: {committed}\n" +
          ('the same: the numbers must be equal' if exact else f'another: each number within {TOLERANCE} points'), flush=True)
    oks = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, task in enumerate(tasks):
            if results: res, s = pd.read_csv(Path(results[i])/'results.csv'), None
            else: res, s = run_job(task, Path(tmp)/task)
            if s: print(f'gridpe-compare {task} ran in {s:.0f} s')
            oks.append(compare(task, res, exact)[0])
    return all(oks)

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('tasks', nargs='*', help='the tasks to check: image, points (default: both)')
    p.add_argument('--results', nargs='+', help='existing results folders, one per task, compared instead of rerunning')
    p.add_argument('--record', action='store_true', help="record this environment as the committed results' one")
    a = p.parse_args()
    if bad := set(a.tasks) - {'image', 'points'}: p.error(f"unknown task {', '.join(sorted(bad))}: image or points")
    sys.exit(0 if main(a.tasks or ('image', 'points'), a.results, a.record) else 1)
