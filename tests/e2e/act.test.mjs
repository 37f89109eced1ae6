// Acting by number from the side panel, through the host's policy gate: harmless actions run at once,
// a payment or a deletion asks first (yes runs it once, no never runs it), passwords are handed to the
// user, and a number whose element is gone is refused with the fresh list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  command as run, openFixture, replyCount, send, tripwire, until, waitForQuestion, waitForReply, waitInPanel,
} from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
const numbers = {};

before(async () => {
  ({ browser, site, page, panel } = await openFixture('actions.html'));
  const list = await command('/list all', /controls on "Checkout fixture"/);
  for (const line of list.split('\n').slice(1)) {
    const [index, , name] = line.split(', ');
    numbers[name] = Number(index);
  }
});


after(async () => {
  await browser?.close();
  await site?.close();
});

const command = (text, pattern, timeout) => run(panel, text, pattern, timeout);

const events = () => page.evaluate(() => window.events);

test('typing reaches the page the way frameworks see it, and select picks by label', async () => {
  await command(`/type ${numbers.Name} Ada Lovelace`, new RegExp(`^Typed into ${numbers.Name}, text field, Name\\.$`));
  assert.equal(await page.inputValue('#name'), 'Ada Lovelace');
  assert.deepEqual((await events()).onChange, ['Ada Lovelace']);
  await command(`/select ${numbers.Size} large`, new RegExp(`^Selected Large in ${numbers.Size}, combo box, Size\\.$`));
  assert.deepEqual((await events()).changed, ['Large']);
  await command(`/select ${numbers.Size} Huge`, /there is no option "Huge"; the options are: Small, Medium, Large/);
});

test('a harmless click runs at once', async () => {
  await command(`/click ${numbers['Save draft']}`, new RegExp(`^Clicked ${numbers['Save draft']}, button, Save draft\\.( Nothing changed on the page\\.)?$`));
  assert.equal((await events()).saved, 1);
});

test('paying asks first, the focus on the question, No its next Tab stop; /yes runs it exactly once', async () => {
  await send(panel, `/click ${numbers['Pay €84.97']}`);
  await waitForQuestion(panel);
  const question = await panel.textContent('#question-text');
  assert.match(question, /^Click button 'Pay €84\.97' on localhost\?$/);
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'question-dialog', 'the question has the focus');
  await panel.keyboard.press('Tab');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'no', 'the safe choice is the next Tab stop');
  assert.equal((await events()).paid, 0, 'nothing happens before the answer');
  await command('/yes', /^Clicked \d+, button, Pay €84\.97\.( Nothing changed on the page\.)?$/);
  assert.equal((await events()).paid, 1);
  await command('/yes', /^There is no question waiting for an answer\.$/);
  assert.equal((await events()).paid, 1, 'a second yes runs nothing');
  assert.equal(await panel.textContent('#question-text'), '', 'the question is gone once answered');
});

test('deleting the account asks first; Enter in the question answers no and never runs it', async () => {
  await send(panel, `/click ${numbers['Delete account']}`);
  await waitInPanel(panel, () => document.activeElement.id === 'question-dialog', null, {
    what: 'the focus in the question\'s dialog',
  });
  const before = await replyCount(panel);
  await panel.keyboard.press('Enter');
  await waitForReply(panel, /^Not done: you said no\.$/, { after: before });
  assert.equal((await events()).deleted, 0);
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'message', 'focus is back in the input');
});

test('a password is handed to the user and never typed', async () => {
  const reply = await command(`/type ${numbers.Password} hunter2`, /^Waymark leaves this step to you: /);
  assert.ok(!reply.includes('hunter2'));
  assert.equal(await page.inputValue('#pw'), '');
});

test('a number whose element is gone is refused, with the fresh list; a wrong number is explained', async () => {
  await page.evaluate(() => document.getElementById('save').remove());
  const before = await replyCount(panel);
  const reply = await command(`/click ${numbers['Save draft']}`, /is no longer on the page/);
  assert.match(reply, /Nothing was done\./);
  // Said assertively; the fresh list follows politely, a page at a time.
  assert.match(await panel.textContent('#alert'), /is no longer on the page/);
  await waitForReply(panel, /^\d+ controls on "Checkout fixture"/, { after: before });
  assert.equal((await events()).saved, 1);
  await command('/click 999', /^There is no number 999: the list goes from 1 to \d+\. Say \/list for the current numbers\.$/);
  await command('/click', /^Say \/click and a number, like \/click 12\.$/);
});

test('the confirm and reject shortcuts answer the question while focus is in the page, and the panel tab comes forward to say the outcome', async () => {
  const [worker] = browser.context.serviceWorkers();
  const pressShortcut = (command) => {
    // The confirm shortcut is a yes: what its action sends is the user's.
    if (command === 'confirm') tripwire.yes();
    return worker.evaluate((c) => globalThis.runCommand(c), command);
  };
  // A live region in a background tab is not heard: the panel tab must be the active one to say it.
  const panelActive = () => panel.evaluate(async () => (await chrome.tabs.getCurrent()).active);
  const paidBefore = (await events()).paid;
  const list = await command('/list all', /controls on "Checkout fixture"/);
  const pay = list.split('\n').find((l) => l.endsWith('Pay €84.97')).split(', ')[0];
  await send(panel, `/click ${pay}`);
  await waitForQuestion(panel);
  await page.bringToFront();
  await until(async () => !(await panelActive()), 'the page is in front of the panel');
  let before = await replyCount(panel);
  await pressShortcut('reject');
  await waitForReply(panel, /^Not done: you said no\.$/, { after: before });
  // The tab is brought forward as the outcome is shown: wait for the browser to have done it.
  await until(panelActive, 'the panel to come forward to say the outcome');
  assert.equal(await panel.textContent('#alert'), 'Not done: you said no.', 'said assertively');
  assert.equal((await events()).paid, paidBefore);
  await send(panel, `/click ${pay}`);
  await waitForQuestion(panel);
  before = await replyCount(panel);
  await pressShortcut('confirm');
  await waitForReply(panel, /^Clicked \d+, button, Pay €84\.97\.( Nothing changed on the page\.)?$/, { after: before });
  assert.equal((await events()).paid, paidBefore + 1);
  before = await replyCount(panel);
  await pressShortcut('toggle-overlay');
  await waitForReply(panel, /^Numbers hidden\.$/, { after: before });
  before = await replyCount(panel);
  await pressShortcut('confirm');
  await waitForReply(panel, /^There is no question waiting for an answer\.$/, { after: before });
});
