#!/usr/bin/env python
"""PCT's neighbour MLP in the reference's layout (1×1 Conv1d over groups laid out B·S, C, k) against gridpe's channel-last
`PointwiseConv` rows (the same weights): one LocalOp forward and backward at both stages' shapes, a bare PCT training
step (bf16, SGD) alternating A B A B, and N processes training the `--paper` recipe at once (start MPS first to let
them share the GPU), each on 2,048 random unit-sphere clouds for 3 epochs, reporting shapes/s of each training epoch. The file records
whether an MPS daemon process was running: without one the processes time-slice.

Usage (GPU): python tools/gpu/gpu_bench_pct.py --out results.json [--procs 8]
"""
import argparse, glob, json, os, subprocess, sys, time
import torch, torch.nn.functional as F
import gridpe.pct as P
from gpu_bench import timeit, random_clouds   # tools/gpu/ is on sys.path when run as a script
from gpu_bench_optim import bench

CHANNEL_LAST = P.LocalOp.forward
LAYOUTS = {'conv': P.local_op_reference, 'channel_last': CHANNEL_LAST}

def worker(layout):
    "One process of the N: the --paper recipe for 3 epochs; prints its shapes/s per epoch."
    from gridpe.config import resolve
    P.LocalOp.forward = LAYOUTS[layout]; g = torch.Generator().manual_seed(0)
    print(json.dumps(bench('points', resolve('points', paper=True, eval_sizes=[512]), {'train': random_clouds(2048, g), 'test': random_clouds(512, g)}, 'gridpe', None, 3)))

def mps_running():
    "Whether an MPS control daemon process is alive (its pipe files outlive `quit`, so they prove nothing)."
    for c in glob.glob('/proc/[0-9]*/comm'):
        try:
            if open(c).read().startswith('nvidia-cuda-mps'): return True
        except OSError: pass                                                        # the process ended meanwhile
    return False

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--out'); ap.add_argument('--procs', type=int, default=8); ap.add_argument('--worker')
    a = ap.parse_args()
    if a.worker: worker(a.worker); sys.exit()
    mps = mps_running()
    res = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, date=time.strftime('%Y-%m-%d'), source='tools/gpu/gpu_bench_pct.py',
               gpus=torch.cuda.device_count(), cpus=os.cpu_count(), mps=mps, localop_ms={}, step_ms={}, procs={})
    for M, ci, co in ((32 * 512, 128, 128), (32 * 256, 256, 256)):                      # PCT's two stages at 512 points
        op, g = P.LocalOp(ci, co).cuda(), torch.randn(32, M // 32, 32, ci, device='cuda', requires_grad=True)
        for name, fw in LAYOUTS.items():
            def f():
                with torch.autocast('cuda', dtype=torch.bfloat16): y = fw(op, g)
                y.float().sum().backward()
            res['localop_ms'][f'{ci}->{co} {name}'] = 1e3 * timeit(f, 20)
    m = P.pct(10, 'gridpe', pool='max', pos_scale=1., per_block=True, pe_options={'base': 100, 'rotate': 'head'}).cuda().train()
    x, y = F.normalize(torch.randn(32, 512, 3, device='cuda'), dim=-1), torch.randint(0, 10, (32,), device='cuda')
    opt = torch.optim.SGD(m.parameters(), lr=1e-4, momentum=0.9)
    for name in list(LAYOUTS) * 2:
        P.LocalOp.forward = LAYOUTS[name]
        def step():
            with torch.autocast('cuda', dtype=torch.bfloat16): loss = F.cross_entropy(m(x), y)
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        res['step_ms'].setdefault(name, []).append(1e3 * timeit(step, 20))
    P.LocalOp.forward = CHANNEL_LAST; del m, opt; torch.cuda.empty_cache()
    for name in LAYOUTS:
        t = time.time(); ps = [subprocess.Popen([sys.executable, __file__, '--worker', name], stdout=subprocess.PIPE, text=True,
                                                env={**os.environ, 'OMP_NUM_THREADS': '2'}) for _ in range(a.procs)]
        runs = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in ps]
        res['procs'][name] = dict(n=a.procs, wall_s=time.time() - t, per_s_epochs=[r['per_s_epochs'] for r in runs])
        print(name, res['procs'][name], flush=True)
    print(json.dumps(res, indent=1))
    if a.out: open(a.out, 'w').write(json.dumps(res, indent=1))
