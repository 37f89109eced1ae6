// Stopping the agent end to end: the real extension, the real host and the scripted model. /stop
// while the model thinks ends the run within a second (the model's late answer never runs), "continue"
// goes on with the same goal, Escape in the panel stops it too, and "стоп" typed while a question waits
// withdraws the question: a late /yes runs nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { command, openFixture, send, startModel, waitForAlert, waitForQuestion } from './lib/harness.mjs';

let model;
let browser;
let site;
let page;
let panel;

// How long the scripted model "thinks" before the answers the user stops.
const THINKS_MS = 3_000;

const STEPS = [
  { kind: 'tool_call', name: 'browser_list_interactives', arguments: {} },
  // Stopped while it is on its way: this click never runs.
  { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 4, action: 'click' }, delay_ms: THINKS_MS },
  // After "continue".
  { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'Going on with your draft.' } },
  // Stopped by Escape while it is on its way.
  { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 4, action: 'click' }, delay_ms: THINKS_MS },
  // A payment: the gate asks, and "стоп" withdraws the question.
  { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 5, action: 'click' } },
];

before(async () => {
  model = await startModel(STEPS);
  const env = { WAYMARK_LLM_BASE_URL: model.url, WAYMARK_LLM_MODEL: 'scripted', WAYMARK_LLM_TIMEOUT_SECS: '20' };
  ({ browser, site, page, panel } = await openFixture('actions.html', { env }));
  await command(panel, '/chat', /^Chat mode/);
});

after(async () => {
  await browser?.close();
  await site?.close();
  model?.close();
});

/// Waits until the scripted model has been asked `n` times.
async function asked(n) {
  const deadline = Date.now() + 20_000;
  while ((await model.requests()).length < n) {
    if (Date.now() > deadline) throw new Error(`the model was not asked ${n} times`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/// The alert region's words once they match `pattern`.
async function alertSays(pattern, timeout = 5_000) {
  return waitForAlert(panel, { matching: pattern, timeout });
}

test('/stop while the model thinks ends the run within a second, and its late answer never runs', async () => {
  await send(panel, 'Save my draft');
  await asked(2);
  const started = Date.now();
  await send(panel, '/stop');
  const said = await alertSays(/^Stopped\./);
  const took = Date.now() - started;
  assert.ok(took < 1_000, `stopped after ${took} ms`);
  assert.match(said, /^Stopped\. Done so far: Reading the page's controls: \d+ controls\. Say continue to go on\.$/);
  // Past the time the model's answer would have come: nothing ran, nothing more was asked.
  await new Promise((resolve) => setTimeout(resolve, THINKS_MS));
  assert.equal(await page.evaluate(() => window.events.saved), 0, 'the click chosen before the stop never ran');
  assert.equal((await model.requests()).length, 2);
  assert.match(await panel.textContent('#status'), /idle|ready/i);
});

test('"continue" after a stop goes on with the same goal', async () => {
  await command(panel, 'continue', /^Going on with your draft\.$/, 20_000);
  const last = JSON.stringify((await model.requests()).at(-1));
  assert.match(last, /the user stopped you/);
  assert.match(last, /Save my draft/, 'the goal is kept');
  // The panel says the browser's language with each message, and the model is told to speak it.
  const language = await panel.evaluate(() => chrome.i18n.getUILanguage());
  const system = (await model.requests()).at(-1).messages[0].content;
  assert.ok(system.includes(`speaks the language ${language}:`), system.slice(0, 300));
});

test('Escape in the panel while the agent works stops it', async () => {
  await send(panel, 'Save it once more');
  await asked(4);
  await panel.focus('#message');
  await panel.keyboard.press('Escape');
  // Stopped while the model thought: no step of this run had run.
  assert.equal(await alertSays(/^Stopped/), 'Stopped before any step. Say continue to go on.');
  await new Promise((resolve) => setTimeout(resolve, THINKS_MS));
  assert.equal(await page.evaluate(() => window.events.saved), 0);
  assert.equal((await model.requests()).length, 4);
});

test('"стоп" while a question waits withdraws it; a late /yes runs nothing', async () => {
  await send(panel, 'Now pay for it');
  await waitForQuestion(panel, { timeout: 20_000 });
  assert.match(await panel.textContent('#question-text'), /^Click button 'Pay €84\.97' on localhost\?$/);
  await send(panel, 'стоп');
  assert.equal(await alertSays(/^Stopped/), 'Stopped before any step. Say continue to go on.');
  assert.equal(await panel.isHidden('#question'), true, 'the question and its buttons are gone');
  await command(panel, '/yes', /^There is no question waiting for an answer\.$/);
  assert.equal(await page.evaluate(() => window.events.paid), 0, 'the payment never ran');
});
