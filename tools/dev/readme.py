#!/usr/bin/env python
"""Write README.md (and its figures) from nbs/index.ipynb, offline (`nbdev-readme` needs Quarto).

Usage: python tools/dev/readme.py            write README.md and nbs/images/index_*.png
       python tools/dev/readme.py --check    exit 1 if README.md or a figure is stale (nothing is written)
       python tools/dev/readme.py --links    exit 1 if a relative link or image of README.md names a missing file

The notebook is written for the docs site, whose pages live in nbs/; README.md sits at the repository root and is also
the package's long description (PyPI renders no maths). So, for README.md only:
- markdown cells are copied with relative links and images rebased onto nbs/ (`00_theory.ipynb` → `nbs/00_theory.ipynb`;
  Quarto resolves the notebook's own links to the rendered pages) and inline `$…$` maths turned into plain Unicode
  (`$x\\in\\mathbb{R}^n$` → x ∈ ℝⁿ), in code font where it keeps `_` or `^`; an unknown LaTeX command is an error;
- code cells become Python blocks without their `#|` directives (`#| hide` cells are left out, `#| echo: false` shows
  only the outputs), followed by their text outputs; each PNG figure is written to nbs/images/index_<cell id>_<n>.png
  and linked, with the cell's `#| fig-alt:` (or `fig-cap:`) as its alternative text.
"""
import base64, difflib, json, posixpath, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NB, README, IMAGES = ROOT/'nbs'/'index.ipynb', ROOT/'README.md', ROOT/'nbs'/'images'
HEADER = '<!-- Generated from nbs/index.ipynb by `python tools/dev/readme.py`: edit the notebook, not this file. -->\n\n'

# ---- LaTeX → plain Unicode (the subset a README needs; anything else is an error, never raw LaTeX on PyPI)
SYMBOLS = dict(
    alpha='α', beta='β', gamma='γ', delta='δ', epsilon='ε', varepsilon='ε', zeta='ζ', eta='η', theta='θ', vartheta='ϑ',
    kappa='κ', lambda_='λ', mu='μ', nu='ν', xi='ξ', pi='π', rho='ρ', sigma='σ', tau='τ', phi='φ', varphi='φ', chi='χ',
    psi='ψ', omega='ω', Gamma='Γ', Delta='Δ', Theta='Θ', Lambda='Λ', Xi='Ξ', Pi='Π', Sigma='Σ', Phi='Φ', Psi='Ψ',
    Omega='Ω', top='ᵀ', cdot='·', times='×', pm='±', infty='∞', sum='∑', prod='∏', partial='∂', nabla='∇', circ='∘',
    ldots='…', dots='…', cdots='⋯', lfloor='⌊', rfloor='⌋', lceil='⌈', rceil='⌉', langle='⟨', rangle='⟩', lVert='‖',
    rVert='‖', Vert='‖', mid='|', forall='∀', exists='∃', cup='∪', cap='∩', emptyset='∅',
    cos='cos', sin='sin', exp='exp', log='log', ln='ln', max='max', min='min', arg='arg', det='det', tr='tr',
    left='', right='', big='', Big='', bigl='', bigr='', quad='  ', qquad='   ')
SYMBOLS['lambda'] = SYMBOLS.pop('lambda_')
RELATIONS = {'in': '∈', 'notin': '∉', 'le': '≤', 'leq': '≤', 'ge': '≥', 'geq': '≥', 'ne': '≠', 'neq': '≠', 'approx': '≈',
             'sim': '∼', 'equiv': '≡', 'propto': '∝', 'to': '→', 'rightarrow': '→', 'mapsto': '↦', 'subset': '⊂', 'perp': '⊥'}
SPACES = {',': ' ', ';': ' ', ':': ' ', ' ': ' ', '!': '', '|': '‖', '{': '{', '}': '}', '$': '$', '_': '_', '%': '%', '#': '#'}
BLACKBOARD = dict(R='ℝ', N='ℕ', Z='ℤ', Q='ℚ', C='ℂ', E='𝔼', P='ℙ')
ACCENTS = {'hat': '\u0302', 'bar': '\u0304', 'tilde': '\u0303', 'vec': '\u20d7', 'dot': '\u0307'}
SUP = dict(zip('0123456789+-−=()abcdefghijklmnoprstuvwxyzTᵀ', '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀᵀ'))
SUB = dict(zip('0123456789+-−=()aehijklmnoprstuvx,', '₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ,'))

