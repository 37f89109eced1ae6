// What Waymark costs the pages a user merely browses, what its first use in a tab costs, and what the
// numbers cost a busy page: a benchmark that prints figures, never a test (it fails only when something
// cannot run). Two browsers run side by side from the same Chromium: one with Waymark installed (its
// host running, its panel never opened on these tabs) and one with no extension at all.
//
// - `load`: the same page loaded again and again in each browser, the two interleaved, with the
//   navigation's `loadEventStart`; also in a tab Waymark is used in (its script goes into each new
//   document there). Pages: the generated 5,000-control catalogue and a real MediaWiki article
//   (Debian's MediaWiki, served as tests/e2e/lib/real_apps.mjs serves it).
// - renderer CPU under DOM churn: the busy page (500 nodes rewritten every 16 ms) for a few seconds in
//   each browser, interleaved, as the main thread's task time (`Performance.getMetrics`).
// - the first use in a tab: the first tool addressed to a fresh tab (which puts the script into it)
//   against the same tool again, and a first listing.
// - the busy page in a tab Waymark is used in: rewrites done and frames drawn per second with Waymark
//   not used there, with the numbers shown, and listed with the numbers hidden.
//
// Run from the repository root after a build (`./build.sh bench browsing` builds and runs it):
//   WAYMARK_HOST_BIN=target/debug/waymark-host WAYMARK_EXTENSION_DIR=dist/extension \
//   WAYMARK_CHROMIUM=/usr/bin/chromium node bench/browsing.mjs [--write] [--loads N] [--rounds N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EXTENSION_ID, launch, launchPlain, serveStatic,
} from '../tests/e2e/lib/harness.mjs';
import { startRealApps } from '../tests/e2e/lib/real_apps.mjs';
import { busyPage, cataloguePage } from './pages.mjs';
import {
  BROWSING_SECTION, installPanelPort, log, median, sleep,
} from './series.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const opts = { loads: 20, rounds: 8, firstUses: 10, busyRounds: 8, windowMs: 2_000, write: false, extension: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--write') opts.write = true;
    else if (a === '--loads') opts.loads = Number(argv[++i]);
    else if (a === '--rounds') opts.rounds = Number(argv[++i]);
    else if (a === '--first-uses') opts.firstUses = Number(argv[++i]);
    else if (a === '--busy-rounds') opts.busyRounds = Number(argv[++i]);
    else if (a === '--window-ms') opts.windowMs = Number(argv[++i]);
    else if (a === '--extension') opts.extension = argv[++i];
    else {
      throw new Error(`unknown argument ${a} (known: --write, --loads N, --rounds N, --first-uses N, `
        + '--busy-rounds N, --window-ms MS, --extension DIR)');
    }
  }
  if (opts.write && opts.extension) throw new Error('--write records the build in dist/extension only');
  return opts;
}

/// A clock of the CPU time of `page`'s renderer main thread in ms (`ThreadTime` of the DevTools
/// protocol's `Performance.getMetrics`): what the page's renderer spends, which other work on the
/// machine delays but does not add to.
async function taskClock(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return {
    now: async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value * 1000,
    close: () => cdp.detach().catch(() => {}),
  };
}

/// One load of `url` in `page` (a fresh query each time, so no navigation is a same-document one):
/// `load` in ms from the start of the navigation; how long after `DOMContentLoaded` it came (a script
/// an extension declares for `document_idle` runs in between, and `load` waits for it); and the
/// renderer main thread's CPU time from before the navigation to one second after `load` (what such a
/// script and its module cost the page, however busy the machine).
async function loadTime(page, url, n) {
  const clock = await taskClock(page);
  const before = await clock.now();
  await page.goto(`${url}${url.includes('?') ? '&' : '?'}load=${n}`, { waitUntil: 'load' });
  await sleep(1_000);
  const cpu = (await clock.now()) - before;
  await clock.close();
  const times = await page.evaluate(() => {
    const entry = performance.getEntriesByType('navigation')[0];
    return { load: entry.loadEventStart, afterReady: entry.loadEventStart - entry.domContentLoadedEventEnd };
  });
  return { ...times, cpu };
}

/// The id of the tab showing `url`, asked from the extension page `driver`.
const tabIdOf = (driver, url) => driver.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);

/// Runs a page tool through the extension page `driver` (see installPanelPort) and times it there.
async function timedTool(driver, tabId, tool) {
  const { ms, result } = await driver.evaluate(async ({ tabId, tool }) => {
    const t0 = performance.now();
    const result = await window.benchTool(tabId, tool);
    return { ms: performance.now() - t0, result };
  }, { tabId, tool });
  if (result?.status !== 'ok') throw new Error(`${tool.tool} failed: ${JSON.stringify(result).slice(0, 300)}`);
  return ms;
}

