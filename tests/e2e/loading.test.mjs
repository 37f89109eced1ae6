// A tool aimed at a tab whose page is still loading waits for Waymark to be able to reach it, instead
// of failing with "cannot reach this tab": right after a page the site opened starts to show, after
// `browser_navigate`, again and again. A page the browser lets no extension into (chrome://) is said
// to be one at once, naming it.
//
// The slow pages are served here. `/slow`: its first part comes at once (the browser shows it, the old
// page is gone) and the rest only after a while, so for that while the new page has no content script
// yet. `/busy`: it loads at once, then keeps its page busy for a while, as heavy sites do after they
// load, so the browser says "loaded" well before Waymark's script in it has started. Both are the
// moments after a page load in which tools used to fail.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { connectMcp, openFixture, tripwire, until, watchServer } from './lib/harness.mjs';

/// How long `/slow` holds back the rest of its document, and `/busy` keeps its page busy.
const HOLD_MS = 1_200;

let browser;
let site;
let page;
let panel;
let client;
let slow;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('article.html'));
  slow = await serveSlowPage();
  // Tools without a tab act on the active one: the page, not the panel.
  await page.bringToFront();
  client = await connectMcp(browser.stateDir, undefined, { panel });
});

after(async () => {
  await client?.close();
  await browser?.close();
  await site?.close();
  await slow?.close();
});

/// Calls a browser tool as an MCP client and returns its `{status, error?, kind?, data?}`.
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  return JSON.parse(result.content[0].text);
}

/// Serves `/slow` (the first button at once, the second after HOLD_MS, then the end of the page) and
/// `/busy` (a button, then HOLD_MS of work once loaded).
async function serveSlowPage() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    const head = `<!doctype html><title>Slow ${req.url}</title><body>`;
    if (req.url.startsWith('/busy')) {
      res.end(`${head}<button>Go on</button><script>
        addEventListener('load', () => setTimeout(() => {
          const end = performance.now() + ${HOLD_MS};
          while (performance.now() < end);
        }));
      </script></body>`);
      return;
    }
    // Enough bytes that the browser shows the first part before the rest arrives.
    res.write(`${head}<button>First</button>${' '.repeat(2048)}\n`);
    const timer = setTimeout(() => res.end('<button>Second</button></body>'), HOLD_MS);
    res.on('close', () => clearTimeout(timer));
  });
  watchServer(server);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

const names = (list) => list.data.items.map((item) => item.name);

test('a tool right after the site opens a page waits for the page instead of failing', async () => {
  for (let round = 0; round < 3; round++) {
    const url = `${slow.url}slow?list${round}`;
    // The site moves the tab on (a link, a script), not Waymark: nobody waited for this page (and what
    // the address carries to the other server is the site's own doing).
    await tripwire.byHand(() => page.evaluate((to) => { window.location.href = to; }, url));
    await until(() => page.url() === url, 'the slow page to start showing');
    const listed = await call('browser_list_interactives');
    assert.equal(listed.status, 'ok', `round ${round}: ${listed.error}`);
    assert.deepEqual(names(listed), ['First', 'Second'], `round ${round}`);
  }
  const url = `${slow.url}slow?wait`;
  await tripwire.byHand(() => page.evaluate((to) => { window.location.href = to; }, url));
  await until(() => page.url() === url, 'the slow page to start showing');
  const waited = await call('browser_wait', { ms: 500 });
  assert.equal(waited.status, 'ok', waited.error);
});

test('browser_navigate returns when the new page answers', async () => {
  for (let round = 0; round < 3; round++) {
    const went = await call('browser_navigate', { url: `${slow.url}busy?round=${round}` });
    assert.equal(went.status, 'ok', `round ${round}: ${went.error}`);
    // At once, with no waiting of its own (not even asking the page anything, which would wait
    // for its busy spell): the page must answer now.
    const listed = await call('browser_list_interactives');
    assert.equal(listed.status, 'ok', `round ${round}: ${listed.error}`);
    assert.deepEqual(names(listed), ['Go on'], `round ${round}`);
  }
  const went = await call('browser_navigate', { url: `${slow.url}slow?navigate` });
  assert.equal(went.status, 'ok', went.error);
  const listed = await call('browser_list_interactives');
  assert.equal(listed.status, 'ok', listed.error);
  assert.deepEqual(names(listed), ['First', 'Second']);
});

test('a browser page is said to be one, naming it, without waiting', async () => {
  await page.goto('chrome://version');
  const began = Date.now();
  const listed = await call('browser_list_interactives');
  const took = Date.now() - began;
  assert.equal(listed.status, 'error');
  assert.equal(listed.kind, 'unreachable');
  assert.match(listed.error, /chrome:\/\/version/);
  // Far below the time a loading page is waited for: nothing here will ever answer.
  assert.ok(took < 2_000, `took ${took} ms`);
});
