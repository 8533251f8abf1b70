// render.mjs renders a wirebench Markdown report roughly the way GitHub
// does (markdown-it with HTML allowed, Mermaid for ```mermaid blocks) in
// headless Chromium, fails if Mermaid cannot parse a chart, and writes a
// full-page PNG screenshot (and the HTML next to it).
//
// Usage: node render.mjs REPORT.md OUT.png [--open] [--width 1012] [--dark] [--parts]
//
//   --open   expand every <details> block before the screenshot
//   --parts  also write OUT-1.png, OUT-2.png, ...: the page in slices of
//            1,400 pixels, small enough to read in an image viewer
//   --width  viewport width in CSS pixels (GitHub's comment column is ~1012)
//   --dark   GitHub's dark colours and Mermaid's dark theme
//
// Chromium comes from Debian (/usr/bin/chromium, or $CHROMIUM); nothing is
// downloaded and the page makes no network request. $MERMAID_JS may name
// another mermaid.min.js, to check a report against the older Mermaid
// releases GitHub may run (see README.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const opts = { open: false, width: 1012, dark: false, parts: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--open') opts.open = true;
    else if (a === '--dark') opts.dark = true;
    else if (a === '--parts') opts.parts = true;
    else if (a === '--width') opts.width = Number(argv[++i]);
    else opts.files.push(a);
  }
  if (opts.files.length !== 2 || !(opts.width > 0)) {
    console.error('usage: node render.mjs REPORT.md OUT.png [--open] [--width 1012] [--dark] [--parts]');
    process.exit(2);
  }
  return opts;
}

function escapeHTML(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// toHTML converts the report; mermaid fences become <pre class="mermaid">
// holding the chart's source, which the page then renders.
function toHTML(markdown, dark) {
  const md = new MarkdownIt({ html: true, linkify: true });
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    if (t.info.trim() === 'mermaid') {
      return `<pre class="mermaid">${escapeHTML(t.content)}</pre>\n`;
    }
    return fence(tokens, idx, options, env, self);
  };
  const css = fs.readFileSync(path.join(here, 'github.css'), 'utf8');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head>
<body class="${dark ? 'dark' : 'light'}"><article class="markdown-body">${md.render(markdown)}</article></body></html>`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const [input, output] = opts.files;
  const html = toHTML(fs.readFileSync(input, 'utf8'), opts.dark);
  fs.writeFileSync(output.replace(/\.png$/, '') + '.html', html);

  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wirebench-render-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: opts.width, height: 800 },
    deviceScaleFactor: 1,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let failed = false;
  try {
    // The report must render offline: refuse every request.
    await context.route('**/*', (route) => route.abort());
    const page = context.pages()[0] || await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.error('page:', m.text()); });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.setContent(html, { waitUntil: 'load' });
    const mermaidJS = process.env.MERMAID_JS || path.join(here, 'node_modules/mermaid/dist/mermaid.min.js');
    await page.addScriptTag({ path: mermaidJS });
    const result = await page.evaluate(async ({ dark, open }) => {
      if (open) document.querySelectorAll('details').forEach((d) => { d.open = true; });
      const mermaid = window.mermaid;
      mermaid.initialize({ startOnLoad: false, theme: dark ? 'dark' : 'default', securityLevel: 'strict' });
      const nodes = [...document.querySelectorAll('pre.mermaid')];
      const errors = [];
      for (const [i, n] of nodes.entries()) {
        try {
          await mermaid.parse(n.textContent);
        } catch (e) {
          errors.push(`chart ${i + 1}: ${e.message || e}`);
        }
      }
      if (errors.length === 0 && nodes.length > 0) {
        await mermaid.run({ nodes });
      }
      // A chart Mermaid gave up on shows its "Syntax error" picture.
      for (const [i, n] of nodes.entries()) {
        if (n.querySelector('.error-icon') || /Syntax error/.test(n.textContent)) {
          errors.push(`chart ${i + 1}: rendered as an error`);
        }
      }
      return { charts: nodes.length, errors };
    }, { dark: opts.dark, open: opts.open });
    const version = JSON.parse(fs.readFileSync(path.join(path.dirname(mermaidJS), '..', 'package.json'), 'utf8')).version;
    console.log(`${input}: ${result.charts} Mermaid chart(s), mermaid ${version}, ${result.errors.length} error(s)`);
    for (const e of result.errors) console.error('  ' + e);
    failed = result.errors.length > 0;
    await page.screenshot({ path: output, fullPage: true });
    console.log(`wrote ${output}`);
    if (opts.parts) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const slice = 1400;
      for (let y = 0, i = 1; y < height; y += slice, i++) {
        const part = output.replace(/\.png$/, `-${i}.png`);
        await page.screenshot({ path: part, fullPage: true, clip: { x: 0, y, width: opts.width, height: Math.min(slice, height - y) } });
        console.log(`wrote ${part}`);
      }
    }
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
