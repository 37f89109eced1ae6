// The listing as an MCP client and Waymark's own agent get it: `browser_list_interactives` called by a
// real MCP client (the official TypeScript SDK over stdio) through `waymark-host mcp`, the host, the
// service worker and the content scripts, and back. Timed in Node around `callTool`.
//
// Rows per page, all with the tool's defaults (the whole page, the first 50 controls) but the last: on a
// page that did not change since the last listing; after the page changed before each run (one control
// renamed, one added, as after a click), which is what the agent's look after a step costs; the first
// listing after the page loaded again (what the agent's first look and its look after a navigation
// cost); after a scroll of one screen; after half the page's controls were renamed; and the viewport
// scope.
import { connectMcp } from '../tests/e2e/lib/harness.mjs';
import { chars, openTab, runSeries, sleep } from './series.mjs';

/// A client connected through `waymark-host mcp` and allowed once in the side panel (`panel`), as a user
/// allows Claude Desktop or Cursor. `stateDir` is the browser's host's (the client finds it there).
export function mcpClient(stateDir, panel) {
  return connectMcp(stateDir, 'Overlay benchmark', { panel });
}

/// Changes the page the way a click often does, untimed: one control renamed (a counter), one added
/// (a message with a button), both in the middle of the document.
async function changePage(page, run) {
  await page.evaluate((n) => {
    const buttons = document.querySelectorAll('button');
    const middle = buttons[Math.floor(buttons.length / 2)];
    if (!middle) return;
    middle.textContent = `Added ${n} to the cart`;
    const note = document.createElement('p');
    const undo = document.createElement('button');
    undo.textContent = `Undo ${n}`;
    note.append(undo);
    middle.parentElement.append(note);
  }, run);
}

/// Renames the buttons and links of every other card (or every other one of them on a page without
/// cards), untimed: about half the page's controls change their words.
async function changeHalf(page, run) {
  await page.evaluate((n) => {
    const cards = [...document.querySelectorAll('article')];
    const controls = cards.length
      ? cards.filter((_, i) => i % 2 === 0).flatMap((c) => [...c.querySelectorAll('button, a')])
      : [...document.querySelectorAll('button, a')].filter((_, i) => i % 2 === 0);
    for (const c of controls) c.textContent = `${c.textContent.replace(/ \(\d+\)$/, '')} (${n})`;
  }, run);
}

/// Scrolls one screen down, or back to the top at the bottom, untimed.
async function scrollScreen(page) {
  await page.evaluate(() => {
    const atEnd = window.scrollY + 2 * window.innerHeight > document.documentElement.scrollHeight;
    window.scrollTo(0, atEnd ? 0 : window.scrollY + window.innerHeight);
  });
}

/// Loads the page again and waits for its `load`, untimed: the next listing is the new document's first.
async function reload(page) {
  await page.reload({ waitUntil: 'load' });
}

/// The rows for one page: times, the controls listed, and the size of the text the client gets.
/// `connect` gives the client, connecting it the first time (its first call needs a page in front).
export async function measureMcp(context, connect, url, opts) {
  const { page } = await openTab(context, url, 'mcp');
  const client = await connect();
  let last;
  const call = (args) => async () => {
    const t0 = performance.now();
    last = await client.callTool({ name: 'browser_list_interactives', arguments: args });
    return performance.now() - t0;
  };
  const result = () => {
    const body = JSON.parse(last.content[0].text);
    if (body.status !== 'ok') throw new Error(`browser_list_interactives failed: ${last.content[0].text.slice(0, 300)}`);
    return { data: body.data, chars: chars(last.content[0].text) };
  };
  const rows = {};
  const defaults = await runSeries(call({}), opts);
  rows.defaults = { ...defaults, ...result() };
  let run = 0;
  const changed = await runSeries(call({}), opts, () => changePage(page, ++run));
  rows.changed = { ...changed, ...result() };
  const viewport = await runSeries(call({ scope: 'viewport' }), opts);
  rows.viewport = { ...viewport, ...result() };
  const loaded = await runSeries(call({}), opts, () => reload(page));
  rows.loaded = { ...loaded, ...result() };
  // As the agent looks after a navigation: once the page has been quiet for a moment (it waits for
  // 400 ms without a mutation), here half a second after `load`.
  const settled = await runSeries(call({}), opts, async () => {
    await reload(page);
    await sleep(500);
  });
  rows.settled = { ...settled, ...result() };
  const scrolled = await runSeries(call({}), opts, () => scrollScreen(page));
  rows.scrolled = { ...scrolled, ...result() };
  run = 0;
  const half = await runSeries(call({}), opts, () => changeHalf(page, ++run));
  rows.half = { ...half, ...result() };
  await page.close();
  return rows;
}
