// The page's own dialogs (alert, confirm, prompt, "leave this page?") in real Chromium with the real
// extension and host: raised by a click by number, by a key, by an agent step (the scripted model) and
// through an MCP client, each is said in the panel with the page's words and the keys that answer it,
// once; the call that raised it, and a call made while it is up, get at once an outcome of kind
// `page_dialog` instead of waiting for the host's timeout; once the user answers it (Playwright's
// `dialog.accept()`/`dismiss()` stands in for their key), tools work again with nothing said; a reload
// a "leave this page?" stopped does not say done; and a secret value in a dialog's words reaches
// neither the model nor the client. Then the same words in Russian.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import {
  EXTENSION_ID, command, launch, openPanel, replyCount, send, serveStatic, tripwire, waitForReply, waitForStatus,
  waitInPanel,
} from './lib/harness.mjs';
import { callTool, openWithClientAndAgent } from './lib/mcp_and_agent.mjs';

let opened;
let page;
let panel;

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

/// The host's deadline for a tool: an outcome that came sooner did not wait for it.
const HOST_TIMEOUT_MS = 15_000;

before(async () => {
  opened = await openWithClientAndAgent('dialogs.html');
  ({ page, panel } = opened);
});

after(async () => {
  await opened?.close();
});

/// The next dialog the page shows, left open until the test answers it as the user would.
function nextDialog(on = page) {
  return new Promise((resolve) => on.once('dialog', resolve));
}

/// The number of the control named `name`, from `/list all`.
async function numberOf(name) {
  const list = await command(panel, '/list all', new RegExp(`\\d+, [^,]+, ${name}`));
  return Number(list.match(new RegExp(`(\\d+), [^,]+, ${name}`))[1]);
}

/// Waits until the panel's alert region says words matching `pattern`; how long after `since` it did.
async function alerted(pattern, since, on = panel) {
  await waitInPanel(
    on,
    ({ source, flags }) => new RegExp(source, flags).test(document.getElementById('alert').textContent),
    { source: pattern.source, flags: pattern.flags },
    { what: `the alert region saying ${pattern}` },
  );
  return Date.now() - since;
}

/// How many of Waymark's transcript entries match `pattern`.
async function entries(pattern, on = panel) {
  const texts = await on.locator('#transcript .msg-waymark').allTextContents();
  return texts.filter((t) => pattern.test(t)).length;
}

/// Sends `line` in the panel; the dialog it made the page show, once the alert region says words
/// matching `words`, and how many ms after the line that was.
async function raise(line, words) {
  const shown = nextDialog();
  const began = Date.now();
  await send(panel, line);
  const dialog = await shown;
  return { dialog, said: await alerted(words, began) };
}

/// The page's own record of what each dialog answered.
const answers = () => page.evaluate(() => window.answers);

test('an alert raised by a click by number is said at once with its words, once, and tools work again after the user answers it', async () => {
  const greet = await numberOf('Show greeting');
  const words = /^The page says: “Hello from the tables page\.”\. It waits in the browser's dialog: press Enter for OK\.$/;
  const { dialog, said } = await raise(`/click ${greet}`, words);
  assert.equal(dialog.type(), 'alert');
  console.log(`alert said ${said} ms after /click`);
  // A command while the dialog is up is answered at once, with the same words.
  const before = await replyCount(panel);
  const asked = Date.now();
  await send(panel, '/list');
  await waitForReply(panel, /^(Not done: )?The page says: “Hello from the tables page\.”/, { after: before });
  console.log(`/list answered ${Date.now() - asked} ms after it was sent, the dialog up`);
  // The click's own answer said nothing more: the dialog was said once before the /list.
  assert.equal(await entries(/Hello from the tables page/), 2, 'said once for the click, once as the answer to /list');
  await dialog.accept();
  await command(panel, '/list', /Show greeting/);
  assert.deepEqual(await answers(), ['alert']);
});

test('a prompt raised by a key is said with its words and how to answer it', async () => {
  await page.click('#colour');
  const words = /^The page asks you to type: “Which colour should the table be\?”\. Answer it in the browser's dialog: type, then press Enter for OK; Escape cancels\.$/;
  const { dialog } = await raise('/press ArrowDown', words);
  assert.equal(dialog.type(), 'prompt');
  await dialog.accept('green');
  await command(panel, '/list', /Colour/);
  assert.deepEqual((await answers()).at(-1), 'green');
});

