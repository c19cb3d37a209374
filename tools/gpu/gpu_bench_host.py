#!/usr/bin/env python
"""Where a rotary call's host time goes, and what rotary embeddings cost short training steps: a probe of minutes.

- `call_us`: median wall µs per `rope_qkv` call on one ViT-S block's tensors at 224 px (qkv output (256, 197, 3, 6, 64)
  in bfloat16, one CLS token, a batch-shared table), the GPU queue drained before each measurement so that only the
  host's work is timed. `fwd`: a forward call without gradients; `fwd_grad`: with them (autograd's node built).
  `fwd_bwd_1`: forward and backward of one call (`torch.autograd.grad`, so no gradient is accumulated into a leaf).
  `fwd_bwd_12`: per call, 12 chained calls and one backward, as a 12-block step pays it. `*_table`: the same with the
  table's gradients (learnable tables, RoPE-Mixed). `op_*`: the same calls through the `torch.library` op
  (`gridpe::rope_qkv`) instead of the autograd Function. Each has a `copy_*` twin: an autograd Function copying the
  same tensors into the same layout, one kernel each way, whose difference from the rotary call is the rotary call's
  own host cost above what any autograd op pays.
- `parts_us`: the pieces of one call, each timed alone the same way: the shape checks, the table conversion, the
  output allocation, the forward and backward kernel launches (`rope_qkv_triton`, `rope_qkv_bwd_triton`).
- `inside_us`: per call of the 12-call chain, the wall µs spent inside the autograd Function's forward and backward
  and inside the functions they call (`rope_qkv_triton`, `rope_qkv_bwd_triton`, `_launch`, `_blocks`), each wrapped
  by a timer (a few tenths of a µs each): the backward runs on autograd's device thread, out of reach of a Python
  profiler on the main one. The chain's wall time minus these is autograd's and the caller's.
- `vit32`, `pct`: training steps of ViT-S at 32 px (patch 4, batch 512) and PCT (1,024 points, batch 32) for every
  kind, in the user's loop (the model's defaults, bfloat16 autocast, fused AdamW): the kinds take turns over `--rounds`
  rounds of `--steps` steps, so that drift of a host-bound step hits them alike; `rate` is the median samples/s,
  `ratio` the median over rounds of the rate over none's in the same round. Then 5 steps of each under the torch
  profiler: wall ms, GPU ms per step (kernels, copies and sets; `gpu_events` counts them, 0 if the profiler saw no
  GPU) and the host's busiest operations (self CPU µs per step).

Usage (GPU): python tools/gpu/gpu_bench_host.py --out host.json
       python tools/gpu/gpu_bench_host.py --device cpu --n 3 --batch 2 --small --steps 1 --rounds 2
             (a dry run of every path on the CPU: its times mean nothing)
"""
import argparse, json, platform, statistics, time
import torch, torch.nn.functional as F
from gridpe import fused, triton_kernels
from gridpe.fused import rope_qkv, rope_qkv_op, check_rope_qkv
from gridpe.triton_kernels import rope_qkv_triton, rope_qkv_bwd_triton
from gridpe.pct import pct
from gridpe.vit import vit_small

KINDS = ('none', 'rope_axial', 'rope_mixed', 'gridpe')

def host_us(f, n:int, sync)->float:
    "Median wall µs of f() over n calls (after 10 untimed), the device queue drained before each."
    ts = []
    for _ in range(n + 10):
        sync(); t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts[10:]) * 1e6

class CopyQKV(torch.autograd.Function):
    "The layout change of `rope_qkv` without the rotation, one copy kernel each way: B, N, S, H, D → S, B, H, N, D."
    @staticmethod
    def forward(ctx, x): return x.new_empty(x.shape[2], x.shape[0], x.shape[1], *x.shape[3:]).copy_(
        x.permute(2, 0, 1, 3, 4)).transpose(2, 3)                                   # memory S, B, N, H, D
    @staticmethod
    def backward(ctx, g): return g.new_empty(g.shape[1], g.shape[3], g.shape[0], g.shape[2], g.shape[4]).copy_(
        g.permute(1, 3, 0, 2, 4))                                                    # B, N, S, H, D

_copy = super(torch.autograd.Function, CopyQKV).apply                  # as fused.py applies RopeQKV
def copy_qkv(x, cos, sin, n_prefix=0, n_rot=2): return _copy(x)

