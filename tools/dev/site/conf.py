"""Sphinx configuration of the Quarto-free docs site, which `tools/dev/docs_site.py` builds (`-c tools/dev/site`).

The pages are the processed notebooks of `_proc/` (their committed outputs: nothing is executed). Maths is written out
as plain TeX in `gp-math` elements here and turned into HTML by KaTeX when the site is built (`docs_site.py`), so a
page needs no script to show its equations, and nothing is fetched when it is viewed.
"""
from html import escape
from pathlib import Path
from docutils import nodes

HERE = Path(__file__).parent
project = 'gridpe'
author = 'gridpe developers'
copyright = 'gridpe developers'
extensions = ['myst_nb']
templates_path = [str(HERE / 'templates')]
html_static_path = [str(HERE / 'static')]
html_css_files = ['katex/katex.min.css', 'gridpe.css']
html_theme = 'furo'
html_title = 'gridpe'
html_copy_source = False
html_show_sourcelink = False
html_use_index = False                   # no index entries: the page would be empty
html_math_renderer = 'gp_katex'
html_theme_options = {'navigation_with_keys': True}
html_sidebars = {'**': ['sidebar/brand.html', 'sidebar/search.html', 'sidebar/scroll-start.html',
                        'get-started.html', 'sidebar/navigation.html', 'sidebar/scroll-end.html']}
exclude_patterns = ['**/.ipynb_checkpoints', '**/results/**']
suppress_warnings = ['myst.header', 'mystnb.unknown_mime_type', 'misc.highlighting_failure']

myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence', 'attrs_inline']
myst_heading_anchors = 4
myst_dmath_double_inline = True
nb_execution_mode = 'off'
nb_render_markdown_format = 'myst'
nb_ipywidgets_js = {}                     # no widget outputs; the default loads require.js from a CDN
nb_merge_streams = True


def _inline(self, node):
    self.body.append(f'<span class="gp-math">{escape(node.astext())}</span>')
    raise nodes.SkipNode


def _block(self, node):
    tex = node.astext()
    if node.get('nowrap'): tex = tex.strip()
    anchor = f' id="{node["ids"][0]}"' if node.get('ids') else ''
    number = f'<span class="eqno">({node["number"]})</span>' if node.get('number') else ''
    self.body.append(f'<div class="gp-math-display"{anchor}>{number}<span class="gp-tex">{escape(tex)}</span></div>')
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer('gp_katex', (_inline, None), (_block, None))
