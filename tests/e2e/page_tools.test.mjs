// The page tools from the panel, keyboard only: find (case-, accent- and space-insensitive), read (a
// summary that leaves hidden text out), scroll (page and inner container), press (Enter submits a
// field's form), navigation (go, back, forward, reload) with numbers renewed, and tabs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { command as run, openFixture, replyCount, send, waitForReply } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('article.html'));
});


after(async () => {
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
  const list = await command('/list', /controls on "Kettle guide"/);
  const review = list.split('\n').find((l) => l.endsWith('Review 1')).split(', ')[0];
  await command(`/scroll bottom ${review}`, /^Scrolled to the bottom\.$/);
  assert.ok(await page.evaluate(() => document.querySelector('.box').scrollTop) > 0, 'the inner box scrolled');
});

test('/press Enter in a search field sends its form', async () => {
  const list = await command('/list', /controls on "Kettle guide"/);
  const field = list.split('\n').find((l) => l.includes('Search the guide')).split(', ')[0];
  await command(`/press Enter ${field}`, /^Pressed Enter: the form was sent\.$/);
  assert.equal(await page.evaluate(() => document.body.dataset.searched), 'crème brûlée');
});

test('/go, /back, /forward and /reload navigate and drop stale numbers', async () => {
  await command('/list', /controls on "Kettle guide"/);
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
