// The overlay benchmark: how long Waymark takes to number a page and draw its badges, and how large the
// text is that a model would get, next to two peers measured in the same browser run:
// - browser-use 0.5.11's legacy element detector (`browser_use/dom/dom_tree/index.js`), fetched from its
//   PyPI wheel at run time into ~/.cache/waymark-bench/ (never into this repository);
// - Playwright's `locator('body').ariaSnapshot()`, the page text Playwright MCP sends to models.
// It prints markdown tables; with --write it also writes them, with the method, to bench/RESULTS.md.
//
// Run from the repository root, after a build (see bench/README.md):
//   WAYMARK_HOST_BIN=target/debug/waymark-host WAYMARK_EXTENSION_DIR=dist/extension \
//   WAYMARK_CHROMIUM=/usr/bin/chromium node bench/overlay.mjs [--write] [--slow] [--runs N] [--warmups N]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTENSION_ID, config, isWaymarkHost, launch, serveStatic, waitForStatus } from '../tests/e2e/lib/harness.mjs';
import { cataloguePage, frameHtml, typicalPage } from './pages.mjs';
import { mcpClient, measureMcp } from './mcp.mjs';
import {
  BROWSING_SECTION, chars, installPanelPort, log, median, openTab, quantile, runSeries,
} from './series.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BROWSER_USE_VERSION = '0.5.11';
// The files of the wheel this benchmark runs: the detector, and the Python serializer that turns its
// result into the model's text (see browser_use_text.py).
const BROWSER_USE_FILES = [
  'browser_use/dom/dom_tree/index.js',
  'browser_use/dom/__init__.py',
  'browser_use/dom/views.py',
  'browser_use/dom/service.py',
  'browser_use/dom/utils.py',
  'browser_use/dom/history_tree_processor/view.py',
];

// The ways browser-use is run. Its agent calls the detector with highlighting on and viewportExpansion
// 500 (BrowserProfile's default); 0 is the viewport alone, -1 the whole page. On the catalogue one run
// takes from tens of seconds to minutes here, so the rows marked slow run there only with --slow, to keep
// the default run near three minutes.
const BROWSER_USE_CONFIGS = [
  { expansion: 0, highlight: true, label: 'viewportExpansion 0 (viewport), highlights on' },
  { expansion: 500, highlight: true, slow: true, label: 'viewportExpansion 500 (its default), highlights on' },
  { expansion: -1, highlight: true, slow: true, label: 'viewportExpansion -1 (whole page), highlights on' },
  { expansion: -1, highlight: false, label: 'viewportExpansion -1 (whole page), highlights off' },
];

function parseArgs(argv) {
  const opts = {
    runs: 15, warmups: 2, write: false, slow: false, budgetMs: 10_000, minRuns: 5, pages: null, peers: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--write') opts.write = true;
    else if (a === '--slow') opts.slow = true;
    else if (a === '--pages') opts.pages = argv[++i].split(',');
    else if (a === '--waymark-only') opts.peers = false;
    else if (a === '--runs') opts.runs = Number(argv[++i]);
    else if (a === '--warmups') opts.warmups = Number(argv[++i]);
    else if (a === '--budget-ms') opts.budgetMs = Number(argv[++i]);
    else {
      throw new Error(`unknown argument ${a} (known: --write, --slow, --runs N, --warmups N, --budget-ms MS, `
        + '--pages typical,catalogue, --waymark-only)');
    }
  }
  // RESULTS.md holds whole runs only.
  if (opts.write && (opts.pages || !opts.peers)) throw new Error('--write needs a whole run (no --pages, --waymark-only)');
  return opts;
}

// ---------------------------------------------------------------------------------------------------
// browser-use, from its wheel