/// Loads: `opts.loads` of each page in each of the three tabs, interleaved (the order turns each round).
async function measureLoads(waymark, plain, driver, pages, opts) {
  const rows = [];
  for (const p of pages) {
    const idle = await waymark.context.newPage();
    const none = await plain.context.newPage();
    const used = await waymark.context.newPage();
    // The used tab: Waymark's first tool there puts its script in; every later document gets it too.
    await used.goto(p.url, { waitUntil: 'load' });
    await timedTool(driver, await tabIdOf(driver, used.url()), { tool: 'overlay_hide' });
    const times = { none: [], idle: [], used: [] };
    const afterReady = { none: [], idle: [], used: [] };
    const cpu = { none: [], idle: [], used: [] };
    const tabs = [['none', none], ['idle', idle], ['used', used]];
    for (let i = 0; i < opts.loads; i++) {
      const order = [...tabs.slice(i % 3), ...tabs.slice(0, i % 3)];
      for (const [key, page] of order) {
        await page.bringToFront();
        const one = await loadTime(page, p.url, i);
        times[key].push(one.load);
        afterReady[key].push(one.afterReady);
        // A navigation that moved the tab to another renderer restarts its clock: not counted.
        if (one.cpu >= 0) cpu[key].push(one.cpu);
      }
    }
    // The used tab really had the script all along: it answers a tool at once.
    await timedTool(driver, await tabIdOf(driver, used.url()), { tool: 'overlay_hide' });
    for (const page of [idle, none, used]) await page.close();
    rows.push({ page: p.label, ...times, afterReady, cpu });
    log(`${p.label}: load medians none ${median(times.none).toFixed(0)}, idle ${median(times.idle).toFixed(0)}, `
      + `used ${median(times.used).toFixed(0)} ms`);
  }
  return rows;
}

/// The renderer main thread's CPU time, in ms per second, over `ms` of the busy page in a fresh tab
/// of `context`.
async function churnCpu(context, url, ms) {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.bringToFront();
  const clock = await taskClock(page);
  await sleep(500);
  const before = await clock.now();
  const t0 = performance.now();
  await sleep(ms);
  const cpu = (await clock.now()) - before;
  const elapsed = performance.now() - t0;
  await clock.close();
  await page.close();
  return cpu / (elapsed / 1000);
}

async function measureChurn(waymark, plain, url, opts) {
  const cpu = { none: [], idle: [] };
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 ? [['idle', waymark], ['none', plain]] : [['none', plain], ['idle', waymark]];
    for (const [key, browser] of order) cpu[key].push(await churnCpu(browser.context, url, opts.windowMs));
  }
  log(`churn CPU medians: none ${median(cpu.none).toFixed(0)}, idle ${median(cpu.idle).toFixed(0)} ms/s`);
  return cpu;
}

/// The first tool in a fresh tab (which puts Waymark's script into it) against the same tool next, then
/// the first listing there; and, in another fresh tab, a listing as the first tool.
async function measureFirstUse(waymark, driver, pages, opts) {
  const rows = [];
  for (const p of pages) {
    const first = [];
    const again = [];
    const listed = [];
    const listFirst = [];
    for (let i = 0; i < opts.firstUses; i++) {
      for (const asFirst of [false, true]) {
        const page = await waymark.context.newPage();
        await page.goto(`${p.url}${p.url.includes('?') ? '&' : '?'}first=${i}${asFirst ? 'l' : ''}`, { waitUntil: 'load' });
        await page.bringToFront();
        const tabId = await tabIdOf(driver, page.url());
        if (asFirst) {
          listFirst.push(await timedTool(driver, tabId, { tool: 'list_interactives' }));
        } else {
          first.push(await timedTool(driver, tabId, { tool: 'overlay_hide' }));
          again.push(await timedTool(driver, tabId, { tool: 'overlay_hide' }));
          listed.push(await timedTool(driver, tabId, { tool: 'list_interactives' }));
        }
        await page.close();
      }
    }
    rows.push({ page: p.label, first, again, listed, listFirst });
    log(`${p.label}: first tool ${median(first).toFixed(0)} ms, again ${median(again).toFixed(0)} ms`);
  }
  return rows;
}

