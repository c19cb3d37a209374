#!/usr/bin/env python
"""Check the built docs site (`tools/dev/docs_site.py`) in a real browser: headless Debian chromium driven by
Playwright (the PyPI package's Python API, with no browser of its own: `apt-get install chromium`).

Every page of the site is loaded from disk and fails on: a page that does not load; a console error or an uncaught
exception; a request that fails (script, style, font, image); an image that does not load; a link to a page or file of
the site that is missing, or to an anchor that the page lacks; raw LaTeX left as text (`$$`, `\\frac`, ..., outside
code) or an equation KaTeX could not render; an error output, a traceback or an absolute path of a machine in the page;
a page without what its notebook holds (summary, `show_doc` blocks, maths, figures).
One line per page (`ok` or `FAIL`), then one per problem. Screenshots of four pages (home, theory, positional
embeddings, reproduction) go to `_site_shots/`.

`--self-test` plants a broken image and an unrendered equation, each into its own copy of the site, and shows that the
check fails on each, then checks the clean site. `--build` builds the site first. `site_check_main()` does all three
(build, check, self-test) for a caller such as `tools/dev/check.py` and returns (name, ok, detail) per line.

Usage: python tools/dev/site_check.py [--build] [--self-test] [--site DIR] [--shots DIR] [--chromium PATH]
"""
import argparse, json, os, re, shutil, sys, tempfile, time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
# Debian's chromium; else Google Chrome (as on GitHub's runners); GRIDPE_CHROMIUM names another
CHROMIUM = os.environ.get('GRIDPE_CHROMIUM') or next(
    (b for b in ('/usr/bin/chromium', '/usr/bin/google-chrome') if Path(b).exists()), '/usr/bin/chromium')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync']
SHOTS = {'home': 'index.html', 'theory': '00_theory.html', 'rope': '02_rope.html',
         'reproduction': 'experiments/reproduction.html'}
RAW_TEX = re.compile(r'\$\$|\\(?:frac|tfrac|dfrac|begin|end|mathbf|mathrm|mathcal|operatorname|sqrt|sum|prod|theta|'
                     r'alpha|omega|cdot|left|right|le|ge|in|pi)\b|\\\(|\\\[|\$[^$\n]{0,80}\\[A-Za-z]+[^$\n]{0,80}\$')
ABS_PATH = re.compile(r'(?<![\w.~])/(?:work|tmp|home|root|Users|opt|mnt|scratch|private|var/folders)/|site-packages|'
                      r'\b[A-Z]:\\\\')
# the text a reader sees: code, maths' MathML copies (hidden, kept for screen readers), scripts and styles left out
PAGE_JS = """async () => {
  for (const img of document.images) { img.loading = 'eager'; try { await img.decode(); } catch (e) {} }
  const broken = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src'));
  const body = document.body.cloneNode(true);
  body.querySelectorAll('.katex-mathml, script, style, noscript, pre, code, .highlight').forEach(e => e.remove());
  const errs = document.querySelectorAll('.katex-error, .output.traceback, .output.error, div.traceback').length;
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const count = (sel) => document.querySelectorAll(sel).length;
  const seen = {docs: count('hr.gp-doc-rule'), maths: count('.katex'), figures: count('.cell_output img'),
                summary: count('.gp-summary')};
  return {broken, text: body.textContent, errs, links, seen};
}"""


class Ids(HTMLParser):
    "Every `id` (and `name` of an anchor) in a page."
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if v and (k == 'id' or (tag == 'a' and k == 'name')): self.ids.add(v)


def page_ids(path, cache):
    if path not in cache:
        p = Ids()
        p.feed(path.read_text(errors='replace'))
        cache[path] = p.ids
    return cache[path]


def pages(site):
    return sorted(p for p in site.rglob('*.html') if not p.relative_to(site).parts[0].startswith('_'))


