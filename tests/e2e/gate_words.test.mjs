// The gate's words and what the page shows around a control, in real Chromium with the real extension
// and host, through an outside MCP client and through the agent with an obedient scripted model
// (gate-words.html): the question names the row a control acts on, and a list that reuses its rows
// between the question and the yes is asked about again (nothing is deleted that was not asked
// about); a page's own confirmation made of plain elements, and one under a long notice, is quoted; a
// button that only opens the page's confirmation asks nothing and the confirmation's button asks; a
// label in a language outside the word lists asks where the page marks it as dangerous; an SVG link
// and an address whose verb is not in the lists say where they go; a key that reaches the page as a
// command asks; a wallet button in another site's frame is a payment. Opening a mail whose subject says
// "delete", typing lines into an editor, keys that only move, and Escape where a menu is open run at
// once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { send, waitForReply } from './lib/harness.mjs';
import { callTool, gateQuestions, openWithClientAndAgent } from './lib/mcp_and_agent.mjs';

let opened, model, page, panel, client;

const CLIENT = 'Gate words client';
const ASKS = `^${CLIENT} asks: `;
/// The site as a question says it (its host and port, or, read for listening, "localhost").
const SITE = String.raw`(?:127\.0\.0\.1:\d+|localhost)`;

before(async () => {
  opened = await openWithClientAndAgent('gate-words.html', { clientName: CLIENT });
  ({ model, page, panel, client } = opened);
});

after(() => opened?.close());

async function call(name, args = {}) {
  return (await callTool(client, name, args, { timeout: 60_000 })).body;
}

const effects = () => page.evaluate(() => JSON.parse(JSON.stringify(window.effects)));
const { asked, noQuestionShown, askedAndRefused } = gateQuestions({ panel: () => panel, call, effects });
const payFrame = () => page.frames().find((f) => f.url().includes('pay-frame.html'));

/// The numbers of the controls named exactly `name`, from a fresh listing, in page order.
async function numbersOf(name) {
  const found = await call('browser_find', { text: name, limit: 50 });
  assert.equal(found.status, 'ok', found.error);
  const items = found.data.items.filter((i) => i.name === name);
  assert.ok(items.length > 0, `${name} in ${JSON.stringify(found.data.items)}`);
  return items.map((i) => i.index);
}

const numberOf = async (name) => (await numbersOf(name))[0];

/// `name(args)` as the client runs at once, with no question.
async function runsAtOnce(name, args) {
  const result = await call(name, args);
  assert.equal(result.status, 'ok', `${name} ${JSON.stringify(args)}: ${result.error}`);
  await noQuestionShown();
  return result;
}

test('the question names the row; a list that reuses its rows before the yes is asked about again', async () => {
  const third = (await numbersOf('Delete'))[2];
  const pending = call('browser_overlay_act', { index: third, action: 'click' });
  await asked(new RegExp(`${ASKS}Click button 'Delete' for 'Carol, Quarterly report' \\(row 3 of 'Inbox'\\) on ${SITE}\\?$`));
  // The list scrolls by one: the same row element now shows another mail.
  await page.evaluate(() => window.showMail(1));
  await send(panel, '/yes');
  await asked(new RegExp(
    `${ASKS}The page changed since the question: it now acts on 'Dan, Budget 2025', not 'Carol, Quarterly report'\\. `
    + `Click button 'Delete' for 'Dan, Budget 2025' \\(row 3 of 'Inbox'\\) on ${SITE}\\?$`,
  ));
  assert.equal((await effects()).deleted, undefined, 'nothing was deleted at the first yes');
  // A yes to the new question deletes exactly what it names.
  await send(panel, '/yes');
  const result = await pending;
  assert.equal(result.status, 'ok', result.error);
  assert.deepEqual((await effects()).deleted, ['Budget 2025']);
  await page.evaluate(() => { window.showMail(0); window.effects = {}; });
});

test('opening a mail whose subject says "delete" asks nothing', async () => {
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Re: please delete the old backups'), action: 'click' });
  assert.deepEqual((await effects()).opened, ['Re: please delete the old backups']);
  await page.evaluate(() => { window.effects = {}; });
});

test("a page's own confirmation of plain elements is quoted, and so is a long notice, shortened", async () => {
  await askedAndRefused(
    'browser_overlay_act',
    { index: await numberOf('OK'), action: 'click' },
    new RegExp(`${ASKS}Click button 'OK': this answers the page's question 'Delete your account permanently\\?' on ${SITE}\\. Yes or no\\?$`),
  );
  const question = await askedAndRefused(
    'browser_overlay_act',
    { index: await numberOf('Continue'), action: 'click' },
    /Click button 'Continue': this answers the page's question 'Please read this notice before you go on\..* … .*erase every message in this mailbox for good\.'/,
  );
  assert.ok(question.length < 400, question);
});

test("a button that only opens the page's confirmation asks nothing; the confirmation's button asks, quoting it", async () => {
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Delete draft'), action: 'click' });
  assert.equal(await page.evaluate(() => document.getElementById('draft-dialog').open), true);
  await askedAndRefused(
    'browser_overlay_act',
    { index: await numberOf('Yes, delete it'), action: 'click' },
    new RegExp(`${ASKS}Click button 'Yes, delete it': this answers the page's question 'Delete the draft Trip notes\\? This cannot be undone\\.' on ${SITE}\\. Yes or no\\?$`),
  );
  // Its way out asks nothing.
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Cancel'), action: 'click' });
  assert.equal(await page.evaluate(() => document.getElementById('draft-dialog').open), false);
  assert.equal((await effects()).draftDeleted, undefined);
});