/// Rewrites done and frames drawn per second over one window of the busy page in `page`.
async function busyRates(page, ms) {
  const clock = await taskClock(page);
  await page.evaluate(() => window.__reset());
  const before = await clock.now();
  const t0 = performance.now();
  await sleep(ms);
  const { updates, frames } = await page.evaluate(() => ({ updates: window.__updates, frames: window.__frames }));
  const cpu = (await clock.now()) - before;
  await clock.close();
  const seconds = (performance.now() - t0) / 1000;
  return { updates: updates / seconds, frames: frames / seconds, cpuPerUpdate: updates ? cpu / updates : NaN };
}

/// The busy page in two tabs, one Waymark is not used in and one it listed; each round brings each to
/// the front in turn for one window: not used, listed with the numbers shown, listed with them hidden
/// (a tab behind gets no frames and its timers are slowed, so only the one in front works).
async function measureBusy(waymark, driver, url, opts) {
  const unused = await waymark.context.newPage();
  await unused.goto(`${url}?unused`, { waitUntil: 'load' });
  const listed = await waymark.context.newPage();
  await listed.goto(`${url}?listed`, { waitUntil: 'load' });
  await listed.bringToFront();
  const tabId = await tabIdOf(driver, listed.url());
  await timedTool(driver, tabId, { tool: 'overlay_show' });
  await timedTool(driver, tabId, { tool: 'list_interactives' });
  const states = { unused: [], shown: [], hidden: [] };
  for (let i = 0; i < opts.busyRounds; i++) {
    for (const state of ['unused', 'shown', 'hidden']) {
      if (state !== 'unused') await timedTool(driver, tabId, { tool: state === 'shown' ? 'overlay_show' : 'overlay_hide' });
      const page = state === 'unused' ? unused : listed;
      await page.bringToFront();
      await sleep(400);
      states[state].push(await busyRates(page, opts.windowMs));
    }
  }
  await unused.close();
  await listed.close();
  const rates = (key) => ({
    updates: median(states[key].map((s) => s.updates)),
    frames: median(states[key].map((s) => s.frames)),
    cpuPerUpdate: median(states[key].map((s) => s.cpuPerUpdate).filter((c) => !Number.isNaN(c))),
  });
  const out = { unused: rates('unused'), shown: rates('shown'), hidden: rates('hidden'), rounds: opts.busyRounds };
  log(`busy page: ${JSON.stringify(out)}`);
  return out;
}

const ms = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const pct = (a, b) => `${a >= b ? '+' : '−'}${(Math.abs(a - b) / b * 100).toFixed(1)}%`;

