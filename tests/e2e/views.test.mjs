// One truth across Waymark's views: with the panel open as a tab and Waymark's own window open at
// once, a question shows in both; answered in one, it is gone from the other within 100 ms, without a
// word there, and the outcome is said where the user answered; an answer that comes too late is
// refused by the service worker and never reaches the host; the same question answered in two views
// at once runs once, the other view saying why not in one sentence; a view opened while a question
// waits shows it too. The question names its page's site by host name, and /details says the page's
// full address.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  EXTENSION_ID, command, openFixture, send, until, waitForReply, waitForStatus, waitInPanel,
} from './lib/harness.mjs';

const WINDOW_URL = `chrome-extension://${EXTENSION_ID}/sidepanel.html?window=1`;
let browser;
let site;
let page;
let panel;
let windowPanel;
let pay;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('actions.html'));
  const list = await command(panel, '/list all', /controls on "Checkout fixture"/);
  pay = list.split('\n').find((line) => line.endsWith(', Pay €84.97')).split(', ')[0];
  const [worker] = browser.context.serviceWorkers();
  await worker.evaluate(() => globalThis.runCommand('open-window'));
  windowPanel = await until(() => browser.context.pages().find((p) => p.url().startsWith(WINDOW_URL)), 'Waymark\'s window');
  await waitForStatus(windowPanel, /^Connected\.$/);
  // Each view notes when its question appears and goes, on the page's clock (one clock for both).
  for (const view of [panel, windowPanel]) {
    await view.evaluate(() => {
      window.__question = [];
      const box = document.getElementById('question');
      new MutationObserver(() => window.__question.push({ shown: !box.hidden, t: performance.timeOrigin + performance.now() }))
        .observe(box, { attributes: true, attributeFilter: ['hidden'] });
    });
  }
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const paid = () => page.evaluate(() => window.events.paid);
const shown = (view) => view.evaluate(() => !document.getElementById('question').hidden);
const questionText = (view) => view.textContent('#question-text');

/// Asks to pay from the panel tab and waits until `views` show the question.
async function ask(views = [panel, windowPanel]) {
  await send(panel, `/click ${pay}`);
  for (const view of views) {
    await waitInPanel(view, () => !document.getElementById('question').hidden, null, { what: 'the question shown', timeout: 10_000 });
  }
}

test('a question shows in every view, naming the site by host name; /details says its address', async () => {
  await ask();
  const words = /^Click button 'Pay €84\.97' on localhost\?$/;
  assert.match(await questionText(panel), words);
  assert.match(await questionText(windowPanel), words);
  await command(windowPanel, '/details', new RegExp(`^The question is about the page ${site.url.replace(/[.]/g, '\\.')}actions\\.html$`));
  assert.equal(await shown(windowPanel), true, '/details leaves the question open');
  // Answered in Waymark's window: gone from the panel tab at once, and nothing said there.
  const before = await panel.locator('#transcript .msg-waymark').count();
  const clicked = await windowPanel.evaluate(() => {
    const t = performance.timeOrigin + performance.now();
    document.getElementById('no').click();
    return t;
  });
  await waitForReply(windowPanel, /^Not done: you said no\.$/);
  await waitInPanel(panel, () => document.getElementById('question').hidden, null, { what: 'the question gone', timeout: 2_000 });
  const gone = (await panel.evaluate(() => window.__question)).findLast((q) => !q.shown).t;
  console.log(`# withdrawn from the other view ${Math.round(gone - clicked)} ms after the answer`);
  assert.ok(gone - clicked <= 100, `the other view took the question away ${gone - clicked} ms after the answer`);
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'message');
  const said = (await panel.locator('#transcript .msg-waymark').allTextContents()).slice(before);
  assert.deepEqual(said, [], 'the view the user did not answer in says nothing');
  assert.equal(await paid(), 0);
});

test('an answer that comes after the question was answered is refused, and never reaches the host', async () => {
  await ask();
  // A third view, opened as a panel page opens its port, is shown the question like the others.
  const id = await panel.evaluate(() => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const heard = [];
    port.onMessage.addListener((m) => heard.push(m));
    window.__third = { port, heard };
    setTimeout(() => resolve(heard.find((m) => m.type === 'from_host' && m.message.type === 'question')?.message.id), 1_000);
  }));
  assert.ok(id, 'the third view was shown the open question');
  // The user answers in Waymark's window; the third view's answer, sent after, is refused.
  await windowPanel.evaluate(() => document.getElementById('yes').click());
  await waitForReply(windowPanel, /^Clicked \d+, button, Pay €84\.97\.( Nothing changed on the page\.)?$/);
  const reply = await panel.evaluate((question) => new Promise((resolve) => {
    const { port } = window.__third;
    port.onMessage.addListener((m) => { if (m.type === 'answer_refused') resolve(m); });
    port.postMessage({ type: 'to_host', message: { type: 'answer', question, yes: true } });
    setTimeout(() => resolve(null), 3_000);
  }), id);
  assert.deepEqual(reply, { type: 'answer_refused', question: id });
  await panel.evaluate(() => window.__third.port.disconnect());
  assert.equal(await paid(), 1, 'paid once');
});

test('the same question answered in two views at once: one answer counts, the other view says why not', async () => {
  await ask();
  const [tabBefore, windowBefore] = [await replies(panel), await replies(windowPanel)];
  await Promise.all([
    panel.evaluate(() => document.getElementById('yes').click()),
    windowPanel.evaluate(() => document.getElementById('yes').click()),
  ]);
  const outcome = /^Clicked \d+, button, Pay €84\.97\.( Nothing changed on the page\.)?$/;
  // Too late, refused by the worker; or, if the view heard first that the question is gone, nothing to
  // answer: either way one short sentence, and nothing done twice.
  const notTwice = /^(That question is no longer open: this answer did nothing|There is no question waiting for an answer)\.$/;
  const said = async () => [...(await replies(panel)).slice(tabBefore.length), ...(await replies(windowPanel)).slice(windowBefore.length)];
  await until(async () => (await said()).length >= 2, 'both views to answer', 10_000);
  const all = await said();
  assert.equal(all.filter((t) => outcome.test(t)).length, 1, all.join('\n'));
  assert.equal(all.filter((t) => notTwice.test(t)).length, 1, all.join('\n'));
  assert.equal(await paid(), 2, 'paid once more');
  assert.equal(await shown(panel), false);
  assert.equal(await shown(windowPanel), false);
});

/// What a view said (its transcript's sentences from Waymark).
const replies = (view) => view.locator('#transcript .msg-waymark').allTextContents();

test('a view opened while a question waits shows it; answered there, the first view lets it go', async () => {
  await windowPanel.close();
  await ask([panel]);
  const [worker] = browser.context.serviceWorkers();
  await worker.evaluate(() => globalThis.runCommand('open-window'));
  const opened = await until(() => browser.context.pages().find((p) => p.url().startsWith(WINDOW_URL)), 'Waymark\'s window, again');
  await waitInPanel(opened, () => !document.getElementById('question').hidden, null, { what: 'the question shown', timeout: 10_000 });
  assert.match(await questionText(opened), /^Click button 'Pay €84\.97' on localhost\?/);
  await waitForStatus(opened, /^Connected\.$/);
  await send(opened, '/no');
  await waitForReply(opened, /^Not done: you said no\.$/);
  await waitInPanel(panel, () => document.getElementById('question').hidden, null, { what: 'the question gone', timeout: 2_000 });
  assert.equal(await paid(), 2);
});
