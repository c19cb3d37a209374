#!/usr/bin/env python3
"""Collect GPU run folders (gridpe-compare --out folders, e.g. unpacked from runs.tgz) into the committed result files.

    python tools/gpu/collect_runs.py RUNS_DIR [--dest nbs/experiments/results]

Only finished runs count (a part in parts/); a run cut before its end has no part and is left out. For each main folder
NAME present (MAINS) it writes NAME.csv (its results.csv rows), NAME_config.json (its settings, with the kinds and seeds of its finished runs), NAME_history.csv (every finished run's per-epoch
history, with kind and seed) and NAME_attention.csv (with --attention). With --add, a main folder's runs are added to
the committed files instead: rows of runs not in the folder are kept (more seeds run on another day), the settings
merged. Each ablation in ABLATIONS becomes
ablation_<name>.csv: the rows of every arm, an `arm` column first, the reference arm taken from the main folder; and
ablation_<name>_attention.csv for the ablations in ATTENTION; ablation_configs.json holds every arm folder's settings.
"""
import argparse, json
from pathlib import Path
import pandas as pd
from gridpe.store import read_settings

MAINS = ('cifar10_vit_small_10ep', 'cifar10_vit_small', 'cifar10_vit_small_seeds', 'modelnet10_pct',
         'modelnet10_pct_256')   # the main folders, gathered when present
MAIN = 'cifar10_vit_small_10ep'   # the reference arm of the CIFAR-10 ablations (the same 10-epoch schedule)
ABLATIONS = {   # name: [(arm, folder, kinds or None for all)]
    'positions': [('index', MAIN, ['rope_axial', 'rope_mixed', 'gridpe']), ('scaled', 'ablation_positions_scaled', None)],
    'rotation':  [('per head (official)', MAIN, ['gridpe']), ('per head and scale', 'ablation_rotation_random', None),
                  ('fixed', 'ablation_rotation_fixed', None)],
    'ratio':     [('base 10000 (official)', MAIN, ['gridpe']), ('economy e^(1/2)', 'ablation_ratio_economy', None),
                  ('base 100', 'ablation_ratio_base100', None)],
    'per_block': [('per block (official)', MAIN, ['gridpe', 'rope_mixed']), ('shared', 'ablation_per_block_shared', None)],
    'scales_heads': [('4 heads, 16 scales (official)', MAIN, ['gridpe'])] + [(f'{h} head{"s" * (h > 1)}, {64 // h} scales', f'ablation_scales_heads_{h}', None) for h in (1, 2, 8, 16)],
    # is the heads effect GridPE's? every kind at 4 (seed 2 of the 10-epoch reference), 8 and 16 heads; GridPE's seeds
    # 0 1 at 8 and 16 heads are ablation_scales_heads', the other kinds' seeds 0 1 at 4 heads cifar10_vit_small_10ep's
    'heads': [('4 heads', 'cifar10_vit_small_10ep_seed2', None), ('8 heads', 'ablation_heads_kinds_8', None),
              ('8 heads', 'ablation_scales_heads_8_seed2', None), ('16 heads', 'ablation_heads_kinds_16', None),
              ('16 heads', 'ablation_scales_heads_16_seed2', None), ('16 heads, fixed', 'ablation_heads_fixed_16', None)],
    'pct_pos_scale': [(f'xyz × {s}', f'ablation_pct_pos_scale_{s}', None) for s in (1, 10, 32)],
    'pct_pos_scale_50ep': [('xyz × 1', 'modelnet10_pct', ['gridpe']), ('xyz × 1', 'ablation_pct_pos_scale_50ep_1', None),     # the official
                           ('xyz × 10', 'modelnet10_pct', ['rope_axial']), ('xyz × 10', 'ablation_pct_pos_scale_50ep_10', None),  # scales are
                           ('xyz × 32', 'ablation_pct_pos_scale_50ep_32', None)],                                              # the main runs
}

ATTENTION = {'positions'}   # ablations whose attention metrics are kept (the others' arms look alike; the main folder has every kind's)

def finished(folder:Path)->list:
    "(kind, seed) of the folder's finished runs (those with a part)."
    return [tuple(p.stem.rsplit('_seed', 1)) for p in sorted((folder/'parts').glob('*.csv'))]

def rows(folder:Path)->pd.DataFrame:
    "Every finished run's result rows."
    return pd.concat([pd.read_csv(p) for p in sorted((folder/'parts').glob('*.csv'))], ignore_index=True)

