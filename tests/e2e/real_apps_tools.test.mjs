// Three more real applications nobody here wrote (tests/e2e/lib/more_apps.mjs serves them on
// 127.0.0.1), worked by number only through an MCP client as a new user's model would, in one browser:
// - Adminer: its Content-Security-Policy keeps Waymark's WebAssembly out, which every call says;
// - Roundcube: a mail written and sent to a local user (asked first; it really arrives in bob's
//   Maildir), a mail whose subject says "delete" opened (nothing asked), a mail deleted (asked);
// - JupyterLab: a notebook opened, lines of code typed into a cell (nothing asked), the cell run and
//   its output read back, a menu item used.
// Every step checks what the user would hear: an action that changed the page never comes back as
// "nothing changed" (`changed` empty), and one that changed nothing never as done with changes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CANNOT_REACH, startWithApps, workByNumber } from './lib/by_number.mjs';
import { tripwire, until } from './lib/harness.mjs';
import { MAIL_DOMAIN, startMoreApps } from './lib/more_apps.mjs';

const CLIENT = 'Real apps client';
let apps;
let page;
let close;
let client;
let panel;
let h;
/// The page's own dialogs (confirm()) the user answered, with their words.
const dialogs = [];

before(async () => {
  const started = Date.now();
  let browser;
  ({ apps, browser, page, close } = await startWithApps(startMoreApps));
  const { adminer, mail, jupyter } = apps;
  // A page's own confirmation, answered yes in the browser's dialog as the user would, until Waymark
  // says and routes such dialogs itself; none is expected here.
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await tripwire.byHand(() => dialog.accept());
  });
  // Logged in to each, as their owner is before asking for help (a password is the user's to type).
  await tripwire.byHand(async () => {
    await page.goto(`${adminer.url}/`);
    await page.selectOption('select[name="auth[driver]"]', 'server');
    await page.fill('input[name="auth[server]"]', adminer.server);
    await page.fill('#username', adminer.user);
    await page.fill('input[name="auth[password]"]', adminer.password);
    await page.fill('input[name="auth[db]"]', adminer.database);
    await Promise.all([page.waitForURL(/db=/), page.click('input[type=submit]')]);
    await page.goto(`${mail.url}/`);
    await page.fill('#rcmloginuser', mail.user);
    await page.fill('#rcmloginpwd', mail.password);
    await Promise.all([page.waitForURL(/_task=mail/), page.click('#rcmloginsubmit')]);
    await page.goto(`${jupyter.url}/lab?token=${jupyter.token}`);
  });
  // What the applications send by themselves, on their own timers, whatever anyone does.
  tripwire.expect({ method: 'POST', path: /_action=(refresh|keep-alive)/, always: true, why: "Roundcube's refresh of the mailbox" });
  h = await workByNumber(browser, page, CLIENT, [`${jupyter.url}/lab`, `${mail.url}/?_task=mail`, `${adminer.url}/`]);
  ({ panel, client } = h);
  console.log(`# the applications started in ${apps.seconds.toFixed(1)} s; ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

after(async () => {
  await client?.close();
  await close?.();
});

/// What the user hears of an action's answer: it changed something on the page (`changed` is the
/// list the panel says "Nothing changed on the page" for when it is empty).
function changedSomething(result, what) {
  const changed = result.data?.changed;
  assert.ok(Array.isArray(changed), `${what}: the answer says what changed: ${JSON.stringify(result)}`);
  assert.notDeepEqual(changed, [], `${what} changed the page, but the answer says nothing changed`);
}

// Adminer sends a Content-Security-Policy whose script-src lacks 'wasm-unsafe-eval', and Chrome applies
// it to extensions' content scripts too: Waymark's page module (WebAssembly) cannot compile there. No
// task can be done by number on it; what the user must hear is that, at once, and not "reload the page".
test('Adminer: its own security policy keeps Waymark out, and every call says so instead of "reload"', async () => {
  const { adminer } = apps;
  await h.ok('browser_navigate', { url: `${adminer.url}/?server=${encodeURIComponent(adminer.server)}&username=${adminer.user}&db=${adminer.database}&create=birds` });
  for (const [name, args] of [['browser_wait', {}], ['browser_list_interactives', {}], ['browser_find', { text: 'Drop' }]]) {
    const result = await h.call(name, args);
    assert.equal(result.status, 'error', `${name}: ${JSON.stringify(result)}`);
    assert.equal(result.kind, 'unreachable', JSON.stringify(result));
    assert.match(result.error, /the page's own security policy does not let Waymark's script run in it/);
    assert.doesNotMatch(result.error, /updated|Reload the page/);
  }
  assert.deepEqual(await adminer.tables(), ['birds'], 'nothing changed in the database');
  assert.deepEqual(dialogs, []);
});

test('Roundcube: a mail written and sent to a local user asks first and arrives; opening a mail that says "delete" asks nothing; deleting one asks', async () => {
  const { mail } = apps;
  await h.open(`${mail.url}/?_task=mail&_action=compose`);
  // Roundcube's recipient field is a combobox of its own beside the hidden field its label "To" names:
  // Chrome leaves it unnamed, and Waymark says the label beside it as its context.
  const to = await h.itemWhere((i) => i.role === 'combobox' && !i.name && i.context === 'To', 'the To field');
  await h.withoutQuestion('browser_overlay_act', { index: to.index, action: 'type', text: `bob@${MAIL_DOMAIN}` });
  await h.withoutQuestion('browser_overlay_act', { index: await h.numberOf('Subject', 'textbox'), action: 'type', text: 'Perches are ready' });
  const body = await h.itemWhere((i) => i.role === 'textbox' && /message|body/i.test(i.name ?? ''), 'the message body');
  await h.withoutQuestion('browser_overlay_act', { index: body.index, action: 'type', text: 'Hello Bob,\nthe new perches are up.\nAlice' });
  const sent = await h.withQuestion('browser_overlay_act', { index: await h.numberOf('Send', 'button'), action: 'click' }, /Send/, 'yes',
    async () => assert.equal(mail.inbox('bob').length, 0));
  changedSomething(sent, 'sending the mail');
  await until(() => mail.subjects('bob').includes('Perches are ready'), "the mail in bob's Maildir", 20_000);
  assert.match(mail.inbox('bob')[0], /the new perches are up/);
  await h.ok('browser_wait', {});

  await h.open(`${mail.url}/?_task=mail&_mbox=INBOX`);
  const subject = 'Please delete the old backups';
  const row = await h.itemWhere((i) => (i.name ?? '').includes(subject), `the mail '${subject}'`);
  changedSomething(await h.withoutQuestion('browser_overlay_act', { index: row.index, action: 'click' }), 'opening the mail');
  await h.ok('browser_wait', {});

  const news = await h.itemWhere((i) => (i.name ?? '').includes('Weekly bird news'), 'the newsletter');
  await h.withoutQuestion('browser_overlay_act', { index: news.index, action: 'click' });
  await h.ok('browser_wait', {});
  const deleted = await h.withQuestion('browser_overlay_act', { index: await h.numberOf('Delete', 'button'), action: 'click' }, /Delete/, 'yes',
    async () => assert.ok(mail.subjects('alice').includes('Weekly bird news')));
  changedSomething(deleted, 'deleting the mail');
  await until(() => !mail.subjects('alice').includes('Weekly bird news'), "the newsletter gone from alice's inbox");
});

test('JupyterLab: a notebook opened, code typed into a cell asks nothing, the cell runs and its output is read back, a menu item works', async () => {
  const { jupyter } = apps;
  await h.open(`${jupyter.url}/lab`);
  const file = await h.itemWhere((i) => (i.name ?? '').includes('Aviary.ipynb'), 'the notebook in the file browser', 20_000);
  await h.withoutQuestion('browser_overlay_act', { index: file.index, action: 'click' });
  await h.withoutQuestion('browser_press', { key: 'Enter' });
  await h.ok('browser_wait', {});
  // The cell's editor (CodeMirror 6) is a text box Chrome leaves unnamed, the notebook's only one.
  const cell = await h.itemWhere((i) => i.role === 'textbox' && !i.name, 'the code cell', 20_000);
  // The toolkit's toolbar items are listed once, as their buttons, not again as the boxes around them.
  const { items } = await h.ok('browser_list_interactives', { limit: 500 });
  const doubled = items.filter((i, n) => i.role === 'generic' && i.name && items[n + 1]?.name === i.name);
  assert.deepEqual(doubled.map((i) => i.name), [], 'boxes listed beside the controls they hold');
  const typed = await h.withoutQuestion('browser_overlay_act', { index: cell.index, action: 'type', text: 'x = 6 * 7\nprint("answer", x)' });
  changedSomething(typed, 'typing into the cell');
  // Run by the notebook's own toolbar button (Shift+Enter in the editor is asked about as an Enter
  // that could send what the field holds).
  changedSomething(await h.withoutQuestion('browser_overlay_act', { index: await h.numberOf('Run this cell and advance (Shift+Enter)', 'button'), action: 'click' }), 'running the cell');
  const output = await until(async () => {
    const found = await h.ok('browser_find', { text: 'answer 42' });
    return found.items?.length ? found : null;
  }, 'the output read back', 20_000);
  assert.ok(output);
  changedSomething(await h.withoutQuestion('browser_overlay_act', { index: await h.numberOf('File', 'menuitem'), action: 'click' }), 'opening the File menu');
  changedSomething(await h.withoutQuestion('browser_overlay_act', { index: await h.numberOf(/^Save Notebook/, 'menuitem'), action: 'click' }), 'saving the notebook');
  await until(async () => JSON.stringify(await jupyter.notebook('Aviary.ipynb')).includes('print(\\"answer\\", x)'), 'the notebook saved with the code');
});

test('no call failed with a false "cannot reach this tab", and the panel spoke none', async () => {
  const spoken = (await panel.locator('#transcript .msg-waymark').allTextContents()).filter((t) => CANNOT_REACH.test(t));
  assert.deepEqual({ calls: h.falseErrors, spoken }, { calls: [], spoken: [] });
});
