#!/usr/bin/env python
"""Pack a folder of many small files (an ImageFolder tree of JPEGs) into one file, and back.

A tar or zip of 50,000 CIFAR-10 JPEGs of about 900 bytes each is half headers; this file is the bytes of every file one
after the other, then their relative paths and sizes as JSON and the JSON's length (8 bytes): what a copy to an offline
GPU host needs, and nothing else.

Usage: python tools/gpu/pack_files.py pack FOLDER OUT.bin [--under train]   (only FOLDER/train, say)
       python tools/gpu/pack_files.py unpack OUT.bin FOLDER
"""
import argparse, json, struct
from pathlib import Path

def pack(folder, out, under=None):
    "Write every file under `folder` (or `folder/under`) into `out`; returns the number of files."
    root = Path(folder)
    files = sorted(p for p in (root/under if under else root).rglob('*') if p.is_file())
    index = []
    with open(out, 'wb') as f:
        for p in files:
            b = p.read_bytes()
            f.write(b)
            index.append([str(p.relative_to(root)), len(b)])
        meta = json.dumps(index).encode()
        f.write(meta)
        f.write(struct.pack('<Q', len(meta)))
    return len(files)

def unpack(packed, folder):
    "Recreate the files of `packed` under `folder`; returns the number of files."
    data = Path(packed).read_bytes()
    n = struct.unpack('<Q', data[-8:])[0]
    index = json.loads(data[-8 - n:-8])
    pos, root = 0, Path(folder)
    for rel, size in index:
        (root/rel).parent.mkdir(parents=True, exist_ok=True)
        (root/rel).write_bytes(data[pos:pos + size])
        pos += size
    return len(index)

if __name__ == '__main__':
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('verb', choices=['pack', 'unpack'])
    a.add_argument('src')
    a.add_argument('dst')
    a.add_argument('--under', default=None, help='pack only this subfolder (its path kept relative to SRC)')
    o = a.parse_args()
    n = pack(o.src, o.dst, o.under) if o.verb == 'pack' else unpack(o.src, o.dst)
    print(f'{o.verb}ed {n} files')
