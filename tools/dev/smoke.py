#!/usr/bin/env python
"""Smoke test of gridpe as installed: import every module and call every public name (each name in each module's
`__all__`) at least once on tiny inputs, on the CPU, in well under a minute.

It fails, naming them, when
- a module does not import, or its `__all__` lists a name the module does not define;
- a public name has no entry in `SMOKE` below (a new public name needs one line there), or an entry names something
  that is no longer public (a renamed or removed name: update the line);
- an entry raises (e.g. a NameError from a name the module uses but never imports), returns False or runs past 120 s.

`tools/dev/check.py` runs it from the wheel installed in a fresh venv, plus timm (`--installed` checks that gridpe comes
from site-packages, not from the source tree). Locally: `python tools/dev/smoke.py [module ...] [-v] [--json results.json]`.
Without a GPU the Triton kernels run in Triton's interpreter (`TRITON_INTERPRET=1`); where Triton is not installed
(CPU-only torch) their entries check nothing. Files, caches (`GRIDPE_CACHE`) and results go to a temporary folder.

To cover a new public name, add one line to its module's table in `SMOKE`: `'name': lambda f, c: ...`, where `f` is
the object the module exports under that name and `c` gives tiny fixtures (`c.images`, `c.img_dls`, `c.vit_learn`, …,
see `Fixtures`) and the modules themselves (`c.rope`, `c.data`, …). Return False (or raise) to fail.
"""
from __future__ import annotations
import argparse, contextlib, importlib, importlib.util, io, json, os, pkgutil, signal, sys, tempfile, time, traceback, warnings
from functools import cached_property
from pathlib import Path

os.environ.setdefault('MPLBACKEND', 'Agg')
os.environ.setdefault('OMP_NUM_THREADS', '1')      # tiny tensors: one thread is fastest, and much faster on a busy machine
warnings.filterwarnings('ignore')

def raises(fn, exc=Exception)->bool:
    "True if `fn()` raises `exc` (e.g. a check's ValueError); False if it returns."
    try: fn()
    except exc: return True
    return False

def shape(t)->tuple: return tuple(t.shape)

