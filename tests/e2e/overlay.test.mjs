// The numbered list and the overlay, driven from the side panel as a user would: controls.html holds one
// example of every detection rule and exclusion for native controls, ARIA widgets, focusable and
// editable elements, inline handlers and nested open shadow roots; detection.html the pointer-cursor
// rule (in the viewport), custom checkboxes and radios with hidden inputs, summary, the exclusions for
// all of them, dense controls whose badges must not cover each other, and renewal after the page
// changes. (Frames: frames.test.mjs.)
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import {
  EXTENSION_ID,
  command as run,
  isWaymarkHost,
  openFixture,
  replyCount,
  send,
  until,
  waitForReply,
  waitForStatus,
} from './lib/harness.mjs';

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
  const reply = await command('/list all', /controls on "Controls fixture"/);
  const lines = reply.split('\n');
  assert.deepEqual(lines.slice(1), [
    '1, button, Save draft',
    '2, link, Next page',
    '3, text field, E-mail, value a@example.org',
    '4, check box, Gift wrap, checked',
    '5, combo box, Size, value Large',
    '6, text field, Notes',
    '7, text field, Password',
    '8, button, Div button',
    '9, generic, Focusable span',
    '10, text field, Editor, value Edit me',
    '11, button, More details',
    '12, generic, Inline handler',
    '13, link, Nested in link',
    '14, button, Shadow button',
    '15, link, Deep shadow link',
  ]);
  assert.equal(lines[0], '15 controls on "Controls fixture":');
  assert.ok(!reply.includes('hunter2'), 'a password is never read out');
});

/// list_interactives with scope viewport, sent the way the panel sends its tools (the panel has no
/// command for it; the agent and MCP clients use it).
async function viewportList(tabId) {
  return panel.evaluate((tabId) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const id = Math.floor(Math.random() * 1e9);
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === id) resolve(m.result);
    });
    port.postMessage({ type: 'tool', id, tab_id: tabId, tool: { tool: 'list_interactives', scope: 'viewport' } });
  }), tabId);
}

test('a viewport listing (a walk of what is on screen) finds the same controls as the whole-page one', async () => {
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  const listed = await viewportList(tabId);
  assert.equal(listed.status, 'ok');
  assert.deepEqual(listed.data.items.map((i) => `${i.index}, ${i.role}, ${i.name}`), [
    '1, button, Save draft',
    '2, link, Next page',
    '3, textbox, E-mail',
    '4, checkbox, Gift wrap',
    '5, combobox, Size',
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
});

test('the overlay is one host with no attribute and no box, that takes no focus and no clicks', async () => {
  // The host's tag is random: it is the one custom element appended to <html>.
  const host = await page.evaluate(() => {
    const hosts = [...document.documentElement.children].filter((e) => e.localName.includes('-'));
    const h = hosts[0];
    return {
      count: hosts.length,
      tag: /^[a-z]+-[a-z]+$/.test(h.localName) && !h.localName.includes('waymark'),
      last: document.documentElement.lastElementChild === h,
      attributes: h.attributes.length,
      box: h.getClientRects().length,
      shadowVisibleToPage: h.shadowRoot !== null,
      focused: document.activeElement === h,
    };
  });
  assert.deepEqual(host, {
    count: 1, tag: true, last: true, attributes: 0, box: 0, shadowVisibleToPage: false, focused: false,
  });
  // Inside, where only the DevTools protocol looks: the badges' layer is hidden from assistive
  // technology, inert, and lets clicks through.
  const cdp = await browser.context.newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const hosts = [];
    const walk = (node) => {
      if (isWaymarkHost(node)) hosts.push(node);
      for (const child of node.children ?? []) walk(child);
    };
    walk(root);
    const layer = hosts[0]?.shadowRoots?.[0]?.children?.find((c) => c.localName === 'div');
    const attrs = Object.fromEntries((layer?.attributes ?? []).flatMap((a, i, all) => (i % 2 ? [] : [[a, all[i + 1]]])));
    assert.equal(attrs['aria-hidden'], 'true');
    assert.ok('inert' in attrs, JSON.stringify(attrs));
  } finally {
    await cdp.detach().catch(() => {});
  }
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
  // As a user hears the panel start before speaking to it: it loads its language first.
  await waitForStatus(panel, /^Connected\.$/);
  await send(panel, '/list');
  await waitForReply(panel, /^Waymark cannot reach this tab: it shows chrome:\/\/version\/, one of the browser.s own pages/, { after: 0 });
  assert.ok(before >= 0);
  await blank.close();
});

// ---------------------------------------------------------------------------------------------------
// detection.html, in another tab of the same browser, the panel pointed at it.

let detection;

/// Opens `name` in a new tab and points the panel at it (as the tab-switching test above does).
async function usePage(name) {
  const tab = await browser.context.newPage();
  await tab.goto(`${site.url}${name}`);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, tab.url());
  await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
  await waitForStatus(panel, /^Connected\.$/);
  return { tab, tabId };
}