class MathError(ValueError): pass

def latex_to_text(src:str)->str:
    "Plain Unicode for an inline LaTeX formula, e.g. `\\theta_{h,p}(x) = W_{h,p}^\\top x` → θₕ,ₚ(x) = Wₕ,ₚᵀ x."
    toks = re.findall(r'\\[A-Za-z]+|\\.|\s+|.', src)
    pos = 0
    def atom():
        nonlocal pos
        if pos >= len(toks): raise MathError(f'${src}$: a formula ends where an argument was expected')
        t = toks[pos]; pos += 1
        if t == '{': return group('}')
        if t.isspace(): return atom()
        return command(t) if t.startswith('\\') else t
    def group(end):
        nonlocal pos
        out = ''
        while pos < len(toks) and toks[pos] != end: out += item()
        if end and pos >= len(toks): raise MathError(f'${src}$: unbalanced braces')
        pos += 1
        return out
    def script(table, mark):
        s = atom()
        return ''.join(table[ch] for ch in s) if s and all(ch in table for ch in s) else f'{mark}{s}' if len(s) == 1 else f'{mark}({s})'
    def command(t):
        name = t[1:]
        if name in SYMBOLS: return SYMBOLS[name]
        if name in RELATIONS: return f' {RELATIONS[name]} '
        if name in SPACES: return SPACES[name]
        if name == 'mathbb':
            a = atom()
            if a not in BLACKBOARD: raise MathError(f'${src}$: no plain-text form for \\mathbb{{{a}}}: add it to BLACKBOARD in tools/dev/readme.py')
            return BLACKBOARD[a]
        if name in ('mathrm', 'text', 'textrm', 'operatorname', 'mathbf', 'boldsymbol', 'mathit', 'mathsf', 'mathtt'): return atom()
        if name in ACCENTS: return ''.join(ch + ACCENTS[name] for ch in atom())
        if name == 'frac':
            a, b = atom(), atom()
            wrap = lambda s: s if len(s) == 1 or re.fullmatch(r'\w+', s) else f'({s})'
            return f'{wrap(a)}/{wrap(b)}'
        if name == 'sqrt':
            a = atom(); return f'√{a}' if len(a) == 1 else f'√({a})'
        raise MathError(f'${src}$: no plain-text form for \\{name}: add it to SYMBOLS in tools/dev/readme.py')
    def item():
        nonlocal pos
        t = toks[pos]; pos += 1
        if t == '^': return script(SUP, '^')
        if t == '_': return script(SUB, '_')
        if t == '{': return group('}')
        if t == '}': raise MathError(f'${src}$: unbalanced braces')
        if t.isspace(): return ' '
        if t == '-': return '−'                                        # a minus sign, not a hyphen
        return command(t) if t.startswith('\\') else t
    out = ''
    while pos < len(toks): out += item()
    return re.sub(r' {2,}', ' ', out).strip()

def math_md(m:re.Match)->str:
    t = latex_to_text(m.group(1))
    return f'`{t}`' if re.search(r'[_^*`\\]', t) else t

INLINE_MATH = re.compile(r'(?<![\\$\w])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\w$])')
DISPLAY_MATH = re.compile(r'\$\$(.+?)\$\$', re.S)
LINK = re.compile(r'(!?\[(?:[^\]\\]|\\.)*\]\()\s*<?([^)\s>]+)>?((?:\s+"[^"]*")?\))')
HTML_REF = re.compile(r'''(\b(?:src|href)=["'])([^"']+)(["'])''')
CODE = re.compile(r'(```.*?```|~~~.*?~~~|`[^`\n]*`)', re.S)

def is_relative(t:str)->bool: return not re.match(r'^([a-zA-Z][\w+.-]*:|#|/)', t)

def rebase(t:str, base:str='nbs')->str:
    "A link relative to nbs/ made relative to the repository root."
    if not is_relative(t): return t
    path, sep, frag = t.partition('#')
    return posixpath.normpath(posixpath.join(base, path)) + sep + frag

def readme_md(md:str)->str:
    "Markdown of the notebook made fit for README.md: links rebased onto nbs/, maths in plain Unicode; code untouched."
    parts = CODE.split(md)
    for i in range(0, len(parts), 2):
        s = DISPLAY_MATH.sub(lambda m: '\n\n`' + latex_to_text(m.group(1).strip()) + '`\n\n', parts[i])
        s = INLINE_MATH.sub(math_md, s)
        s = LINK.sub(lambda m: m.group(1) + rebase(m.group(2)) + m.group(3), s)
        parts[i] = HTML_REF.sub(lambda m: m.group(1) + rebase(m.group(2)) + m.group(3), s)
    return ''.join(parts)