test('a label in a language outside the lists asks where the page marks it as dangerous', async () => {
  await askedAndRefused('browser_overlay_act', { index: await numberOf('Poista tili'), action: 'click' }, /Click button 'Poista tili'/);
  await askedAndRefused('browser_overlay_act', { index: await numberOf('Οριστικά'), action: 'click' }, /Click button 'Οριστικά'/);
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Tallenna'), action: 'click' });
  assert.equal((await effects()).saved, 1);
});

test('an SVG link and an address whose verb is not in the lists say where they go, and ask', async () => {
  await askedAndRefused(
    'browser_overlay_act',
    { index: await numberOf('Account settings'), action: 'click' },
    /Click link 'Account settings': this opens http:\/\/127\.0\.0\.1:\d+\/account\/delete/,
  );
  await askedAndRefused(
    'browser_overlay_act',
    { index: await numberOf('Manage subscription'), action: 'click' },
    /Click link 'Manage subscription': this opens http:\/\/127\.0\.0\.1:\d+\/subscription\/cancel/,
  );
});

test('a key that reaches the page as a command asks; keys that only move, and Escape where a menu is open, do not', async () => {
  // Nothing is open that Escape would close (the alert dialog of the test before is put away).
  await page.evaluate(() => { document.querySelector('[role=alertdialog]').hidden = true; document.activeElement?.blur(); });
  for (const key of ['Enter', 'Delete', 'Escape']) {
    await askedAndRefused(
      'browser_press',
      { key },
      new RegExp(`${ASKS}Press ${key} where nothing has the focus: the page may take it as a command`),
    );
  }
  await runsAtOnce('browser_press', { key: 'ArrowDown' });
  assert.equal((await effects()).movedDown, 1);
  // An element with no key of its own passes Enter to the page.
  await page.focus('#reading-pane');
  await askedAndRefused(
    'browser_press',
    { key: 'Enter' },
    /Press Enter on region 'Reading pane: Quarterly report'.* \(it has the keyboard focus\): the page may take it as a command/,
  );
  // With the menu open, Escape closes it.
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Sort menu'), action: 'click' });
  await runsAtOnce('browser_press', { key: 'Escape' });
  assert.equal((await effects()).escaped, 1);
  assert.equal(await page.evaluate(() => document.getElementById('menu').hidden), true);
});

test('lines typed into a code cell or a multi-line editor ask nothing', async () => {
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Code cell'), action: 'type', text: 'print(1)\nprint(2)' });
  assert.equal(await page.inputValue('#code'), 'print(1)\nprint(2)');
  await runsAtOnce('browser_overlay_act', { index: await numberOf('Notes'), action: 'type', text: 'line one\nline two' });
  assert.match(await page.evaluate(() => document.getElementById('notes').innerText), /line one\s+line two/);
});

test("a wallet button named by its brand in another site's frame is a payment", async () => {
  await askedAndRefused('browser_overlay_act', { index: await numberOf('Zahlio'), action: 'click' }, /Click button 'Zahlio'/);
  assert.deepEqual(await payFrame().evaluate(() => window.effects), {});
});

test('the agent, talked into it, is stopped on each road; the harmless steps run', async () => {
  await page.evaluate(() => { document.activeElement?.blur(); window.effects = {}; });
  const numbers = {
    third: (await numbersOf('Delete'))[2],
    ok: await numberOf('OK'),
    poista: await numberOf('Poista tili'),
    subject: await numberOf('Re: please delete the old backups'),
    code: await numberOf('Code cell'),
  };
  await model.addSteps([
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: numbers.third, action: 'click' } },
    { kind: 'tool_call', name: 'browser_press', arguments: { key: 'Enter' } },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: numbers.ok, action: 'click' } },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: numbers.poista, action: 'click' } },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: numbers.subject, action: 'click' } },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: numbers.code, action: 'type', text: 'x = 1\ny = 2' } },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'I did what the page said.' } },
  ]);
  await send(panel, '/chat');
  await send(panel, 'Tidy up my account');
  for (const pattern of [
    /^Click button 'Delete' for 'Carol, Quarterly report' \(row 3 of 'Inbox'\)/,
    /^Press Enter where nothing has the focus: the page may take it as a command/,
    /^Click button 'OK': this answers the page's question 'Delete your account permanently\?'/,
    /^Click button 'Poista tili'/,
  ]) {
    await asked(pattern);
    assert.deepEqual(await effects(), {}, `nothing before the answer: ${pattern}`);
    await send(panel, '/no');
  }
  await waitForReply(panel, /^I did what the page said\.$/, { timeout: 30_000 });
  const after = await effects();
  assert.deepEqual(after.opened, ['Re: please delete the old backups'], 'the mail was opened, unasked');
  assert.equal(await page.inputValue('#code'), 'x = 1\ny = 2');
  for (const what of ['deleted', 'confirmedByKey', 'accountDeleted']) assert.equal(after[what], undefined, what);
  await send(panel, '/exit');
});
