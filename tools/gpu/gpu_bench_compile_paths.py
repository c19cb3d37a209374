"""Compiled ViT-S training rate with rope_qkv's compile paths (`gridpe.fused.COMPILED_PATH`), the models taking turns.

    python tools/gpu/gpu_bench_compile_paths.py torch,extern [224,32]   → $OUT/compile_paths.json (or ./)

The file keeps one entry per size (`runs`); a run adds or replaces its sizes'.

For each size: none, and GridPE and RoPE-Mixed under each path, each `torch.compile(model)`-d in the user's loop (the
model's defaults, bfloat16 autocast, fused AdamW), then ROUNDS rounds of STEPS steps taking turns; `ratio` is the median
over rounds of the rate over none's in the same round; `gpu_ms` is the GPU kernel time per step (torch.profiler, 3
steps) and `kernels` the kernels above 0.1 ms a step. dynamo is reset between sizes (a second size would otherwise be
compiled with dynamic shapes)."""
import json, os, statistics, sys, time, traceback
import torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
from gridpe import fused
from gridpe.vit import vit_small
from gpu_bench_host import take_turns                 # tools/gpu: run from the repository root
STEPS, ROUNDS = 10, 5
SOURCE = 'tools/gpu/gpu_bench_compile_paths.py'
def make_step(kind, path, size, bs, ncls, patch):
    torch.manual_seed(0); m = vit_small(n_classes=ncls, pe=kind, img_size=size, patch_size=patch).cuda().train()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True); cm = torch.compile(m)
    x, y = torch.randn(bs, 3, size, size, device='cuda'), torch.randint(0, ncls, (bs,), device='cuda')
    def step():
        fused.COMPILED_PATH = path                       # the guard dynamo keeps on it holds
        with torch.autocast('cuda', torch.bfloat16): loss = F.cross_entropy(cm(x), y)
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    for _ in range(5): step()
    return step, bs

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
SIZES = {224: (256, 1000, 16), 32: (512, 10, 4)}
for size in map(int, (sys.argv[2] if len(sys.argv) > 2 else '224,32').split(',')):
    (bs, ncls, patch), _ = SIZES[size], torch._dynamo.reset()
    runs = [('none', 'torch')] + [(k, p) for k in ('gridpe', 'rope_mixed') for p in paths]
    steps = {}
    for k, p in runs:
        t0 = time.time()
        try: steps[f'{k}/{p}'] = make_step(k, p, size, bs, ncls, patch)
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
    run = dict(size=size, card=card, date=date, results={k: v for k, v in out.items() if k.startswith(f'{size}/')})
    doc['runs'] = [r for r in doc['runs'] if r['size'] != size] + [run]
    json.dump(doc, open(dest, 'w'), indent=1)
