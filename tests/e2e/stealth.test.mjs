// No page can tell that Waymark is installed or in use: for its users, being detected discloses a
// disability. stealth.html and its two child frames (same-origin and cross-origin) run a page's own
// watch in their main world (fixtures/stealth-watch.js): every `message` event, the tag of every element
// added to or removed from the document, every attribute written, the resources in the page's
// performance timeline, and an attempt to load Waymark's files by its fixed extension id.
//
// Idle (installed, never used in the tab): the page sees exactly what it sees in a browser with no
// extension at all — the same document, the same globals, the same watch records, the same event
// listeners on its window and document — and there is no Waymark script in it, so no listener of its
// either (the DevTools protocol lists the scripts' worlds and each world's listeners); the first tool
// addressed to the tab is what puts Waymark in, which the same checks see. In use: after a listing, clicks by number in
// both child frames, the overlay hidden and shown, the focus moved past a control that cannot take it,
// and a screenshot (which masks the password fields), no page received a message, saw Waymark's files
// load or could load them itself, saw an attribute written, or an element whose name or shape gives it
// away; the overlay's host is in the page only while numbers are shown, and its tag changes from one
// load of the page to the next.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  command as run, launchPlain, openFixture, until,
} from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('stealth.html'));
  await loaded(page);
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

/// Waits for both child frames' buttons to be labelled.
async function loaded(tab) {
  await tab.frameLocator('#same').getByText('Same-origin button').waitFor();
  await tab.frameLocator('#cross').getByText('Cross-origin button').waitFor();
}

/// The top page and its two child frames, by what they show.
function frames(tab = page) {
  const all = tab.frames();
  const child = (label) => all.find((f) => f.url().includes(`label=${label}`));
  return { top: tab.mainFrame(), same: child('Same-origin'), cross: child('Cross-origin') };
}

/// What each page's own watch recorded.
async function watched(tab = page) {
  const out = {};
  for (const [name, frame] of Object.entries(frames(tab))) {
    out[name] = await frame.evaluate(() => {
      const { messages, added, removed, attributes, resources } = window.__seen;
      return { messages, added, removed, attributes, resources };
    });
  }
  return out;
}

/// The attributes the fixture's own scripts write: the cross-origin frame's address, and a child
/// frame's mark that its button was clicked.
const PAGE_OWN_ATTRIBUTES = ['iframe[src]', 'body[data-clicked]'];

/// Runs a tool from the panel on `tab`, as the panel's own port does (for tools without a typed
/// command).
async function panelTool(tool, tab = page) {
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, tab.url());
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

/// Everything the pages of `tab` can observe of themselves, per frame: the document, the window's
/// properties, what their own watch recorded, and whether their attempt to load Waymark's files while
/// loading failed. Read after the page has settled. The site's icon, which the browser itself fetches
/// once per site and may have in its cache already, is left out of the resources.
async function observable(tab) {
  const out = {};
  for (const [name, frame] of Object.entries(frames(tab))) {
    out[name] = await frame.evaluate(async () => {
      const seen = { ...window.__seen, files: await window.__filesAtLoad };
      seen.resources = seen.resources.filter((r) => !r.endsWith('/favicon.ico'));
      return { document: document.documentElement.outerHTML, globals: Object.getOwnPropertyNames(window).sort(), seen };
    });
  }
  return out;
}