test('a confirm raised through MCP gives the client the page_dialog outcome at once, and every call while it is up too', async () => {
  const check = await numberOf('Check name');
  const shown = nextDialog();
  const began = Date.now();
  const { body } = await callTool(opened.client, 'browser_overlay_act', { index: check, action: 'click' });
  const took = Date.now() - began;
  console.log(`MCP click answered in ${took} ms with ${body.kind}`);
  assert.equal(body.status, 'error');
  assert.equal(body.kind, 'page_dialog');
  assert.match(body.error, /^The page asks: “Drop table “users”\? This cannot be undone\.”\. Answer it in the browser's dialog: Enter for OK, Escape for Cancel\.$/);
  assert.ok(took < HOST_TIMEOUT_MS, `answered before the host's timeout (${took} ms)`);
  await alerted(/^The page asks: “Drop table “users”\?/, began);
  const dialog = await shown;
  const again = Date.now();
  const { body: listed } = await callTool(opened.client, 'browser_list_interactives', {});
  assert.equal(listed.kind, 'page_dialog', JSON.stringify(listed));
  assert.ok(Date.now() - again < HOST_TIMEOUT_MS);
  // The user's answer is theirs: Cancel, and the page goes on with it.
  await dialog.dismiss();
  const { body: after } = await callTool(opened.client, 'browser_list_interactives', {});
  assert.equal(after.status, 'ok', JSON.stringify(after));
  assert.deepEqual((await answers()).at(-1), false);
});

test('a card number or a typed password in a dialog reaches neither an MCP client nor the model', async () => {
  const card = await numberOf('Show saved card');
  let shown = nextDialog();
  const { body, text } = await callTool(opened.client, 'browser_overlay_act', { index: card, action: 'click' });
  assert.equal(body.kind, 'page_dialog');
  assert.doesNotMatch(text, /4111/);
  assert.match(body.error, /Your card •+ is on file/);
  (await shown).accept();
  await command(panel, '/list', /Show saved card/);

  // The agent: the user typed a password by hand; the model's click raises a confirm that echoes it.
  await page.fill('#pw', 'hunter2-secret');
  const echo = await numberOf('Check password');
  await opened.model.addSteps([
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: echo, action: 'click' }, content: 'Checking the password' },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'The page asked; you answer it in its dialog.' } },
  ]);
  await command(panel, '/chat', /^Chat mode/);
  shown = nextDialog();
  const began = Date.now();
  await send(panel, 'check my password');
  const dialog = await shown;
  await alerted(/^The page asks: “Keep the password •+\?”/, began);
  await waitForReply(panel, /you answer it in its dialog/);
  const requests = JSON.stringify(await opened.model.requests());
  assert.match(requests, /The page asks: /, 'the model heard what the page asks');
  assert.doesNotMatch(requests, /hunter2/, 'the password never reaches the model');
  await dialog.accept();
  await command(panel, '/exit', /./);
  await command(panel, '/list', /Check password/);
});

test('the form a page posts after the user answered its confirmation goes: their answer is theirs', async () => {
  const save = await numberOf('Save settings');
  const { dialog } = await raise(`/click ${save}`, /^The page asks: “Save the settings of every table\?”/);
  // OK, by the user's own hand: the page posts its form, and nothing of Waymark keeps it back.
  await tripwire.byHand(async () => {
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/tables/save'));
    await dialog.accept();
    await posted;
  });
  await page.goto(`${opened.site.url}dialogs.html`);
  await command(panel, '/list', /Save settings/);
});

test('a reload that a "leave this page?" stopped is said as the page asking, not done, and the page stays', async () => {
  // The user typed notes by hand: the page now asks before it is left.
  await page.click('#notes');
  await page.keyboard.type('draft');
  const words = /^The page asks whether to leave it: what you changed there may not be saved\. Answer it in the browser's dialog: Enter to leave, Escape to stay\.$/;
  const { dialog } = await raise('/reload', words);
  assert.equal(dialog.type(), 'beforeunload');
  await dialog.dismiss();
  await command(panel, '/list', /Notes/);
  // A client's reload the page stopped is answered so, not as done.
  const again = nextDialog();
  const { body } = await callTool(opened.client, 'browser_reload', {});
  assert.equal(body.kind, 'page_dialog', JSON.stringify(body));
  assert.equal(body.data.dialog.kind, 'leave');
  await (await again).dismiss();
  assert.equal(await page.inputValue('#notes'), 'draft', 'the page stayed');
  assert.equal(await entries(/^Reloaded/), 0, 'no reload was said done');
  const { body: listed } = await callTool(opened.client, 'browser_list_interactives', {});
  assert.equal(listed.status, 'ok', JSON.stringify(listed));
});

test('in Russian the dialog is said in Russian, with the page’s own words', async () => {
  const site = await serveStatic(FIXTURES);
  const ru = await launch({ args: ['--lang=ru'], env: { LANGUAGE: 'ru', LANG: 'ru_RU.UTF-8' } });
  try {
    const tab = await ru.context.newPage();
    await tab.goto(`${site.url}dialogs.html`);
    const side = await openPanel(ru.context);
    const tabId = await side.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, tab.url());
    await side.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
    await waitForStatus(side, /^Подключено/);
    const list = await command(side, '/list all', /Show greeting/);
    const greet = Number(list.match(/(\d+), [^,]+, Show greeting/)[1]);
    const shown = nextDialog(tab);
    const began = Date.now();
    await send(side, `/click ${greet}`);
    const dialog = await shown;
    await alerted(/^Страница сообщает: «Hello from the tables page\.»\. Она ждёт в диалоге браузера: нажмите Enter, чтобы закрыть его\.$/, began, side);
    await dialog.accept();
    await command(side, '/list', /Show greeting/);
  } finally {
    await ru.close();
    await site.close();
  }
});
