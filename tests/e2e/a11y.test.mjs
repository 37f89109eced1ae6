// Accessibility of the side panel, checked by axe-core (from npm) in the states a user meets: idle,
// a question pending, and after an error. Also: the overlay leaves the page's accessibility untouched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { command, openFixture, send } from './lib/harness.mjs';

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
  const list = await command(panel, '/list', /controls on "Checkout fixture"/);
  const pay = list.split('\n').find((l) => l.endsWith('Pay €84.97')).split(', ')[0];
  await send(panel, `/click ${pay}`);
  await panel.waitForFunction(() => document.getElementById('alert').textContent !== '');
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
  await command(panel, '/list', /controls on "Checkout fixture"/);
  const after = { axe: await axe(page), names: await names() };
  assert.deepEqual(after, before);
});