/// What the DevTools protocol sees in the top frame of `tab` (and its same-origin child, which shares
/// its process): the event listeners on the page's window and document, the worlds of extension
/// scripts in it, and the listeners each of those worlds put on the window and document.
async function underTheHood(context, tab) {
  const cdp = await context.newCDPSession(tab);
  try {
    const worlds = [];
    // An extension's content scripts run in a world of their own, whose origin is the extension's (the
    // test driver's own worlds are isolated too, with the page's origin).
    cdp.on('Runtime.executionContextCreated', ({ context: c }) => {
      if (c.origin?.startsWith('chrome-extension://')) worlds.push(c);
    });
    await cdp.send('Runtime.enable');
    const listenersIn = async (contextId) => {
      const out = {};
      for (const what of ['window', 'document']) {
        const { result } = await cdp.send('Runtime.evaluate', { expression: what, ...(contextId ? { contextId } : {}) });
        const found = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: 0 });
        out[what] = found.listeners.map((l) => `${l.type}${l.useCapture ? ' capture' : ''}`).sort();
      }
      return out;
    };
    const listeners = await listenersIn();
    const extensionListeners = [];
    for (const world of worlds) {
      const found = await listenersIn(world.id);
      extensionListeners.push(...found.window, ...found.document);
    }
    return { listeners, worlds: worlds.map((w) => w.origin), extensionListeners };
  } finally {
    await cdp.detach().catch(() => {});
  }
}

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

