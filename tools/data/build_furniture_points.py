#!/usr/bin/env python
"""Build gridpe/datasets/furniture_points.npz (+ FURNITURE_ATTRIBUTION.md) from Debian's `sweethome3d-furniture`.

    apt-get install sweethome3d-furniture && pip install "gridpe[data]" && python tools/data/build_furniture_points.py

Each `.sh3f` library is a zip of OBJ models with a `PluginFurnitureCatalog.properties` naming every model, its author
and the library's licence. Only the CC0 (BlendSwap-CC-0) and CC-BY-3.0 (BlendSwap-CC-BY, Scopia) libraries are used.
A model's class is the last class word in its English name ("table lamp" is a lamp). For every kept model, points are
sampled on the surface (area-weighted), several times with a random rotation about the up axis, then centred and
scaled into the unit sphere. Models, not samples, are split into train and test.
"""
import argparse, re, tempfile, zipfile
from collections import defaultdict
from pathlib import Path
import numpy as np
import trimesh

LIBRARIES = {'BlendSwap-CC-0': 'CC0-1.0', 'BlendSwap-CC-BY': 'CC-BY-3.0', 'Scopia': 'CC-BY-3.0'}
CLASSES = ['armchair', 'bed', 'cabinet', 'chair', 'door', 'lamp', 'plant', 'sofa', 'table', 'window']
SYNONYMS = {'couch': 'sofa'}

def read_properties(text):
    "Java .properties: key=value lines, \\uXXXX escapes."
    out = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(('#', '!')) or '=' not in line: continue
        k, v = line.split('=', 1)
        out[k.strip()] = re.sub(r'\\u([0-9a-fA-F]{4})', lambda m: chr(int(m.group(1), 16)), v.strip())
    return out

def model_class(name):
    "The last class word of the name, or None."
    words = [SYNONYMS.get(w, w) for w in re.findall(r'[a-z]+', name.lower())]
    hits = [w for w in words if w in CLASSES]
    return hits[-1] if hits else None

def catalog(lib_path):
    "Models of one library: dicts with name, class, obj path in the zip, creator."
    z = zipfile.ZipFile(lib_path)
    props = read_properties(z.read('PluginFurnitureCatalog.properties').decode('latin-1'))
    for k, name in props.items():
        m = re.fullmatch(r'name#(\d+)', k)
        if not m: continue
        i = m.group(1); cls = model_class(name)
        if cls and f'model#{i}' in props:
            yield dict(id=props.get(f'id#{i}', name), name=name, cls=cls, obj=props[f'model#{i}'].lstrip('/'),
                       creator=props.get(f'creator#{i}', 'unknown'), zip=lib_path)

def load_mesh(rec, tmp):
    "Extract the model's folder from its library and load it as one triangle mesh."
    z = zipfile.ZipFile(rec['zip']); folder = rec['obj'].rsplit('/', 1)[0] + '/'
    for n in z.namelist():
        if n.startswith(folder) and not n.endswith('/'): z.extract(n, tmp)
    mesh = trimesh.load(Path(tmp)/rec['obj'], force='mesh', skip_materials=True, process=False)
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0 or mesh.area <= 0: raise ValueError('empty mesh')
    return mesh

def samples(mesh, k, n_points, rng):
    "k point sets of n_points on the surface, each rotated about the up (y) axis, centred, in the unit sphere."
    out = []
    for _ in range(k):
        pts, _ = trimesh.sample.sample_surface(mesh, n_points, seed=int(rng.integers(2**31)))
        a = rng.uniform(0, 2*np.pi)
        R = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
        p = (pts - pts.mean(0)) @ R.T
        out.append(p / np.linalg.norm(p, axis=1).max())
    return np.stack(out).astype(np.float16)

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--src', default='/usr/share/sweethome3d/furniture')
    ap.add_argument('--out', default=str(Path(__file__).resolve().parents[2]/'gridpe'/'datasets'))
    ap.add_argument('--points', type=int, default=1024)
    ap.add_argument('--samples', type=int, default=3, help='point sets per model')
    ap.add_argument('--max-models', type=int, default=20, help='models per class at most')
    ap.add_argument('--test-frac', type=float, default=0.25)
    ap.add_argument('--seed', type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    by_cls = defaultdict(list)
    for lib, lic in LIBRARIES.items():
        for rec in catalog(Path(a.src)/f'{lib}.sh3f'): by_cls[rec['cls']].append(dict(rec, library=lib, license=lic))
    X, Y, split, credits = {'train': [], 'test': []}, {'train': [], 'test': []}, None, []
    for c, cls in enumerate(CLASSES):
        recs = sorted(by_cls[cls], key=lambda r: r['id']); rng.shuffle(recs)
        kept = []
        with tempfile.TemporaryDirectory() as tmp:
            for rec in recs:
                if len(kept) == a.max_models: break
                try: kept.append((rec, samples(load_mesh(rec, tmp), a.samples, a.points, rng)))
                except Exception as e: print(f'skip {rec["id"]}: {e}')
        if len(kept) < 10: raise SystemExit(f'class {cls} has only {len(kept)} usable models')
        n_test = max(2, round(a.test_frac * len(kept)))
        for j, (rec, pts) in enumerate(kept):
            s = 'test' if j < n_test else 'train'
            X[s].append(pts); Y[s] += [c] * len(pts)
            credits.append((cls, rec['name'], rec['creator'], rec['library'], rec['license'], s))
        print(f'{cls}: {len(kept)} models ({n_test} test)')
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out/'furniture_points.npz', x_train=np.concatenate(X['train']), y_train=np.array(Y['train'], np.uint8),
                        x_test=np.concatenate(X['test']), y_test=np.array(Y['test'], np.uint8), classes=np.array(CLASSES))
    lines = ['# Attribution: furniture_points.npz', '',
             "Point sets sampled from 3-D models of Debian's `sweethome3d-furniture` package (Sweet Home 3D furniture libraries,",
             'models cleaned and converted to OBJ by Emmanuel Puybaret / eTeks). Only CC0-1.0 and CC-BY-3.0 (Unported) libraries',
             'are used: BlendSwap-CC-0 (CC0-1.0, models from blendswap.com), BlendSwap-CC-BY (CC-BY-3.0, models from blendswap.com)',
             'and Scopia (CC-BY-3.0, © Emmanuel Puybaret / eTeks and Scopia Visual Interfaces Systems).',
             'The point sets are a derived work: surface samples of each model, rotated, centred and scaled.', '',
             '| class | model | author | library | licence | split |', '|---|---|---|---|---|---|']
    lines += [f'| {c} | {n} | {cr} | {lib} | {lic} | {s} |' for c, n, cr, lib, lic, s in credits]
    (out/'FURNITURE_ATTRIBUTION.md').write_text('\n'.join(lines) + '\n')
    print('wrote', out/'furniture_points.npz', (out/'furniture_points.npz').stat().st_size, 'bytes')
