// Accessibility of the side panel, checked by axe-core (from npm) in the states a user meets: idle,
// a question pending, and after an error; the activity view (silent, axe-clean when open); the overlay
// leaves the page's accessibility untouched and its badges have at least 7:1 text contrast.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import {
  command, isWaymarkHost, openFixture, replyCount, send, startModel, waitForAlert, waitForQuestion, waitForReply, waitForStatus,
} from './lib/harness.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
let fixture;

before(async () => {
  fixture = await openFixture('actions.html');
});

after(async () => {
  await fixture?.close();
});

/// Runs axe in a page (evaluated over the DevTools protocol, which the extension page's CSP allows).
async function axe(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

test('the side panel has no axe violations when idle, with a question pending, and after an error', async () => {
  const { panel } = fixture;
  assert.deepEqual(await axe(panel), [], 'idle');
  const list = await command(panel, '/list all', /controls on "Checkout fixture"/);
  const pay = list.split('\n').find((l) => l.endsWith('Pay €84.97')).split(', ')[0];
  await send(panel, `/click ${pay}`);
  await waitForQuestion(panel);
  assert.deepEqual(await axe(panel), [], 'confirm pending');
  await command(panel, '/no', /^Not done: you said no\.$/);
  await command(panel, '/click 999', /^There is no number 999/);
  assert.deepEqual(await axe(panel), [], 'after an error');
});

test('the overlay changes neither the page\'s axe result nor its accessible names', async () => {
  const { page, panel } = fixture;
  await command(panel, '/overlay off', /^Numbers hidden\.$/);
  const names = () => page.evaluate(() => [...document.querySelectorAll('button, input, select, a')].map((e) => e.labels?.[0]?.textContent ?? e.textContent));
  const before = { axe: await axe(page), names: await names() };
  await command(panel, '/overlay on', /^Numbers shown on the page\.$/);
  await command(panel, '/list all', /controls on "Checkout fixture"/);
  const after = { axe: await axe(page), names: await names() };
  assert.deepEqual(after, before);
});

test('the activity view lists the question and its answer, silently, and passes axe when open', async () => {
  const { panel } = fixture;
  // The first test asked before paying and the user said no: both are in the view.
  const entries = await panel.locator('#activity li').allTextContents();
  assert.ok(entries.some((e) => /Question: .*Pay/.test(e)), entries.join('\n'));
  assert.ok(entries.some((e) => /Answer: no$/.test(e)), entries.join('\n'));
  // Not a live region, and inside none: nothing in it is spoken a second time.
  const live = await panel.evaluate(() => {
    for (let e = document.getElementById('activity'); e; e = e.parentElement) {
      if (e.hasAttribute('aria-live') || ['log', 'status', 'alert'].includes(e.getAttribute('role'))) return e.id || e.tagName;
    }
    return null;
  });
  assert.equal(live, null);
  const regions = () => panel.evaluate(() => ['transcript', 'status', 'alert'].map((id) => document.getElementById(id).innerHTML));
  const before = await regions();
  // Open it with the keyboard: focus the summary, press Enter.
  await panel.focus('#activity-view summary');
  await panel.keyboard.press('Enter');
  assert.equal(await panel.evaluate(() => document.getElementById('activity-view').open), true);
  assert.deepEqual(await regions(), before, 'opening the view says nothing');
  assert.deepEqual(await axe(panel), [], 'activity view open');
  await panel.keyboard.press('Enter');
});

test('overlay badges have text contrast of at least 7:1, computed from the rendered colours', async () => {
  const { browser, page, panel } = fixture;
  await command(panel, '/list all', /controls on "Checkout fixture"/);
  // The badges live in a closed shadow root: read them through the DevTools protocol, which pierces it.
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const badges = [];
  const walk = (node, inOverlay) => {
    const here = inOverlay || isWaymarkHost(node);
    const cls = (node.attributes ?? []).findIndex((a, i) => i % 2 === 0 && a === 'class');
    if (here && cls >= 0 && node.attributes[cls + 1].split(/\s+/).includes('b')) badges.push(node.nodeId);
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child, here);
  };
  walk(root, false);
  assert.ok(badges.length > 0, 'badges are drawn');
  const channel = (c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const rgb = (text) => text.match(/[\d.]+/g).map(Number);
  for (const nodeId of badges.slice(0, 5)) {
    const { computedStyle } = await cdp.send('CSS.getComputedStyleForNode', { nodeId });
    const style = Object.fromEntries(computedStyle.map((p) => [p.name, p.value]));
    const fg = rgb(style.color);
    const bg = rgb(style['background-color']);
    assert.ok(bg.length === 3 || bg[3] === 1, `an opaque badge background: ${style['background-color']}`);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    assert.ok(ratio >= 7, `contrast ${ratio.toFixed(2)}:1 for ${style.color} on ${style['background-color']}`);
  }
  await cdp.detach();
});


test('with the agent: axe passes while running and with a manual step pending; each status change is said once', async () => {
  const model = await startModel([
    // Slow enough for axe to run while the agent works.
    { delay_ms: 2500, kind: 'tool_call', name: 'browser_list_interactives', arguments: {}, content: 'Looking at the page' },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 3, action: 'type', text: 'hunter2' } },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'You are logged in.' } },
  ]);
  const env = { WAYMARK_LLM_BASE_URL: model.url, WAYMARK_LLM_MODEL: 'scripted', WAYMARK_LLM_TIMEOUT_SECS: '20' };
  const agentFixture = await openFixture('actions.html', { env });
  try {
    const { panel, page } = agentFixture;
    // Every change of the alert region, as a screen reader would hear it.
    await panel.evaluate(() => {
      window.__alerts = [];
      const alert = document.getElementById('alert');
      new MutationObserver(() => window.__alerts.push(alert.textContent))
        .observe(alert, { childList: true, characterData: true, subtree: true });
      window.__waymarkStatusLog.length = 0;
    });
    await command(panel, '/chat', /^Chat mode/);
    await send(panel, 'Log me in');
    await waitForStatus(panel, /^The agent is working…$/);
    assert.deepEqual(await axe(panel), [], 'running');
    await waitForAlert(panel, { timeout: 20_000 });
    // The step itself says the agent waits: the status line holds nothing stale after it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await panel.textContent('#status'), '');
    assert.deepEqual(await axe(panel), [], 'manual step pending');
    await page.fill('#pw', 'typed by the user');
    await command(panel, 'done', /^You are logged in\.$/, 20_000);
    await waitForStatus(panel, /^The agent is ready\.$/);

    const statuses = await panel.evaluate(() => window.__waymarkStatusLog.slice());
    for (let i = 1; i < statuses.length; i++) {
      assert.notEqual(statuses[i], statuses[i - 1], `status said twice in a row: ${JSON.stringify(statuses)}`);
    }
    assert.ok(statuses.includes('The agent is working…'), JSON.stringify(statuses));
    assert.ok(!statuses.includes('The agent is waiting for you.'), `said after the step itself: ${JSON.stringify(statuses)}`);
    // The hand-over was said once in the alert region, then cleared (silently) when it was done; the
    // outcome of that answer was said there too, once.
    const alerts = (await panel.evaluate(() => window.__alerts)).filter((t) => t !== '');
    assert.equal(alerts.length, 2, JSON.stringify(alerts));
    assert.match(alerts[0], /^Waymark leaves this step to you/);
    assert.equal(alerts[1], 'You are logged in.');
    // The activity view has the agent's tool calls and the hand-over, and none of it went to a live region.
    const entries = await panel.locator('#activity li').allTextContents();
    assert.ok(entries.some((e) => /Agent, browser_list_interactives, ok/.test(e)), entries.join('\n'));
    assert.ok(entries.some((e) => /Step for you: /.test(e)), entries.join('\n'));
    assert.ok(entries.some((e) => /Answer: done$/.test(e)), entries.join('\n'));
    assert.ok(!(await panel.textContent('#transcript')).includes('Agent, browser_list_interactives'));
  } finally {
    await agentFixture.close();
    model.close();
  }
});

test('a whole command-mode session with the keyboard only: list, type and click by number, read', async () => {
  const { panel, page } = fixture;
  // Tab to the message input, as a keyboard user would.
  for (let i = 0; i < 12 && (await panel.evaluate(() => document.activeElement?.id)) !== 'message'; i++) {
    await panel.keyboard.press('Tab');
  }
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'message');
  const said = async (text, pattern) => {
    const before = await replyCount(panel);
    await panel.keyboard.type(text);
    await panel.keyboard.press('Enter');
    return waitForReply(panel, pattern, { after: before });
  };
  const list = await said('/list all', /controls on "Checkout fixture"/);
  const number = (name) => list.split('\n').find((l) => l.endsWith(`, ${name}`)).split(', ')[0];
  await said(`/type ${number('Name')} Grace Hopper`, /^Typed into \d+, text field, Name\.$/);
  assert.equal(await page.inputValue('#name'), 'Grace Hopper');
  await said(`/click ${number('Save draft')}`, /^Clicked \d+, button, Save draft\.( Nothing changed on the page\.)?$/);
  assert.equal(await page.evaluate(() => window.events.saved), 1);
  await said('/read', /Checkout/);
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'message', 'the focus stays in the input');
});