test('installed but not used in a tab, Waymark adds nothing its pages can observe; the first use puts it in', async () => {
  // A tab the panel does not work on, loaded in Waymark's browser and in one with no extension.
  const url = `${site.url}stealth.html?idle`;
  const idle = await browser.context.newPage();
  await idle.goto(url);
  await loaded(idle);
  const plain = await launchPlain();
  try {
    const bare = await plain.context.newPage();
    await bare.goto(url);
    await loaded(bare);
    // Whatever a page does after loading (its frames' scripts) is done.
    await idle.waitForTimeout(500);
    const [withWaymark, without] = [await observable(idle), await observable(bare)];
    assert.deepEqual(withWaymark, without, 'the pages see the same with Waymark installed as with no extension');
    const idleHood = await underTheHood(browser.context, idle);
    const bareHood = await underTheHood(plain.context, bare);
    assert.deepEqual(idleHood.listeners, bareHood.listeners, 'the page’s window and document have the same listeners');
    assert.deepEqual(idleHood.worlds, [], 'no extension script in the page');
    assert.deepEqual(idleHood.extensionListeners, [], 'so no listener of an extension’s');

    // The first tool addressed to the tab puts Waymark's script into its frames: the same look sees it.
    const listed = await panelTool({ tool: 'list_interactives' }, idle);
    assert.equal(listed.status, 'ok', listed.error);
    assert.ok(listed.data.items.some((i) => i.name === 'Cross-origin button'), 'every frame answered');
    const used = await underTheHood(browser.context, idle);
    assert.ok(used.worlds.length > 0, 'the protocol shows Waymark’s script once it is used');
    assert.ok(used.extensionListeners.includes('scroll capture'), `and the listeners its listing watches the page with: ${used.extensionListeners}`);
    assert.deepEqual(used.listeners, idleHood.listeners, 'none of which is in the page’s own world');
    // Even in use, the page's own watch still saw no message and no Waymark file.
    for (const [name, { messages, resources }] of Object.entries(await watched(idle))) {
      assert.deepEqual(messages, [], name);
      assert.deepEqual(resources.filter((r) => !r.startsWith('http')), [], `${name} saw ${resources}`);
    }
  } finally {
    await plain.close();
    await idle.close();
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
  for (const [name, { messages, resources, attributes }] of Object.entries(seen)) {
    assert.deepEqual(messages, [], `${name} received messages`);
    // The content script loads Waymark's code in every frame: the page's timeline must not show it
    // (the timeline works: it shows the page's own script).
    assert.ok(resources.some((r) => r.endsWith('/stealth-watch.js')), `${name} saw ${resources}`);
    assert.deepEqual(resources.filter((r) => !r.startsWith('http')), [], `${name} saw ${resources}`);
    assert.deepEqual(attributes.filter((a) => !PAGE_OWN_ATTRIBUTES.includes(a)), [], `${name}: Waymark wrote attributes`);
  }
  for (const [name, { added, removed }] of Object.entries(seen)) {
    assert.deepEqual(added.filter((tag) => tag.includes('waymark')), [], `${name}: ${added}`);
    // The overlay (badges in every frame) and the screenshot's mask (each frame has a password field)
    // were added, under one random tag per frame; hiding the numbers took the overlay away.
    const tags = hostTags(added);
    assert.equal(tags.length, 1, `${name}: ${added}`);
    assert.match(tags[0], /^[a-z]+-[a-z]+$/, name);
    assert.ok(added.filter((tag) => tag === tags[0]).length >= 2, `${name}: overlay and mask: ${added}`);
    assert.ok(removed.includes(tags[0]), `${name}: the overlay left with the numbers: ${removed}`);
  }
  firstTag = hostTags(seen.top.added)[0];
});

/// Waymark's hosts in a frame's document now (custom elements under the root element: the fixtures
/// have none of their own), with all a page can measure of each.
const hostsIn = (frame) => frame.evaluate(() => [...document.documentElement.children]
  .filter((e) => e.localName.includes('-'))
  .map((host) => {
    const rect = host.getBoundingClientRect();
    return {
      attributes: host.attributes.length,
      children: host.childNodes.length,
      html: host.innerHTML,
      shadowRoot: host.shadowRoot,
      box: [rect.x, rect.y, rect.width, rect.height, host.getClientRects().length, host.offsetWidth, host.offsetHeight],
      display: getComputedStyle(host).display,
      text: host.textContent,
    };
  }));

test('the overlay is in the page only while numbers are shown, and has no attribute or box to find it by', async () => {
  await command('/list', /controls on "Stealth fixture"/);
  for (const [name, frame] of Object.entries(frames())) {
    // The last screenshot's mask (same tag, same shape) leaves after its three seconds.
    await until(async () => (await hostsIn(frame)).length === 1, `${name}: the mask to go`);
    assert.deepEqual(await hostsIn(frame), [{
      attributes: 0, children: 0, html: '', shadowRoot: null, box: [0, 0, 0, 0, 0, 0, 0], display: 'contents', text: '',
    }], `${name}: the host while numbers are shown`);
  }
  await command('/overlay off', /^Numbers hidden\.$/);
  for (const [name, frame] of Object.entries(frames())) {
    assert.deepEqual(await hostsIn(frame), [], `${name}: no host while the numbers are hidden`);
  }
  // Reading the page draws nothing.
  await command('/read', /Stealth fixture/);
  for (const [name, frame] of Object.entries(frames())) assert.deepEqual(await hostsIn(frame), [], name);
  await command('/overlay on', /^Numbers shown on the page\.$/);
  assert.equal((await hostsIn(frames().top)).length, 1, 'the numbers are back');
});

test('moving the focus writes no attribute: a control that cannot take the focus is passed over', async () => {
  const reply = await command('/list', /controls on "Stealth fixture"/);
  const lines = reply.split('\n');
  const number = (name) => lines.find((l) => l.includes(`, button, ${name}`))?.split(',')[0];
  assert.ok(number('Div button'), `the div with role=button is numbered: ${reply}`);
  await page.evaluate(() => document.activeElement?.blur());
  await command('/next', new RegExp(`^Focus on ${number('Top button')}, button, Top button\\.$`));
  // The next button is the div, which takes no focus without a tabindex: the one after it gets it.
  await command('/next button', new RegExp(`^Focus on ${number('Same-origin button')}, button, Same-origin button\\.$`));
  assert.equal(await frames().same.evaluate(() => document.activeElement.id), 'b');
  for (const [name, { attributes }] of Object.entries(await watched())) {
    assert.deepEqual(attributes.filter((a) => !PAGE_OWN_ATTRIBUTES.includes(a)), [], `${name}: Waymark wrote attributes`);
  }
  assert.equal(await page.evaluate(() => document.querySelector('[role=button]').hasAttribute('tabindex')), false);
});

test('the host’s tag changes from one load of the page to the next', async () => {
  assert.ok(firstTag, 'an earlier test found the tag');
  await page.reload();
  await loaded(page);
  await command('/list all', /controls on "Stealth fixture"/);
  const { top } = await watched();
  const tags = hostTags(top.added);
  assert.equal(tags.length, 1, `${top.added}`);
  assert.notEqual(tags[0], firstTag);
  assert.deepEqual(top.messages, []);
});