class Fixtures:
    "Tiny inputs, built once on first use; `c.<module>` imports gridpe.<module>."
    def __init__(self, tmp:Path): self.tmp = Path(tmp)
    def __getattr__(self, name):
        "gridpe.<name>; for a fixture whose builder raised AttributeError (which Python turns into a call here), that error."
        if isinstance(prop := type(self).__dict__.get(name), cached_property): return prop.func(self)
        if name.startswith('_'): raise AttributeError(name)
        return importlib.import_module(f'gridpe.{name}')
    def path(self, *parts)->Path:
        p = self.tmp.joinpath(*parts); p.parent.mkdir(parents=True, exist_ok=True); return p

    # ---- files in the formats the data loaders read
    def _png(self, p:Path, size:int=16, seed:int=0):
        import numpy as np
        from PIL import Image
        p.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(np.random.default_rng(seed).integers(0, 256, (size, size, 3), dtype=np.uint8)).save(p)
    @cached_property
    def image_tree(self)->Path:
        "An ImageFolder tree: train/ and test/, 5 classes, 2 and 1 RGB 16×16 PNGs each."
        root = self.tmp/'image_tree'
        for split, n in (('train', 2), ('test', 1)):
            for k in range(5):
                for i in range(n): self._png(root/split/f'class{k}'/f'{i}.png', seed=100*k + i)
        return root
    @cached_property
    def imagenet_tree(self)->Path:
        "An ImageNet-100 tree: train/ and val/ with one 8×8 PNG per CMC class."
        root = self.tmp/'imagenet_tree'
        for split in ('train', 'val'):
            for i, wnid in enumerate(self.data.IMAGENET100_CLASSES): self._png(root/split/wnid/'a.JPEG.png', 8, i)
        return root
    @cached_property
    def idx_dir(self)->Path:
        "Fashion-MNIST idx files (gzipped): 10 training and 10 test images."
        import gzip, struct, numpy as np
        root = self.tmp/'fashion_idx'; root.mkdir(parents=True, exist_ok=True)
        for p in ('train', 't10k'):
            x = np.random.default_rng(0).integers(0, 256, (10, 28, 28), dtype=np.uint8)
            with gzip.open(root/f'{p}-images-idx3-ubyte.gz', 'wb') as f: f.write(b'\0\0\x08\x03' + struct.pack('>3I', *x.shape) + x.tobytes())
            with gzip.open(root/f'{p}-labels-idx1-ubyte.gz', 'wb') as f: f.write(b'\0\0\x08\x01' + struct.pack('>I', 10) + bytes(range(10)))
        return root
    @cached_property
    def h5_dir(self)->Path:
        "A ModelNet HDF5 folder: 5 classes, 10 training and 5 test shapes of 128 points."
        import h5py, numpy as np
        root = self.tmp/'modelnet_h5'; root.mkdir(parents=True, exist_ok=True)
        (root/'shape_names.txt').write_text(''.join(f'class{k}\n' for k in range(5)))
        rng = np.random.default_rng(0)
        for s, n in (('train', 10), ('test', 5)):
            with h5py.File(root/f'ply_data_{s}0.h5', 'w') as f:
                f['data'] = rng.uniform(-1, 1, (n, 128, 3)).astype(np.float32); f['label'] = (np.arange(n) % 5)[:, None].astype(np.uint8)
            (root/f'{s}_files.txt').write_text(f'data/modelnet_h5/ply_data_{s}0.h5\n')
        return root
    @cached_property
    def txt_dir(self)->Path:
        "A ModelNet text folder (modelnet40_normal_resampled layout): 2 classes, 2 + 1 shapes of 40 points each."
        import numpy as np
        root = self.tmp/'modelnet_txt'; root.mkdir(parents=True, exist_ok=True)
        (root/'modelnet2_shape_names.txt').write_text('chair\ntable\n')
        for s, n in (('train', 2), ('test', 1)):
            names = [f'{c}_{s}{i}' for c in ('chair', 'table') for i in range(n)]
            (root/f'modelnet2_{s}.txt').write_text('\n'.join(names) + '\n')
            for nm in names:
                (root/nm.rsplit('_', 1)[0]).mkdir(exist_ok=True)
                np.savetxt(root/nm.rsplit('_', 1)[0]/f'{nm}.txt', np.random.default_rng(0).uniform(-1, 1, (40, 6)), delimiter=',', fmt='%.5f')
        return root

    # ---- datasets, DataLoaders, Learners (through the package's own loaders)
    @cached_property
    def images(self)->dict: return self.data.image_folder(self.image_tree, channels=1)
    @cached_property
    def points(self)->dict: return self.data.modelnet_h5(self.h5_dir)
    @cached_property
    def img_dls(self): return self.data.image_dls(self.images, 16, eval_sizes=[8, 16], bs=4, device='cpu')
    @cached_property
    def pt_dls(self): return self.data.point_dls(self.points, 32, eval_points=[32, 64], bs=4, device='cpu')
    @cached_property
    def vit_learn(self): return self.learner.vit_learner(self.img_dls, 'gridpe', arch='vit_nano', path=self.tmp/'learn')
    @cached_property
    def pct_learn(self): return self.learner.pct_learner(self.pt_dls, 'rope_mixed', arch='pct_tiny', path=self.tmp/'learn')
    def trained(self, learn):
        "`learn` after one epoch (fit_recipe), so that validation works."
        if not getattr(learn.recorder, 'values', None): self.learner.fit_recipe(learn, 1)
        return learn
    def cfg(self, task:str, out:str, **kw):
        "The settings of a one-epoch gridpe-compare job on the tiny data, into tmp/out (`gridpe.compare.resolve`)."
        data, size, ev = (self.image_tree, 16, [8, 16]) if task == 'image' else (self.h5_dir, 32, [32, 64])
        return self.compare.resolve(**{**dict(task=task, data=str(data), epochs=1, size=size, eval_sizes=ev, bs=4, pe=['none'],
                                              out=str(self.tmp/out), device='cpu', quiet=True), **kw})
    @cached_property
    def trained_folder(self):
        "The settings of a points job whose folder holds one trained run (none, seed 0)."
        cfg = self.cfg('points', 'cmp_folder')
        self.compare.open_folder(cfg); self.compare.train_part(cfg, self.points, 'none', 0)
        return cfg
    def cli(self, task:str, out:str, *extra)->list:
        "Arguments of a one-epoch gridpe-compare run on the tiny data."
        data, size, ev = (self.image_tree, '16', ['8', '16']) if task == 'image' else (self.h5_dir, '32', ['32', '64'])
        return [task, '--data', str(data), '--epochs', '1', '--size', size, '--eval-sizes', *ev, '--bs', '4', '--device', 'cpu', '--out', str(self.tmp/out), *extra]

    # ---- models and tensors
    @cached_property
    def has_triton(self)->bool: return importlib.util.find_spec('triton') is not None
    def qkv5(self, B=2, N=5, S=3, H=2, D=8):
        "A qkv projection output: (B, N, S, H, D)."
        import torch
        return torch.randn(B, N, S, H, D)
    def table(self, n:int, P:int, H=2):
        "cos and sin of random angles for n spatial tokens: (1, H, n, P) each."
        import torch
        th = torch.randn(1, H, n, P)
        return th.cos(), th.sin()
    def timm_vit(self):
        "A tiny plain timm VisionTransformer (16×16 RGB, patch 4, width 16, 2 heads of 8, one block)."
        from timm.models.vision_transformer import VisionTransformer
        return VisionTransformer(img_size=16, patch_size=4, embed_dim=16, depth=1, num_heads=2, num_classes=3)
    def tiny_vit(self, pe:str, cls=None, **kwargs):
        "A one-block ViT of width 16 (2 heads) on 16×16 grayscale images, patch 4."
        return (cls or self.vit.ViT)(**{**dict(n_classes=3, pe=pe, img_size=16, patch_size=4, in_chans=1, dim=16, depth=1, heads=2), **kwargs})
    def pos(self, *grid): return self.rope.grid_positions(*grid)
    def t(self, v):
        "torch.tensor(v)."
        import torch
        return torch.tensor(v)
    @cached_property
    def image_batch(self):
        "4 uint8 16×16 grayscale images as fastai's TensorImage."
        from fastai.torch_core import TensorImage
        return TensorImage(self.images['train'].x[:4])
    def qk(self, B=2, H=2, N=9, D=8):
        "A random (B, H, N, D) tensor: queries or keys, or any 4-D input (images, attention maps)."
        import torch
        return torch.randn(B, H, N, D)
    def xyz(self, B=2, P=64):
        "Random point clouds in [-1, 1]³: (B, P, 3)."
        import torch
        return torch.rand(B, P, 3) * 2 - 1

# ---------------------------------------------------------------------------------------------------------------------
# Exercises longer than a line

def _every_kind(make_pe, c):
    "Every PE kind builds and runs on a 3×3 grid: rotary kinds give angles, 'ape' an embedding, 'none' None."
    pos = c.pos(3, 3)
    out = {k: make_pe(k, 8, 2, 2, grid=(3, 3))(pos) for k in c.rope.PE_KINDS}
    return (all(shape(out[k]) == (1, 2, 9, 4) for k in ('gridpe', 'rope_axial', 'rope_mixed'))
            and shape(out['ape']) == (1, 9, 16) and out['none'] is None and raises(lambda: make_pe('bogus', 8, 2, 2), ValueError))

def _record(record_attention, c):
    "Record the attention metrics of a tiny ViT and read them as a DataFrame (NameError for `pd` if it is not imported)."
    import torch
    m = c.tiny_vit('gridpe', depth=2, img_size=8).eval()
    with record_attention(m, c.pos(2, 2), n_prefix=1, keep_maps=True) as rec: m(torch.rand(2, 1, 8, 8))
    df = rec.df()
    return len(df) == 4 and {'block', 'head', 'mean_distance', 'entropy'} <= set(df.columns) and len(rec.maps) == 2

def _recorder(AttentionRecorder, c):
    import torch
    a = torch.rand(2, 2, 5, 5).softmax(-1)
    rec = AttentionRecorder(c.pos(2, 2), n_prefix=1)
    m = torch.nn.Identity(); rec.blocks[id(m)] = 0; rec(m, a)
    return len(rec.df()) == 2

def _array_dls(array_dls, c):
    ident = lambda s, train: (lambda b: b)
    dls = array_dls(c.images, ident, 16, eval_sizes=[8], bs=4, device='cpu')
    return shape(dls.train.one_batch()[0]) == (4, 1, 16, 16) and set(dls.eval) == {8}

