#!/usr/bin/env python
"""Build the docs site without Quarto: static HTML in `_site/` that opens from disk and fetches nothing.

The pages are the processed notebooks Quarto renders (`_proc/`, made by `tools/dev/proc_docs.py`, run first), in the
order and sections of nbdev's sidebar (`_proc/sidebar.yml`), with their committed outputs (nothing is executed).
Sphinx with MyST-NB reads them and the Furo theme lays them out (`tools/dev/site/conf.py`); KaTeX, vendored from npm
(`tools/dev/site/package.json`, `npm ci` there), turns every equation into HTML while the site is built. Quarto's
notebook conventions are carried over: the front matter's title and summary head each page, `#| echo: false` hides a
cell's code, `show_doc`'s headings keep Quarto's anchors and links to the published site point to the local pages.
The build fails on a Sphinx warning, an equation KaTeX cannot render or a page that would fetch something.
`tools/dev/site_check.py` then checks the site in a browser.

Usage: python tools/dev/docs_site.py [--no-proc] [--out DIR]
"""
import argparse, html, json, re, shutil, subprocess, sys, time
from pathlib import Path
import yaml

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / 'tools' / 'dev' / 'site'
KATEX = SITE / 'node_modules' / 'katex' / 'dist'
BUILD = ROOT / '_site_build'
SECTIONS = {None: 'Modules', 'benchmarks': 'Benchmarks', 'experiments': 'Experiments'}
HIDE = {('echo', False): 'remove-input', ('output', False): 'remove-output', ('include', False): 'remove-cell'}


