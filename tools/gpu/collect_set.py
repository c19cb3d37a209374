#!/usr/bin/env python3
"""Collect the finished runs of one pre-registered set (tools/gpu/run_set.sh) into the committed result files.

    python tools/gpu/collect_set.py RUNS/SET [--dest nbs/experiments/results] [--add]

Every folder under RUNS/SET that holds parts/ is an arm (`kind` or `kind/n<n>`, named `kind@n<n>`). Only finished runs
count (a part in parts/). Writes SET.csv (every run's result rows, an `arm` column first), SET_runs.csv (one line per
run: arm, kind, seed and its provenance: commit, torch, CUDA, card, when its training started and finished, the epochs
at which it was resumed), SET_history.csv (every run's per-epoch history) and SET_config.json (each arm's settings).
The files keep the names the runs wrote: runs of a commit before the kind column was renamed name it `pe` (and their
settings carry that commit's names); the analyses read `arm` and `seed`, which every commit writes.
With --add, the runs are added to the committed files (a set runs over several sessions); a run already there is
replaced. The protocol's one-batch rule is checked on the result: a run of a `+dirty` or unknown commit, or a set whose
runs name more than one commit, card or torch build, is refused and nothing is written.
"""
import argparse, json, sys
from pathlib import Path
import pandas as pd

def arms(root:Path)->dict:
    "arm name: folder, for every folder under `root` holding finished runs."
    return {str(p.parent.relative_to(root)).replace('/', '@'): p.parent for p in sorted(root.rglob('parts'))
            if any(p.glob('*.csv'))}

def runs(folder:Path)->list:
    "(kind, seed) of the folder's finished runs (those with a part)."
    return [(k, int(s)) for k, s in (p.stem.rsplit('_seed', 1) for p in sorted((folder/'parts').glob('*.csv')))]

def provenance(folder:Path, kind:str, seed:int)->dict:
    "The provenance a run's part records, resumes as `1;7` (none: an empty field)."
    p = json.loads((folder/'parts'/f'{kind}_seed{seed}.json').read_text()).get('provenance') or {}
    keys = ('commit', 'torch', 'cuda', 'card', 'device', 'started', 'finished')
    return {**{k: p.get(k) for k in keys}, 'resumed': ';'.join(map(str, p.get('resumed') or []))}

def collect(root:Path)->dict:
    "The set's tables: results, runs, history; and each arm's settings."
    res, rn, hist, cfg = [], [], [], {}
    for arm, f in arms(root).items():
        cfg[arm] = {k: v for k, v in json.loads((f/'config.json').read_text()).items()
                    if k not in ('out', 'device', 'jobs', 'quiet', 'seeds')}
        # the dataset by its folder's name: where a host kept it is no setting of the run
        if cfg[arm].get('data'): cfg[arm]['data'] = Path(cfg[arm]['data']).name
        for kind, seed in runs(f):
            part = pd.read_csv(f/'parts'/f'{kind}_seed{seed}.csv')
            res.append(part.assign(arm=arm))
            # the kind column under the name the part gives it (`pe` or `kind`)
            rn.append({'arm': arm, part.columns[0]: kind, 'seed': seed, **provenance(f, kind, seed)})
            if (h := f/f'history_{kind}_seed{seed}.csv').exists():
                hist.append(pd.read_csv(h).assign(arm=arm, seed=seed))
    first = lambda d: d[['arm'] + [c for c in d.columns if c != 'arm']]
    cat = lambda ds: first(pd.concat(ds, ignore_index=True)) if ds else None
    return {'': cat(res), '_runs': pd.DataFrame(rn) if rn else None, '_history': cat(hist)}, cfg

def added(old:Path, new:pd.DataFrame|None)->pd.DataFrame|None:
    "The committed rows of `old` whose (arm, seed) runs are not in `new`, followed by `new`."
    if not old.exists() or new is None: return new
    # the committed rows as the text they were written as (`nan` is missing; an empty field stays empty)
    o = pd.read_csv(old, dtype=str, keep_default_na=False, na_values=['nan'])
    keys = {(a, str(s)) for a, s in zip(new.arm, new.seed)}
    return pd.concat([o[[k not in keys for k in zip(o.arm, o.seed)]], new], ignore_index=True)

def one_batch(r:pd.DataFrame)->list:
    "What breaks the one-batch rule in the runs table `r` (empty: nothing)."
    bad = [f'{a} seed {s}: commit {c}' for a, s, c in zip(r.arm, r.seed, r.commit)
           if not isinstance(c, str) or c.endswith('+dirty')]
    # compared as text: a committed row read back and a new one may hold one value as a number and as a string
    mixed = [k for k in ('commit', 'card', 'torch') if r[k].astype(str).nunique() > 1]
    return bad + [f'{k}: {sorted(map(str, r[k].unique()))}' for k in mixed]

def main(root:Path, dest:Path, add:bool=False)->int:
    name = root.name
    tables, cfg = collect(root)
    if tables['_runs'] is None: print(f'{root}: no finished run'); return 1
    if add: tables = {k: added(dest/f'{name}{k}.csv', v) for k, v in tables.items()}
    if bad := one_batch(tables['_runs']): print(f'{name} is not one batch, nothing written:', *bad, sep='\n  '); return 1
    dest.mkdir(parents=True, exist_ok=True)
    for k, v in tables.items():
        if v is not None: v.to_csv(dest/f'{name}{k}.csv', index=False, na_rep='nan')
    old = json.loads(p.read_text()) if add and (p := dest/f'{name}_config.json').exists() else {}
    (dest/f'{name}_config.json').write_text(json.dumps({**old, **cfg}, indent=1) + '\n')
    r = tables['_runs']
    print(f'{name}: {len(r)} runs of {r.arm.nunique()} arms, commit {r.commit.iloc[0]}, {r.card.iloc[0]}')
    return 0

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('root', type=Path, help="the set's folder of runs (runs/<set>)")
    p.add_argument('--dest', type=Path, default=Path(__file__).parents[2]/'nbs'/'experiments'/'results')
    p.add_argument('--add', action='store_true', help='add the runs to the committed files')
    a = p.parse_args()
    sys.exit(main(a.root, a.dest, a.add))