function report({ loads, churn, firstUse, busy, facts }) {
  const lines = [
    facts,
    '',
    '`load` (ms from the start of the navigation to the `load` event, and in brackets from `DOMContentLoaded` '
      + 'to `load`; medians, the three interleaved):',
    '',
    '| page | loads each | no extension | Waymark installed, not used | against none | Waymark used in the tab | against none |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...loads.map((r) => {
      const cell = (key) => `${ms(median(r[key]))} (${ms(median(r.afterReady[key]))})`;
      return `| ${r.page} | ${r.none.length} | ${cell('none')} | ${cell('idle')} | ${pct(median(r.idle), median(r.none))} | `
        + `${cell('used')} | ${pct(median(r.used), median(r.none))} |`;
    }),
    '',
    'Renderer main-thread CPU time for each of those loads (ms from before the navigation to 1 s after `load`; '
      + 'medians):',
    '',
    '| page | no extension | Waymark installed, not used | against none | Waymark used in the tab | against none |',
    '|---|--:|--:|--:|--:|--:|',
    ...loads.map((r) => `| ${r.page} | ${ms(median(r.cpu.none))} | ${ms(median(r.cpu.idle))} | `
      + `${pct(median(r.cpu.idle), median(r.cpu.none))} | ${ms(median(r.cpu.used))} | `
      + `${pct(median(r.cpu.used), median(r.cpu.none))} |`),
    '',
    `Renderer main-thread CPU time under DOM churn (the busy page: 500 nodes rewritten every 16 ms; `
      + `${churn.none.length} windows of ${churn.windowMs / 1000} s each, interleaved; median ms of CPU per second): `
      + `no extension ${ms(median(churn.none))}, Waymark installed and not used ${ms(median(churn.idle))} `
      + `(${pct(median(churn.idle), median(churn.none))}).`,
    '',
    'The first use in a tab (ms, medians over fresh tabs; timed in an extension page around the tool\'s round trip):',
    '',
    '| page | tabs | first tool (`overlay_hide`, puts the script in) | the same tool next | injection and start | first listing after it | a listing as the first tool |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...firstUse.map((r) => `| ${r.page} | ${r.first.length} | ${ms(median(r.first))} | ${ms(median(r.again))} | `
      + `${ms(median(r.first) - median(r.again))} | ${ms(median(r.listed))} | ${ms(median(r.listFirst))} |`),
    '',
    `The busy page (1,500 buttons, 500 of their nodes rewritten every 16 ms) in front, per second (medians of `
      + `${busy.rounds} rounds of one window each, in turn: a tab Waymark is not used in, a tab it listed with the `
      + 'numbers shown, the same with them hidden):',
    '',
    '| Waymark in the tab | rewrites done | frames drawn | renderer main-thread CPU ms per rewrite |',
    '|---|--:|--:|--:|',
    ...[['not used', 'unused'], ['listed, numbers shown', 'shown'], ['listed, numbers hidden', 'hidden']].map(([label, key]) => {
      const r = busy[key];
      const against = (k) => (key === 'unused' ? '' : ` (${pct(r[k], busy.unused[k])})`);
      return `| ${label} | ${r.updates.toFixed(1)}${against('updates')} | ${r.frames.toFixed(1)}${against('frames')} | `
        + `${r.cpuPerUpdate.toFixed(1)}${against('cpuPerUpdate')} |`;
    }),
  ];
  return lines.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.extension) process.env.WAYMARK_EXTENSION_DIR = path.resolve(opts.extension);
  const loadBefore = os.loadavg()[0];
  const started = Date.now();
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-browsing-'));
  fs.writeFileSync(path.join(siteDir, 'catalogue.html'), cataloguePage());
  fs.writeFileSync(path.join(siteDir, 'busy.html'), busyPage());
  const site = await serveStatic(siteDir);
  log('starting MediaWiki (and WordPress, which the same helper starts)');
  const apps = await startRealApps();
  const waymark = await launch();
  const plain = await launchPlain();
  try {
    const driver = await waymark.context.newPage();
    // The settings page holds a port like the panel's, and is no panel: it puts nothing into any tab.
    await driver.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
    await installPanelPort(driver);
    const pages = [
      { label: 'catalogue (5,000 controls)', url: `${site.url}catalogue.html` },
      { label: 'MediaWiki article', url: `${apps.mediawiki.url}/index.php?title=Canary_page` },
    ];
    log('loads');
    const loads = await measureLoads(waymark, plain, driver, pages, opts);
    log('DOM churn');
    const churn = { ...(await measureChurn(waymark, plain, `${site.url}busy.html`, opts)), windowMs: opts.windowMs };
    log('first use');
    const firstUse = await measureFirstUse(waymark, driver, pages, opts);
    log('busy page');
    const busy = await measureBusy(waymark, driver, `${site.url}busy.html`, opts);
    const cpu = os.cpus();
    const facts = `Machine: ${cpu.length} cores (${cpu[0]?.model?.trim() ?? 'unknown CPU'}), `
      + `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM; Chromium ${waymark.context.browser()?.version() ?? ''} headless `
      + `(new), viewport 1200×800. Extension: ${process.env.WAYMARK_EXTENSION_DIR}. Load average (1 min) at the `
      + `start and the end: ${loadBefore.toFixed(2)} / ${os.loadavg()[0].toFixed(2)} on ${cpu.length} cores; `
      + `whole run ${((Date.now() - started) / 1000).toFixed(0)} s.`;
    const output = report({ loads, churn, firstUse, busy, facts });
    console.log(output);
    if (opts.write) writeResults(output);
  } finally {
    await waymark.close();
    await plain.close();
    await apps.close();
    await site.close();
    fs.rmSync(siteDir, { recursive: true, force: true });
  }
}

/// Replaces the browsing section of RESULTS.md (from BROWSING_SECTION to the end) with this run's figures.
function writeResults(output) {
  const file = path.join(here, 'RESULTS.md');
  const old = fs.readFileSync(file, 'utf8');
  const kept = old.includes(BROWSING_SECTION) ? old.slice(0, old.indexOf(BROWSING_SECTION)) : `${old.trimEnd()}\n\n`;
  const date = new Date().toISOString().slice(0, 10);
  fs.writeFileSync(file, `${kept}${BROWSING_SECTION}\n# Pages merely browsed, the first use, a busy page\n\n`
    + `Measured on ${date} by \`./build.sh bench browsing --write\` (bench/browsing.mjs; method: METHOD.md, `
    + `"Pages merely browsed").\n\n${output}\n`);
  log('wrote bench/RESULTS.md');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