/// The badges Waymark drew in the top frame: number and box, read through the DevTools protocol (the
/// overlay's shadow root is closed to the page and to Playwright).
async function readBadges(tab) {
  const cdp = await browser.context.newCDPSession(tab);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const spans = [];
    const walk = (node, inOverlay) => {
      const here = inOverlay || isWaymarkHost(node);
      const cls = (node.attributes ?? []).findIndex((a, i) => i % 2 === 0 && a === 'class');
      if (here && cls >= 0 && node.attributes[cls + 1] === 'b') spans.push(node);
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child, here);
    };
    walk(root, false);
    const badges = [];
    for (const span of spans) {
      const { model } = await cdp.send('DOM.getBoxModel', { nodeId: span.nodeId });
      const [x1, y1, x2, , , y3] = model.border;
      badges.push({ number: Number(span.children?.[0]?.nodeValue), x: x1, y: y1, w: x2 - x1, h: y3 - y1, nodeId: span.nodeId });
    }
    const style = badges.length
      ? Object.fromEntries((await cdp.send('CSS.enable').then(() => cdp.send('CSS.getComputedStyleForNode', { nodeId: badges[0].nodeId })))
        .computedStyle.map((p) => [p.name, p.value]))
      : {};
    return { badges, style };
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/// A listing line as the panel says it: the role in screen readers' words ("check box" for the
/// ARIA `checkbox` the tool results carry).
const SPOKEN_ROLES = { checkbox: 'check box', radio: 'radio button', combobox: 'combo box', textbox: 'text field' };
const spoken = (line) => line.replace(/^(\d+), (\w+), /, (all, index, role) => `${index}, ${SPOKEN_ROLES[role] ?? role}, `);

const DETECTION_LIST = [
  '1, generic, terms',
  '2, generic, Bold words',
  '3, link, Real link',
  '4, button, Card button',
  '5, checkbox, Dark mode',
  '6, radio, Monthly plan',
  '7, checkbox, Clipped option',
  '8, checkbox, Accept terms',
  '9, generic, Inline handler',
  '10, button, Shipping',
  '11, generic, Shadow span link',
  '12, generic, Deep span link',
  ...Array.from({ length: 10 }, (_, i) => `${13 + i}, link, ${i}`),
  '23, button, Mover',
];

test('a pointer cursor of its own, custom checkboxes and radios, and summary are numbered; the exclusions hold', async () => {
  detection = await usePage('detection.html');
  const reply = await command('/list all', /controls on "Detection fixture"/);
  const lines = reply.split('\n');
  assert.equal(lines[0], `${DETECTION_LIST.length} controls on "Detection fixture":`);
  // Not listed: a span inside a numbered link (its cursor is the link's), a pointer card holding a
  // button (the button is listed), the label of a visible checkbox (the checkbox is), the closed
  // details' content, the aria-disabled, inert, invisible, zero-size, covered and disabled pointer
  // elements, a handler set as a property by the page's script (invisible to the extension's world),
  // and a pointer span below the fold (the cursor rule looks at the viewport only).
  assert.deepEqual(lines.slice(1), DETECTION_LIST.map(spoken));
});

test('a viewport listing names the same on-screen controls', async () => {
  const listed = await viewportList(detection.tabId);
  assert.equal(listed.status, 'ok');
  const names = listed.data.items.map((i) => `${i.index}, ${i.role}, ${i.name}`);
  assert.deepEqual(names, DETECTION_LIST);
});

test('acting by number runs a pointer span\'s handler and toggles a hidden checkbox through its label', async () => {
  const { tab } = detection;
  await command('/list all', /controls on "Detection fixture"/);
  await command('/click 1', /^Clicked 1, generic, terms\.( Nothing changed on the page\.)?$/);
  assert.deepEqual(await tab.evaluate(() => window.clicks), ['terms']);
  await command('/click 5', /^Clicked 5, check box, Dark mode\.$/);
  assert.equal(await tab.evaluate(() => document.getElementById('dark').checked), true);
  await command('/click 6', /^Clicked 6, radio button, Monthly plan\.$/);
  assert.equal(await tab.evaluate(() => document.getElementById('monthly').checked), true);
  await command('/click 10', /^Clicked 10, button, Shipping\.( Nothing changed on the page\.)?$/);
  assert.equal(await tab.evaluate(() => document.querySelector('details').open), true);
});

