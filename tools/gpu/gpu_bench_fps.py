#!/usr/bin/env python
"""PCT training throughput with farthest-point sampling as the batched loop or as the Triton kernel (`--paper` recipe,
512 points, batch 32, ForeachSGD), alternating A B A B in one process on random unit-sphere clouds of ModelNet's shape;
plus the time of one sampling call (256 of 512 points, 32 shapes) each way, and the kernel checked against the loop.

Usage (GPU): python tools/gpu/gpu_bench_fps.py --out results.json
"""
import argparse, json
import torch
import gridpe.geometry as geo
from gridpe.config import resolve
from gpu_bench import timeit, random_clouds        # tools/gpu/ is on sys.path when run as a script
from gpu_bench_optim import bench

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--out'); ap.add_argument('--n', type=int, default=2048)
    a = ap.parse_args(); g = torch.Generator().manual_seed(0)
    res = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, runs=[])
    x = torch.randn(32, 512, 3, device='cuda')
    assert torch.equal(geo.farthest_point_sample_triton(x, 256), geo.farthest_point_sample_eager(x, 256))
    res['fps_ms'] = dict(loop=1e3 * timeit(lambda: geo.farthest_point_sample_eager(x, 256), 20), kernel=1e3 * timeit(lambda: geo.farthest_point_sample_triton(x, 256), 20))
    print(res['fps_ms'], flush=True)
    cfg, data = resolve('points', paper=True, eval_sizes=[512]), {'train': random_clouds(a.n, g), 'test': random_clouds(a.n // 8, g)}
    kernel_on = geo.use_fps_kernel
    for fps in ('loop', 'kernel') * 2:
        geo.use_fps_kernel = kernel_on if fps == 'kernel' else (lambda xyz: False)
        r = dict(task='points', arch=cfg.arch, kind='gridpe', fps=fps, **bench('points', cfg, data, 'gridpe', None, 2))
        res['runs'].append(r); print(json.dumps(r), flush=True)
    if a.out: open(a.out, 'w').write(json.dumps(res, indent=1))
