#!/usr/bin/env python
"""README.md's quick start, run as written: every ```python block in order, in one namespace, as a notebook runs them
(a block ending in an expression shows its repr), each shown value compared with the README's output block after it.

CI runs it with the Python of a fresh venv that holds only the wheel installed with the README's extra
(`gridpe[all]`) and torch, from a folder outside the source tree (tools/dev/check.py). The last line is
`N blocks ran, N outputs as in README.md`; the exit code is 1 if a block failed or an output differs.
Usage: python tools/dev/quickstart.py [README.md]
"""
import ast, re, sys, traceback
from pathlib import Path

BLOCK = re.compile(r'^```(\w*)\n(.*?)^```\n', re.S | re.M)

def blocks(text):
    "(code, expected output or None) for each ```python block of `text`; the output is the plain ``` block right after."
    found = [(m.group(1), m.group(2), m.start(), m.end()) for m in BLOCK.finditer(text)]
    for i, (lang, src, _, end) in enumerate(found):
        if lang != 'python': continue
        nxt = found[i + 1] if i + 1 < len(found) else None
        yield src, (nxt[1] if nxt and nxt[0] == '' and not text[end:nxt[2]].strip() else None)

def run(src, ns):
    "Execute `src` in `ns`; the repr of its last statement if that is an expression, else None."
    tree = ast.parse(src)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, '<README>', 'exec'), ns)
    return repr(eval(compile(ast.Expression(last.value), '<README>', 'eval'), ns)) if last else None

def main(readme):
    ns, n_ran, n_same, ok = {'__name__': '__main__'}, 0, 0, True
    for i, (src, expected) in enumerate(blocks(Path(readme).read_text()), 1):
        try: shown = run(src, ns); n_ran += 1
        except Exception:
            print(f'block {i} failed:\n{src}{traceback.format_exc()}'); ok = False; break
        if expected is not None:
            same = shown is not None and shown.strip() == expected.strip()
            n_same += same; ok &= same
            if not same: print(f'block {i} shows\n{shown}\nwhere README.md shows\n{expected}')
    print(f'{n_ran} blocks ran, {n_same} outputs as in README.md')
    return ok

if __name__ == '__main__':
    sys.exit(0 if main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]/'README.md') else 1)
