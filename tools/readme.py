#!/usr/bin/env python
"""Write README.md from nbs/index.ipynb, offline (`nbdev-readme` needs Quarto). `--check` only compares and exits 1 if stale.

Markdown cells are copied; code cells are shown as Python blocks without their `#|` directives (cells marked `#| hide`
are left out), followed by their text outputs. Images are left to the rendered docs.
"""
import difflib, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = '<!-- Generated from nbs/index.ipynb by `python tools/readme.py`: edit the notebook, not this file. -->\n\n'

def directives(src): return [l[2:].strip() for l in src.splitlines() if l.startswith('#|')]

def render(nb):
    out = []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown': out.append(src.strip()); continue
        if c['cell_type'] != 'code' or any(d.split()[:1] == ['hide'] for d in directives(src)): continue
        code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|')).strip()
        if code and 'echo: false' not in directives(src): out.append(f'```python\n{code}\n```')
        for o in c.get('outputs', []):
            text = ''.join(o.get('text', '')) if o['output_type'] == 'stream' else ''.join(o.get('data', {}).get('text/plain', ''))
            if 'text/markdown' in o.get('data', {}): out.append(''.join(o['data']['text/markdown']).strip())
            elif text.strip(): out.append(f'```\n{text.rstrip()}\n```')
    return HEADER + '\n\n'.join(out) + '\n'

if __name__ == '__main__':
    new = render(json.loads((ROOT/'nbs'/'index.ipynb').read_text()))
    readme = ROOT/'README.md'
    if '--check' in sys.argv:
        old = readme.read_text() if readme.exists() else ''
        if old != new:
            sys.stdout.writelines(list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), 'README.md', 'from nbs/index.ipynb'))[:60])
            print('README.md is stale: run `python tools/readme.py`'); sys.exit(1)
        print('README.md is in sync with nbs/index.ipynb')
    else: readme.write_text(new); print('wrote README.md')
