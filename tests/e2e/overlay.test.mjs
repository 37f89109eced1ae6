// The numbered list and the overlay on a fixture page that holds one example of every detection rule
// and every exclusion, driven from the side panel as a user would.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { command as run, openFixture, replyCount, send, waitForReply } from './lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let browser;
let site;
let page;
let panel;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('controls.html'));
});


after(async () => {
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

test('/list reads every control as "number, role, name" and skips what cannot be used', async () => {
  const reply = await command('/list', /controls on "Controls fixture"/);
  const lines = reply.split('\n');
  assert.deepEqual(lines.slice(1), [
    '1, button, Save draft',
    '2, link, Next page',
    '3, textbox, E-mail, value a@example.org',
    '4, checkbox, Gift wrap, checked',
    '5, combobox, Size, value Large',
    '6, textbox, Notes',
    '7, textbox, Password',
    '8, button, Div button',
    '9, generic, Focusable span',
    '10, textbox, Editor',
    '11, button, More details',
    '12, generic, Inline handler',
    '13, link, Nested in link',
    '14, button, Shadow button',
    '15, link, Deep shadow link',
  ]);
  assert.equal(lines[0], '15 controls on "Controls fixture":');
  assert.ok(!reply.includes('hunter2'), 'a password is never read out');
});

test('the overlay is one hidden, inert host that takes no focus and no clicks', async () => {
  const host = await page.evaluate(() => {
    const hosts = document.querySelectorAll('waymark-overlay');
    const h = hosts[0];
    return {
      count: hosts.length,
      ariaHidden: h.getAttribute('aria-hidden'),
      inert: h.inert,
      pointerEvents: getComputedStyle(h).pointerEvents,
      shadowVisibleToPage: h.shadowRoot !== null,
      focused: document.activeElement === h,
    };
  });
  assert.deepEqual(host, {
    count: 1, ariaHidden: 'true', inert: true, pointerEvents: 'none', shadowVisibleToPage: false, focused: false,
  });
  // A click where badge 1 is drawn still reaches the page's button.
  await page.evaluate(() => { window.clicked = 0; document.getElementById('plain').onclick = () => window.clicked++; });
  const box = await page.locator('#plain').boundingBox();
  await page.mouse.click(box.x + 3, box.y + 3);
  assert.equal(await page.evaluate(() => window.clicked), 1);
  await page.screenshot({ path: path.join(here, 'artifacts', 'overlay.png') }).catch(() => {});
});

test('/overlay off and on answer, and a typo in it is explained', async () => {
  await command('/overlay off', /^Numbers hidden\.$/);
  await command('/overlay on', /^Numbers shown on the page\.$/);
  await command('/overlay', /^Say \/overlay on or \/overlay off\.$/);
});

test('a tab where extensions cannot run gets a clear answer', async () => {
  const blank = await browser.context.newPage();
  await blank.goto('chrome://version');
  const tabId = await panel.evaluate(async () => (await chrome.tabs.query({ url: 'chrome://version/' }))[0].id);
  const before = await replyCount(panel);
  await panel.evaluate((id) => { history.replaceState(null, '', `?tabId=${id}`); }, tabId);
  await panel.reload();
  await send(panel, '/list');
  await waitForReply(panel, /^Waymark cannot reach this tab: browser pages/, { after: 0 });
  assert.ok(before >= 0);
  await blank.close();
});
