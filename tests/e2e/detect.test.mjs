// Detection checked against Chrome's own accessibility tree (`Accessibility.getFullAXTree`, read through
// the DevTools protocol as in the real-apps test): labels-hidden.html holds what real admin pages showed
// to go wrong: a label numbered beside its field (for= and wrapping, a label with a click handler, a
// label styled clickable), see-through, clipped and off-canvas buttons, a skip link that comes on screen
// when focused, names holding aria-hidden or display:none words, and names running blocks together.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFixture } from './lib/harness.mjs';
import { compareWithChrome } from './lib/chrome_ax.mjs';

let browser;
let site;
let page;
let panel;
let tabId;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('labels-hidden.html'));
  tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/// list_interactives sent the way the panel sends its tools.
async function list(scope) {
  const result = await panel.evaluate(([tabId, scope]) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const id = Math.floor(Math.random() * 1e9);
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === id) resolve(m.result);
    });
    port.postMessage({ type: 'tool', id, tab_id: tabId, tool: { tool: 'list_interactives', scope, limit: 200 } });
  }), [tabId, scope]);
  assert.equal(result.status, 'ok', result.error);
  return result.data.items;
}

const lines = (items) => items.map((i) => `${i.index}, ${i.role}, ${i.name}`);

const ON_SCREEN = [
  'checkbox, Select Canary post',
  'checkbox, Notify me',
  'textbox, Post title',
  'searchbox, Search posts',
  'button, Visible action',
  'link, 7 comments',
  'link, Comments',
  'link, Next post Canary post',
  'button, Save draft',
];

test('on screen, the list is Chrome\'s controls: each once, labels with their fields, nothing invisible, Chrome\'s names', async () => {
  const items = await list('viewport');
  assert.deepEqual(lines(items), ON_SCREEN.map((line, i) => `${i + 1}, ${line}`));
  const found = await compareWithChrome(browser.context, page, items);
  assert.deepEqual(
    { missed: found.missed, extra: found.extra, renamed: found.renamed },
    { missed: [], extra: [], renamed: [] },
  );
  assert.equal(found.controls, ON_SCREEN.length);
});

test('the whole page keeps a skip link that comes on screen when focused, and skips an off-canvas button that never does', async () => {
  const items = await list('page');
  assert.deepEqual(lines(items), ['link, Skip to content', ...ON_SCREEN].map((line, i) => `${i + 1}, ${line}`));
});