def sidebar(proc):
    """[(section, [page paths relative to `proc`])] in the order of nbdev's sidebar, the home page left out; a markdown
    page beside a section's notebooks (not under `results/`, which holds data) joins that section after them."""
    items = yaml.safe_load((proc / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    top = [p for p in items if isinstance(p, str) and p != 'index.ipynb']
    secs = [(s['section'], list(s['contents'])) for s in items if isinstance(s, dict)]
    for md in sorted(proc.rglob('*.md')):
        rel = md.relative_to(proc)
        home = [pages for _, pages in secs if pages and Path(pages[0]).parent == rel.parent]
        if 'results' not in rel.parts and home and str(rel) not in home[0]: home[0].append(str(rel))
    return [(None, top)] + secs


def pandoc_id(text):
    "The anchor Quarto (pandoc) gives a heading: lower case, spaces to dashes, only letters, digits, `_`, `-` and `.`."
    s = re.sub(r'[^\w\s.-]', '', re.sub(r'[`*]', '', text).strip().lower())
    return re.sub(r'^[^a-z]+', '', re.sub(r'\s+', '-', s))


def name_links(md):
    """nbdev's links to a name's page as HTML, for `local_links`. Without a published site (no Documentation URL in
    pyproject.toml) nbdev writes them from the site's root (`/embeddings.html#make_pe`), which MyST would take for a
    cross-reference."""
    link = lambda m: f'<a href="{m[2]}"><code>{html.escape(m[1])}</code></a>'
    return re.sub(r'\[`([^`\]]+)`\]\((/[^)\s]*)\)', link, md)


def show_doc_md(md):
    """A `show_doc` output in Quarto's markdown, for MyST: rule and source link as HTML (none without a repository URL:
    nbdev then links `/blob/...`, outside the site), headings with Quarto's anchors."""
    md = re.sub(r'^---$', '<hr class="gp-doc-rule">', md, flags=re.M)
    md = re.sub(r'\[source\]\(/[^)\s]*\)\{[^}]*\}', '', md)
    md = re.sub(r'\[source\]\(([^)\s]+)\)\{[^}]*\}', r'<a class="gp-source" href="\1" target="_blank">source</a>', md)
    return re.sub(r'^(#{2,4}) (.+)$', lambda m: f'<span id="{pandoc_id(m[2])}"></span>\n\n{m[0]}', md, flags=re.M)


def directives(src):
    "Quarto's `#| key: value` lines of a code cell (YAML values) and the code without them."
    lines = src.splitlines()
    n = 0
    while n < len(lines) and lines[n].startswith('#|'): n += 1
    opts = {}
    for line in lines[:n]:
        key, _, val = line[2:].partition(':')
        try: opts[key.strip()] = yaml.safe_load(val) if val.strip() else True
        except yaml.YAMLError: opts[key.strip()] = val.strip()
    return opts, '\n'.join(lines[n:]).lstrip('\n')


def front_matter(nb):
    "Title and summary from the processed notebook's front matter (a raw cell), or from its first `# title` cell."
    for i, c in enumerate(nb['cells']):
        src = ''.join(c['source'])
        if c['cell_type'] == 'raw' and src.startswith('---'):
            meta = yaml.safe_load(src.strip().strip('-')) or {}
            return i, meta.get('title', ''), meta.get('description', ''), meta.get('output-file')
    return None, '', '', None


def convert(src, dest):
    "Write `src` (a processed notebook) as the MyST-NB page `dest`; return its title and Quarto's output file name."
    nb = json.loads(src.read_text())
    i, title, summary, out_file = front_matter(nb)
    if i is not None:
        head = f'# {title}\n'
        if summary: head += f'\n:::{{container}} gp-summary\n{summary.strip()}\n:::\n'
        nb['cells'][i] = {'cell_type': 'markdown', 'id': nb['cells'][i].get('id', 'title'), 'metadata': {},
                          'source': head}
    for c in nb['cells']:
        if isinstance(c['source'], list): c['source'] = ''.join(c['source'])
        if c['cell_type'] == 'markdown': c['source'] = name_links(c['source'])
        if c['cell_type'] != 'code': continue
        opts, c['source'] = directives(c['source'])
        tags = [t for (k, v), t in HIDE.items() if opts.get(k, not v) == v]
        if tags: c['metadata']['tags'] = c['metadata'].get('tags', []) + tags
        if opts.get('fig-alt'): c['metadata']['mystnb'] = {'image': {'alt': str(opts['fig-alt'])}}
        for o in c.get('outputs', []):
            md = o.get('data', {}).get('text/markdown')
            if md is not None: o['data']['text/markdown'] = name_links(show_doc_md(''.join(md)))
    nb['metadata'].setdefault('kernelspec', {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'})
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
    return title, out_file


def toctree(caption, pages):
    return '```{toctree}\n:hidden:\n:caption: ' + caption + '\n\n' + '\n'.join(pages) + '\n```\n'


def sources(proc, src):
    "The Sphinx source folder: every page of the sidebar, images, and the home page's hidden tables of contents."
    if src.exists(): shutil.rmtree(src)
    src.mkdir(parents=True)
    urls = {}
    order = sidebar(proc)
    for sec, pages in [(None, ['index.ipynb'])] + order:
        for p in pages:
            if p.endswith('.md'):                                           # a markdown page: as written
                (src / p).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(proc / p, src / p)
                urls[str(Path(p).with_suffix('.html'))] = str(Path(p).with_suffix('.html'))
                continue
            _, out_file = convert(proc / p, src / p)
            page = str(Path(p).with_suffix('.html'))
            urls[str(Path(p).parent / out_file) if out_file else page] = page
    for d in proc.rglob('images'):
        if d.is_dir(): shutil.copytree(d, src / d.relative_to(proc), dirs_exist_ok=True)
    for f in proc.rglob('*'):                      # files the pages link to (results tables), for Sphinx's downloads
        if f.is_file() and f.suffix not in ('.ipynb', '.yml') and not (src / f.relative_to(proc)).exists():
            (src / f.relative_to(proc)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, src / f.relative_to(proc))
    index = src / 'index.ipynb'
    nb = json.loads(index.read_text())
    toc = '\n'.join(toctree(SECTIONS.get(sec, str(sec).capitalize()), [str(Path(p).with_suffix('')) for p in pages])
                    for sec, pages in order)
    nb['cells'].append({'cell_type': 'markdown', 'id': 'site-toc', 'metadata': {}, 'source': toc})
    index.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
    return urls


def site_url(proc):
    return yaml.safe_load((proc / 'nbdev.yml').read_text())['website']['site-url'].rstrip('/') + '/'


MATH = re.compile(r'<span class="(gp-math|gp-tex)">(.*?)</span>', re.S)


def render_maths(out):
    "Replace every TeX span of the built pages by KaTeX's HTML (one node process); return the errors, one a line."
    pages = {p: p.read_text() for p in sorted(out.rglob('*.html'))}
    items = [(p, m) for p, t in pages.items() for m in MATH.finditer(t)]
    if not items: return []
    res = subprocess.run(['node', str(SITE / 'katex_render.js')], capture_output=True, text=True, check=True,
                         input=json.dumps([[html.unescape(m[2]), m[1] == 'gp-tex'] for _, m in items]))
    done = iter(json.loads(res.stdout))
    errors = []
    for p, t in pages.items():
        def sub(m):
            r = next(done)
            if 'error' in r: errors.append(f'{p.relative_to(out)}: KaTeX: {r["error"]}')
            return r.get('html', m[0])
        p.write_text(MATH.sub(sub, t))
    return errors


def local_links(out, urls, base):
    """Point links to the published site (nbdev's links to a name's doc) at the local page of the same notebook.
    nbdev links every exported name it sees in backticks, also those without a `show_doc` (private helpers, methods,
    dispatched functions): where the page has no such anchor, the link goes to its class's anchor or else to the page
    (as a browser does on the published site), and a note names it. Return the notes."""
    pat = re.compile(r'href="' + re.escape(base) + r'([^"#]*)(?:#([^"]*))?"')
    ids = {str(p.relative_to(out)): set(re.findall(r'\sid="([^"]+)"', p.read_text())) for p in out.rglob('*.html')}
    notes = set()
    for p in out.rglob('*.html'):
        depth = len(p.relative_to(out).parts) - 1
        def sub(m):
            page = urls.get(m[1] or 'index.html')
            if page is None: return m[0]
            frag = m[2] or ''
            if frag and frag not in ids.get(page, ()):
                notes.add(f'note: no anchor {frag} on {page} (nbdev links the name; it has no show_doc there)')
                frag = frag.split('.')[0] if frag.split('.')[0] in ids.get(page, ()) else ''
            return 'href="' + '../' * depth + page + ('#' + frag if frag else '') + '"'
        t = p.read_text()
        new = pat.sub(sub, t)
        if new != t: p.write_text(new)
    return sorted(notes)


REMOTE = re.compile(r'<(?:script|img|iframe)[^>]*\ssrc="(?:https?:)?//|<link[^>]*\shref="(?:https?:)?//[^"]*"[^>]*>|'
                    r'url\(["\']?(?:https?:)?//|@import\s+["\']?(?:https?:)?//', re.I)


def remote_fetches(out):
    "Pages or stylesheets that would fetch something when viewed (scripts, styles, fonts or images from a URL)."
    found = []
    for p in sorted(list(out.rglob('*.html')) + list(out.rglob('*.css'))):
        for m in REMOTE.finditer(p.read_text(errors='replace')):
            if 'rel="canonical"' not in m[0]: found.append(f'{p.relative_to(out)}: fetches {m[0][:100]}')
    return found


def build(out=ROOT / '_site', proc=True):
    "Build the site into `out`; return (ok, problems and notes (`note: ...`): one line each, seconds)."
    t0 = time.time()
    notes = []
    if not (KATEX / 'katex.min.css').exists():
        return False, [f'KaTeX is missing: run `npm ci` in {SITE.relative_to(ROOT)} (or bash tools/dev/setup.sh)'], 0.
    if proc:
        r = subprocess.run([sys.executable, str(ROOT / 'tools' / 'dev' / 'proc_docs.py')], cwd=ROOT,
                           capture_output=True, text=True)
        said = (r.stderr + r.stdout).strip()
        if r.returncode: return False, ['proc_docs.py failed: ' + said[-2000:]], time.time() - t0
        notes += [f'note: proc_docs.py: {ln}' for ln in said.splitlines()]
    urls = sources(ROOT / '_proc', BUILD / 'src')
    if out.exists(): shutil.rmtree(out)
    html_dir = BUILD / 'html'            # MyST-NB writes the outputs' files beside Sphinx's output folder: keep it here
    if html_dir.exists(): shutil.rmtree(html_dir)
    warn = BUILD / 'warnings.txt'
    r = subprocess.run([sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-E', '-w', str(warn), '-c', str(SITE),
                        '-d', str(BUILD / 'doctrees'), str(BUILD / 'src'), str(html_dir)], cwd=ROOT,
                       capture_output=True, text=True)
    if html_dir.exists(): shutil.move(html_dir, out)
    problems = [ln.replace(str(BUILD / 'src') + '/', '') for ln in warn.read_text().splitlines() if ln.strip()]
    if r.returncode: problems.append(f'sphinx-build failed ({r.returncode}): {r.stderr.strip()[-2000:]}')
    if out.exists():
        problems += render_maths(out)
        shutil.copytree(KATEX / 'fonts', out / '_static' / 'katex' / 'fonts', dirs_exist_ok=True)
        shutil.copy2(KATEX / 'katex.min.css', out / '_static' / 'katex' / 'katex.min.css')
        notes += local_links(out, urls, site_url(ROOT / '_proc'))
        problems += remote_fetches(out)
        (out / '.buildinfo').unlink(missing_ok=True)
        if (out / '_sources').is_dir() and not any((out / '_sources').iterdir()): (out / '_sources').rmdir()
    return not problems, problems + notes, time.time() - t0


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--no-proc', action='store_true', help='use _proc/ as it is (do not run tools/dev/proc_docs.py)')
    ap.add_argument('--out', default='_site', help='output folder (default: _site)')
    a = ap.parse_args()
    out = (ROOT / a.out).resolve()
    ok, problems, secs = build(out, proc=not a.no_proc)
    for line in problems: print(line)
    shown = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    n = sum(not x.startswith('note:') for x in problems)
    print(f'{"built" if ok else "FAILED"}: {shown}/index.html ({n} problems, {secs:.0f} s)')
    sys.exit(0 if ok else 1)
