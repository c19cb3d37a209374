#!/usr/bin/env python
"""End to end on one GPU: CIFAR-10 with the reproduction's recipe (`gridpe-compare image --paper` at 32 px, GridPE),
trained eager, compiled (`--compile`) and compiled with CUDA graphs (`--compile reduce-overhead`), the modes taking
turns on the same card. Per run: wall time of every epoch (validation included), the first epoch's (compilation
included), the final evaluation's (every size and scaling method), peak GPU memory, and top-1 at every size.

Usage: python tools/gpu/gpu_bench_compile_e2e.py --data .data/cifar10 --arch vit_small --seed 0 --device cuda:0
       --out results.json [--epochs 15] [--modes none default reduce-overhead]
Each finished run is written at once, so a cut job keeps what it finished.
"""
import argparse, json, platform, tempfile, time
from pathlib import Path
import torch
from fastai.callback.core import Callback
from fastai.torch_core import set_seed
from gridpe.config import resolve
from gridpe.tasks import TASKS
from gridpe.learner import train_and_evaluate
from gridpe.runner import provenance

def sync():
    "Wait for the GPU's queued work (nothing to wait for on a CPU)."
    if torch.cuda.is_available(): torch.cuda.synchronize()

class EpochTimes(Callback):
    """Wall time of each training epoch with its validation, measured after the GPU's work is done; per epoch also the
    host's time waiting for batches (the DataLoader and its batch transforms) and inside the steps, unsynchronised.
    Evaluations after the fit (`validate`, which runs no `before_train`) are not counted."""
    def __init__(self): self.times, self.wait, self.step, self.t0 = [], [], [], None
    def before_train(self):
        sync()
        self.t0 = self.last = time.perf_counter()
        self.wait.append(0.)
        self.step.append(0.)
    def before_batch(self):
        if self.training: self.wait[-1] += self.tick()
    def after_batch(self):
        if self.training: self.step[-1] += self.tick()
    def tick(self):
        "Seconds since the last tick."
        now = time.perf_counter()
        dt, self.last = now - self.last, now
        return dt
    def after_validate(self):
        if self.t0 is None: return
        sync()
        self.times.append(time.perf_counter() - self.t0)
        self.t0 = None

def settings(data, arch, seed, epochs, mode, device, out):
    "The reproduction's settings (its config.json: --paper at 32 px, patches of 4, 4 heads, lr 5e-4) with `mode`."
    return resolve('image', paper=True, data=data, arch=arch, size=32, patch_size=4, n_heads=4, lr=5e-4, bs=256,
                   eval_sizes=[16, 24, 32, 40, 48, 56, 64], epochs=epochs, seeds=[seed], kinds=['gridpe'], best=False,
                   compile=mode, device=device, quiet=True, out=out)

def run(cfg, data, seed):
    "Train and evaluate one run: its timings, memory and top-1 by size."
    t = TASKS['image']
    set_seed(seed)
    dls = t.dls(data, cfg, device=cfg.device)
    timer = EpochTimes()
    learn = t.learner(dls, 'gridpe', cfg, cbs=[timer])
    learn.remove_cbs([c for c in learn.cbs if type(c).__name__ == 'ProgressCallback'])
    gpu = torch.device(cfg.device).type == 'cuda'
    if gpu: torch.cuda.reset_peak_memory_stats(cfg.device)
    sync()
    t0 = time.perf_counter()
    df = train_and_evaluate(learn, cfg.epochs, eval_scaling=cfg.eval_scaling)
    sync()
    wall = time.perf_counter() - t0
    top1 = {f"{r['size']}": r['top1'] for r in df.to_dict('records')}
    top1.update({f"{r['size']}@{m}": r[f'top1@{m}'] for r in df.to_dict('records') for m in ('pi', 'ntk', 'yarn')})
    return dict(epoch_s=timer.times, wait_s=timer.wait, step_s=timer.step, wall_s=wall,
                eval_s=wall - sum(timer.times),
                peak_gib=torch.cuda.max_memory_allocated(cfg.device) / 2**30 if gpu else None, top1=top1,
                provenance=provenance(learn, cfg.data))

if __name__ == '__main__':
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--data', required=True)
    a.add_argument('--arch', default='vit_small')
    a.add_argument('--seed', type=int, default=0)
    a.add_argument('--epochs', type=int, default=15)
    a.add_argument('--modes', nargs='+', default=['none', 'default', 'reduce-overhead'])
    a.add_argument('--device', default='cuda:0')
    a.add_argument('--out', required=True)
    o = a.parse_args()
    gpu = torch.device(o.device).type == 'cuda'
    if gpu: torch.cuda.set_device(o.device)
    card = torch.cuda.get_device_name(o.device) if gpu else platform.processor() or platform.machine()
    res = dict(card=card, torch=torch.__version__, python=platform.python_version(),
               arch=o.arch, seed=o.seed, epochs=o.epochs, runs=[])
    with tempfile.TemporaryDirectory() as tmp:
        data = TASKS['image'].data(settings(o.data, o.arch, o.seed, o.epochs, 'none', o.device, tmp))
        for mode in o.modes:
            r = run(settings(o.data, o.arch, o.seed, o.epochs, mode, o.device, tmp), data, o.seed)
            res['runs'].append(dict(mode=mode, **r))
            Path(o.out).write_text(json.dumps(res, indent=1))
            median = sorted(r['epoch_s'])[len(r['epoch_s']) // 2]
            print(f"{o.arch} seed {o.seed} {mode}: {r['wall_s']:.0f} s, first epoch {r['epoch_s'][0]:.1f} s, "
                  f"median epoch {median:.2f} s, top-1 at 32 {r['top1']['32']:.4f}", flush=True)