# ---- the notebook → README.md and figures
def directives(src:str)->dict:
    "The cell's `#| key: value` directives ({'hide': '', 'fig-alt': '…'})."
    d = {}
    for l in src.splitlines():
        if l.startswith('#|'):
            k, _, v = l[2:].strip().partition(':') if ':' in l else (l[2:].strip(), '', '')
            d[k.strip()] = v.strip()
    return d

def render(nb:dict)->tuple[str, dict]:
    "README text and the figures it links: {path relative to the repository: PNG bytes}."
    out, figs = [], {}
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown': out.append(readme_md(src.strip())); continue
        d = directives(src)
        if c['cell_type'] != 'code' or 'hide' in d: continue
        code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|')).strip()
        if code and d.get('echo') != 'false': out.append(f'```python\n{code}\n```')
        for o in c.get('outputs', []):
            data = o.get('data', {})
            if 'image/png' in data:
                stem = f"nbs/images/index_{c.get('id', 'cell')}_"
                p = f'{stem}{sum(k.startswith(stem) for k in figs)}.png'
                figs[p] = base64.b64decode(''.join(data['image/png']))
                alt = (d.get('fig-alt') or d.get('fig-cap') or 'figure').strip('"\'')
                out.append(f'![{alt}]({p})')
            elif 'text/markdown' in data: out.append(readme_md(''.join(data['text/markdown']).strip()))
            else:
                text = ''.join(o.get('text', '')) if o['output_type'] == 'stream' else ''.join(data.get('text/plain', ''))
                if text.strip(): out.append(f'```\n{text.rstrip()}\n```')
    return HEADER + '\n\n'.join(out) + '\n', figs

def stale(text:str, figs:dict)->list:
    "What differs between the files on disk and what the notebook gives."
    problems = [f'README.md would show "{m}" where a plot should be: the notebook keeps no PNG of that figure (re-run it)\n'
                for m in re.findall(r'<Figure size [^>]*>', text)]
    old = README.read_text() if README.exists() else ''
    if old != text:
        problems += list(difflib.unified_diff(old.splitlines(True), text.splitlines(True), 'README.md', 'from nbs/index.ipynb'))[:60]
        problems.append('README.md is stale\n')
    for p, b in figs.items():
        if not (ROOT/p).exists() or (ROOT/p).read_bytes() != b: problems.append(f'{p} is missing or differs from the notebook\'s figure\n')
    for f in sorted(IMAGES.glob('index_*.png')):
        if str(f.relative_to(ROOT)) not in figs: problems.append(f'{f.relative_to(ROOT)} is no longer a figure of nbs/index.ipynb\n')
    return problems

def missing_links(md:str)->list:
    "Relative links and images of `md` (outside code) whose files do not exist under the repository root."
    bad = []
    for i, part in enumerate(CODE.split(md)):
        if i % 2: continue
        for t in [m.group(2) for m in LINK.finditer(part)] + [m.group(2) for m in HTML_REF.finditer(part)]:
            if is_relative(t) and not (ROOT/t.partition('#')[0].partition('?')[0]).exists(): bad.append(t)
    return bad

if __name__ == '__main__':
    try: text, figs = render(json.loads(NB.read_text()))
    except MathError as e: print(f'nbs/index.ipynb: {e}'); sys.exit(1)
    if '--links' in sys.argv:
        bad = missing_links(README.read_text())
        if bad: print('README.md links to files that do not exist:\n  ' + '\n  '.join(bad)); sys.exit(1)
        print('every relative link and image of README.md exists')
    elif '--check' in sys.argv:
        if problems := stale(text, figs):
            sys.stdout.writelines(problems); print('run `python tools/dev/readme.py`'); sys.exit(1)
        print('README.md and its figures are in sync with nbs/index.ipynb')
    else:
        IMAGES.mkdir(exist_ok=True)
        for f in IMAGES.glob('index_*.png'):
            if str(f.relative_to(ROOT)) not in figs: f.unlink()
        for p, b in figs.items():
            if not (ROOT/p).exists() or (ROOT/p).read_bytes() != b: (ROOT/p).write_bytes(b)
        README.write_text(text); print(f'wrote README.md and {len(figs)} figure(s) in nbs/images/')