/// Returns { root, detector }: the folder holding the extracted browser_use/ files, and the detector as a
/// function. Downloads the wheel with pip the first time only.
function browserUse() {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const root = path.join(cache, 'waymark-bench', `browser-use-${BROWSER_USE_VERSION}`);
  const missing = BROWSER_USE_FILES.filter((f) => !fs.existsSync(path.join(root, f)));
  if (missing.length) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-wheel-'));
    log(`fetching browser-use==${BROWSER_USE_VERSION} from PyPI into ${root}`);
    const pip = ['pip3', 'pip'].find((p) => spawnSync(p, ['--version']).status === 0);
    if (!pip) throw new Error('pip is needed to fetch browser-use (apt-get install python3-pip)');
    execFileSync(pip, ['download', '--quiet', '--no-deps', `browser-use==${BROWSER_USE_VERSION}`, '-d', tmp],
      { stdio: ['ignore', 'ignore', 'inherit'] });
    const wheel = fs.readdirSync(tmp).find((f) => f.endsWith('.whl'));
    // A wheel is a zip file; Python's zipfile module extracts just the files we run.
    execFileSync('python3', ['-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n, sys.argv[2]) for n in sys.argv[3:]]',
      path.join(tmp, wheel), root, ...BROWSER_USE_FILES]);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const source = fs.readFileSync(path.join(root, BROWSER_USE_FILES[0]), 'utf8').trim().replace(/;$/, '');
  // The file is one function expression. browser-use's Python client passes it as a string and Playwright's
  // server sees that it is a function and calls it with the arguments; Playwright's Node client instead
  // treats a string as an expression, so make it a function here (Playwright sends its source text).
  const detector = new Function(`return (${source});`)();
  return { root, detector };
}