def _top_losses(plot_top_losses, c):
    "fastai's ClassificationInterpretation on both tasks (the point clouds through gridpe's typedispatched plot_top_losses)."
    from fastai.interpret import ClassificationInterpretation
    for learn in (c.vit_learn, c.pct_learn): ClassificationInterpretation.from_learner(c.trained(learn)).plot_top_losses(2)

def _fit(fit_recipe, c):
    for learn in (c.vit_learn, c.pct_learn): fit_recipe(learn, 1)
    return all(len(learn.recorder.values) == 1 for learn in (c.vit_learn, c.pct_learn))

def _evaluate(evaluate_sizes, c):
    a, b = evaluate_sizes(c.trained(c.vit_learn)), evaluate_sizes(c.trained(c.pct_learn), [32])
    return sorted(a['size']) == [8, 16] and list(b['size']) == [32] and a['top1'].between(0, 1).all()

def _plot_sizes(plot_sizes, c):
    import pandas as pd
    df = pd.DataFrame(dict(pe=['gridpe'] * 2 + ['ape'] * 2, size=[8, 16] * 2, top1=[.5, .6, .4, .3]))
    return plot_sizes(df, train_size=16).get_xlabel() != ''

def _no_decay_learner(NoDecayLearner, c):
    "The undecayed parameters (RoPE-Mixed frequencies) get fastai's do_wd=False."
    from fastai.losses import CrossEntropyLossFlat
    learn = NoDecayLearner(c.img_dls, c.tiny_vit('rope_mixed'), loss_func=CrossEntropyLossFlat())
    learn.create_opt()
    freqs = next(p for n, p in learn.model.named_parameters() if n.endswith('freqs'))
    return learn.opt.state[freqs].get('do_wd', True) is False

def _summary(summary, c):
    import pandas as pd
    res = pd.DataFrame(dict(pe=['gridpe', 'gridpe', 'ape'], seed=[0, 1, 0], size=[16] * 3, metric=['top1'] * 3, value=[.5, .7, .4]))
    t = summary(res)
    return list(t.columns) == ['gridpe', 'ape'] and t.loc[16, 'gridpe'].startswith('60.0 ±')

def _task(Task, c):
    from dataclasses import fields
    t = c.compare.TASKS['image']
    return Task(**{f.name: getattr(t, f.name) for f in fields(Task)}) == t

def _run_lock(run_lock, c):
    "A second holder of the lock is refused at once."
    p = c.path('locks', 'x.lock')
    with run_lock(p) as a:
        with run_lock(p) as b: return a is True and b is False

def _read_results(read_results, c):
    p = c.path('results', 'results.csv')
    p.write_text('pe,seed,size,metric,value\ngridpe,0,16,top1,0.5\ngridpe,0,16,top5,0.9\n')
    ok = len(read_results(p)) == 2
    p.write_text('pe,seed,size,metric,value\ngridpe,0,16,top1,0.5\ngridpe,0,16,to')       # a half-written row
    return ok and raises(lambda: read_results(p), c.compare.CompareError)

def _epoch_checkpoint(EpochCheckpoint, c):
    "Two epochs with a checkpoint, then a fresh Learner resumes after them."
    learn, ck = c.learner.pct_learner(c.pt_dls, 'gridpe', arch='pct_tiny'), c.tmp/'ck'/'run.pth'
    c.learner.fit_recipe(learn, 2, cbs=EpochCheckpoint(ck))
    return c.learner.load_checkpoint(c.learner.pct_learner(c.pt_dls, 'gridpe', arch='pct_tiny'), ck) == 2

def _train_part(train_part, c):
    cfg = c.cfg('points', 'cmp_part', pe=['ape'])
    c.compare.open_folder(cfg)
    return train_part(cfg, c.points, 'ape', 0)['status'] == 'trained' and train_part(cfg, c.points, 'ape', 0)['status'] == 'done'

def _train_all(train_all, c):
    return train_all(c.trained_folder, c.points) == {('none', 0): 'done'}

def _run_parallel(run_parallel, c):
    "One (kind, seed) run in its own spawned process."
    cfg = c.cfg('points', 'cmp_parallel', pe=['gridpe'], jobs=2)
    c.compare.open_folder(cfg)
    return run_parallel(cfg) == {('gridpe', 0): 'trained'}

def _report(report, c):
    cfg = c.trained_folder
    t = report(cfg, c.compare.merge_results(cfg.out))
    return list(t.columns) == ['none'] and (Path(cfg.out)/'results.png').exists()

def _compare(compare, c):
    cfg = c.cfg('image', 'cmp_image', pe=['gridpe'])
    return list(compare(cfg).columns) == ['gridpe'] and (Path(cfg.out)/'results.png').exists()

def _main(main, c):
    main(c.cli('points', 'cmp_main', '--pe', 'ape', '--quiet'))
    return (c.tmp/'cmp_main'/'results.csv').exists()

def _timm_all_kinds(gridpe_timm, c):
    "A plain timm ViT with each kind runs at another input size."
    return all(shape(gridpe_timm(c.timm_vit(), k).eval()(c.qk(2, 3, 24, 24))) == (2, 3) for k in c.rope.PE_KINDS)

def _fps_triton(f, c):
    "The FPS kernel against the loop (on a GPU, or Triton's interpreter on the CPU); True where Triton is not installed."
    if not c.has_triton: return True
    import torch
    x = c.xyz().to('cuda' if torch.cuda.is_available() else 'cpu')
    return f(x, 8).equal(c.geometry.farthest_point_sample_eager(x, 8))

def _fused_triton(f, c, backward=False):
    "Triton kernel against plain torch (the kernel on a GPU, Triton's interpreter on the CPU); True where Triton is not installed."
    if not c.has_triton: return True
    import torch
    dev = 'cuda' if torch.cuda.is_available() else 'cpu'
    x, (cos, sin) = c.qkv5().to(dev), (t.to(dev) for t in c.table(4, 4))
    y = c.fused.rope_qkv_eager(x, cos, sin, 1)
    if not backward: return torch.allclose(f(x, cos, sin, 1), y, atol=1e-5)
    g = torch.randn_like(y)
    return all(torch.allclose(a, b, atol=1e-4) for a, b in zip(f(g, y, cos, sin, 1, 2, True), c.fused.rope_qkv_bwd_eager(g, y, cos, sin, 1, 2, True)))

# ---------------------------------------------------------------------------------------------------------------------
# module -> public name -> exercise(f, c): one line per name. Modules rewritten for issue 9 carry a note; their entries
# follow their API as it stood on 2026-11-26 at about 10:15 UTC (a later rename fails loudly: update the line).