def expected(rel):
    """What the page of notebook `rel` must show, from its processed notebook in `_proc/` (none without it): a summary
    under the title; `show_doc` blocks for a module; rendered maths where its markdown has some; figures where its
    outputs have some."""
    nb = (ROOT / '_proc' / rel).with_suffix('.ipynb')
    if not nb.exists(): return {}
    cells = json.loads(nb.read_text())['cells']
    src = lambda c: ''.join(c['source'])
    exp = {'summary': 'a summary under the title'}
    if any(c['cell_type'] == 'code' and 'show_doc(' in src(c) and c.get('outputs') for c in cells):
        exp['docs'] = "the API's show_doc blocks"
    prose = lambda c: re.sub(r'```.*?```|`[^`]*`', '', src(c), flags=re.S)     # maths outside code
    if any(c['cell_type'] == 'markdown' and re.search(r'\$[^$\s][^$]*\$', prose(c)) for c in cells):
        exp['maths'] = 'rendered maths'
    if any('image/png' in o.get('data', {}) for c in cells for o in c.get('outputs', [])):
        exp['figures'] = 'its figures'
    return exp


def link_problems(page, links, site, cache):
    "Links from `page` to a missing file of the site or a missing anchor (links leaving the site are not followed)."
    out = []
    for href in sorted(set(links)):
        u = urlsplit(href)
        if u.scheme != 'file': continue
        target = Path(unquote(u.path))
        if not target.is_relative_to(site.resolve()):
            out.append(f'link outside the site: {href}')
            continue
        if target.is_dir(): target = target / 'index.html'
        if not target.exists():
            out.append(f'broken link: {target.relative_to(site.resolve())}')
            continue
        frag = unquote(u.fragment)
        if frag and target.suffix == '.html' and frag not in page_ids(target, cache):
            out.append(f'broken anchor: {target.relative_to(site.resolve())}#{frag}')
    return out


def check(site, shots=None, chromium=CHROMIUM, only=None):
    "Load every page of `site` (or those named in `only`); return [(page, [problems])], screenshots into `shots`."
    from playwright.sync_api import sync_playwright
    site = Path(site).resolve()
    todo = [site / p for p in only] if only else pages(site)
    results, cache = [], {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=FLAGS)
        ctx = browser.new_context(viewport={'width': 1280, 'height': 900}, offline=True)
        for path in todo:
            rel = str(path.relative_to(site))
            problems = []
            page = ctx.new_page()
            page.on('console', lambda m, pr=problems: m.type == 'error' and pr.append(f'console error: {m.text[:200]}'))
            page.on('pageerror', lambda e, pr=problems: pr.append(f'uncaught exception: {str(e)[:200]}'))
            page.on('requestfailed', lambda r, pr=problems: pr.append(f'request failed: {r.url[:150]} ({r.failure})'))
            try:
                resp = page.goto(path.as_uri(), wait_until='load', timeout=30000)
                if resp is not None and not resp.ok: problems.append(f'page does not load: status {resp.status}')
                info = page.evaluate(PAGE_JS)
            except Exception as e:
                problems.append(f'page does not load: {str(e).splitlines()[0][:200]}')
                info = None
            if info:
                problems += [f'image does not load: {src}' for src in info['broken']]
                text = ' '.join(info['text'].split())
                tex = list(RAW_TEX.finditer(text))
                if tex:
                    m = tex[0]
                    problems.append(f'raw LaTeX in the text ({len(tex)} match(es)), first: '
                                    f'...{text[max(0, m.start() - 30):m.end() + 30]}...')
                if info['errs']: problems.append(f'{info["errs"]} error output(s) or unrendered equation(s)')
                if 'Traceback (most recent call last)' in text: problems.append('a traceback in the page')
                for m in list(ABS_PATH.finditer(text))[:3]:
                    problems.append(f'an absolute path: ...{text[max(0, m.start() - 30):m.end() + 40]}...')
                problems += link_problems(path, info['links'], site, cache)
                problems += [f'missing: {what}' for k, what in expected(rel).items() if not info['seen'][k]]
            if shots:
                for name, p in SHOTS.items():
                    if p == rel:
                        Path(shots).mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(Path(shots) / f'{name}.png'), full_page=False)
            page.close()
            results.append((rel, list(dict.fromkeys(problems))))        # a request retried is one problem
        browser.close()
    return results