/// The element text browser-use's own Python serializer makes of one detector result, or an error string.
function browserUseText(root, result) {
  const file = path.join(os.tmpdir(), `waymark-bench-bu-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(result));
  const py = spawnSync('python3', [path.join(here, 'browser_use_text.py'), root, file], { encoding: 'utf8' });
  fs.rmSync(file, { force: true });
  if (py.status !== 0) return { error: (py.stderr || 'python3 failed').trim().split('\n').pop() };
  return JSON.parse(py.stdout);
}

// ---------------------------------------------------------------------------------------------------
// What each tool numbered: the probe controls of pages.mjs

const PROBES = {
  disabledPlain: /Disabled plain button/,
  disabledPointer: /Disabled pointer button/,
  disabledInput: /Disabled input/,
  ariaDisabled: /Aria-disabled link/,
  sameOriginFrame: /Same-origin frame button/,
  crossOriginFrame: /Cross-origin frame button/,
};

/// For each probe, how many of the given labels match it.
function probeHits(labels) {
  return Object.fromEntries(Object.entries(PROBES).map(([k, re]) => [k, labels.filter((l) => re.test(l)).length]));
}

/// Probe cells for a tool that numbers elements, from the labels of the elements it numbered.
function numbered(labels) {
  const hits = probeHits(labels);
  return Object.fromEntries(Object.entries(hits).map(([k, n]) => [k, n ? `numbered (${n})` : 'not numbered']));
}

// ---------------------------------------------------------------------------------------------------
// The measurements

/// Waymark: list_interactives sent from an extension page through the service worker (see
/// installPanelPort), timed in that page with performance.now() around the round trip.
async function measureWaymark(context, panel, url, opts) {
  const { page, url: tabUrl } = await openTab(context, url, 'waymark');
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, tabUrl);
  if (tabId === undefined) throw new Error(`no tab for ${tabUrl}`);
  // The first tool puts Waymark's script into the tab (it loads its wasm then): wait until the tab
  // answers.
  await panel.evaluate(async (tabId) => {
    let last;
    for (let i = 0; i < 100; i++) {
      last = await window.benchTool(tabId, { tool: 'overlay_show' });
      if (last?.status === 'ok') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the tab never answered: ${JSON.stringify(last)}`);
  }, tabId);
  // One run, timed inside the extension page; the result stays there until the end.
  const once = () => panel.evaluate(async (tabId) => {
    const t0 = performance.now();
    window.lastList = await window.benchTool(tabId, { tool: 'list_interactives', limit: 100000 });
    return performance.now() - t0;
  }, tabId);
  const { times, slow } = await runSeries(once, opts);
  const last = await panel.evaluate(() => window.lastList);
  if (last?.status !== 'ok') throw new Error(`list_interactives failed: ${JSON.stringify(last).slice(0, 300)}`);
  const badges = await waymarkBadges(page);
  // The same listing with the overlay hidden (nothing drawn), to tell detection from drawing.
  const hidden = await panel.evaluate((tabId) => window.benchTool(tabId, { tool: 'overlay_hide' }), tabId);
  if (hidden?.status !== 'ok') throw new Error(`overlay_hide failed: ${JSON.stringify(hidden)}`);
  const listOnly = await runSeries(once, opts);
  // The model's observation: only what is on screen (scope viewport), drawn.
  const shown = await panel.evaluate((tabId) => window.benchTool(tabId, { tool: 'overlay_show' }), tabId);
  if (shown?.status !== 'ok') throw new Error(`overlay_show failed: ${JSON.stringify(shown)}`);
  const onceViewport = () => panel.evaluate(async (tabId) => {
    const t0 = performance.now();
    window.lastViewportList = await window.benchTool(tabId, { tool: 'list_interactives', limit: 100000, scope: 'viewport' });
    return performance.now() - t0;
  }, tabId);
  const viewportSeries = await runSeries(onceViewport, opts);
  const viewportList = await panel.evaluate(() => window.lastViewportList);
  if (viewportList?.status !== 'ok') throw new Error(`viewport list failed: ${JSON.stringify(viewportList).slice(0, 300)}`);
  const viewportItems = viewportList.data.items;
  const viewport = {
    times: viewportSeries.times,
    slow: viewportSeries.slow,
    found: viewportItems.length,
    chars: chars(panelText(viewportList.data, viewportItems)),
  };
  const list = last.data;
  const inView = new Set(badges);
  const result = {
    times,
    slow,
    listOnly,
    found: list.total,
    inView: badges.length,
    fullChars: chars(panelText(list, list.items)),
    viewChars: chars(panelText(list, list.items.filter((i) => inView.has(i.index)))),
    payloadChars: JSON.stringify(last).length,
    probes: numbered(list.items.map((i) => i.name)),
    viewport,
  };
  await page.close();
  return result;
}

/// The numbers on the badges Waymark drew that a user can see. Its overlays (one per frame) are closed
/// shadow roots, out of the page's and Playwright's reach, so the whole document is read once through
/// the DevTools protocol, which pierces closed roots and frames. Waymark draws a badge only for elements
/// whose box intersects their frame's viewport; a frame's badges count only when that frame's box
/// intersects the top viewport.
async function waymarkBadges(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const [width, height] = await page.evaluate(() => [innerWidth, innerHeight]);
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const numbers = [];
    const frameInView = async (node) => {
      try {
        const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: node.backendNodeId });
        const xs = model.border.filter((_, i) => i % 2 === 0);
        const ys = model.border.filter((_, i) => i % 2 === 1);
        return Math.max(...xs) > 0 && Math.min(...xs) < width && Math.max(...ys) > 0 && Math.min(...ys) < height;
      } catch {
        return false; // no box: not rendered
      }
    };
    const walk = async (node, visible) => {
      if (isWaymarkHost(node)) {
        const layer = node.shadowRoots?.[0]?.children?.find((c) => c.localName === 'div');
        if (visible) for (const span of layer?.children ?? []) numbers.push(Number(span.children?.[0]?.nodeValue));
        return;
      }
      for (const child of node.children ?? []) await walk(child, visible);
      for (const shadow of node.shadowRoots ?? []) await walk(shadow, visible);
      if (node.contentDocument) await walk(node.contentDocument, visible && await frameInView(node));
    };
    await walk(root, true);
    return numbers;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/// The text the side panel reads for a list (extension/src/wording.rs, `interactive_list`), restricted