def _atomic_ok(f):
    import tempfile, pathlib
    p = pathlib.Path(tempfile.mkdtemp())/'x.txt'
    with f(p) as o: o.write('ok')
    return p.read_text() == 'ok'

SMOKE = {
 'files': {
    'atomic_file':      lambda f, c: _atomic_ok(f),
 },
 'checks': {
    'check_int':        lambda f, c: f(3, 'n') == 3 and raises(lambda: f(0, 'n'), ValueError) and raises(lambda: f(True, 'n'), ValueError),
    'check_positive':   lambda f, c: f(0.5, 'lr') == 0.5 and raises(lambda: f(0, 'lr'), ValueError),
 },
 'theory': {
    'centred_basis':    lambda f, c: f(2).shape == (3, 3),
    'plane_basis':      lambda f, c: f(2).shape == (3, 2),
    'sym_wave_vectors': lambda f, c: f(2).shape == (3, 2),
    'simplex_gram':     lambda f, c: f(2)[0, 0] == 1,
    'economy_ratio':    lambda f, c: abs(float(f(2)) - 1.6487212707) < 1e-9,
    'max_base':         lambda f, c: f(64, 2) > 1,
    'rel_kernel':       lambda f, c: abs(float(f(c.simplex.simplex_wave_vectors(2), __import__('torch').zeros(2))) - 1) < 1e-6,
 },
 'simplex': {
    'n_directions':         lambda f, c: f(1) == 1 and f(2) == 3,
    'simplex_wave_vectors': lambda f, c: shape(f(3)) == (4, 3),
    'random_rotation':      lambda f, c: shape(f(3)) == (3, 3) and shape(f(2, 4)) == (4, 2, 2),
    'GridPEWarning':        lambda f, c: issubclass(f, Warning) and raises(lambda: _warn_as_error(f, lambda: c.simplex.check_ratio(3.0, 2)), f),
    'check_ratio':          lambda f, c: f(1.2, 2) == 1.2 and raises(lambda: f(1.0, 2), ValueError),
    'scale_frequencies':    lambda f, c: shape(f(4, 2)) == (4,),
    'ratio_from_base':      lambda f, c: f(100., 64, 2) > 1,
    'n_scales':             lambda f, c: f(64, 2) == 10 and raises(lambda: f(4, 2), ValueError),
    'grid_frequencies':     lambda f, c: shape(f(64, 6, 2)) == (6, 32, 2),
 },
 # 02_rope: being changed this session (pe_state, encode/RotaryTable, no_weight_decay)
 'rope': {
    'PE_KINDS':             lambda f, c: {'gridpe', 'rope_axial', 'rope_mixed', 'ape', 'none'} <= set(f),
    'check_theta':          lambda f, c: f(c.qk(), c.qk()[..., :4]) is None and raises(lambda: f(c.qk(), c.qk()), ValueError),
    'rotate_pairs':         lambda f, c: shape(f(c.qk(), c.qk()[..., :2].cos(), c.qk()[..., :2].sin())) == (2, 2, 9, 8),
    'apply_rope':           lambda f, c: shape(f(c.qk(), c.qk(1)[..., :4])) == (2, 2, 9, 8),
    'RotaryTable':          lambda f, c: shape(f.from_angles(c.qk(1)[..., :4]).cos) == (1, 2, 9, 4),
    'grid_positions':       lambda f, c: shape(f(3, 4)) == (1, 12, 2) and float(f(2, normalize=True).max()) == 0.75,
    'check_pos':            lambda f, c: f(c.pos(3, 3), 2) is None and raises(lambda: f(c.pos(3, 3), 3), ValueError),
    'pe_state':             lambda f, c: f(c.rope.GridPE(8, 2, 2).get_extra_state())['kind'] == 'gridpe',
    'describe_pe':          lambda f, c: f(c.rope.GridPE(8, 2, 2).get_extra_state()).startswith('gridpe('),
    'PosEmbed':             lambda f, c: f().settings() == {} and f().no_weight_decay() == set(),
    'RotaryPE':             lambda f, c: f(8, 2, 2).head_dim == 8 and raises(lambda: f(7, 2, 2), ValueError),
    'GridPE':               lambda f, c: shape(f(8, 2, 2)(c.pos(3, 3))) == (1, 2, 9, 4) and raises(lambda: c.rope.RoPEAxial(8, 2, 2).load_state_dict(f(8, 2, 2).state_dict())),
    'pairs_per_axis':       lambda f, c: f(16, 2, 'x') == (8, 4),
    'axial_frequencies':    lambda f, c: shape(f(16, 2, 2)) == (2, 8, 2),
    'RoPEAxial':            lambda f, c: shape(f(8, 2, 2)(c.pos(3, 3))) == (1, 2, 9, 4),
    'mixed_frequencies':    lambda f, c: shape(f(16, 2, 2)) == (2, 8, 2),
    'RoPEMixed':            lambda f, c: shape(f(8, 2, 2)(c.pos(3, 3))) == (1, 2, 9, 4) and f(8, 2, 2).no_weight_decay() == {'freqs'},
    'no_weight_decay_names':lambda f, c: any(n.endswith('freqs') for n in f(c.tiny_vit('rope_mixed'))),
    'split_no_decay':       lambda f, c: [len(g) for g in f(c.rope.RoPEMixed(8, 2, 2))] == [0, 1],
    'no_decay_param_groups':lambda f, c: [g['weight_decay'] for g in f(c.tiny_vit('rope_mixed'), 0.05)] == [0.05, 0.],
    'LearnedAPE':           lambda f, c: shape(f(16, 2, grid=(3, 3))(c.pos(3, 3))) == (1, 9, 16) and shape(f(16, 2)(c.pos(4, 4))) == (1, 16, 16),
    'NoPE':                 lambda f, c: f()(c.pos(3, 3)) is None and f().encode(c.qk(1, 1, 9, 8)[0], c.pos(3, 3))[1] is None,
    'make_pe':              _every_kind,
 },
 # 02a_fused: new this session
 'fused': {
    'check_rope_qkv':      lambda f, c: f(c.qkv5(), *c.table(4, 4), 1, 2) is None and raises(lambda: f(c.qkv5(), *c.table(5, 4), 1, 2), ValueError),
    'rope_qkv_eager':      lambda f, c: shape(f(c.qkv5(), *c.table(4, 4), 1)) == (3, 2, 2, 5, 8),
    'table_grads':         lambda f, c: [shape(t) for t in f(c.qk(4, 2, 4, 8)[:2, None], c.qk(4, 2, 4, 8)[:2, None], 4, True)] == [(1, 2, 4, 4)] * 2,
    'rope_qkv_bwd_eager':  lambda f, c: [shape(t) for t in f(c.qkv5().permute(2, 0, 3, 1, 4), c.qkv5().permute(2, 0, 3, 1, 4), *c.table(4, 4), 1, 2, True)] == [(2, 5, 3, 2, 8), (1, 2, 4, 4), (1, 2, 4, 4)],
    'rope_qkv_triton':     lambda f, c: _fused_triton(f, c),
    'rope_qkv_bwd_triton': lambda f, c: _fused_triton(f, c, backward=True),
    'use_kernel':          lambda f, c: f(c.qkv5()) is False,
    'rope_qkv_op':         lambda f, c: shape(f(c.qkv5(), *c.table(4, 4), 1, 2)) == (3, 2, 2, 5, 8),
    'rope_qkv_bwd_op':     lambda f, c: shape(f(c.qkv5().permute(2, 0, 3, 1, 4).contiguous(), c.qkv5().permute(2, 0, 3, 1, 4).contiguous(), *c.table(4, 4), 1, 2, False)[0]) == (2, 5, 3, 2, 8),
    'RopeQKV':             lambda f, c: not c.has_triton or shape(f.apply(c.qkv5(), *c.table(4, 4), 1, 2)) == (3, 2, 2, 5, 8),
    'rope_qkv':            lambda f, c: shape(f(c.qkv5(), *c.table(4, 4), 1)) == (3, 2, 2, 5, 8),
 },
 # 03_attention: being changed this session
 'attention': {
    'rope_qk':            lambda f, c: [shape(t) for t in f(c.qk(N=10), c.qk(N=10), c.qk(1, N=9)[..., :4], n_prefix=1)] == [(2, 2, 10, 8)] * 2,
    'Attention':          lambda f, c: shape(f(16, 2)(c.qk(1, 2, 10, 16)[0], c.qk(1, 2, 9, 8)[..., :4], n_prefix=1)) == (2, 10, 16),
    'attention_distance': lambda f, c: shape(f(c.qk(2, 2, 10, 10).softmax(-1), c.pos(3, 3), n_prefix=1)) == (2, 2),
    'attention_entropy':  lambda f, c: shape(f(c.qk(2, 2, 9, 9).softmax(-1))) == (2, 2),
    'AttentionRecorder':  _recorder,
    'record_attention':   _record,
 },
 # 03a_geometry: new this session (point sampling moved here from data and pct)
 'geometry': {
    'farthest_point_sample': lambda f, c: shape(f(c.xyz(), 8)) == (2, 8) and shape(f(c.xyz(), 64)) == (2, 64),
    'gather_points':         lambda f, c: shape(f(c.xyz(), c.geometry.farthest_point_sample(c.xyz(), 8))) == (2, 8, 3),
    'knn':                   lambda f, c: shape(f(c.xyz(2, 8), c.xyz(), 4)) == (2, 8, 4),
    'farthest_point_sample_eager':  lambda f, c: f(x := c.xyz(), 8).equal(c.geometry.farthest_point_sample(x, 8)),
    'farthest_point_sample_triton': lambda f, c: _fps_triton(f, c),
    'use_fps_kernel':        lambda f, c: f(c.xyz()) is False,                     # CPU points: the loop
 },
 # 04_data: being changed this session (fastai types and show methods, cache, format sniffing; point sampling moved to geometry)
 'data': {
    'IMAGENET100_CLASSES':      lambda f, c: len(set(f)) == 100,
    'IMG_EXTS':                 lambda f, c: '.png' in f and '.jpg' in f,
    'FASHION_MNIST_CLASSES':    lambda f, c: len(f) == 10,
    'DATA_DIR':                 lambda f, c: (f/'fashion_mnist_small.npz').exists() and (f/'furniture_points.npz').exists(),
    'TensorPointCloud':         lambda f, c: f(c.xyz(1, 16)[0]).show() is not None,
    'check_labels':             lambda f, c: f([0, 1], ['a', 'b']) is None and raises(lambda: f([2], ['a', 'b']), ValueError),
    'ArraySet':                 lambda f, c: (lambda s: len(s) == 4 and s.c == 2)(f(c.images['train'].x[:4], [0, 1, 0, 1], ['a', 'b'])),
    'find_split':               lambda f, c: f(c.image_tree, ('val', 'test')).name == 'test' and raises(lambda: f(c.image_tree, ('nope',)), FileNotFoundError),
    'folder_items':             lambda f, c: (lambda p, y, k: len(p) == 10 and len(k) == 5)(*f(c.image_tree/'train')),
    'decode_image':             lambda f, c: f(c.image_tree/'train'/'class0'/'0.png', 8).shape == (3, 8, 8),
    'decode_images':            lambda f, c: f(sorted((c.image_tree/'test').rglob('*.png')), 8, 1, n_workers=1).shape == (5, 1, 8, 8),
    'cache_dir':                lambda f, c: str(f()) == os.environ['GRIDPE_CACHE'],
    'cached':                   lambda f, c: list(f({'smoke': 1}, lambda: __import__('numpy').arange(3))) == list(f({'smoke': 1}, lambda: 1/0)),
    'files_key':                lambda f, c: len(f([c.image_tree/'train'/'class0'/'0.png'])) == 1,
    'image_folder':             lambda f, c: len(f(c.image_tree, 8)['test']) == 5,
    'imagenet100':              lambda f, c: f(c.imagenet_tree, 8, n_workers=1)['train'].c == 100,
    'read_idx':                 lambda f, c: f(c.idx_dir/'train-images-idx3-ubyte.gz').shape == (10, 28, 28),
    'fashion_mnist':            lambda f, c: shape(f(c.idx_dir)['test'].x) == (10, 1, 28, 28),
    'modelnet_h5':              lambda f, c: shape(f(c.h5_dir)['train'].x) == (10, 128, 3),
    'modelnet_txt':             lambda f, c: shape(f(c.txt_dir, 32)['train'].x) == (4, 32, 3),
    'fashion_mnist_small':      lambda f, c: (lambda d: len(d['train']) == 5000 and d['train'].c == 10)(f()),
    'furniture_points':         lambda f, c: (lambda d: d['train'].c == 10 and d['train'].x.shape[1:] == (1024, 3))(f()),
    'dataset_format':           lambda f, c: [f(p) for p in (c.image_tree, c.idx_dir, c.h5_dir, c.txt_dir)] == ['image_folder', 'fashion_mnist', 'modelnet_h5', 'modelnet_txt'],
    'load_dataset':             lambda f, c: len(f(str(c.image_tree), 'image', 16)['train']) == 10 and f(None, 'points', 64)['train'].c == 10,
    'ArrayDL':                  lambda f, c: len(next(iter(f(c.images['train'], bs=4)))[0]) == 4,
    'stack_inputs':             lambda f, c: shape(f([c.image_tree/'test'/'class0'/'0.png'], c.images['train'])) == (1, 1, 16, 16),
    'ArrayDataLoaders':         lambda f, c: len(f(c.img_dls.train, c.img_dls.valid, device='cpu', eval={16: c.img_dls.valid}).eval) == 1,
    'array_dls':                _array_dls,
    'random_resized_crop_flip': lambda f, c: shape(f(c.qk(2, 1, 16, 16), 8)) == (2, 1, 8, 8),
    'resize_center_crop':       lambda f, c: shape(f(c.qk(2, 1, 16, 16), 8)) == (2, 1, 8, 8),
    'rgb_to_gray':              lambda f, c: shape(f(c.qk(2, 3, 8, 8))) == (2, 1, 8, 8),
    'solarize':                 lambda f, c: shape(f(c.qk(2, 3, 8, 8))) == (2, 3, 8, 8),
    'gaussian_blur':            lambda f, c: shape(f(c.qk(2, 3, 8, 8), c.t([1., 1.]))) == (2, 3, 8, 8),
    'three_augment':            lambda f, c: shape(f(c.qk(2, 3, 8, 8))) == (2, 3, 8, 8),
    'color_jitter':             lambda f, c: shape(f(c.qk(2, 3, 8, 8), 0.3)) == (2, 3, 8, 8),
    'channel_stats':            lambda f, c: [shape(t) for t in f(c.images['train'].x)] == [(1,), (1,)],
    'ImageBatchTfm':            lambda f, c: shape(f(8, c.t([0.]), c.t([1.]))((c.image_batch, c.t([0, 1, 0, 1])))[0]) == (4, 1, 8, 8),
    'image_dls':                lambda f, c: shape(f(c.images, 16, [8], bs=4, device='cpu').eval[8].one_batch()[0]) == (4, 1, 8, 8),
    'sample_points':            lambda f, c: all(shape(f(c.xyz(), 8, m)) == (2, 8, 3) for m in ('first', 'random', 'fps')),
    'augment_points':           lambda f, c: shape(f(c.xyz())) == (2, 64, 3),
    'PointBatchTfm':            lambda f, c: shape(f(8, 'fps', augment=True)((c.data.TensorPointCloud(c.xyz()), c.t([0, 1])))[0]) == (2, 8, 3),
    'point_dls':                lambda f, c: shape(f(c.points, 32, [64], bs=4, device='cpu').eval[64].one_batch()[0]) == (4, 64, 3),
    'get_grid3d':               lambda f, c: len(f(3)) == 3,
    'show_batch':               lambda f, c: c.img_dls.show_batch(max_n=2, show=True) is None and c.pt_dls.show_batch(max_n=2) is None,
    'show_results':             lambda f, c: c.trained(c.vit_learn).show_results(max_n=2) is None and c.trained(c.pct_learn).show_results(max_n=2) is None,
    'plot_top_losses':          _top_losses,
 },
 # 05_vit: being changed this session
 'vit': {
    'ARCHS':      lambda f, c: all(f[n] is getattr(c.vit, n) for n in ('vit_small', 'vit_tiny', 'vit_nano')),
    'PatchEmbed': lambda f, c: (lambda t, g: shape(t) == (2, 4, 8) and g == (2, 2))(*f(4, 1, 8)(c.qk(2, 1, 8, 8))),
    'DropPath':   lambda f, c: shape(f(0.5).train()(c.qk(4, 1, 3, 8))) == (4, 1, 3, 8),
    'Block':      lambda f, c: shape(f(16, 2)(c.qk(1, 2, 5, 16)[0], c.rope.RotaryTable.from_angles(c.qk(1, 2, 4, 8)[..., :4]), n_prefix=1)) == (2, 5, 16),
    'ViT':        lambda f, c: all(shape(c.tiny_vit(k, f).eval()(c.qk(2, 1, 24, 24))) == (2, 3) for k in c.rope.PE_KINDS),
    'vit_small':  lambda f, c: shape(f(3, img_size=32, in_chans=1).eval()(c.qk(1, 1, 32, 32))) == (1, 3),
    'vit_tiny':   lambda f, c: shape(f(3, img_size=32, in_chans=1).eval()(c.qk(1, 1, 32, 32))) == (1, 3),
    'vit_nano':   lambda f, c: shape(f(3).eval()(c.qk(2, 1, 28, 28))) == (2, 3),
 },
 # 06_pct: being changed this session
 'pct': {
    'PCT_ARCHS':        lambda f, c: f['pct'] is c.pct.pct and f['pct_tiny'] is c.pct.pct_tiny,
    'PointwiseConv':    lambda f, c: shape(f(6, 8)(c.qk(2, 4, 5, 6))) == (2, 4, 5, 8),
    'LocalOp':          lambda f, c: shape(f(6, 8)(c.qk(2, 4, 5, 6))) == (2, 4, 8),
    'local_op_reference': lambda f, c: (o := c.pct.LocalOp(6, 8).eval()) is not None and (f(o, g := c.qk(2, 4, 5, 6)) - o(g)).abs().max() < 1e-5,
    'sample_and_group': lambda f, c: [shape(t) for t in f(8, 4, c.xyz(2, 32), c.qk(1, 2, 32, 5)[0])] == [(2, 8, 3), (2, 8, 4, 10)],
    'OffsetAttention':  lambda f, c: shape(f(16)(c.qk(1, 2, 16, 10)[0], c.rope.RotaryTable.from_angles(c.qk(1, 1, 10, 2)))) == (2, 16, 10),
    'PCT':              lambda f, c: all(shape(f(3, k, c=32, k=8).eval()(c.xyz())) == (2, 3) for k in c.rope.PE_KINDS),
    'pct':              lambda f, c: shape(f(3).eval()(c.xyz())) == (2, 3),
    'pct_tiny':         lambda f, c: shape(f(3, 'ape').eval()(c.xyz())) == (2, 3),
 },
 # 07_learner: being changed this session (fastai types, weight decay per parameter, head splitter)
 'learner': {
    'no_decay_names':     lambda f, c: any(n.endswith('freqs') for n in f(c.tiny_vit('rope_mixed'))),
    'head_splitter':      lambda f, c: [len(g) for g in f(c.tiny_vit('gridpe'))][1] == 2,
    'NoDecayLearner':     _no_decay_learner,
    'class_metrics':      lambda f, c: len(f(10)) == 2 and len(f(3)) == 1,
    'vit_learner':        lambda f, c: f(c.img_dls, 'ape', arch='vit_nano').model.pe_kind == 'ape',
    'pct_learner':        lambda f, c: f(c.pt_dls, 'none', arch='pct_tiny').model.pe_kind == 'none',
    'fit_recipe':         _fit,
    'evaluate_sizes':     _evaluate,
    'plot_sizes':         _plot_sizes,
    'train_and_evaluate': lambda f, c: sorted(f(c.learner.pct_learner(c.pt_dls, 'gridpe', arch='pct_tiny'), 1)['size']) == [32, 64],
    'Recipe':             lambda f, c: f(5e-4, 'warmup_cos', warmup_epochs=1, min_lr=1e-5).min_lr == 1e-5 and raises(lambda: f(1e-3, 'step'), ValueError),
    'MixUpCutMix':        lambda f, c: (l := c.learner.vit_learner(c.img_dls, 'none', arch='vit_nano', mixup=.8, cutmix=1.)).fit(1) or next(b for b in l.cbs if isinstance(b, f)).branch in ('mixup', 'cutmix'),
    'KeepBest':           lambda f, c: c.learner.fit_recipe(c.learner.pct_learner(c.pt_dls, 'none', arch='pct_tiny'), 2, cbs=(kb := f())) or kb.best_epoch in (0, 1),
    'EpochCheckpoint':    _epoch_checkpoint,
    'load_checkpoint':    lambda f, c: f(c.learner.pct_learner(c.pt_dls, 'none', arch='pct_tiny'), c.tmp/'no_such.pth') == 0,
    'HistoryCSV':         lambda f, c: c.learner.fit_recipe(c.learner.pct_learner(c.pt_dls, 'none', arch='pct_tiny', cbs=[f(c.tmp/'hist.csv')]), 1) or len((c.tmp/'hist.csv').read_text().splitlines()) == 2,
    'ForeachAdam':        lambda f, c: (l := c.learner.vit_learner(c.img_dls, 'gridpe', arch='vit_nano')).create_opt() or type(l.opt) is f,
    'ForeachSGD':         lambda f, c: (l := c.learner.pct_learner(c.pt_dls, 'none', arch='pct_tiny')).create_opt() or (isinstance(l.opt, f) and not l.opt.decouple_wd),
    'attention_sizes':    lambda f, c: set(f(c.learner.vit_learner(c.img_dls, 'gridpe', arch='vit_nano'))['size']) == set(c.img_dls.eval),
 },
 # 08_compare: being changed this session (results folder, CLI)
 'compare': {
    'NOT_IDENTITY':   lambda f, c: {'out', 'seeds', 'pe'} <= set(f),
    'TASKS':          lambda f, c: set(f) == {'image', 'points'},
    'MODEL_ARGS':     lambda f, c: 'heads' in f,
    'COLUMNS':        lambda f, c: {'pe', 'seed', 'size', 'metric', 'value'} <= set(f),
    'Config':         lambda f, c: 'out' not in f(task='points').identity(),
    'field_docs':     lambda f, c: bool(f(c.compare.Config)['epochs']),
    'Task':           _task,
    'CompareError':   lambda f, c: issubclass(f, ValueError) and raises(lambda: c.compare.check_settings(c.cfg('image', 'x', pe=['bogus'])), f),
    'resolve':        lambda f, c: f('image').size == 28 and f('points', True).size == 512 and raises(lambda: f('audio'), ValueError),
    'parse_dict':     lambda f, c: f(['gridpe=1', 'ape=2']) == {'gridpe': 1, 'ape': 2},
    'model_kwargs':   lambda f, c: f(__import__('gridpe.compare', fromlist=['x']).resolve('points', paper=True), 'gridpe')['pe_per_block'] is True,
    'call_kwargs':    lambda f, c: f(lambda dls, mixup=0.: 0, __import__('gridpe.compare', fromlist=['x']).resolve('image', paper=True), ('mixup',)) == {'mixup': 0.8},
    'check_numbers':  lambda f, c: f(c.cfg('image', 'x')) is None and raises(lambda: f(c.cfg('image', 'x', epochs=0)), ValueError),
    'vit_width':      lambda f, c: f('vit_nano') == 96,
    'valid_heads':    lambda f, c: 2 in f(96) and 5 not in f(96),
    'check_model':    lambda f, c: f(c.cfg('image', 'x')) is None and raises(lambda: f(c.cfg('image', 'x', heads=5)), ValueError),
    'check_settings': lambda f, c: f(c.cfg('points', 'x')) is None and raises(lambda: f(c.cfg('points', 'x', arch='vit_nano')), ValueError),
    'load_data':      lambda f, c: len(f(c.cfg('image', 'x'))['train']) == 10 and f(c.compare.resolve('points'))['train'].c == 10,
    'check_data':     lambda f, c: f(c.cfg('points', 'x'), c.points) is None and raises(lambda: f(c.cfg('points', 'x', size=256), c.points), ValueError),
    'write_atomic':   lambda f, c: f(c.path('atomic', 'a.txt'), 'x') is None and (c.tmp/'atomic'/'a.txt').read_text() == 'x',
    'run_lock':       _run_lock,
    'read_results':   _read_results,
    'part_path':      lambda f, c: f(c.cfg('image', 'x'), 'gridpe', 0).name == 'gridpe_seed0.csv',
    'read_part':      lambda f, c: f(c.cfg('image', 'no_runs'), 'gridpe', 0) is None,
    'settings_diff':  lambda f, c: '1 → 2' in f({'epochs': 1}, {'epochs': 2}) and f({'epochs': 1}, {'epochs': 1}) == '',
    'to_json':        lambda f, c: json.loads(f(c.cfg('image', 'x')))['task'] == 'image',
    'open_folder':    lambda f, c: f(c.cfg('image', 'folder')) is None and raises(lambda: f(c.cfg('image', 'folder', epochs=2)), ValueError),
    'run_one':        lambda f, c: sorted(f(c.cfg('image', 'x'), c.images, 'rope_axial', 0)['size']) == [8, 16],
    'train_part':     _train_part,
    'say':            lambda f, c: f(c.cfg('image', 'x'), 'hello') is None,
    'train_all':      _train_all,
    'run_parallel':   _run_parallel,
    'job_devices':    lambda f, c: f(3, None, 2) == ['cuda:0', 'cuda:1', 'cuda:0'] and f(2, 'cpu', 4) == ['cpu', 'cpu'],
    'merge_results':  lambda f, c: set(f(c.trained_folder.out).pe) == {'none'},
    'summary':        _summary,
    'report':         _report,
    'compare':        _compare,
    'cli_parser':     lambda f, c: f().parse_args(['image', '--epochs', '1']).epochs == 1,
    'main':           _main,
 },
 # 09_timm_rope: new this session (needs timm, which check.py installs beside the wheel)
 'timm_rope': {
    'make_dynamic': lambda f, c: f(c.timm_vit()).dynamic_img_size is True,
    'TimmPE':       lambda f, c: f(c.rope.make_pe('gridpe', 8, 2, 2), 1).n_prefix == 1,
    'timm_heads':   lambda f, c: f(c.timm_vit()) == (2, 8),
    'gridpe_timm':  _timm_all_kinds,
 },
}

