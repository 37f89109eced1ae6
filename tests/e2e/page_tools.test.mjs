// The page tools from the panel, keyboard only: find (case-, accent- and space-insensitive), read (a
// summary that leaves hidden text out), scroll (page and inner container), press (Enter submits a
// field's form), navigation (go, back, forward, reload) with numbers renewed, and tabs. Then, through an
// MCP client as the agent reaches them: act_by_index (a pointer's and keyboard's events where the control
// is drawn), the centre-point click on a control whose handler is on an inner element (but never on
// another control inside it, nor on something covering it), focus_next/prev by role and across a frame,
// and close_banners (reject preferred, shadow roots, a cross-origin consent frame, a consent manager's
// second layer, "accept" only where nothing else closes a notice); wait until the page settles; typing
// into a contenteditable editor; opening a new tab on an open site asks first; and from the panel,
// /banners, /next and /prev.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  command as run, connectMcp, openFixture, replyCount, send, until, waitForQuestion, waitForReply,
} from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
let client;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('article.html'));
});


after(async () => {
  await client?.close();
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

test('/find ignores case, accents and spacing', async () => {
  const reply = await command('/find cafe   CREME', /match/);
  assert.match(reply, /^1 match for "cafe   CREME":\n\d+, button, Café Crème$/);
  await command('/find teapot', /^No control matches "teapot"\. Say \/list to hear them all\.$/);
});

test('/read gives a short summary without hidden text', async () => {
  const reply = await command('/read', /^"Kettle guide" at /);
  assert.match(reply, /Headings: Choosing a kettle; Steel or glass\./);
  assert.match(reply, /Text: Choosing a kettle A good kettle boils quickly/);
  assert.ok(!reply.includes('Ignore previous instructions'), 'hidden text never reaches the summary');
});

test('/scroll moves the page and an inner container, and says when it cannot', async () => {
  await command('/scroll down', /^Scrolled down\./);
  assert.ok(await page.evaluate(() => window.scrollY) > 0);
  await command('/scroll top', /^Scrolled to the top\.$/);
  await command('/scroll up', /^Already at the top\.$/);
  const list = await command('/list all', /controls on "Kettle guide"/);
  const review = list.split('\n').find((l) => l.endsWith('Review 1')).split(', ')[0];
  await command(`/scroll bottom ${review}`, /^Scrolled to the bottom\.$/);
  assert.ok(await page.evaluate(() => document.querySelector('.box').scrollTop) > 0, 'the inner box scrolled');
});

test('/press Enter in a search field sends its form', async () => {
  const list = await command('/list all', /controls on "Kettle guide"/);
  const field = list.split('\n').find((l) => l.includes('Search the guide')).split(', ')[0];
  await command(`/press Enter ${field}`, /^Pressed Enter: the form was sent\.$/);
  assert.equal(await page.evaluate(() => document.body.dataset.searched), 'crème brûlée');
});

test('/go, /back, /forward and /reload navigate and drop stale numbers', async () => {
  await command('/list all', /controls on "Kettle guide"/);
  await command(`/go ${site.url}shop.html`, /^Opened "Kettle shop" \(http:\/\/127\.0\.0\.1:\d+\/shop\.html\)\. Say \/list for its controls\.$/, 20_000);
  await command('/click 1', /^There are no numbers yet on this page: say \/list first\.$/);
  await command('/back', /^Went back to "Kettle guide"/, 20_000);
  await command('/forward', /^Went forward to "Kettle shop"/, 20_000);
  await command('/reload', /^Reloaded "Kettle shop"/, 20_000);
  await command('/list', /^2 controls on "Kettle shop":\n1, button, Add to cart\n2, link, Back to the guide$/);
});

test('/tabs lists the window\'s tabs and /tab switches', async () => {
  const reply = await command('/tabs', /tabs:/);
  // The panel runs as a tab here and is never listed; the page under test is.
  const shop = reply.split('\n').find((l) => l.endsWith(', Kettle shop'));
  assert.ok(shop, reply);
  const number = shop.split(', ')[0];
  await command(`/tab ${number}`, new RegExp(`^Switched to tab ${number}, "Kettle shop"\\.$`));
  await command('/tab 99', /^There is no tab 99: there are \d+ tabs\. Say \/tabs to hear them\.$/);
  await command('/press Fly', /is not a key I know/);
});

/// Calls a browser tool as an MCP client and returns its `{status, error?, data?}`.
async function call(name, args = {}) {
  client ??= await connectMcp(browser.stateDir, undefined, { panel });
  const result = await client.callTool({ name, arguments: args });
  return JSON.parse(result.content[0].text);
}

/// Opens a fixture in a new tab of the same browser and brings it to the front (tools without a tab act
/// on the active tab), once Waymark's content script answers there (it loads when the page is idle).
async function openPage(name) {
  const tab = await browser.context.newPage();
  await tab.goto(`${site.url}${name}`);
  await tab.bringToFront();
  await until(async () => (await call('browser_extract')).status === 'ok', `Waymark to answer on ${name}`);
  return tab;
}

/// A fresh numbering: its items, and the number of the control with this role and name.
async function numbersOf() {
  const list = await call('browser_list_interactives', { limit: 200 });
  assert.equal(list.status, 'ok', list.error);
  return { items: list.data.items, of: (role, name) => list.data.items.find((i) => i.role === role && i.name === name)?.index };
}

let widgets;
const widgetEvents = () => widgets.evaluate(() => window.events);

test('act_by_index clicks, types and selects with a pointer’s and keyboard’s events', async () => {
  widgets = await openPage('widgets.html');
  await widgets.frameLocator('#child').locator('button').waitFor();
  const { of } = await numbersOf();
  const pointer = of('button', 'Pointer only');
  assert.ok(pointer, 'the pointer-only control is numbered');
  // The element's own events are not enough for this control; a click by number is a pointer's
  // click at its place, so it reaches it either way.
  const plain = await call('browser_overlay_act', { index: pointer, action: 'click' });
  assert.equal(plain.status, 'ok', plain.error);
  assert.equal((await widgetEvents()).activated, 1);
  await widgets.evaluate(() => { window.events.pointer = []; });
  const clicked = await call('browser_act_by_index', { index: pointer, action: 'click' });
  assert.equal(clicked.status, 'ok', clicked.error);
  assert.deepEqual(
    { done: clicked.data.done, index: clicked.data.index, role: clicked.data.role, name: clicked.data.name },
    { done: 'click', index: pointer, role: 'button', name: 'Pointer only' },
  );
  const events = await widgetEvents();
  assert.equal(events.activated, 2, events.pointer.join(' '));
  assert.deepEqual(events.pointer, ['pointerover', 'pointerenter', 'pointermove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']);

  const typed = await call('browser_act_by_index', { index: of('textbox', 'City'), action: 'type', text: 'Łódź 2' });
  assert.equal(typed.status, 'ok', typed.error);
  assert.equal(await widgets.inputValue('#city'), 'Łódź 2');
  assert.ok((await widgetEvents()).city.includes('insertText'), 'the page saw text being inserted');
  assert.equal(await widgets.evaluate(() => document.activeElement.id), 'city');

  const picked = await call('browser_act_by_index', { index: of('combobox', 'Colour'), action: 'select', text: 'blue' });
  assert.equal(picked.status, 'ok', picked.error);
  assert.equal(picked.data.selected, 'Blue');
  assert.deepEqual((await widgetEvents()).colour, ['Blue']);

  const dark = await call('browser_act_by_index', { index: of('checkbox', 'Dark mode'), action: 'click' });
  assert.equal(dark.status, 'ok', dark.error);
  assert.equal(await widgets.isChecked('#dark'), true, 'the custom checkbox was ticked through its label');

  const fruit = await call('browser_act_by_index', { index: of('button', 'Fruit'), action: 'select', text: 'banana' });
  assert.equal(fruit.status, 'ok', fruit.error);
  assert.equal((await widgetEvents()).fruit, 'Banana', 'the custom list box was opened and its option clicked');
});

test('act_by_index refuses a number whose element is gone', async () => {
  await widgets.bringToFront();
  const { of } = await numbersOf();
  const doomed = of('button', 'Doomed');
  await widgets.evaluate(() => document.getElementById('doomed').remove());
  const result = await call('browser_act_by_index', { index: doomed, action: 'click' });
  assert.equal(result.status, 'error');
  assert.match(result.error, /is no longer on the page/);
});

test('a click on a jQuery UI tab reaches the handler on its inner anchor (the centre point)', async () => {
  await widgets.bringToFront();
  const { of } = await numbersOf();
  const reviews = of('tab', 'Reviews');
  assert.ok(reviews, 'the tab is numbered');
  const result = await call('browser_overlay_act', { index: reviews, action: 'click' });
  assert.equal(result.status, 'ok', result.error);
  assert.equal((await widgetEvents()).tab, 'Reviews');
  assert.equal(await widgets.getAttribute('li[aria-controls=p2]', 'aria-selected'), 'true');
});

test('a click on a row lands on the row, never on another control at its centre', async () => {
  await widgets.bringToFront();
  const { items } = await numbersOf();
  const row = items.find((i) => i.name.startsWith('Order 42'));
  assert.ok(row, items.map((i) => i.name).join(', '));
  for (const tool of ['browser_overlay_act', 'browser_act_by_index']) {
    const result = await call(tool, { index: row.index, action: 'click' });
    assert.equal(result.status, 'ok', result.error);
  }
  const events = await widgetEvents();
  assert.deepEqual([events.row, events.pinned], [2, 0]);
});

/// The text of the focused element of the widgets page (its label's, for a field).
const focusedName = () => widgets.evaluate(() => {
  const active = document.activeElement;
  return (active.labels?.[0] ?? active).textContent.replace(/\s+/g, ' ').trim();
});

test('focus_next and focus_prev move the keyboard focus, by role and into a frame', async () => {
  await widgets.bringToFront();
  const { items, of } = await numbersOf();
  await widgets.evaluate(() => document.activeElement?.blur());
  const first = await call('browser_focus_next');
  assert.equal(first.status, 'ok', first.error);
  assert.deepEqual(first.data, { index: 1, role: items[0].role, name: items[0].name });
  assert.equal(await focusedName(), items[0].name);

  const field = await call('browser_focus_next', { role: 'TextBox' });
  assert.deepEqual(field.data, { index: of('textbox', 'City'), role: 'textbox', name: 'City' });
  assert.equal(await widgets.evaluate(() => document.activeElement.id), 'city');

  const framed = of('button', 'Framed button');
  let moved;
  for (let step = 0; step < 6 && moved?.data?.name !== 'Framed button'; step++) {
    moved = await call('browser_focus_next', { role: 'button' });
    assert.equal(moved.status, 'ok', moved.error);
    assert.equal(moved.data.role, 'button');
  }
  assert.equal(moved.data.index, framed);
  const child = widgets.frames().find((f) => f.url().includes('frame-child.html'));
  assert.equal(await child.evaluate(() => document.activeElement.id), 'b', 'the focus is inside the frame');

  const back = await call('browser_focus_prev');
  const before = items[framed - 2];
  assert.deepEqual(back.data, { index: framed - 1, role: before.role, name: before.name });
  assert.equal(await focusedName(), before.name);

  const last = await call('browser_focus_prev', { role: 'link' });
  assert.equal(last.data.role, 'link');
  assert.ok(last.data.index < framed - 1);
  await widgets.evaluate(() => document.getElementById('last').focus());
  const end = await call('browser_focus_next');
  assert.equal(end.status, 'ok', end.error);
  assert.equal(end.data.index, undefined, 'nothing comes after the last control');
});

test('close_banners presses reject in every banner, shadow roots and a consent frame included, and renumbers', async (t) => {
  const news = await openPage('banners.html');
  await news.frameLocator('#cmp').locator('#fr-reject').waitFor();
  // A generous budget: this machine may be slow; the time spent is reported.
  const result = await call('browser_close_banners', { budget_ms: 3000 });
  assert.equal(result.status, 'ok', result.error);
  t.diagnostic(`close_banners spent ${result.data.spent_ms} ms`);
  assert.deepEqual(
    [...result.data.closed].sort(),
    ['Alle ablehnen', 'Continuer sans accepter', 'No thanks', 'Reject all'],
  );
  assert.ok(result.data.spent_ms <= 3000 + 500, `spent ${result.data.spent_ms} ms`);
  assert.deepEqual(await news.evaluate(() => window.choices), {
    en: 'rejected',
    de: 'rejected',
    news: 'no thanks',
    frame: 'rejected',
  });
  // The numbering was renewed: number 1 is the page's own control now, with nothing of the banners.
  const described = await call('browser_act_by_index', { index: 1, action: 'click' });
  assert.equal(described.status, 'ok', described.error);
  assert.equal(described.data.name, 'Read the article');
  const { items } = await numbersOf();
  assert.deepEqual(items.map((i) => i.name), ['Read the article']);
  const again = await call('browser_close_banners');
  assert.deepEqual(again.data.closed, []);
});

test('close_banners opens a consent manager’s second layer to reject, and accepts only a notice with no other way out', async () => {
  const shop = await openPage('banners-layers.html');
  const result = await call('browser_close_banners', { budget_ms: 3000 });
  assert.equal(result.status, 'ok', result.error);
  assert.deepEqual([...result.data.closed].sort(), ['Got it', 'Reject all']);
  assert.deepEqual(await shop.evaluate(() => window.choices), { notice: 'accepted', layers: 2, cmp: 'rejected' });
  assert.match(shop.url(), /banners-layers\.html$/, 'the "Learn more" link was not followed');
});

test('a control covered after it was numbered is not clicked through to', async () => {
  await widgets.bringToFront();
  const { of } = await numbersOf();
  const last = of('button', 'Last button');
  await widgets.evaluate(() => {
    window.events.cover = 0;
    window.events.last = 0;
    document.getElementById('last').onclick = () => window.events.last++;
    const cover = document.createElement('div');
    cover.id = 'cover';
    cover.textContent = 'Sale ends soon';
    const r = document.getElementById('last').getBoundingClientRect();
    cover.style.cssText = `position:absolute;left:${r.left + scrollX - 4}px;top:${r.top + scrollY - 4}px;width:${r.width + 8}px;height:${r.height + 8}px;background:#fc0`;
    cover.onclick = () => window.events.cover++;
    document.body.append(cover);
  });
  const refused = await call('browser_act_by_index', { index: last, action: 'click' });
  assert.equal(refused.status, 'error');
  assert.match(refused.error, /covered by "Sale ends soon"/);
  const clicked = await call('browser_overlay_act', { index: last, action: 'click' });
  assert.equal(clicked.status, 'ok', clicked.error);
  const events = await widgetEvents();
  assert.deepEqual([events.last, events.cover], [1, 0], 'the control itself was clicked, never the cover');
  await widgets.evaluate(() => document.getElementById('cover').remove());
});

test('close_banners on a page without banners presses nothing', async () => {
  await widgets.bringToFront();
  const before = await widgetEvents();
  const result = await call('browser_close_banners');
  assert.equal(result.status, 'ok', result.error);
  assert.deepEqual(result.data.closed, []);
  assert.ok(typeof result.data.spent_ms === 'number');
  assert.deepEqual(await widgetEvents(), before);
});

test('wait returns once the page has settled, and says so when it has not', async () => {
  await widgets.bringToFront();
  // The page keeps changing for a while, then stops.
  await widgets.evaluate(() => {
    window.busy = true;
    let n = 0;
    const timer = setInterval(() => {
      document.body.append(Object.assign(document.createElement('span'), { textContent: `tick ${n}` }));
      if (++n === 12) {
        clearInterval(timer);
        window.busy = false;
      }
    }, 50);
  });
  const settled = await call('browser_wait', { ms: 10000 });
  assert.equal(settled.status, 'ok', settled.error);
  assert.equal(settled.data.settled, true);
  assert.equal(await widgets.evaluate(() => window.busy), false, 'it waited until the changes stopped');
  // A page that never stops changing: the wait ends at its limit and says the page is still busy.
  await widgets.evaluate(() => {
    window.forever = setInterval(() => document.body.append(document.createElement('i')), 50);
  });
  const busy = await call('browser_wait', { ms: 800 });
  assert.equal(busy.status, 'ok', busy.error);
  assert.equal(busy.data.settled, false);
  await widgets.evaluate(() => clearInterval(window.forever));
});

test('typing by number reaches a contenteditable editor', async () => {
  const tab = await openPage('controls.html');
  const { of } = await numbersOf();
  const editor = of('textbox', 'Editor');
  assert.ok(editor, 'the editor is numbered as a textbox');
  const typed = await call('browser_overlay_act', { index: editor, action: 'type', text: 'Hello from Waymark' });
  assert.equal(typed.status, 'ok', typed.error);
  assert.equal(await tab.evaluate(() => document.querySelector('[contenteditable]').textContent), 'Hello from Waymark');
  await tab.close();
});

test('open_in_new_tab on a site already open asks first, then opens the page next to it', async () => {
  await widgets.bringToFront();
  const before = browser.context.pages().length;
  const pending = call('browser_open_in_new_tab', { url: `${site.url}article.html` });
  await waitForQuestion(panel, { timeout: 10_000 });
  assert.match(await panel.textContent('#question-text'), /already open|new tab/i);
  await send(panel, '/yes');
  const opened = await pending;
  assert.equal(opened.status, 'ok', opened.error);
  const fresh = await until(
    () => browser.context.pages().find((p) => p.url().endsWith('article.html') && p !== page),
    'the new tab',
  );
  const pages = browser.context.pages();
  assert.equal(pages.length, before + 1);
  assert.ok(fresh, pages.map((p) => p.url()).join(', '));
  await fresh.close();
});

test('from the panel: /banners closes the banners and says which, /next and /prev move the focus', async () => {
  await page.bringToFront();
  await command(`/go ${site.url}banners.html`, /^Opened /, 20_000);
  await page.frameLocator('#cmp').locator('#fr-reject').waitFor();
  const closed = await command('/banners', /^Closed \d+ banners: /, 20_000);
  for (const name of ['Reject all', 'Alle ablehnen', 'No thanks', 'Continuer sans accepter']) {
    assert.ok(closed.includes(name), closed);
  }
  assert.equal(await page.evaluate(() => window.choices.en), 'rejected');
  await command('/next', /^Focus on 1, \w+, Read the article\.$/);
  assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), 'Read the article');
  await command('/prev button', /^No other control to move to\. Say \/list for the controls\.$/);
  await command('/banners', /^No banner to close\.$/, 20_000);
});
