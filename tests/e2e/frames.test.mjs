// One numbering for the whole tab: the top frame, a same-origin frame, a srcdoc frame, and a
// cross-origin frame with a frame nested inside it are numbered in document order, and acting by
// number reaches the right frame.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { command as run, openFixture, replyCount, send, waitForReply } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('frames.html'));
  await page.frameLocator('#cross').frameLocator('iframe').locator('button').waitFor();
});


after(async () => {
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

test('every kind of frame is numbered in document order, hidden frames are not', async () => {
  const reply = await command('/list', /controls on "Frames fixture"/);
  assert.deepEqual(reply.split('\n'), [
    '6 controls on "Frames fixture":',
    '1, button, Top before',
    '2, button, Same-origin button',
    '3, button, Srcdoc button',
    '4, button, Cross-origin button',
    '5, button, Cross-origin nested button',
    '6, button, Top after',
  ]);
});

test('a viewport listing walks into every kind of frame and gives the same numbers', async () => {
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  const listed = await panel.evaluate((tabId) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === 4343) resolve(m.result);
    });
    port.postMessage({ type: 'tool', id: 4343, tab_id: tabId, tool: { tool: 'list_interactives', scope: 'viewport' } });
  }), tabId);
  assert.equal(listed.status, 'ok');
  assert.deepEqual(listed.data.items.map((i) => `${i.index}, ${i.role}, ${i.name}`), [
    '1, button, Top before',
    '2, button, Same-origin button',
    '3, button, Srcdoc button',
    '4, button, Cross-origin button',
    '5, button, Cross-origin nested button',
    '6, button, Top after',
  ]);
});

test('clicking by number acts inside the right frame, even cross-origin and nested', async () => {
  await command('/list', /controls on "Frames fixture"/);
  await command('/click 5', /^Clicked 5, button, Cross-origin nested button\.$/);
  const nested = page.frameLocator('#cross').frameLocator('iframe').locator('body');
  assert.equal(await nested.getAttribute('data-clicked'), 'yes');
  const cross = page.frameLocator('#cross').locator('body');
  assert.equal(await cross.getAttribute('data-clicked'), null, 'the parent frame was not clicked');
  await command('/click 3', /^Clicked 3, button, Srcdoc button\.$/);
  assert.equal(await page.frameLocator('#srcdoc').locator('button').textContent(), 'Srcdoc clicked');
});

test('a frame element that changed is refused as stale, with the renewed list', async () => {
  // The srcdoc button now reads "Srcdoc clicked": number 3 no longer shows what was listed.
  // The refusal is said assertively; the renewed list follows, read as /list reads it.
  const before = await replyCount(panel);
  await command('/click 3', /^Number 3 \(button "Srcdoc button"\) now shows something else/);
  assert.match(await panel.textContent('#alert'), /^Number 3 \(button "Srcdoc button"\) now shows something else/);
  await waitForReply(panel, /^6 controls on "Frames fixture":[^]*\n3, button, Srcdoc clicked\n/, { after: before });
});
