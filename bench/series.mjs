// What the benchmarks share: opening a tool's own tab, the timed series by the rules of
// bench/METHOD.md, the statistics over it, and sending page tools the way the side panel does.
export const t0 = Date.now();
/// Where browsing.mjs's figures start in RESULTS.md: `--write` of either script keeps the other's part.
export const BROWSING_SECTION = '<!-- bench/browsing.mjs --write replaces everything from this line to the end -->';
export const log = (...a) => console.error(`bench [${((Date.now() - t0) / 1000).toFixed(0)} s]:`, ...a);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const chars = (s) => [...s].length;

export function quantile(times, q) {
  // Nearest rank: the value at or above a fraction q of the sorted runs.
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export const median = (t) => {
  const s = [...t].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/// Opens `url` in a new tab, with a marker in the query so the tab can be found by its URL.
export async function openTab(context, url, marker) {
  const page = await context.newPage();
  const full = `${url}?tool=${marker}`;
  await page.goto(full, { waitUntil: 'load' });
  await page.bringToFront();
  return { page, url: full };
}

/// Runs `once` (which returns the milliseconds of one run) by the rules in bench/METHOD.md: `warmups`
/// untimed runs, then up to `runs` timed ones; a row stops early once it has spent `budgetMs` and has
/// `minRuns` runs. A tool whose first run alone takes longer than the budget is "slow": that first run
/// counts as a timed run (no warm-up), and it stops at 2 runs (at 1 if that first run took three
/// budgets), to keep the whole benchmark within a few minutes. `before` runs untimed before every run.
export async function runSeries(once, opts, before = async () => {}) {
  await before();
  const first = await once();
  const slow = first > opts.budgetMs;
  const times = slow ? [first] : [];
  for (let i = 1; !slow && i < opts.warmups; i++) {
    await before();
    await once();
  }
  const start = performance.now() - (slow ? first : 0);
  const enough = !slow ? opts.minRuns : first > 3 * opts.budgetMs ? 1 : 2;
  while (times.length < opts.runs) {
    if (performance.now() - start > opts.budgetMs && times.length >= enough) break;
    await before();
    // A pause lets the tab lay out and paint what the previous run drew, as between two real requests.
    await sleep(50);
    times.push(await once());
  }
  return { times, slow };
}

/// Gives the extension page `window.benchTool(tabId, tool)`: a page tool sent the way the side panel
/// sends `/list`, as `PanelToWorker::Tool` on a "panel" port to the service worker, which runs it in the
/// tab's content scripts and answers with `WorkerToPanel::ToolResult` (shared/src/relay.rs). This is the
/// path the user's command takes, whichever frames the worker involves.
export async function installPanelPort(panel) {
  await panel.evaluate(() => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const waiting = new Map();
    let next = 1_000_000;
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && waiting.has(m.id)) {
        waiting.get(m.id)(m.result);
        waiting.delete(m.id);
      }
    });
    window.benchTool = (tabId, tool) => new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`no answer to ${tool.tool} in 120 s`));
      }, 120_000);
      waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      port.postMessage({ type: 'tool', id, tab_id: tabId, tool });
    });
  });
}
