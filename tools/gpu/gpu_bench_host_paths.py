"""Host time per training step of each compile path: ViT-S at 32 px with batch 8, where the host bounds the step.

    python tools/gpu/gpu_bench_host_paths.py   → $OUT/host_paths.json (or ./)

Eager none, GridPE and RoPE-Mixed, then compiled none and GridPE and RoPE-Mixed under each `COMPILED_PATH`, taking turns
over 15 rounds of 20 steps (the user's loop: model defaults, bfloat16 autocast, fused AdamW). `ms` is the median step
time; `extra_ms` the median over rounds of the step time minus none's in the same round (eager or compiled), with the
4th smallest and 4th largest of the 15 (`extra_q`)."""
import json, os, statistics, time
import torch, torch.nn.functional as F
from gridpe import fused
from gridpe.vit import vit_small
from gpu_bench_host import take_turns                 # tools/gpu: run from the repository root
BS = int(os.environ.get('BS', 8))
def make_step(kind, path, compiled):
    torch.manual_seed(0); m = vit_small(n_classes=10, kind=kind, img_size=32, patch_size=4).cuda().train()
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True); cm = torch.compile(m) if compiled else m
    x, y = torch.randn(BS, 3, 32, 32, device='cuda'), torch.randint(0, 10, (BS,), device='cuda')
    def step():
        fused.COMPILED_PATH = path
        with torch.autocast('cuda', torch.bfloat16): loss = F.cross_entropy(cm(x), y)
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    for _ in range(5): step()
    return step, BS
runs = [('none', 'torch', 0), ('gridpe', 'torch', 0), ('rope_mixed', 'torch', 0)]
runs += [('none', 'torch', 1)] + [(k, p, 1) for k in ('gridpe', 'rope_mixed') for p in ('torch', 'kernel', 'extern')]
steps = {}
for k, p, c in runs:
    t0 = time.time(); steps[f"{'compiled' if c else 'eager'}/{k}/{p}"] = make_step(k, p, c)
    print(k, p, c, round(time.time() - t0), 's', flush=True)
rates = take_turns(steps, 20, 15, torch.cuda.synchronize)
ms = {k: [1e3 * BS / r for r in v] for k, v in rates.items()}
out = {}
for k, v in ms.items():
    ref = ms[('compiled' if k.startswith('compiled') else 'eager') + '/none/torch']
    d = sorted(a - b for a, b in zip(v, ref))
    out[k] = dict(ms=statistics.median(v), extra_ms=statistics.median(d), extra_q=[d[3], d[-4]], rounds=v)
    print(f"{k:28s} {statistics.median(v):7.2f} ms/step  extra {statistics.median(d):+.2f} [{d[3]:+.2f}, {d[-4]:+.2f}]",
          flush=True)
json.dump(dict(card=torch.cuda.get_device_name(), torch=torch.__version__, bs=BS,
               source='tools/gpu/gpu_bench_host_paths.py',
               date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), results=out),
          open(os.environ.get('OUT', '.') + '/host_paths.json', 'w'), indent=1)
