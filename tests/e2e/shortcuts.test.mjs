// The keyboard shortcuts a fresh install really has (docs/shortcuts.md): Chromium never assigns a
// suggested key that is one of its own accelerators, nor more than four, so the manifest's keys are
// checked as a fresh profile has them (`chrome.commands.getAll()`), not as the manifest suggests them.
// Then: the panel says nothing about unset keys when all four are set, `/keys` lists them, and a
// shortcut pressed with no panel open opens Waymark's own window, which says its outcome — never silent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { EXTENSION_ID, command, launch, openPanel, until, waitForReply, waitForStatus } from './lib/harness.mjs';

let browser;
let worker;

before(async () => {
  browser = await launch();
  [worker] = browser.context.serviceWorkers();
  worker ??= await browser.context.waitForEvent('serviceworker');
});

after(async () => {
  await browser?.close();
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
  await waitForStatus(panel, /^Connected to Waymark host/);
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
