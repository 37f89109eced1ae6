// Detection checked against Chrome's own accessibility tree (`Accessibility.getFullAXTree`, read through
// the DevTools protocol as in the real-apps test): labels-hidden.html holds what real admin pages showed
// to go wrong: a label numbered beside its field (for= and wrapping, a label with a click handler, a
// label styled clickable), see-through, clipped and off-canvas buttons, a skip link that comes on screen
// when focused, names holding aria-hidden or display:none words, and names running blocks together.
// names.html holds what Chrome's names are made of (aria-labelledby, parts named by their own
// attributes, CSS text, editable regions) and the headings and text a page summary reads.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectMcp, openFixture, until } from './lib/harness.mjs';
import { compareWithChrome } from './lib/chrome_ax.mjs';

let browser;
let site;
let page;
let panel;
let tabId;
let client;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('labels-hidden.html'));
  tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
});

after(async () => {
  await client?.close();
  await browser?.close();
  await site?.close();
});

/// A tool sent the way the panel sends its tools; its result.
async function tool(request) {
  return panel.evaluate(([tabId, request]) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const id = Math.floor(Math.random() * 1e9);
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === id) resolve(m.result);
    });
    port.postMessage({ type: 'tool', id, tab_id: tabId, tool: request });
  }), [tabId, request]);
}

/// list_interactives, as the panel asks for it.
async function list(scope) {
  const result = await tool({ tool: 'list_interactives', scope, limit: 200 });
  assert.equal(result.status, 'ok', result.error);
  return result.data.items;
}

/// Opens another fixture in the test's tab, and waits until Waymark answers there.
async function visit(name) {
  await page.goto(`${site.url}${name}`);
  await until(async () => (await tool({ tool: 'list_interactives', scope: 'viewport', limit: 1 })).status === 'ok', `Waymark to answer on ${name}`);
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

/// A listing line with the value and states, as the panel says it.
const said = (i) => [i.role, i.name || 'no name', ...(i.value ? [`value ${i.value}`] : []), ...(i.states ?? [])].join(', ');

test('names are Chrome\'s: aria-labelledby as Chrome follows it, parts named by their attributes, CSS text, drawn capitals', async () => {
  await visit('names.html');
  const items = await list('viewport');
  assert.deepEqual(items.map(said), [
    'textbox, no name, value 20',
    'button, Archive posts',
    'button, Export all data',
    'button, Archive posts First second',
    'button, Chained words',
    'button, Reports 20',
    'link, Open Canary gallery',
    'link, Close dialog',
    'link, Actions (opens a menu)',
    'link, AUTHOR page',
    'link, Tag Birds',
    'link, Dashboard',
    'link, Star Favourites',
    'checkbox, Show 25 rows',
    'combobox, no name, value 25',
    'textbox, Search the site',
    'button, Empty input button',
    'paragraph, no name, value Typed paragraph text, editable',
    'document, Paragraph block, value Block text, editable',
    'textbox, Message',
    'textbox, Write a note',
    'textbox, no name, value Plain editable box',
    'heading, no name, value Editable heading, editable',
  ]);
  const found = await compareWithChrome(browser.context, page, items);
  assert.deepEqual(
    { missed: found.missed, extra: found.extra, renamed: found.renamed },
    { missed: [], extra: [], renamed: [] },
  );
  assert.equal(found.controls, items.length);
});

test('an editable paragraph listed as one takes what is typed by its number', async () => {
  // Typing changes the page: only a client of the host (here MCP, as a model's would be) may ask it.
  await page.bringToFront();
  client = await connectMcp(browser.stateDir, 'Names client', { panel });
  const call = async (name, args) => JSON.parse((await client.callTool({ name, arguments: args })).content[0].text);
  const listed = await call('browser_list_interactives', { scope: 'viewport', limit: 100 });
  assert.equal(listed.status, 'ok', listed.error);
  const paragraph = listed.data.items.find((i) => i.role === 'paragraph');
  assert.deepEqual(paragraph.states, ['editable']);
  const typed = await call('browser_overlay_act', { index: paragraph.index, action: 'type', text: 'Written by number' });
  assert.equal(typed.status, 'ok', typed.error);
  assert.equal(await page.textContent('p[contenteditable]:not([role])'), 'Written by number');
  const again = (await list('viewport')).find((i) => i.index === paragraph.index);
  assert.equal(said(again), 'paragraph, no name, value Written by number, editable');
});

test('the page summary reads headings and text without hidden words, blocks apart', async () => {
  const result = await tool({ tool: 'extract' });
  assert.equal(result.status, 'ok', result.error);
  const { headings, snippet } = result.data;
  assert.deepEqual(headings, [{ level: 2, text: 'Editable heading' }, { level: 2, text: 'Recent posts' }]);
  assert.match(snippet, /Morning song$/);
  assert.doesNotMatch(snippet, /IGNORED|UNSEEN|\(icon\)|12 hidden|Decorative|Archive old/);
  assert.match(snippet, /First second/);
});
