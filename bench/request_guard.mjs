// The request guard's cost per action (`./build.sh bench guard`): a harmless click through a real MCP
// client, `waymark-host mcp`, the host's gate and the worker, on a page whose click sends nothing, many
// times. The guard times itself in the service worker (`guardTimings()`: arming the tab's rules,
// waiting until the tab is quiet, disarming) and the client times the whole call; the table puts the
// action with the guard beside the same calls less what the guard took. A benchmark: it prints figures
// and fails only when something cannot run.
//
// Options: --runs N (timed clicks, default 60), --warmups N (default 5).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectMcp, launch, openPanel, serveStatic, waitForStatus } from '../tests/e2e/lib/harness.mjs';
import { median, quantile } from './series.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 60);
const WARMUPS = arg('--warmups', 5);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guard benchmark</title></head>
<body><h1>Guard benchmark</h1><p>Clicks: <output id="n">0</output></p>
<button type="button" onclick="document.getElementById('n').value = Number(document.getElementById('n').value) + 1">Count</button>
</body></html>`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-guard-bench-'));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
  const site = await serveStatic(dir);
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(site.url);
    const panel = await openPanel(browser.context);
    await waitForStatus(panel, /^Connected\.$/);
    await page.bringToFront();
    const client = await connectMcp(browser.stateDir, 'Guard benchmark', { panel });
    const call = async (name, args) => JSON.parse((await client.callTool({ name, arguments: args })).content[0].text);
    const found = await call('browser_find', { text: 'Count' });
    const index = found.data.items[0].index;
    const [worker] = browser.context.serviceWorkers();
    const timings = () => worker.evaluate(() => globalThis.guardTimings());
    const click = async () => {
      const t0 = performance.now();
      const body = await call('browser_overlay_act', { index, action: 'click' });
      if (body.status !== 'ok') throw new Error(`the click failed: ${JSON.stringify(body)}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < WARMUPS; i++) await click();
    const already = (await timings()).length;
    const totals = [];
    for (let i = 0; i < RUNS; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      totals.push(await click());
    }
    const guard = (await timings()).slice(already);
    if (guard.length !== RUNS) throw new Error(`the guard timed ${guard.length} of ${RUNS} clicks`);
    const clicks = Number(await page.textContent('#n'));
    if (clicks !== WARMUPS + RUNS) throw new Error(`the page counted ${clicks} clicks`);
    const pick = (key) => guard.map((g) => g[key]);
    const added = guard.map((g) => g.arm + g.quiet + g.disarm);
    const without = totals.map((t, i) => t - added[i]);
    const row = (what, times) => `| ${what} | ${median(times).toFixed(1)} | ${quantile(times, 0.9).toFixed(1)} |`;
    const load = os.loadavg().map((l) => l.toFixed(1)).join(', ');
    console.log(`Request guard, ${RUNS} harmless clicks through MCP (after ${WARMUPS} warm-ups), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load ${load}:\n`);
    console.log('| what | median ms | p90 ms |');
    console.log('|---|--:|--:|');
    console.log(row('the click through MCP, guarded', totals));
    console.log(row('the same click less the guard', without));
    console.log(row('guard: arm (rules added) + disarm (frame asked, rules removed)', pick('arm').map((a, i) => a + pick('disarm')[i])));
    console.log(row('guard: arm', pick('arm')));
    console.log(row('guard: disarm', pick('disarm')));
    console.log(row('guard: waiting until the tab is quiet', pick('quiet')));
    console.log(row('guard: all it added', added));
    await client.close();
  } finally {
    await browser.close();
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