/// to `items`: a header line, then "12, button, Add to cart[, value …][, state …]" per item.
function panelText(list, items) {
  const lines = [`${list.total} controls on "${list.title}":`];
  for (const item of items) {
    let line = `${item.index}, ${item.role}, ${item.name || 'no name'}`;
    if (item.value !== undefined && item.value !== null) line += `, value ${item.value}`;
    for (const state of item.states ?? []) line += `, ${state}`;
    lines.push(line);
  }
  return lines.join('\n');
}

/// browser-use: `page.evaluate(index.js, args)` exactly as its DomService calls it, timed in Node around
/// the call (so it includes sending the node map back, as it does in browser-use). Its highlights are
/// removed between runs, untimed, as browser-use does before each new state.
async function measureBrowserUse(context, url, bu, { expansion, highlight }, opts) {
  const { page } = await openTab(context, url, `browser-use${expansion}${highlight ? 'h' : ''}`);
  const args = {
    doHighlightElements: highlight, focusHighlightIndex: -1, viewportExpansion: expansion, debugMode: false,
  };
  const cleanup = () => page.evaluate(() => {
    document.getElementById('playwright-highlight-container')?.remove();
    for (const fn of window._highlightCleanupFunctions ?? []) fn();
    window._highlightCleanupFunctions = [];
  });
  let last;
  const once = async () => {
    const t0 = performance.now();
    last = await page.evaluate(bu.detector, args);
    return performance.now() - t0;
  };
  const { times, slow } = await runSeries(once, opts, cleanup);
  const highlighted = Object.values(last.map)
    .filter((n) => n.highlightIndex !== undefined && n.highlightIndex !== null);
  // A label per numbered element: its own text nodes and its aria-label, enough to recognise the probes.
  const labels = highlighted.map((n) => [
    ...(n.children ?? []).map((id) => last.map[id]).filter((c) => c?.type === 'TEXT_NODE').map((c) => c.text),
    n.attributes?.['aria-label'] ?? '',
  ].join(' '));
  const text = browserUseText(bu.root, last);
  await page.close();
  return {
    times,
    slow,
    found: highlighted.length,
    text,
    payloadChars: JSON.stringify(last).length,
    probes: numbered(labels),
  };
}

/// Playwright's aria snapshot of the body, timed in Node around the call.
async function measureAriaSnapshot(context, url, opts) {
  const { page } = await openTab(context, url, 'aria');
  const locator = page.locator('body');
  let snapshot;
  const once = async () => {
    const t0 = performance.now();
    snapshot = await locator.ariaSnapshot();
    return performance.now() - t0;
  };
  const { times, slow } = await runSeries(once, opts);
  await page.close();
  const lines = snapshot.split('\n');
  // It numbers nothing; count the lines of control roles (not `option`, which sits under its combobox).
  const roles = 'button|link|textbox|searchbox|combobox|checkbox|radio|listbox|slider|spinbutton|switch|tab|menuitem';
  const controlLine = new RegExp(`^\\s*- (${roles})\\b`);
  const controls = lines.filter((l) => controlLine.test(l));
  return {
    times,
    slow,
    found: controls.length,
    fullChars: chars(snapshot),
    // It numbers nothing: say whether each probe is listed, and whether with its [disabled] mark.
    probes: (() => {
      const all = probeHits(controls);
      const marked = probeHits(controls.filter((l) => /\[disabled\]/.test(l)));
      return Object.fromEntries(Object.keys(all).map((k) => [k,
        !all[k] ? 'absent' : marked[k] === all[k] ? `listed as [disabled] (${all[k]})` : `listed (${all[k]})`]));
    })(),
    disabledMarked: controls.filter((l) => /\[disabled\]/.test(l)).length,
  };
}

