// The agent end to end: the real extension, the real host and the scripted model (tools/fake-llm)
// on 127.0.0.1. A task runs to assistant_done and changes the page; a payment the model proposes is
// stopped by the gate, asked in the panel, and never runs after /no (the agent goes on by itself); a
// password field is handed to the user, and after /done the agent looks at the page again and finishes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  command, openFixture, send, startModel, waitForAlert, waitForQuestion, waitForStatus,
} from './lib/harness.mjs';

let model;
let browser;
let site;
let page;
let panel;

// One step per request to the model, in order.
const SCRIPT = {
  steps: [
    { kind: 'tool_call', name: 'browser_list_interactives', arguments: {}, content: 'Looking at the page' },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 4, action: 'click' } },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'The draft is saved.' } },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 5, action: 'click' } },
    // After /no: the model decides again, without the payment.
    { kind: 'reply', message: { role: 'assistant', content: 'All right, I will not pay.' } },
    // "Log me in": typing into the password field is the user's step.
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 3, action: 'type', text: 'hunter2' } },
    // After /done (and Waymark's fresh look at the page).
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'You are logged in.' } },
    // "Save it again" on the page whose save opens a cookie banner.
    { kind: 'tool_call', name: 'browser_list_interactives', arguments: {} },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 4, action: 'click' } },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'Saved again.' } },
  ],
};


before(async () => {
  model = await startModel(SCRIPT.steps);
  // A model that takes images: each look at the page comes with a screenshot.
  const env = {
    WAYMARK_LLM_BASE_URL: model.url,
    WAYMARK_LLM_MODEL: 'scripted',
    WAYMARK_LLM_TIMEOUT_SECS: '20',
    WAYMARK_LLM_IMAGES: 'true',
  };
  ({ browser, site, page, panel } = await openFixture('actions.html', { env }));
});


after(async () => {
  await browser?.close();
  await site?.close();
  model?.close();
});

const say = (text, pattern, timeout = 20_000) => command(panel, text, pattern, timeout);

test('a task runs through the real host to assistant_done and changes the page', async () => {
  await say('/chat', /^Chat mode: your messages go to the agent\. \/exit to leave\.$/);
  await say('Please save my draft', /^The draft is saved\.$/);
  assert.equal(await page.evaluate(() => window.events.saved), 1);
  const requests = await model.requests();
  const sent = JSON.stringify(requests);
  assert.ok(sent.includes('browser_overlay_act'), 'the tools were offered to the model');
  // The page's control names reached the model only inside the data block.
  const toolMessages = requests.flatMap((r) => r.messages ?? r.body?.messages ?? []).filter((m) => m.role === 'tool');
  assert.ok(toolMessages.length >= 2, sent.slice(0, 500));
  for (const m of toolMessages) assert.match(String(m.content), /WAYMARK_DATA/);
});

test('a payment proposed by the model waits for the user, and /no keeps it from running', async () => {
  await send(panel, 'Now pay for it');
  await waitForQuestion(panel, { timeout: 20_000 });
  assert.match(await panel.textContent('#question-text'), /^Click button 'Pay €84\.97' on localhost\?$/);
  assert.equal(await page.evaluate(() => window.events.paid), 0);
  await say('/no', /^All right, I will not pay\.$/);
  assert.equal(await page.evaluate(() => window.events.paid), 0, 'the payment never ran');
  const requests = await model.requests();
  assert.match(JSON.stringify(requests.at(-1)), /the user answered no/);
});

test('a password field is handed to the user, and after /done the agent looks again and goes on', async () => {
  await send(panel, 'Log me in');
  await waitForAlert(panel, { timeout: 20_000 });
  const alert = await panel.textContent('#alert');
  assert.match(alert, /^Waymark leaves this step to you: .*Say done when you have finished\.$/);
  assert.equal(await page.inputValue('#pw'), '', 'the agent typed nothing into the password field');
  // The step says that the agent waits: no progress line, stale now, and no "waiting" said after it.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.equal(await panel.textContent('#status'), '');
  // The user logs in themselves, then says so.
  await page.fill('#pw', 'typed by the user');
  await say('/done', /^You are logged in\.$/);
  // The step is no longer announced as waiting: the alert region now holds the outcome of "done".
  assert.equal(await panel.textContent('#alert'), 'You are logged in.');
  const requests = await model.requests();
  const last = JSON.stringify(requests.at(-1));
  assert.match(last, /the user says they have done the step/);
  assert.match(last, /WAYMARK_DATA/, 'the fresh look at the page went to the model');
  assert.ok(!last.includes('hunter2'), 'the password the model wanted to type is not sent again');
  assert.ok(!last.includes('typed by the user'), 'what the user typed never reaches the model');
});

test('a cookie banner opened by the agent\'s click is closed by Waymark itself, choosing reject; the model sees the screen', async () => {
  await page.goto(`${site.url}actions.html?banner`);
  // As with the real side panel, the page is the tab its window shows (the browser pictures only that).
  await page.bringToFront();
  await say('Save it again', /^Saved again\.$/);
  assert.equal(await page.evaluate(() => window.events.saved), 1);
  assert.equal(await page.evaluate(() => window.events.cookies), 'rejected', 'the reject choice was pressed');
  assert.equal(await page.$('#cookie-banner'), null);
  const requests = await model.requests();
  const messages = (r) => r.messages ?? r.body?.messages ?? [];
  const last = messages(requests.at(-1));
  const afterClick = last.filter((m) => m.role === 'tool').at(-1);
  assert.match(String(afterClick.content), /"banners_closed":\["Reject all"\]/);
  // The screen went with the look, as an image part of the last message only.
  const picture = last.at(-1).content?.[1]?.image_url?.url ?? '';
  assert.match(picture, /^data:image\/(jpeg|png);base64,/);
  const pictures = last.filter((m) => JSON.stringify(m.content).includes('image_url'));
  assert.equal(pictures.length, 1);
});