def per_run(folder:Path, pattern:str)->pd.DataFrame|None:
    "One CSV per finished run (pattern with {kind} and {seed}), stacked with kind and seed columns first."
    dfs = [pd.read_csv(f).assign(kind=kind, seed=int(s)) for kind, s in finished(folder) if (f := folder/pattern.format(kind=kind, seed=s)).exists()]
    if not dfs: return None
    df = pd.concat(dfs, ignore_index=True).round(5)
    return df[['kind', 'seed'] + [c for c in df.columns if c not in ('kind', 'seed')]]

PER_PROCESS = ('out', 'device', 'jobs', 'quiet')   # config.json fields of the last process that wrote it, not of the folder

def config(folder:Path)->dict:
    "The folder's settings, with the kinds and seeds of its finished runs (config.json holds the last process's own lists)."
    c, done = read_settings(folder/'config.json'), finished(folder)   # under today's setting names
    c['kinds'] = [k for k in dict.fromkeys(kind for kind, _ in done)]; c['seeds'] = sorted({int(s) for _, s in done})
    c = {k: v for k, v in c.items() if k not in PER_PROCESS}
    prov = {f'{kind}_seed{s}': json.loads(j.read_text()).get('provenance') for kind, s in done
            if (j := folder/'parts'/f'{kind}_seed{s}.json').exists()}
    if any(prov.values()): c['provenance'] = prov          # per run: commit, torch, CUDA, card, optimiser, data as given
    return c

def added(old:Path, new:pd.DataFrame|None)->pd.DataFrame|None:
    "The committed rows of `old` whose (kind, seed) runs are not in `new`, followed by `new`."
    if not old.exists() or new is None: return new
    o = pd.read_csv(old); runs = set(zip(new.kind, new.seed))
    return pd.concat([o[[r not in runs for r in zip(o.kind, o.seed)]], new], ignore_index=True)

def merged(old:Path, c:dict)->dict:
    "Settings `c` merged with the committed ones: kinds, seeds, per-kind settings and provenance of both."
    if not old.exists(): return c
    o = json.loads(old.read_text())
    return {**c, 'kinds': list(dict.fromkeys(o.get('kinds', []) + c['kinds'])), 'seeds': sorted({*o.get('seeds', []), *c['seeds']}),
            'models': {**o.get('models', {}), **c.get('models', {})}, 'provenance': {**o.get('provenance', {}), **c.get('provenance', {})}}

def main(runs:Path, dest:Path, add:bool=False):
    dest.mkdir(parents=True, exist_ok=True)
    for name in MAINS:
        if not list((m := runs/name).glob('parts/*.csv')): continue
        res = {'': rows(m), '_history': per_run(m, 'history_{kind}_seed{seed}.csv'),
               '_attention': per_run(m, 'attention/{kind}_seed{seed}.csv')}
        c = config(m)
        if add: res, c = {k: added(dest/f'{name}{k}.csv', v) for k, v in res.items()}, merged(dest/f'{name}_config.json', c)
        for k, v in res.items():
            if v is not None: v.to_csv(dest/f'{name}{k}.csv', index=False, **({'na_rep': 'nan'} if k == '' else {}))
        (dest/f'{name}_config.json').write_text(json.dumps(c, indent=1) + '\n')
    configs = json.loads(p.read_text()) if (p := dest/'ablation_configs.json').exists() else {}
    for name, arms in ABLATIONS.items():
        if not all(list((runs/f).glob('parts/*.csv')) for _, f, _ in arms): continue          # an ablation is gathered whole
        res, att = [], []
        for arm, folder, kinds in arms:
            f = runs/folder; configs[folder] = config(f)
            r, a = rows(f), per_run(f, 'attention/{kind}_seed{seed}.csv')
            keep = (lambda d: d if kinds is None else d[d.kind.isin(kinds)])
            res.append(keep(r).assign(arm=arm))
            if a is not None: att.append(keep(a).assign(arm=arm))
        out = pd.concat(res, ignore_index=True)
        out[['arm'] + [c for c in out.columns if c != 'arm']].to_csv(dest/f'ablation_{name}.csv', index=False, na_rep='nan')
        if att and name in ATTENTION:
            a = pd.concat(att, ignore_index=True); a[['arm'] + [c for c in a.columns if c != 'arm']].to_csv(dest/f'ablation_{name}_attention.csv', index=False)
    (dest/'ablation_configs.json').write_text(json.dumps(configs, indent=1) + '\n')

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('runs', type=Path, help='the folder holding the run folders')
    p.add_argument('--dest', type=Path, default=Path(__file__).parents[2]/'nbs'/'experiments'/'results')
    p.add_argument('--add', action='store_true', help="add the folders' runs to the committed files (more seeds)")
    a = p.parse_args(); main(a.runs, a.dest, a.add)
