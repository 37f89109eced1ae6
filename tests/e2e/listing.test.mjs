// A listing after the page changed: a repeated listing re-reads only what changed since the last one
// (extension/src/watch.rs, extension/src/detect/memo.rs), so every kind of change must show in the
// next list — a control added, removed, renamed (its own text, its label's, inside a shadow root),
// hidden (itself, through an ancestor, by a new style sheet), a value a script set, a control moved
// into and out of view, a new frame — while the numbers of an unchanged page stay the same and a
// removed control's number is refused as stale, never given to another control.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFixture, until } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
let tabId;

before(async () => {
  ({ browser, site, page, panel } = await openFixture('listing.html'));
  tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/// A page tool sent the way the panel sends its tools, answered by the service worker.
function tool(body) {
  return panel.evaluate(({ tabId, body }) => new Promise((resolve) => {
    const port = chrome.runtime.connect({ name: 'panel' });
    const id = Math.floor(Math.random() * 1e9);
    port.onMessage.addListener((m) => {
      if (m?.type === 'tool_result' && m.id === id) {
        port.disconnect();
        resolve(m.result);
      }
    });
    port.postMessage({ type: 'tool', id, tab_id: tabId, tool: body });
  }), { tabId, body });
}

/// The default listing (the whole page, the first 50) as "number, role, name[, value]" lines.
async function list() {
  const result = await tool({ tool: 'list_interactives' });
  assert.equal(result.status, 'ok', JSON.stringify(result));
  return result.data.items.map((i) => [i.index, i.role, i.name, ...(i.value ? [`value ${i.value}`] : [])].join(', '));
}

const names = async () => (await list()).map((line) => line.split(', ')[2]);

test('an unchanged page lists the same controls under the same numbers', async () => {
  const first = await list();
  assert.deepEqual(first, [
    '1, button, First',
    '2, button, Second',
    '3, button, Inside section',
    '4, textbox, Quantity, value 1',
    '5, button, 0 in the cart',
    '6, button, Shadow',
    '7, button, Last',
  ]);
  assert.deepEqual(await list(), first);
});

test('a control added or removed after a listing shows in the next one', async () => {
  await page.evaluate(() => {
    const added = document.createElement('button');
    added.textContent = 'Added';
    document.getElementById('second').after(added);
  });
  assert.deepEqual(await names(), ['First', 'Second', 'Added', 'Inside section', 'Quantity', '0 in the cart', 'Shadow', 'Last']);
  await page.evaluate(() => document.getElementById('second').remove());
  assert.deepEqual(await names(), ['First', 'Added', 'Inside section', 'Quantity', '0 in the cart', 'Shadow', 'Last']);
});

test('a removed control\'s number is refused as stale, never given to the control after it', async () => {
  const before = await list();
  const number = before.findIndex((line) => line.endsWith(', Added')) + 1;
  await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Added').remove());
  const refused = await tool({ tool: 'describe', index: number });
  assert.equal(refused.status, 'error', JSON.stringify(refused));
  assert.equal(refused.kind, 'stale');
  assert.match(refused.error, /is no longer on the page/);
  // The refusal brings the fresh list, without the removed control.
  assert.ok(!refused.data.items.some((i) => i.name === 'Added'));
});

test('a renamed control, by its own text, its label\'s or inside a shadow root, is listed by its new name', async () => {
  await page.evaluate(() => {
    document.getElementById('count').firstChild.data = '3';
    document.getElementById('qty-label').firstChild.data = 'How many ';
  });
  assert.deepEqual(await names(), ['First', 'Inside section', 'How many', '3 in the cart', 'Shadow', 'Last']);
  // Alone, so nothing outside the shadow root changed.
  await page.evaluate(() => {
    document.getElementById('host').shadowRoot.getElementById('shadowed').firstChild.data = 'Shadow renamed';
  });
  assert.deepEqual(await names(), ['First', 'Inside section', 'How many', '3 in the cart', 'Shadow renamed', 'Last']);
});

test('a value a script set without an event is listed', async () => {
  await page.evaluate(() => { document.getElementById('qty').value = '7'; });
  assert.ok((await list()).includes('3, textbox, How many, value 7'));
});

test('a control hidden itself, through an ancestor or by a new style sheet is no longer listed', async () => {
  await page.evaluate(() => document.getElementById('first').classList.add('gone'));
  assert.ok(!(await names()).includes('First'));
  await page.evaluate(() => { document.getElementById('section').hidden = true; });
  assert.ok(!(await names()).includes('Inside section'));
  await page.evaluate(() => {
    const sheet = document.createElement('style');
    sheet.textContent = '#last { visibility: hidden; }';
    document.head.append(sheet);
  });
  assert.ok(!(await names()).includes('Last'));
  // And back.
  await page.evaluate(() => {
    document.getElementById('first').classList.remove('gone');
    document.getElementById('section').hidden = false;
    document.head.lastElementChild.remove();
  });
  assert.deepEqual(await names(), ['First', 'Inside section', 'How many', '3 in the cart', 'Shadow renamed', 'Last']);
});

test('a control that only its pointer cursor marks is listed while it is in view, and not after', async () => {
  await page.evaluate(() => document.getElementById('card').scrollIntoView());
  await until(async () => (await names()).includes('Far card'), 'the card in view to be listed');
  await page.evaluate(() => window.scrollTo(0, 0));
  await until(async () => !(await names()).includes('Far card'), 'the card out of view to be left out');
});

test('a control moved by the page into view is listed, and one moved out is not', async () => {
  // The card comes to the top without any scrolling, then goes back down.
  await page.evaluate(() => document.getElementById('far').style.setProperty('margin-top', '0'));
  await until(async () => (await names()).includes('Far card'), 'the card moved into view to be listed');
  await page.evaluate(() => document.getElementById('far').style.removeProperty('margin-top'));
  await until(async () => !(await names()).includes('Far card'), 'the card moved out of view to be left out');
});

test('a frame added after a listing has its controls in the next one', async () => {
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.srcdoc = '<button>Framed</button>';
    document.getElementById('section').after(frame);
  });
  await until(async () => (await names()).includes('Framed'), 'the new frame\'s button to be listed');
  assert.deepEqual(await names(), ['First', 'Inside section', 'Framed', 'How many', '3 in the cart', 'Shadow renamed', 'Last']);
});
