#!/usr/bin/env python
"""Training throughput of one process with fastai's per-parameter optimisers (Adam, SGD) against gridpe's multi-tensor
ForeachAdam / ForeachSGD (the same updates), for the `--paper` recipes: ViT-S at 32 px (patch 4, 4 heads, batch 256,
mixup/cutmix, ThreeAugment, colour jitter, bf16) and PCT on 512 points (batch 32). Random CIFAR-shaped images and random
unit-sphere point clouds: throughput does not depend on the values. Each configuration is fitted twice, in the order
A B A B, and reports samples/s per training epoch (the first epoch includes warm-up) and the mean time of `opt.step()`.

Usage (GPU): python tools/gpu/gpu_bench_optim.py --out results.json
"""
import argparse, json, time
from functools import partial
import torch
from fastai.callback.progress import ProgressCallback
from fastai.optimizer import Adam, SGD
from fastcore.basics import noop
from gridpe.config import resolve
from gridpe.tasks import TASKS
from gridpe.optim import ForeachAdam, ForeachSGD
from gpu_bench import TrainTimer, random_images, random_clouds   # tools/gpu/ is on sys.path when run as a script

class Timer(TrainTimer):
    "`TrainTimer`'s samples/s of each training epoch, and the seconds of each optimiser step (synchronised)."
    order = 100
    def before_step(self): torch.cuda.synchronize(); self.s0 = time.perf_counter()
    def after_step(self): torch.cuda.synchronize(); self.steps = getattr(self, 'steps', []) + [time.perf_counter() - self.s0]

def bench(task, cfg, data, kind, opt_func, epochs):
    t = TASKS[task]
    dls = t.dls(data, cfg, device='cuda')
    learn = t.learner(dls, kind, cfg, cbs=[Timer()])
    learn.remove_cbs([c for c in learn.cbs if isinstance(c, ProgressCallback)]); learn.logger = noop
    if opt_func is not None: learn.opt_func = opt_func
    learn.fit(epochs, cfg.lr)
    tm = [c for c in learn.cbs if isinstance(c, Timer)][0]
    return dict(per_s_epochs=tm.rates, opt_step_ms=1e3 * sum(tm.steps[10:]) / len(tm.steps[10:]), optimizer=type(learn.opt).__name__)

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--out'); ap.add_argument('--n', type=int, default=20480)
    a = ap.parse_args(); g = torch.Generator().manual_seed(0); res = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, runs=[])
    img, pts = (lambda n: random_images(n, g)), (lambda n: random_clouds(n, g))
    vit = resolve('image', paper=True, size=32, patch_size=4, eval_sizes=[32], warmup_epochs=1), {'train': img(a.n), 'test': img(a.n // 10)}
    pct = resolve('points', paper=True, eval_sizes=[512]), {'train': pts(a.n // 10), 'test': pts(a.n // 80)}
    adam, fadam = partial(Adam, decouple_wd=True, sqr_mom=0.999, eps=1e-8), partial(ForeachAdam, sqr_mom=0.999, eps=1e-8)
    sgd, fsgd = partial(SGD, mom=0.9, decouple_wd=False), partial(ForeachSGD, mom=0.9, decouple_wd=False)
    for task, (cfg, data), kinds, opts, epochs in (('image', vit, ('gridpe', 'ape'), (adam, fadam) * 2, 3), ('points', pct, ('gridpe',), (sgd, fsgd) * 2, 2)):
        for kind in kinds:
            for opt in opts:
                r = dict(task=task, arch=cfg.arch, kind=kind, **bench(task, cfg, data, kind, opt, epochs))
                res['runs'].append(r); print(json.dumps(r), flush=True)
    if a.out: open(a.out, 'w').write(json.dumps(res, indent=1))
