#!/usr/bin/env python
"""Build gridpe/datasets/fashion_mnist_small.npz from Debian's `dataset-fashion-mnist` (MIT licence).

    apt-get install dataset-fashion-mnist && python tools/data/build_fashion_mnist_small.py

A stratified random subset (500 train and 100 test images per class by default), uint8 28×28, with the class names.
"""
import argparse
from pathlib import Path
import numpy as np
from gridpe.formats import read_idx, FASHION_MNIST_CLASSES

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--src', default='/usr/share/datasets/fashion-mnist')
    ap.add_argument('--out', default=str(Path(__file__).resolve().parents[2]/'gridpe'/'datasets'))
    ap.add_argument('--train-per-class', type=int, default=500)
    ap.add_argument('--test-per-class', type=int, default=100)
    ap.add_argument('--seed', type=int, default=0)
    a = ap.parse_args()
    rng, src, out = np.random.default_rng(a.seed), Path(a.src), Path(a.out)
    res = {}
    for split, prefix, k in (('train', 'train', a.train_per_class), ('test', 't10k', a.test_per_class)):
        x, y = read_idx(src/f'{prefix}-images-idx3-ubyte.gz'), read_idx(src/f'{prefix}-labels-idx1-ubyte.gz')
        idx = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), k, replace=False) for c in range(10)]))
        res[f'x_{split}'], res[f'y_{split}'] = x[idx], y[idx]
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out/'fashion_mnist_small.npz', **res, classes=np.array(FASHION_MNIST_CLASSES))
    (out/'FASHION_MNIST_LICENSE.md').write_text(
        '# fashion_mnist_small.npz\n\nA stratified subset of Fashion-MNIST (Xiao, Rasul and Vollgraf 2017, Zalando Research),\n'
        "taken from Debian's `dataset-fashion-mnist` package, under the MIT licence:\n\n```\n"
        + (Path('/usr/share/doc/dataset-fashion-mnist/copyright').read_text() if Path('/usr/share/doc/dataset-fashion-mnist/copyright').exists() else 'MIT') + '```\n')
    print('wrote', out/'fashion_mnist_small.npz', (out/'fashion_mnist_small.npz').stat().st_size, 'bytes')
