// Accessible names against Chrome's own: each case of fixtures/accname.html is one control with the
// name the accessible-name rules give it. Chrome's name is read from its accessibility tree (the
// DevTools protocol), Waymark's from its listing; wherever Chrome gives the expected name, Waymark must
// give it too. The table of all three is printed, so a case Chrome gets wrong is seen as well.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFixture } from './lib/harness.mjs';

let fixture;
let tabId;

before(async () => {
  fixture = await openFixture('accname.html');
  tabId = await fixture.panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, fixture.page.url());
});

after(async () => {
  await fixture?.close();
});

/// The whole-page listing, asked the way the panel asks for its tools.
function listing() {
  return fixture.panel.evaluate((tabId) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const id = Math.floor(Math.random() * 1e9);
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === id) {
        port.disconnect();
        resolve(m.result);
      }
    });
    port.postMessage({ type: 'tool', id, tab_id: tabId, tool: { tool: 'list_interactives', limit: 500 } });
  }), tabId);
}

test('Waymark names every case as Chrome does wherever Chrome follows the rules', async () => {
  const { page, browser } = fixture;
  const cases = await page.evaluate(() => [...document.querySelectorAll('.case')].map((c, i) => {
    c.querySelector('.target').id ||= `target-${i}`;
    return { what: c.dataset.case, role: c.dataset.role, expect: c.dataset.expect, id: c.querySelector('.target').id };
  }));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Accessibility.enable');
  const rows = [];
  for (const [i, c] of cases.entries()) {
    // One case on the page at a time, so the listing's control of that role is the case's.
    await page.evaluate((i) => document.querySelectorAll('.case').forEach((e, j) => { e.style.display = i === j ? '' : 'none'; }), i);
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `#${c.id}` });
    const { node } = await cdp.send('DOM.describeNode', { nodeId });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: node.backendNodeId, fetchRelatives: false });
    const chrome = (nodes[0]?.name?.value ?? '').replace(/\s+/g, ' ').trim();
    const listed = await listing();
    assert.equal(listed.status, 'ok', listed.error);
    const item = listed.data.items.find((it) => it.role === c.role);
    const waymark = item?.name ?? '(not listed)';
    rows.push({ case: c.what, expected: c.expect, chrome, waymark });
  }
  console.table(rows);
  const chromeRight = rows.filter((r) => r.chrome === r.expected);
  const missed = chromeRight.filter((r) => r.waymark !== r.expected);
  console.log(`Chrome matches ${chromeRight.length} of ${rows.length} cases; Waymark ${rows.filter((r) => r.waymark === r.expected).length}`);
  assert.deepEqual(missed, [], 'cases Chrome names right and Waymark does not');
});