/// Facts about a page, measured in a fresh tab: element count, height, and a reference control count
/// (a plain selector, no visibility checks).
async function pageFacts(context, url) {
  const { page } = await openTab(context, url, 'facts');
  const facts = await page.evaluate(() => ({
    elements: document.getElementsByTagName('*').length,
    height: document.documentElement.scrollHeight,
    viewport: `${innerWidth}×${innerHeight}`,
    selectorControls: document.querySelectorAll(
      'a[href], button, select, textarea, input:not([type=hidden]), [role=button], [tabindex]').length,
  }));
  await page.close();
  return facts;
}

// ---------------------------------------------------------------------------------------------------
// Output

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const num = (n) => (n === undefined || n === null ? '—' : n.toLocaleString('en-US'));

function table(rows) {
  const cells = (r) => (r.skipped
    ? [r.page, r.tool, '—', '—', '0', r.skipped, '—']
    : [r.page, r.tool, fmt(median(r.times)), fmt(quantile(r.times, 0.9)),
      `${r.times.length}${r.slow ? ' (no warm-up)' : ''}`, r.found, r.obs]);
  return [
    markdownRow(['page', 'tool', 'median ms', 'p90 ms', 'runs', 'controls found',
      'observation chars (full page / viewport)']),
    '|---|---|--:|--:|--:|---|---|',
    ...rows.map((r) => markdownRow(cells(r))),
  ].join('\n');
}

function probeTable(rows) {
  return [
    markdownRow(['page', 'tool', 'disabled buttons (UA cursor)', 'disabled buttons (cursor: pointer)',
      'disabled input', 'aria-disabled link', 'same-origin iframe', 'cross-origin iframe']),
    '|---|---|---|---|---|---|---|---|',
    ...rows.filter((r) => !r.skipped && !r.noProbes).map((r) => {
      const p = r.probes;
      const frames = r.hasFrames ? [p.sameOriginFrame, p.crossOriginFrame] : ['n/a', 'n/a'];
      return markdownRow([r.page, r.tool, p.disabledPlain, p.disabledPointer, p.disabledInput, p.ariaDisabled,
        ...frames]);
    }),
  ].join('\n');
}

/// The model's observation of each page against the peers': Waymark's viewport against the aria
/// snapshot (which has no viewport mode), and like for like, whole page against whole page.
function ratioLines(pages, ratios) {
  const of = (a, b) => (a && b ? `1/${(b / a).toFixed(b / a >= 10 ? 0 : 1)}` : '—');
  const lines = pages.filter((p) => ratios[p.key]?.aria).map((p) => {
    const r = ratios[p.key];
    return `- **${p.label}**: viewport, Waymark ${num(r.waymarkView)} chars = ${of(r.waymarkView, r.aria)} of the `
      + `aria snapshot (whole page, it has no viewport mode), ${of(r.waymarkView, r.browserUseView)} of browser-use's `
      + `viewport; whole page like for like, Waymark ${num(r.waymarkPage)} chars = ${of(r.waymarkPage, r.aria)} of `
      + `the aria snapshot, ${of(r.waymarkPage, r.browserUsePage)} of browser-use's whole page (highlights off).`;
  });
  return lines.length ? ['Observation size (characters of the text a model gets), Waymark against the peers:', '',
    ...lines, ''] : [];
}