def _warn_as_error(cat, fn):
    with warnings.catch_warnings():
        warnings.simplefilter('error', cat); fn()

# ---------------------------------------------------------------------------------------------------------------------

class _Timeout(Exception): pass

def _alarm(signum, frame): raise _Timeout('ran past the time limit')

def _where(e:BaseException)->str:
    "The innermost frame inside gridpe, as file:line in function."
    tb = [f for f in traceback.extract_tb(e.__traceback__) if f'{os.sep}gridpe{os.sep}' in f.filename] or traceback.extract_tb(e.__traceback__)[-1:]
    return f' ({Path(tb[-1].filename).name}:{tb[-1].lineno} in {tb[-1].name})' if tb else ''

def public_modules(pkg)->list:
    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith('_'))

def run(only=(), limit:int=120, installed:bool=False, verbose:bool=False)->list:
    "Run the smoke table; returns [(check name, ok, detail)], one per module plus one for coverage."
    import gridpe
    results = []
    if installed:
        ok = 'site-packages' in gridpe.__file__
        results.append(('gridpe is imported from the installed wheel', ok, '' if ok else f'gridpe comes from {gridpe.__file__}'))
    mods = public_modules(gridpe)
    stale_mods = sorted(set(SMOKE) - set(mods))
    if stale_mods: results.append(('smoke table names only existing modules', False, f"SMOKE has tables for {', '.join(stale_mods)}, which gridpe does not have: remove or rename them"))
    import torch
    if not torch.cuda.is_available(): os.environ.setdefault('TRITON_INTERPRET', '1')    # Triton kernels run in its interpreter
    signal.signal(signal.SIGALRM, _alarm)
    tmp = tempfile.TemporaryDirectory(prefix='gridpe-smoke-')
    os.environ['GRIDPE_CACHE'] = str(Path(tmp.name)/'cache')
    c = Fixtures(tmp.name)
    import matplotlib.pyplot as plt
    for name in mods:
        if only and name not in only: continue
        t0, fails = time.time(), []
        try: mod = importlib.import_module(f'gridpe.{name}')
        except Exception as e:
            results.append((f'smoke gridpe.{name}', False, f'import failed: {type(e).__name__}: {e}{_where(e)}')); continue
        public = list(getattr(mod, '__all__', None) or [])
        if not hasattr(mod, '__all__'): fails.append("has no __all__: its public names cannot be checked")
        table = SMOKE.get(name, {})
        if undefined := [n for n in public if not hasattr(mod, n)]: fails.append(f"__all__ lists names the module does not define: {', '.join(undefined)}")
        if missing := [n for n in public if n not in table]:
            fails.append(f"no smoke entry for {', '.join(missing)}: add one line each to SMOKE['{name}'] in tools/dev/smoke.py")
        if stale := [n for n in table if n not in public]:
            fails.append(f"smoke entries for names not in __all__: {', '.join(stale)}: remove or rename them in tools/dev/smoke.py")
        for n, fn in table.items():
            if n not in public or not hasattr(mod, n): continue
            signal.alarm(limit); t1 = time.time()
            try:
                with contextlib.redirect_stdout(io.StringIO()): r = fn(getattr(mod, n), c)     # no progress bars
                if r is False: fails.append(f'{n}: its smoke check returned False')
            except _Timeout: fails.append(f'{n}: ran past {limit} s')
            except Exception as e: fails.append(f'{n}: {type(e).__name__}: {str(e).strip()[:300]}{_where(e)}')
            finally:
                signal.alarm(0); plt.close('all')
                if verbose: print(f'      {name}.{n}: {time.time() - t1:.1f} s', flush=True)
        results.append((f'smoke gridpe.{name}: {len(public)} public names ({time.time() - t0:.1f} s)', not fails, '\n'.join(fails)))
    tmp.cleanup()
    return results

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('modules', nargs='*', help='only these modules (e.g. rope data); all by default')
    p.add_argument('--json', help='also write the results to this file')
    p.add_argument('--installed', action='store_true', help='fail unless gridpe is imported from site-packages')
    p.add_argument('--limit', type=int, default=120, help='seconds one entry may take')
    p.add_argument('-v', '--verbose', action='store_true', help="print each entry's time")
    a = p.parse_args()
    t0 = time.time()
    res = run(a.modules, a.limit, a.installed, a.verbose)
    for n, ok, d in res:
        print(f"{'PASS' if ok else 'FAIL'}  {n}")
        if d: print('      ' + d.replace('\n', '\n      '))
    n_bad = sum(not ok for _, ok, _ in res)
    print(f'smoke: {len(res) - n_bad} passed, {n_bad} failed ({time.time() - t0:.0f} s)', flush=True)
    if a.json: Path(a.json).write_text(json.dumps([dict(name=n, ok=ok, detail=d) for n, ok, d in res], indent=1))
    sys.exit(1 if n_bad else 0)