def block_tensors(dev:str, B=256, N=197, H=6, D=64, n_prefix=1)->tuple:
    "One ViT-S block's rotary call: qkv output x (B, N, 3, H, D, bf16, requiring grad), table c, s, output gradient g."
    th = torch.randn(1, H, N - n_prefix, D // 2, device=dev) * 3
    return (torch.randn(B, N, 3, H, D, device=dev, dtype=torch.bfloat16, requires_grad=True), th.cos(), th.sin(),
            torch.randn(3, B, H, N, D, device=dev, dtype=torch.bfloat16))

def chain(f, x, c, s, g, n_prefix:int, k:int):
    "k calls of f, each on the previous output read back as B, N, S, H, D, then one backward to x (and the table)."
    y = f(x, c, s, n_prefix)
    for _ in range(k - 1): y = f(y.permute(1, 3, 0, 2, 4), c, s, n_prefix)
    torch.autograd.grad(y, [x] + [t for t in (c, s) if t.requires_grad], g)

def call_us(dev:str, n:int, sync, B=256, n_prefix=1, depth=12)->dict:
    "The `call_us` entries: each call kind and its copy twin."
    x0, c, s, g = block_tensors(dev, B, n_prefix=n_prefix)
    ct, st = c.clone().requires_grad_(), s.clone().requires_grad_()
    op = lambda x, c, s, p: rope_qkv_op(x, c, s, p, 2, True)[0].permute(2, 0, 3, 1, 4)   # x's layout, as S, B, H, N, D
    res = {}
    for name, f in (('', rope_qkv), ('op_', op), ('copy_', copy_qkv)):
        with torch.no_grad(): res[f'{name}fwd'] = host_us(lambda: f(x0, c, s, n_prefix), n, sync)
        res[f'{name}fwd_grad'] = host_us(lambda: f(x0, c, s, n_prefix), n, sync)     # building autograd's node too
        res[f'{name}fwd_bwd_1'] = host_us(lambda: chain(f, x0, c, s, g, n_prefix, 1), n, sync)
        deep = lambda c, s: host_us(lambda: chain(f, x0, c, s, g, n_prefix, depth), max(n // 4, 3), sync) / depth
        res[f'{name}fwd_bwd_{depth}'] = deep(c, s)
        if name != 'copy_': res[f'{name}fwd_bwd_{depth}_table'] = deep(ct, st)
    return res

def parts_us(dev:str, n:int, sync, B=256, n_prefix=1)->dict:
    "The `parts_us` entries: the pieces of one call."
    x, c, s, _ = block_tensors(dev, B, n_prefix=n_prefix); x = x.detach()
    _, N, _, H, D = x.shape
    res = dict(checks=host_us(lambda: check_rope_qkv(x, c, s, n_prefix, 2), n, sync),
               table_f32=host_us(lambda: (fused._f32(c), fused._f32(s)), n, sync),
               use_kernel=host_us(lambda: fused.use_kernel(x), n, sync),
               alloc=host_us(lambda: x.new_empty(3, B, N, H, D), n, sync))
    if fused.use_kernel(x):
        y = rope_qkv_triton(x, c, s, n_prefix, 2); g = torch.randn_like(y)
        res.update(launch_fwd=host_us(lambda: rope_qkv_triton(x, c, s, n_prefix, 2), n, sync),
                   launch_bwd=host_us(lambda: rope_qkv_bwd_triton(g, y, c, s, n_prefix, 2, False), n, sync),
                   launch_bwd_table=host_us(lambda: rope_qkv_bwd_triton(g, y, c, s, n_prefix, 2, True), n, sync),
                   compiled_launcher=None not in triton_kernels._compiled)
    return res

def inside_us(dev:str, n:int, sync, B=256, n_prefix=1, depth=12)->dict:
    "The `inside_us` entries: wall µs per call inside the Function and the functions it calls, over a 12-call chain."
    names = {'forward': (fused.RopeQKV, 'forward', True), 'backward': (fused.RopeQKV, 'backward', True),
             'rope_qkv_triton': (fused, 'rope_qkv_triton', False),
             'rope_qkv_bwd_triton': (fused, 'rope_qkv_bwd_triton', False),
             '_launch': (triton_kernels, '_launch', False), '_blocks': (triton_kernels, '_blocks', False)}
    tot, saved = dict.fromkeys(names, 0.), {}
    def timed(name, f):
        def g(*a, **k):
            t = time.perf_counter()
            try: return f(*a, **k)
            finally: tot[name] += time.perf_counter() - t
        return g
    for name, (owner, attr, static) in names.items():
        saved[name] = owner.__dict__[attr]
        f = saved[name].__func__ if static else saved[name]
        setattr(owner, attr, staticmethod(timed(name, f)) if static else timed(name, f))
    try:
        x0, c, s, g = block_tensors(dev, B, n_prefix=n_prefix)
        run = lambda: chain(rope_qkv, x0, c, s, g, n_prefix, depth)
        for _ in range(5): run()
        for k in tot: tot[k] = 0.
        wall = 0.
        for _ in range(n): sync(); t = time.perf_counter(); run(); wall += time.perf_counter() - t
    finally:
        for name, (owner, attr, _) in names.items(): setattr(owner, attr, saved[name])
    return dict(chain_wall=wall / n / depth * 1e6, **{k: v / n / depth * 1e6 for k, v in tot.items()})

def models(dev:str, which:str, kinds, small:bool=False):
    "(kind, model, x, y) of one table: 'vit32' (ViT-S, 32 px, patch 4, batch 512) or 'pct' (1,024 points, batch 32)."
    B = 2 if small else None
    if which == 'vit32':
        x, y = torch.randn(B or 512, 3, 32, 32, device=dev), torch.randint(0, 10, (B or 512,), device=dev)
        make = lambda k: vit_small(n_classes=10, kind=k, img_size=32, patch_size=4)
    else:
        n = 128 if small else 1024
        x, y = F.normalize(torch.randn(B or 32, n, 3, device=dev), dim=-1), torch.randint(0, 40, (B or 32,), device=dev)
        make = lambda k: pct(n_classes=40, kind=k)
    for k in kinds: torch.manual_seed(0); yield k, make(k).to(dev).train(), x, y

def take_turns(fns:dict, steps:int, rounds:int, sync)->dict:
    "Samples/s per round of each (step, batch size) in `fns`, taking turns over `rounds` rounds of `steps` steps."
    rates = {k: [] for k in fns}
    for _ in range(rounds):
        for k, (step, bs) in fns.items():
            sync(); t = time.perf_counter()
            for _ in range(steps): step()
            sync(); rates[k].append(steps * bs / (time.perf_counter() - t))
    return rates

def train_rounds(dev:str, which:str, kinds, steps:int, rounds:int, sync, small:bool=False)->dict:
    "Training rate of every kind, the kinds taking turns over `rounds` (drift hits them alike), and a profile of each."
    from torch.profiler import profile, ProfilerActivity
    fns = {}
    for kind, m, x, y in models(dev, which, kinds, small):
        opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=dev == 'cuda')
        def step(m=m, opt=opt, x=x, y=y):
            with torch.autocast(dev, torch.bfloat16): loss = F.cross_entropy(m(x), y)
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        for _ in range(3): step()
        fns[kind] = (step, len(x))
    rates = take_turns(fns, steps, rounds, sync)
    res = {}
    for k, (step, _) in fns.items():
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev == 'cuda' else [])
        with profile(activities=acts) as p:
            sync(); t = time.perf_counter()
            for _ in range(5): step()
            sync(); wall = time.perf_counter() - t
        ev = p.key_averages()
        cuda = [e for e in ev if e.device_type.name == 'CUDA']                   # kernels, copies and sets on the GPU
        res[k] = dict(rate=statistics.median(rates[k]), rates=rates[k],
                      # over the first kind's rate of the same round
                      ratio=statistics.median(r / b for r, b in zip(rates[k], rates[kinds[0]])),
                      profiled_wall_ms=wall / 5 * 1e3, gpu_ms=sum(e.device_time_total for e in cuda) / 5 / 1e3,
                      gpu_events=len(cuda),                    # 0: the profiler saw no GPU work (CUPTI did not attach)
                      host_top_us={e.key: round(e.self_cpu_time_total / 5, 1)
                                   for e in sorted(ev, key=lambda e: -e.self_cpu_time_total)[:12]})
        print(which, k, {n: round(v, 3) if isinstance(v, float) else v for n, v in res[k].items()
                         if n != 'host_top_us'}, flush=True)
    return res

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out'); ap.add_argument('--device', default='cuda'); ap.add_argument('--n', type=int, default=200)
    ap.add_argument('--batch', type=int, default=256, help="the rotary call's batch")
    ap.add_argument('--steps', type=int, default=20, help='training steps a round')
    ap.add_argument('--rounds', type=int, default=5, help='rounds of the training steps')
    ap.add_argument('--small', action='store_true', help='batch 2 (and 128 points) in the training steps: a dry run')
    ap.add_argument('--parts', default='call,parts,inside,vit32,pct', help='comma-separated parts to run')
    a = ap.parse_args(); dev = a.device
    sync = torch.cuda.synchronize if dev == 'cuda' else (lambda: None)
    res = dict(card=torch.cuda.get_device_name() if dev == 'cuda' else platform.processor() or 'cpu',
               torch=torch.__version__, date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
               source='tools/gpu/gpu_bench_host.py', n=a.n, batch=a.batch,
               steps=a.steps, rounds=a.rounds, small=a.small)
    parts = a.parts.split(',')
    if 'call' in parts:
        res['call_us'] = call_us(dev, a.n, sync, B=a.batch); print({k: round(v, 1) for k, v in res['call_us'].items()})
    if 'parts' in parts: res['parts_us'] = parts_us(dev, a.n, sync, B=a.batch); print(res['parts_us'], flush=True)
    if 'inside' in parts: res['inside_us'] = inside_us(dev, max(a.n // 4, 3), sync, B=a.batch); print(res['inside_us'])
    for which in ('vit32', 'pct'):
        if which in parts: res[which] = train_rounds(dev, which, KINDS, a.steps, a.rounds, sync, a.small)
    print('ratios over none:', {w: {k: round(r['ratio'], 3) for k, r in res[w].items()} for w in ('vit32', 'pct')
                                if w in res})
    if a.out: open(a.out, 'w').write(json.dumps(res, indent=1) + '\n')