function markdownRow(cells) {
  return `| ${cells.join(' | ')} |`;
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  // The command as given, for RESULTS.md (before WAYMARK_EXTENSION_DIR is pointed at the copy below),
  // with paths inside the repository relative to it (this machine's folders are nobody else's).
  const root = path.resolve(here, '..');
  const shown = (v) => (v.startsWith(`${root}${path.sep}`) ? path.relative(root, v) : v);
  const command = ['WAYMARK_HOST_BIN', 'WAYMARK_EXTENSION_DIR', 'WAYMARK_CHROMIUM', 'WAYMARK_LOG']
    .filter((k) => process.env[k] !== undefined).map((k) => `${k}=${shown(process.env[k])}`)
    .concat('node bench/overlay.mjs', process.argv.slice(2)).join(' ');
  const { extensionDir } = config();
  // Run a copy of the build: content scripts load the wasm anew with every page, so a rebuild of dist/
  // during the run would otherwise mix two versions in one run.
  const extensionCopy = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-extension-'));
  fs.cpSync(extensionDir, extensionCopy, { recursive: true });
  // The module every frame loads (detection, badges) and the one of the service worker and panel.
  const modules = ['content_bg.wasm', 'extension_bg.wasm'];
  const wasm = modules.map((m) => path.join(extensionCopy, 'pkg', m));
  if (!fs.existsSync(path.join(extensionCopy, 'manifest.json')) || !wasm.every((w) => fs.existsSync(w))) {
    throw new Error(`${extensionDir} is not a complete build: build first (./build.sh)`);
  }
  process.env.WAYMARK_EXTENSION_DIR = extensionCopy;
  const build = buildFacts(wasm, path.join(extensionDir, 'pkg', modules[0]));
  const bu = browserUse();

  // Two servers on 127.0.0.1 over the same folder: another port is another origin, which gives the
  // typical page a real cross-origin iframe.
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-site-'));
  const site = await serveStatic(siteDir);
  const other = await serveStatic(siteDir);
  fs.writeFileSync(path.join(siteDir, 'typical.html'), typicalPage({ crossOrigin: other.url }));
  fs.writeFileSync(path.join(siteDir, 'catalogue.html'), cataloguePage());
  fs.writeFileSync(path.join(siteDir, 'frame.html'), frameHtml());
  const pages = [
    { key: 'typical', label: 'typical', url: `${site.url}typical.html`, hasFrames: true },
    { key: 'catalogue', label: 'catalogue', url: `${site.url}catalogue.html`, hasFrames: false },
  ].filter((p) => !opts.pages || opts.pages.includes(p.key));

  const browser = await launch();
  let client;
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  try {
    const { context } = browser;
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html`);
    await installPanelPort(panel);
    // The MCP client reaches the browser's host (through its state directory) once the host is running;
    // it is connected and allowed when the first page it works on is in front.
    await waitForStatus(panel, /^Connected\.$/);
    const connect = async () => {
      client ??= await mcpClient(browser.stateDir, panel);
      return client;
    };
    const userAgent = await panel.evaluate(() => navigator.userAgent);
    const chromiumVersion = context.browser()?.version() ?? userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? 'unknown';

    const rows = [];
    const facts = {};
    // Observation sizes per page, for the ratios printed under the tables.
    const ratios = {};
    for (const p of pages) {
      facts[p.key] = await pageFacts(context, p.url);
      log(`${p.label}: ${facts[p.key].elements} elements, ${facts[p.key].height}px tall`);

      log(`${p.label}: Waymark`);
      const w = await measureWaymark(context, panel, p.url, opts);
      rows.push({
        page: p.label, hasFrames: p.hasFrames, tool: 'Waymark list_interactives (list + draw)',
        times: w.times, slow: w.slow, found: `${num(w.found)} (${num(w.inView)} in viewport)`,
        obs: `${num(w.fullChars)} / ${num(w.viewChars)}`, probes: w.probes, payload: w.payloadChars,
      });
      rows.push({
        page: p.label, tool: 'Waymark list_interactives, overlay hidden (list only)',
        times: w.listOnly.times, slow: w.listOnly.slow, found: num(w.found), obs: 'same as above', noProbes: true,
      });
      rows.push({
        page: p.label, tool: 'Waymark list_interactives, scope viewport (list + draw)',
        times: w.viewport.times, slow: w.viewport.slow, found: `${num(w.viewport.found)} (viewport)`,
        obs: `— / ${num(w.viewport.chars)}`, noProbes: true,
      });

      log(`${p.label}: Waymark through MCP`);
      const m = await measureMcp(context, connect, p.url, opts);
      const mcpRow = (what, r, obs) => ({
        page: p.label, tool: `Waymark browser_list_interactives through MCP, ${what}`, times: r.times, slow: r.slow,
        found: `${num(r.data.items.length)} listed of ${num(r.data.total)}`, obs, noProbes: true,
      });
      rows.push(mcpRow('defaults (whole page, first 50), page unchanged', m.defaults,
        `${num(m.defaults.chars)} (first 50) / —`));
      rows.push(mcpRow('defaults, page changed before each run', m.changed, `${num(m.changed.chars)} (first 50) / —`));
      rows.push(mcpRow('defaults, first listing after the page loaded again', m.loaded,
        `${num(m.loaded.chars)} (first 50) / —`));
      rows.push(mcpRow('defaults, first listing 0.5 s after the page loaded again', m.settled,
        `${num(m.settled.chars)} (first 50) / —`));
      rows.push(mcpRow('defaults, after a scroll of one screen', m.scrolled, `${num(m.scrolled.chars)} (first 50) / —`));
      rows.push(mcpRow('defaults, after half the controls were renamed', m.half, `${num(m.half.chars)} (first 50) / —`));
      rows.push(mcpRow('scope viewport', m.viewport, `— / ${num(m.viewport.chars)}`));
      ratios[p.key] = { waymarkPage: w.fullChars, waymarkView: w.viewChars };

      for (const cfg of opts.peers ? BROWSER_USE_CONFIGS : []) {
        const what = `browser-use ${BROWSER_USE_VERSION} index.js, ${cfg.label}`;
        if (cfg.slow && p.key === 'catalogue' && !opts.slow) {
          rows.push({ page: p.label, tool: what, skipped: 'not run by default (--slow runs it)' });
          continue;
        }
        log(`${p.label}: ${what}`);
        const b = await measureBrowserUse(context, p.url, bu, cfg, opts);
        const textChars = b.text.error ? `(serializer failed: ${b.text.error})` : num(b.text.chars);
        const obs = cfg.expansion === -1 ? `${textChars} / —`
          : cfg.expansion === 0 ? `— / ${textChars}` : `— / ${textChars} (viewport + ${cfg.expansion} px)`;
        if (cfg.expansion === -1 && !cfg.highlight && !b.text.error) ratios[p.key].browserUsePage = b.text.chars;
        if (cfg.expansion === 0 && !b.text.error) ratios[p.key].browserUseView = b.text.chars;
        rows.push({
          page: p.label, hasFrames: p.hasFrames, tool: what, times: b.times, slow: b.slow, found: num(b.found),
          obs, probes: b.probes, payload: b.payloadChars,
        });
      }

      if (!opts.peers) continue;
      log(`${p.label}: Playwright ariaSnapshot`);
      const a = await measureAriaSnapshot(context, p.url, opts);
      rows.push({
        page: p.label, hasFrames: p.hasFrames, tool: "Playwright locator('body').ariaSnapshot()",
        times: a.times, slow: a.slow, found: `${num(a.found)} control lines (${a.disabledMarked} marked [disabled])`,
        obs: `${num(a.fullChars)} / —`, probes: a.probes, payload: a.fullChars,
      });
      ratios[p.key].aria = a.fullChars;
    }

    const cpu = os.cpus();
    const machine = `Machine: ${cpu.length} cores (${cpu[0]?.model?.trim() ?? 'unknown CPU'}), `
      + `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}; `
      + `Chromium ${chromiumVersion} headless (new), viewport 1200×800; Node ${process.version}; `
      + `playwright-core ${playwrightVersion()}; browser-use ${BROWSER_USE_VERSION} (PyPI wheel).\n\n`
      + `Waymark measured: ${build}.`;
    const pageLines = pages.map((p) => {
      const f = facts[p.key];
      return `- **${p.label}**: ${num(f.elements)} elements, ${num(f.height)} px tall (viewport ${f.viewport}), `
        + `${num(f.selectorControls)} elements matching a plain control selector (no visibility checks).`;
    });
    const payloads = rows.filter((r) => !r.skipped && !r.noProbes)
      .map((r) => markdownRow([r.page, r.tool, num(r.payload)]));
    const output = [
      machine,
      '',
      'Pages:',
      ...pageLines,
      '',
      table(rows),
      '',
      ...ratioLines(pages, ratios),
      'What each tool numbered among the probe controls (pages.mjs):',
      '',
      probeTable(rows),
      '',
      'Raw result size (JSON characters the tool hands back: Waymark\'s tool result, browser-use\'s node map, '
        + 'the snapshot text):',
      '',
      '| page | tool | chars |',
      '|---|---|--:|',
      ...payloads,
      '',
      `Runs: up to ${opts.runs} timed runs after ${opts.warmups} warm-ups per row; a row stops early `
        + `(at ${opts.minRuns} runs or more) once it has spent ${opts.budgetMs / 1000} s. `
        + `Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
      // The machine may be shared: the load says how much else was running.
      `Load average (1 min) at the start and the end of the run: ${loadBefore.toFixed(2)} / `
        + `${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores.`,
    ].join('\n');
    console.log(output);
    if (opts.write) writeResults(output, command);
  } finally {
    await client?.close();
    await browser.close();
    await site.close();
    await other.close();
    fs.rmSync(siteDir, { recursive: true, force: true });
    fs.rmSync(extensionCopy, { recursive: true, force: true });
  }
}

