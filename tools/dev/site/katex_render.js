// Render TeX with KaTeX for the docs site (tools/dev/docs_site.py): reads a JSON list of [tex, display] pairs on stdin
// and writes a JSON list of {html} or {error} in the same order. Usage: node katex_render.js < maths.json
const katex = require(require('path').join(__dirname, 'node_modules', 'katex'));
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(([tex, display]) => {
    try {
      const options = {displayMode: display, throwOnError: true, strict: 'ignore', output: 'htmlAndMathml'};
      return {html: katex.renderToString(tex, options)};
    } catch (e) {
      return {error: String(e.message || e)};
    }
  });
  process.stdout.write(JSON.stringify(out));
});