PLANTS = {
    'broken image': ('index.html', '<img src="_images/planted-missing.png" alt="planted">', 'image does not load'),
    'unrendered equation': ('00_theory.html', r'<p>$$\frac{a}{b} = \sum_i x_i$$</p>', 'raw LaTeX'),
}


def self_test(site, chromium=CHROMIUM):
    "Plant each fault into its own copy of `site` and check that page: [(name, ok, detail)], ok when the check fails."
    out = []
    for name, (page, snippet, expect) in PLANTS.items():
        with tempfile.TemporaryDirectory() as d:
            copy = Path(d) / 'site'
            shutil.copytree(site, copy)
            p = copy / page
            p.write_text(p.read_text().replace('<article', snippet + '<article', 1))
            (_, problems), = check(copy, chromium=chromium, only=[page])
        hit = [x for x in problems if x.startswith(expect)]
        out.append((f'self-test: planted {name} in {page} fails the check', bool(hit),
                    f'the check fails with {len(problems)} problem(s): ' + '; '.join(problems) if hit
                    else f'not caught (problems: {problems})'))
    return out


def report(rows):
    for name, ok, detail in rows: print(f'{"ok  " if ok else "FAIL"} {name}' + (f': {detail}' if detail else ''))


def page_rows(results):
    rows = []
    for rel, problems in results:
        rows.append((f'page {rel}', not problems, f'{len(problems)} problem(s)' if problems else ''))
        rows += [(f'  {rel}', False, pr) for pr in problems]
    return rows


def build_row(site, proc=True):
    "Build the site (`tools/dev/docs_site.py`; `proc=False`: from `_proc/` as it is): (name, ok, detail)."
    sys.path.insert(0, str(Path(__file__).parent))
    import docs_site
    ok, lines, secs = docs_site.build(Path(site), proc=proc)
    problems = [x for x in lines if not x.startswith('note:')]
    return 'docs site builds (tools/dev/docs_site.py)', ok, f'{secs:.0f} s' if ok else '; '.join(problems)[:1000]


def browser_rows(site, shots, chromium):
    t0 = time.time()
    results = check(site, shots, chromium)
    ok = all(not p for _, p in results)
    return page_rows(results) + [(f'browser check of {len(results)} pages', ok, f'{time.time() - t0:.0f} s')]


def site_check_main(site=ROOT / '_site', shots=ROOT / '_site_shots', chromium=CHROMIUM, proc=True):
    "Build the site, check every page in the browser, run the self-test: [(name, ok, detail)], one per line."
    rows = [build_row(site, proc)]
    if not Path(site, 'index.html').exists(): return rows
    return rows + browser_rows(Path(site), shots, chromium) + self_test(Path(site), chromium)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', action='store_true', help='build the site first (tools/dev/docs_site.py)')
    ap.add_argument('--self-test', action='store_true', help='plant faults into copies of the site, check they fail')
    ap.add_argument('--site', default='_site', help='the built site (default: _site)')
    ap.add_argument('--shots', default='_site_shots', help='folder for the screenshots (default: _site_shots)')
    ap.add_argument('--chromium', default=CHROMIUM, help=f'the browser (default: {CHROMIUM})')
    a = ap.parse_args()
    site = (ROOT / a.site).resolve()
    rows = [build_row(site)] if a.build else []
    if not (site / 'index.html').exists(): sys.exit(f'no site in {a.site}: run python tools/dev/docs_site.py first')
    if a.self_test: rows += self_test(site, a.chromium)
    rows += browser_rows(site, ROOT / a.shots, a.chromium)
    report(rows)
    bad = sum(not ok for _, ok, _ in rows)
    print(f'{len(rows) - bad} passed, {bad} failed')
    sys.exit(1 if bad else 0)