/// Which build was measured: the wasm modules' hashes and build time, and the repository's commit
/// (read-only git).
function buildFacts(wasm, original) {
  const hash = wasm.map((w) => `${path.basename(w, '_bg.wasm')} `
    + createHash('sha256').update(fs.readFileSync(w)).digest('hex').slice(0, 12)).join(', ');
  const built = fs.statSync(original).mtime.toISOString().replace(/\.\d+Z$/, 'Z');
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'],
      { cwd: here, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Not a git checkout: say so in the output rather than fail.
  }
  return `extension wasm sha256 ${hash} (built ${built}), repository HEAD ${commit} `
    + '(the build may include uncommitted changes)';
}

function playwrightVersion() {
  try {
    const pkg = path.join(here, '..', 'tests', 'e2e', 'node_modules', 'playwright-core', 'package.json');
    return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

function writeResults(output, command) {
  const date = new Date().toISOString().slice(0, 10);
  const method = fs.readFileSync(path.join(here, 'METHOD.md'), 'utf8');
  const text = `# Overlay benchmark results

Measured on ${date}, from the repository root, with:

\`\`\`sh
${command}
\`\`\`

${output}

${method}`;
  // browsing.mjs's figures, at the end, stay as its last run wrote them, and so do sections other runs
  // added by hand (the request guard's figures): every `## ` section whose heading this text lacks.
  const file = path.join(here, 'RESULTS.md');
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const browsing = old.includes(BROWSING_SECTION) ? `\n${old.slice(old.indexOf(BROWSING_SECTION))}` : '';
  const ours = old.includes(BROWSING_SECTION) ? old.slice(0, old.indexOf(BROWSING_SECTION)) : old;
  const others = ours.split(/\n(?=## )/).slice(1).filter((section) => !text.includes(section.split('\n')[0]));
  const kept = others.map((section) => `\n${section.trimEnd()}\n`).join('');
  fs.writeFileSync(file, `${text.trimEnd()}\n${kept}${browsing}`);
  log('wrote bench/RESULTS.md');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
