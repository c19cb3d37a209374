#!/usr/bin/env python3
"""Write the run orders of the pre-registered experiments (nbs/experiments/protocol.md, section 5.2) and check them.

    python tools/gpu/orders.py [--dest nbs/experiments/orders]

Each set's file holds one line `ARM SEED` per run: its blocks (one seed of every arm) in a seeded random order, the arms
in a seeded random order within each block. The generator seeds and arms are the protocol's; every file's SHA-256
(first 16 hex digits) must equal the one the protocol's table pins, or this script fails.
"""
import argparse, hashlib, re
from pathlib import Path
import numpy as np

PROTOCOL = Path(__file__).resolve().parents[2]/'nbs'/'experiments'/'protocol.md'
K = ['rope_axial', 'rope_mixed', 'gridpe']
# set: (arms, seeds, the seed of the order's generator)
SETS = {'selection': (K, (200, 201), 10),
        'resolution': (['ape', *K, 'gridpe_axes', 'gridpe_random', 'rope_axial_gspec'], range(100, 114), 11),
        'rotation_images': ([*K, 'gridpe_axes'], range(100, 109), 12),
        'dimensions': ([f'{k}@n{n}' for n in (2, 4, 8) for k in K] + ['gridpe_axes@n2'], range(100, 113), 13),
        'rotation_scenes': ([*K, 'gridpe_axes'], range(100, 112), 14),
        'spacetime': ([*K, 'composed'], range(100, 125), 15),
        # calibration pilots (amendment 7): scene counts per n; clips, at 30 and at 60 epochs
        'dims_pilot': ([f'{k}@n{n}_s{c}' for n, cs in ((2, (1000, 2000, 4000, 8000)), (4, (500, 1000, 2000)),
                                                      (8, (250, 500, 1000))) for c in cs for k in K], (900, 901), 16),
        'spacetime_pilot': ([f'{k}@c{c}_e{e}' for e in (30, 60) for c in (4000, 8000, 16000)
                             for k in ['ape', 'none', *K, 'composed']], (900, 901), 17)}

def run_order(arms:list, seeds, gen_seed:int)->list:
    "(arm, seed) in blocks of one seed each: blocks and the arms within each in a random order drawn from `gen_seed`."
    rng = np.random.default_rng(gen_seed)
    return [(arms[i], int(s)) for s in rng.permutation(list(seeds)) for i in rng.permutation(len(arms))]

def order_text(name:str)->str:
    "The order file of set `name`: one line `ARM SEED` per run."
    return ''.join(f'{a} {s}\n' for a, s in run_order(*SETS[name]))

def pinned()->dict:
    "Each set's SHA-256 (first 16 hex digits) as the protocol's table pins it."
    rows = re.findall(r'^\| `(\w+)` \|.*\| `([0-9a-f]{16})` \|$', PROTOCOL.read_text(), flags=re.M)
    return dict(rows)

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--dest', default=str(PROTOCOL.parent/'orders'), help='folder of the order files')
    dest = Path(p.parse_args().dest)
    dest.mkdir(parents=True, exist_ok=True)
    pins = pinned()
    assert set(pins) == set(SETS), f"the protocol pins {sorted(pins)}, this script knows {sorted(SETS)}"
    for name in SETS:
        text = order_text(name)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        assert digest == pins[name], f"{name}: digest {digest}, the protocol pins {pins[name]}"
        (dest/f'{name}.txt').write_text(text)
        print(name, digest, len(text.splitlines()), 'runs')
