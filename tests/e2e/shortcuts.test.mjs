// The keyboard shortcuts a fresh install really has (docs/shortcuts.md): Chromium never assigns a
// suggested key that is one of its own accelerators, nor more than four, so the manifest's keys are
// checked as a fresh profile has them (`chrome.commands.getAll()`), not as the manifest suggests them.
// Then: the panel says nothing about unset keys when all four are set, `/keys` lists them, and a
// shortcut pressed with no panel open opens Waymark's own window, which says its outcome — never silent.
// In that window, /tabs and /tab act on the user's browser window, not on Waymark's own.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXTENSION_ID, command, launch, openPanel, serveStatic, until, waitForReply, waitForStatus } from './lib/harness.mjs';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

let browser;
let worker;
let site;

before(async () => {
  browser = await launch();
  [worker] = browser.context.serviceWorkers();
  worker ??= await browser.context.waitForEvent('serviceworker');
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test('a fresh profile has the four suggested keys, none of them the browser\'s own', async () => {
  const all = await worker.evaluate(() => chrome.commands.getAll());
  const keys = Object.fromEntries(all.map((c) => [c.name, c.shortcut ?? '']));
  // Their descriptions come from _locales in the browser's language, never as raw message names.
  const confirm = all.find((c) => c.name === 'confirm');
  assert.equal(confirm.description, "Answer yes to Waymark's question");
  for (const c of all) assert.ok(!String(c.description).includes('__MSG_'), JSON.stringify(c));
  assert.deepEqual(keys, {
    _execute_action: '',
    confirm: 'Alt+Shift+Y',
    reject: 'Alt+Shift+J',
    'manual-done': 'Alt+Shift+D',
    'open-window': 'Alt+Shift+Period',
    'toggle-overlay': '',
    'stop-agent': '',
  });
});

test('with every key set the panel warns of none, and /keys names each and where to change them', async () => {
  const panel = await openPanel(browser.context);
  await waitForStatus(panel, /^Connected\.$/);
  const keys = await command(panel, '/keys', /^Shortcuts: /);
  for (const part of ['yes: Alt+Shift+Y', 'no: Alt+Shift+J', 'done: Alt+Shift+D', 'Waymark in its own window: Alt+Shift+Period', 'the side panel: not set', 'stop the agent: not set']) {
    assert.ok(keys.includes(part), `${part} in: ${keys}`);
  }
  assert.match(keys, /chrome:\/\/extensions\/shortcuts/);
  const said = await panel.locator('#transcript .msg-waymark').allTextContents();
  assert.ok(!said.some((t) => /not set:/.test(t)), said.join('\n'));
  await panel.close();
});

test('a shortcut pressed with no panel open opens Waymark\'s window, which says its outcome', async () => {
  const windowUrl = `chrome-extension://${EXTENSION_ID}/sidepanel.html?window=1`;
  assert.ok(!browser.context.pages().some((p) => p.url().startsWith(windowUrl)));
  await worker.evaluate(() => globalThis.runCommand('manual-done'));
  const opened = await until(() => browser.context.pages().find((p) => p.url().startsWith(windowUrl)), 'Waymark\'s window');
  await waitForReply(opened, /^No step is waiting for you to finish\.$/, { timeout: 15_000 });
  const type = await opened.evaluate(async () => (await chrome.windows.getCurrent()).type);
  assert.equal(type, 'popup');
  // The window shortcut, pressed again, finds the open window instead of opening a second.
  await worker.evaluate(() => globalThis.runCommand('open-window'));
  await worker.evaluate(() => globalThis.runCommand('open-window'));
  const count = await worker.evaluate(async (url) => (await chrome.tabs.query({})).filter((t) => t.url.startsWith(url)).length, windowUrl);
  assert.equal(count, 1);
});

test('in Waymark\'s window, /tabs lists the browser window\'s tabs and /tab switches there', async () => {
  site = await serveStatic(FIXTURES);
  const windowUrl = `chrome-extension://${EXTENSION_ID}/sidepanel.html?window=1`;
  const panel = browser.context.pages().find((p) => p.url().startsWith(windowUrl));
  assert.ok(panel, 'Waymark\'s window is open (the test before opened it)');
  // Two pages in the user's browser window, the first one showing.
  const [checkout, controls] = [`${site.url}actions.html`, `${site.url}controls.html`];
  await worker.evaluate(async ({ checkout, controls }) => {
    const [window] = await chrome.windows.getAll({ windowTypes: ['normal'] });
    const [first] = await chrome.tabs.query({ windowId: window.id });
    await chrome.tabs.update(first.id, { url: checkout, active: true });
    await chrome.tabs.create({ windowId: window.id, url: controls, active: false });
  }, { checkout, controls });
  await until(() => worker.evaluate(async (urls) => (await chrome.tabs.query({ status: 'complete' }))
    .filter((t) => urls.includes(t.url)).length === 2, [checkout, controls]), 'both pages loaded');
  // Waymark's window comes forward: it is the window the user is in, the one the browser names last
  // focused, which holds nothing but the panel.
  await worker.evaluate(() => globalThis.runCommand('open-window'));
  await until(() => panel.evaluate(async () => (await chrome.windows.getLastFocused()).id === (await chrome.windows.getCurrent()).id),
    'Waymark\'s window to be the last focused');
  const list = await command(panel, '/tabs', /tabs:|No web pages/);
  assert.match(list, /^2 tabs:\n1, Checkout fixture, current\n2, Controls fixture$/);
  await command(panel, '/tab 2', /^Switched to tab 2, "Controls fixture"\.$/);
  const active = await worker.evaluate(async () => {
    const [window] = await chrome.windows.getAll({ windowTypes: ['normal'] });
    return (await chrome.tabs.query({ windowId: window.id, active: true }))[0].url;
  });
  assert.equal(active, controls);
  // Waymark's window still shows the panel, and nothing else opened there.
  const own = await panel.evaluate(async () => (await chrome.tabs.query({ windowId: (await chrome.windows.getCurrent()).id })).map((t) => t.url));
  assert.deepEqual(own, [panel.url()]);
});
