#!/usr/bin/env python
"""Throughput on a GPU: the image DataLoader alone, a training step on a batch already on the GPU (no data), and full
fastai training epochs with the data (bf16). A training epoch slower than the model alone would run means the data stalls.

Usage: python tools/gpu/gpu_bench.py --data FASHION_MNIST_IDX_DIR --out results.json [--size 32] [--bs 512]
       python tools/gpu/gpu_bench.py --synthetic 50000 --out results.json   # random CIFAR-shaped uint8 images (3×32×32, 10 classes)

Throughput does not depend on the pixels, so `--synthetic` measures the same data path without carrying a dataset;
run it with PYTHONPATH pointing at two versions of the package, in one call on one card, to compare them.
"""
import argparse, json, time
import torch
from fastai.callback.core import Callback
from gridpe.formats import fashion_mnist
from gridpe.images import image_dls
from gridpe.arrays import ArraySet
from gridpe.learner import vit_learner

class TrainTimer(Callback):
    "Seconds and samples of each training phase (validation excluded)."
    def before_train(self): torch.cuda.synchronize(); self.t0, self.n = time.perf_counter(), 0
    def after_batch(self):
        if self.training: self.n += len(self.yb[0])
    def after_train(self):
        torch.cuda.synchronize(); self.rates = getattr(self, 'rates', []) + [self.n / (time.perf_counter() - self.t0)]

def timeit(f, n):
    f(); torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): f()
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n

CLASSES = [f'c{i}' for i in range(10)]
def random_images(n, g):
    "n random CIFAR-shaped uint8 images (3×32×32) with random labels of 10 classes: throughput does not depend on the pixels."
    return ArraySet(torch.randint(0, 256, (n, 3, 32, 32), dtype=torch.uint8, generator=g), torch.randint(0, 10, (n,), generator=g), CLASSES)

def random_clouds(n, g):
    "n random clouds of 1,024 points on the unit sphere (ModelNet's shape) with random labels of 10 classes."
    return ArraySet(torch.nn.functional.normalize(torch.randn(n, 1024, 3, generator=g), dim=-1), torch.randint(0, 10, (n,), generator=g), CLASSES)

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--data'); ap.add_argument('--out'); ap.add_argument('--size', type=int, default=32)
    ap.add_argument('--bs', type=int, default=512); ap.add_argument('--arch', default='vit_tiny')
    ap.add_argument('--synthetic', type=int, default=0, help='train on N random 3x32x32 uint8 images (10 classes) instead of --data')
    a = ap.parse_args()
    res = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, size=a.size, bs=a.bs, arch=a.arch)
    if a.synthetic:
        g = torch.Generator().manual_seed(0)
        data = {'train': random_images(a.synthetic, g), 'test': random_images(max(a.synthetic // 5, a.bs), g)}
    else: data = fashion_mnist(a.data)
    res['data'] = f'synthetic {a.synthetic}' if a.synthetic else a.data
    res['gridpe_module'] = __import__('gridpe').__file__
    dls = image_dls(data, a.size, bs=a.bs, device='cuda')
    it = iter(dls.train); next(it)
    def batches(n=20):
        for _ in range(n): next(it)
        torch.cuda.synchronize()
    res['dataloader_img_per_s'] = 20 * a.bs / timeit(lambda: batches(20), 2) if len(dls.train) > 70 else None
    for kind in ('gridpe', 'ape'):
        learn = vit_learner(dls, kind, arch=a.arch, patch_size=4, lr=1e-3, cbs=[TrainTimer()])
        xb, yb = dls.one_batch()
        opt = torch.optim.AdamW(learn.model.parameters(), 1e-3)
        def step():
            with torch.autocast('cuda', dtype=torch.bfloat16): loss = learn.loss_func(learn.model(xb), yb)
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        learn.model.cuda().train()
        res[f'{kind}_model_only_img_per_s'] = a.bs / timeit(step, 30)
        with learn.no_bar(), learn.no_logging(): learn.fit(3, 1e-3)
        timer = [c for c in learn.cbs if isinstance(c, TrainTimer)][0]
        res[f'{kind}_fit_img_per_s_epochs'] = timer.rates
        res[f'{kind}_fit_vs_model_only'] = max(timer.rates[1:]) / res[f'{kind}_model_only_img_per_s']
    print(json.dumps(res, indent=1))
    if a.out: open(a.out, 'w').write(json.dumps(res, indent=1))
