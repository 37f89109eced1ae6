// No page can tell that Waymark is installed or in use: for its users, being detected discloses a
// disability. stealth.html and its two child frames (same-origin and cross-origin) run a page's own
// watch in their main world (fixtures/stealth-watch.js): every `message` event, the tag of every element
// added to the document, the resources in the page's performance timeline, and an attempt to load
// Waymark's files by its fixed extension id. After a listing, clicks by number in both child frames,
// the overlay hidden and shown, and a screenshot (which masks the password fields), no page received a
// message, saw Waymark's files load or could load them itself, and no element Waymark added has a name
// that gives it away; its tag changes from one load of the page to the next.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { command as run, openFixture } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('stealth.html'));
  await loaded();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

/// Waits for both child frames' buttons to be labelled.
async function loaded() {
  await page.frameLocator('#same').getByText('Same-origin button').waitFor();
  await page.frameLocator('#cross').getByText('Cross-origin button').waitFor();
}

/// The top page and its two child frames, by what they show.
function frames() {
  const all = page.frames();
  const child = (label) => all.find((f) => f.url().includes(`label=${label}`));
  return { top: page.mainFrame(), same: child('Same-origin'), cross: child('Cross-origin') };
}

/// What each page's own watch recorded.
async function watched() {
  const out = {};
  for (const [name, frame] of Object.entries(frames())) {
    out[name] = await frame.evaluate(() => {
      const { messages, added, resources } = window.__seen;
      return { messages, added, resources };
    });
  }
  return out;
}

/// Runs a tool from the panel on the fixture's tab, as the panel's own port does (for the screenshot,
/// which has no typed command).
async function panelTool(tool) {
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  return panel.evaluate(({ tabId, tool }) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === 5151) {
        port.disconnect();
        resolve(m.result);
      }
    });
    port.postMessage({ type: 'tool', id: 5151, tab_id: tabId, tool });
  }), { tabId, tool });
}

/// Waymark's hosts among the tags a page saw added: the page's own fixtures use no custom elements.
const hostTags = (added) => [...new Set(added.filter((tag) => tag.includes('-')))];

test('no page can load Waymark’s files by its fixed extension id', async () => {
  for (const [name, frame] of Object.entries(frames())) {
    // Once while the page loaded (the extension was running already), once now.
    for (const files of [await frame.evaluate(() => window.__filesAtLoad), await frame.evaluate(() => window.__tryFiles())]) {
      assert.deepEqual(Object.keys(files).sort(), ['fetch extension module', 'fetch glue', 'fetch wasm', 'import glue'], name);
      for (const [what, result] of Object.entries(files)) {
        assert.match(result, /^refused/, `${name}: ${what} ${result}`);
      }
    }
  }
});

let firstTag;

test('listing, clicks in child frames, the overlay and a screenshot leave nothing a page can see', async () => {
  const reply = await command('/list all', /controls on "Stealth fixture"/);
  const lines = reply.split('\n');
  const number = (name) => lines.find((l) => l.includes(`, button, ${name}`))?.split(',')[0];
  const same = number('Same-origin button');
  const cross = number('Cross-origin button');
  assert.ok(same && cross, reply);
  assert.ok(Number(number('Top button')) < Number(same) && Number(same) < Number(cross), reply);

  await command(`/click ${same}`, new RegExp(`^Clicked ${same}, button, Same-origin button\\.$`));
  await command(`/click ${cross}`, new RegExp(`^Clicked ${cross}, button, Cross-origin button\\.$`));
  const { same: sameFrame, cross: crossFrame } = frames();
  assert.equal(await sameFrame.evaluate(() => document.body.dataset.clicked), 'yes');
  assert.equal(await crossFrame.evaluate(() => document.body.dataset.clicked), 'yes');

  await command('/overlay off', /^Numbers hidden\.$/);
  await command('/overlay on', /^Numbers shown on the page\.$/);

  // The browser pictures only the tab its window shows; the panel runs in a tab of its own here.
  await page.bringToFront();
  const shot = await panelTool({ tool: 'screenshot' });
  assert.equal(shot.status, 'ok', shot.error);

  const seen = await watched();
  for (const [name, { messages, resources }] of Object.entries(seen)) {
    assert.deepEqual(messages, [], `${name} received messages`);
    // The content script loads Waymark's code in every frame: the page's timeline must not show it
    // (the timeline works: it shows the page's own script).
    assert.ok(resources.some((r) => r.endsWith('/stealth-watch.js')), `${name} saw ${resources}`);
    assert.deepEqual(resources.filter((r) => !r.startsWith('http')), [], `${name} saw ${resources}`);
  }
  for (const [name, { added }] of Object.entries(seen)) {
    assert.deepEqual(added.filter((tag) => tag.includes('waymark')), [], `${name}: ${added}`);
    // The overlay (badges in every frame) and the screenshot's mask (each frame has a password field)
    // were added, under one random tag per frame.
    const tags = hostTags(added);
    assert.equal(tags.length, 1, `${name}: ${added}`);
    assert.match(tags[0], /^[a-z]+-[a-z]+$/, name);
    assert.ok(added.filter((tag) => tag === tags[0]).length >= 2, `${name}: overlay and mask: ${added}`);
  }
  firstTag = hostTags(seen.top.added)[0];
});

test('the host’s tag changes from one load of the page to the next', async () => {
  assert.ok(firstTag, 'the previous test found the tag');
  await page.reload();
  await loaded();
  await command('/list all', /controls on "Stealth fixture"/);
  const { top } = await watched();
  const tags = hostTags(top.added);
  assert.equal(tags.length, 1, `${top.added}`);
  assert.notEqual(tags[0], firstTag);
  assert.deepEqual(top.messages, []);
});
