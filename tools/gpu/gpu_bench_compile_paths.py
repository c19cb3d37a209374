"""Compiled training rate with rope_qkv's compile paths (`gridpe.fused.COMPILED_PATH`), the models taking turns.

    python tools/gpu/gpu_bench_compile_paths.py kernel,torch,extern [224,32,timm,pct]

writes $OUT/compile_paths.json (or ./).

The file keeps one entry per size (`runs`); a run adds or replaces its sizes'.

For each size: a model without positional embedding, and GridPE and RoPE-Mixed under each path, each
`torch.compile(model)`-d in the user's loop (the model's defaults, bfloat16 autocast, fused AdamW), then ROUNDS rounds
of STEPS steps taking turns; `ratio` is the median over rounds of the rate over the first model's in the same round;
`gpu_ms` is the GPU kernel time per step (torch.profiler, 3 steps) and `kernels` the kernels above 0.1 ms a step.
Sizes: our ViT-S at 224 px (batch 256) and 32 px (batch 512); `timm`: timm's `vit_small_patch16_224` (batch 256), plain
('none'), with `gridpe_timm`, and timm's own RoPE ViT-S (`timm_rope`, no path of ours); `pct`: PCT with 1,024 points
(batch 32). dynamo is reset between sizes (a second size would otherwise be compiled with dynamic shapes)."""
import json, os, statistics, sys, time, traceback
import torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
from gridpe import fused
from gridpe.vit import vit_small
from gpu_bench_host import take_turns                 # tools/gpu: run from the repository root
STEPS, ROUNDS = 10, 5
SOURCE = 'tools/gpu/gpu_bench_compile_paths.py'
def model_batch(kind, size):
    "The model of `kind` at `size` and a batch (x, y) for it."
    if size == 'pct':
        from gridpe.pct import pct
        return pct(n_classes=40, kind=kind), torch.randn(32, 1024, 3), torch.randint(0, 40, (32,))
    if size == 'timm':
        import timm
        from gridpe.timm_rope import gridpe_timm
        name = 'vit_small_patch16_rope_224' if kind == 'timm_rope' else 'vit_small_patch16_224'
        m = timm.create_model(name, pretrained=False)
        return gridpe_timm(m, kind) if kind not in ('none', 'timm_rope') else m, *batch(256, 224, 1000)
    bs, ncls, patch = SIZES[size]
    return vit_small(n_classes=ncls, kind=kind, img_size=int(size), patch_size=patch), *batch(bs, int(size), ncls)

def batch(bs, size, ncls): return torch.randn(bs, 3, size, size), torch.randint(0, ncls, (bs,))

def make_step(kind, path, size):
    torch.manual_seed(0); m, x, y = model_batch(kind, size); m = m.cuda().train()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True); cm = torch.compile(m)
    x, y = x.cuda(), y.cuda()
    def step():
        fused.COMPILED_PATH = path                       # the guard dynamo keeps on it holds
        with torch.autocast('cuda', torch.bfloat16): loss = F.cross_entropy(cm(x), y)
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    for _ in range(5): step()
    return step, len(x)

def gpu_time(step, n=3)->tuple:
    "GPU kernel ms per step of `step`, and the kernels above 0.1 ms a step (name: [ms, launches])."
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(n): step()
        torch.cuda.synchronize()
    ev = sorted((e for e in p.key_averages() if e.device_type.name == 'CUDA'), key=lambda e: -e.self_device_time_total)
    ms = lambda e: e.self_device_time_total / n / 1e3
    return sum(map(ms, ev)), {e.key[:120]: [round(ms(e), 3), e.count // n] for e in ev if ms(e) > 0.1}
out = {}
paths = sys.argv[1].split(',')
SIZES = {'224': (256, 1000, 16), '32': (512, 10, 4), 'timm': None, 'pct': None}
for size in (sys.argv[2] if len(sys.argv) > 2 else '224,32').split(','):
    torch._dynamo.reset()
    runs = [('none', 'torch')] + [(k, p) for k in ('gridpe', 'rope_mixed') for p in paths]
    if size == 'timm': runs.append(('timm_rope', 'torch'))
    steps = {}
    for k, p in runs:
        t0 = time.time()
        try: steps[f'{k}/{p}'] = make_step(k, p, size)
        except Exception as e: print(size, k, p, 'FAILED', repr(e)[:200]); traceback.print_exc(limit=3)
        print(size, k, p, 'compiled in', round(time.time() - t0), 's', flush=True)
    rates = take_turns(steps, STEPS, ROUNDS, torch.cuda.synchronize)
    ref = rates['none/torch']
    for k, r in rates.items():
        ratio = statistics.median(a / b for a, b in zip(r, ref))
        gpu_ms, kernels = gpu_time(steps[k][0])
        out[f'{size}/{k}'] = dict(rate=statistics.median(r), ratio=ratio, rounds=r, gpu_ms=gpu_ms, kernels=kernels)
        print(size, k, f"ratio {ratio:.3f}", [round(v) for v in r], f"GPU {gpu_ms:.2f} ms/step", flush=True)
    del steps; torch.cuda.empty_cache()
    dest = os.environ.get('OUT', '.') + '/compile_paths.json'     # one entry per size, kept across runs
    card, date = torch.cuda.get_device_name(), time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())
    doc = json.load(open(dest)) if os.path.exists(dest) else dict(
        card=card, torch=torch.__version__, steps=STEPS, rounds=ROUNDS, source=SOURCE, runs=[])
    size = int(size) if size.isdigit() else size
    run = dict(size=size, card=card, date=date, results={k: v for k, v in out.items() if k.startswith(f'{size}/')})
    doc['runs'] = [r for r in doc['runs'] if r['size'] != size] + [run]
    json.dump(doc, open(dest, 'w'), indent=1)