test('badges of dense controls do not cover each other\'s digits, and keep their style', async () => {
  const { tab } = detection;
  await tab.evaluate(() => { document.querySelector('details').open = false; });
  const reply = await command('/list all', /controls on "Detection fixture"/);
  const total = Number(reply.match(/^(\d+) controls/)[1]);
  const { badges, style } = await until(async () => {
    const read = await readBadges(tab).catch(() => undefined);
    return read?.badges.length === total && read;
  }, `${total} badges drawn`);
  assert.equal(badges.length, total, 'one badge per on-screen control');
  for (const [i, a] of badges.entries()) {
    for (const b of badges.slice(i + 1)) {
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      assert.ok(apart, `badges ${a.number} and ${b.number} overlap: ${JSON.stringify([a, b])}`);
    }
    assert.ok(a.x >= 0 && a.y >= 0 && a.x + a.w <= 1200 && a.y + a.h <= 800, `badge ${a.number} is on screen`);
  }
  assert.ok(parseFloat(style['font-size']) >= 14, `font size ${style['font-size']}`);
  assert.ok(Number(style['font-weight']) >= 700, `font weight ${style['font-weight']}`);
  assert.equal(style['pointer-events'], 'none');
});

test('after the page changes: badges follow a moved element, and removed or many added controls renew the numbers', async () => {
  const { tab } = detection;
  await command('/list all', /controls on "Detection fixture"/);
  const mover = DETECTION_LIST.length;
  // While the overlay redraws, a badge read may vanish mid-read: that read counts as "not yet".
  const badgesNow = () => readBadges(tab).then((read) => read.badges, () => undefined);
  const moverBadge = async () => (await badgesNow())?.find((b) => b.number === mover);
  const before = await until(moverBadge, 'the moving element\'s badge to be drawn');
  await tab.evaluate(() => { document.getElementById('mover').style.marginLeft = '300px'; });
  const after = await until(async () => {
    const badge = await moverBadge();
    return badge && badge.x >= before.x + 250 && badge;
  }, 'the badge to move with its element');
  assert.ok(after.x >= before.x + 250, `the badge moved with its element: ${before.x} → ${after.x}`);

  // A change that removes no numbered element and adds no control keeps the numbers. It comes with
  // the mover moving back, so the badge moving back shows the change was looked at.
  await tab.evaluate(() => {
    document.getElementById('live').textContent = 'Saved.';
    document.getElementById('mover').style.marginLeft = '0px';
  });
  await until(async () => (await moverBadge())?.x < after.x - 250, 'the badge to move back');
  await command(`/click ${mover}`, new RegExp(`^Clicked ${mover}, button, Mover\\.( Nothing changed on the page\\.)?$`));

  // A numbered element removed: every number of that list is refused, with the renewed list. Once
  // the change is looked at, the outdated badges are taken away.
  await tab.evaluate(() => document.querySelector('#dense a').remove());
  await until(async () => (await badgesNow())?.length === 0, 'the outdated badges to go');
  let earlier = await replyCount(panel);
  await command(`/click ${mover}`, /^Number \d+ .*the page changed.*so the numbers were renewed\. Nothing was done\.$/);
  // The renewed list follows the refusal, its first page read as /list reads it.
  await waitForReply(panel, new RegExp(`^${mover - 1} controls on "Detection fixture", 1 to 10:`), { after: earlier });
  await until(async () => (await badgesNow())?.length === mover - 1, 'the renewed numbers to be drawn');

  // Many controls added: the same.
  await tab.evaluate(() => {
    document.getElementById('live').innerHTML = Array.from({ length: 12 }, (_, i) => `<button>Added ${i + 1}</button>`).join('');
  });
  await until(async () => (await badgesNow())?.length === 0, 'the outdated badges to go');
  earlier = await replyCount(panel);
  await command(`/click ${mover - 1}`, /^Number \d+ .*the page changed.*so the numbers were renewed\. Nothing was done\.$/);
  await waitForReply(panel, new RegExp(`^${mover - 1 + 12} controls on "Detection fixture", 1 to 10:`), { after: earlier });
  await command(`/click ${mover - 1}`, new RegExp(`^Clicked ${mover - 1}, button, Mover\\.( Nothing changed on the page\\.)?$`));
});
