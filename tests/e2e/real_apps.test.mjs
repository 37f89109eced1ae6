// Real web applications nobody here wrote, from Debian's packages (tests/e2e/lib/real_apps.mjs serves
// them on 127.0.0.1): WordPress with its block editor, and MediaWiki. One browser with Waymark, and an
// MCP client that works by number as a model would. Recall is measured against Chrome's own
// accessibility tree (every control Chrome exposes on screen carries a number, under Chrome's
// accessible name); tasks are done by
// number (a draft written and saved, a published post updated, a wiki page edited); the gate asks
// before publishing, updating, saving a wiki page, deleting and trashing, and not before saving a
// draft; and no call fails with a false "cannot reach this tab" while a page is merely loading.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareWithChrome } from './lib/chrome_ax.mjs';
import { send, tripwire, until } from './lib/harness.mjs';
import { CANNOT_REACH, startWithApps, workByNumber } from './lib/by_number.mjs';
import { startRealApps } from './lib/real_apps.mjs';

const CLIENT = 'Real apps client';
let apps;
let browser;
let close;
let page;
let panel;
let client;
let wp;
let wiki;

let call;
let ok;
let open;
let itemWhere;
let numberOf;
let withoutQuestion;
let withQuestion;
let falseErrors;

before(async () => {
  const started = Date.now();
  ({ apps, browser, page, close } = await startWithApps(startRealApps));
  ({ wordpress: wp, mediawiki: wiki } = apps);
  // Logged in to both, as their owner is before asking for help (a password is the user's to type).
  await tripwire.byHand(async () => {
    await page.goto(`${wiki.url}/index.php?title=Special:UserLogin`);
    await page.fill('#wpName1', wiki.user);
    await page.fill('#wpPassword1', wiki.password);
    await Promise.all([page.waitForURL((url) => !/UserLogin/.test(url)), page.click('#wpLoginAttempt')]);
    await page.goto(`${wp.url}/wp-login.php`);
    await page.fill('#user_login', wp.user);
    await page.fill('#user_pass', wp.password);
    await Promise.all([page.waitForURL(/\/wp-admin\//), page.click('#wp-submit')]);
  });
  // What the applications send by themselves, on their own timers, whatever anyone does.
  tripwire.expect({ method: 'POST', path: /\/wp-admin\/admin-ajax\.php/, always: true, why: "WordPress's heartbeat" });
  tripwire.expect({ method: 'POST', path: /\/wp-cron\.php/, always: true, why: "WordPress's scheduled tasks, which it starts itself" });
  // The block editor keeps its user's editor preferences on the server as it opens (its address says
  // nothing the policy asks about, so the request guard lets it go while Waymark opens the editor).
  tripwire.expect({ method: 'POST', path: /wp(\/|%2F)v2(\/|%2F)users(\/|%2F)me/i, always: true, why: "the block editor's preferences, kept as it opens" });
  // The tab ends on WordPress's admin.
  ({ panel, client, call, ok, open, itemWhere, numberOf, withoutQuestion, withQuestion, falseErrors } = await workByNumber(
    browser, page, CLIENT, [`${wiki.url}/index.php?title=Special:RecentChanges`, `${wp.url}/wp-admin/`],
  ));
  console.log(`# the applications installed and started in ${apps.seconds.toFixed(1)} s; ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

after(async () => {
  await client?.close();
  await close?.();
});

const postStatus = async (title) => (await wp.sql(`SELECT post_status FROM wp_posts WHERE post_title = '${title}' AND post_type = 'post' ORDER BY ID DESC LIMIT 1`))[0]?.[0];

test('every control Chrome exposes on screen is numbered, on admin pages, the block editor and the wiki', async (t) => {
  const pages = [
    ['WordPress dashboard', `${wp.url}/wp-admin/`],
    ['WordPress posts list', `${wp.url}/wp-admin/edit.php`],
    ['WordPress block editor', `${wp.url}/wp-admin/post.php?post=${wp.ids.canary}&action=edit`],
    ['a wiki page', `${wiki.url}/index.php?title=Canary_page`],
    ['a wiki page being edited', `${wiki.url}/index.php?title=Canary_page&action=edit`],
  ];
  const missed = [];
  const renamed = [];
  let controls = 0;
  for (const [what, url] of pages) {
    await open(url);
    // The listing and Chrome's tree are two readings: an application still moving things (the block
    // editor's sidebar) may differ between them, so a control missed is looked for again, for 5 s.
    let found;
    await until(async () => {
      const list = await ok('browser_list_interactives', { scope: 'viewport', limit: 500 });
      found = await compareWithChrome(browser.context, page, list.items);
      return found.missed.length === 0;
    }, `every control numbered on ${what}`, 5_000).catch(() => {});
    controls += found.controls;
    missed.push(...found.missed.map((m) => `${what}: ${m}`));
    renamed.push(...found.renamed.map((r) => `${what}: ${r}`));
    t.diagnostic(`${what}: ${found.controls - found.missed.length} of ${found.controls} of Chrome's controls numbered `
      + `(and ${found.covered} under another control); `
      + `${found.extra.length} items that are no control of Chrome's; ${found.renamed.length} names not Chrome's`);
    if (found.extra.length) t.diagnostic(`  not Chrome's controls: ${found.extra.join('; ')}`);
    if (found.renamed.length) t.diagnostic(`  names: ${found.renamed.join('; ')}`);
  }
  assert.ok(controls > 100, `Chrome exposed ${controls} controls on these screens`);
  assert.deepEqual(missed, [], 'every control of Chrome\'s on screen has a number');
  // Names as a screen reader says them: Chrome's accessible names (without icon-font characters,
  // which no screen reader can say: see `spoken` in lib/chrome_ax.mjs).
  assert.deepEqual(renamed, [], 'every numbered control has Chrome\'s accessible name');
});

test('a draft written and saved by number in the block editor: saving a draft does not ask; publishing does', async () => {
  const title = 'Morning song notes';
  await open(`${wp.url}/wp-admin/post-new.php`);
  await ok('browser_overlay_act', { index: await numberOf('Add title', 'textbox'), action: 'type', text: title });
  // The editor saves by a request to WordPress's REST API, whose address says nothing the policy asks
  // about: the request guard lets it go (stopping it would show "Updating failed"), and it is saved
  // the first time.
  tripwire.expect({ method: 'POST', path: /wp(\/|%2F)v2(\/|%2F)posts/i, why: 'saving a draft is harmless' });
  await withoutQuestion('browser_overlay_act', { index: await numberOf('Save draft', 'button'), action: 'click' });
  await until(async () => (await postStatus(title)) === 'draft', `the draft '${title}' in WordPress's database`, 15_000);
  // The editor never saw its save fail.
  assert.equal(await page.getByText(/Updating failed/).count(), 0, 'the editor said its save failed');
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Publish', 'button'), action: 'click' },
    /^Real apps client asks: Click button 'Publish' on localhost\?$/,
    'no',
    async () => assert.equal(await postStatus(title), 'draft'),
  );
  assert.equal(await postStatus(title), 'draft', 'still a draft after the no');
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Move to trash', 'button'), action: 'click' },
    /Click button 'Move to trash'/,
    'no',
  );
  assert.equal(await postStatus(title), 'draft', 'not in the trash after the no');
});

test('a published post edited by number: Update asks, and the yes saves it', async () => {
  await open(`${wp.url}/wp-admin/post.php?post=${wp.ids.canary}&action=edit`);
  await ok('browser_overlay_act', { index: await numberOf('Add title', 'textbox'), action: 'type', text: 'Canary post, revised' });
  // The post's paragraph is listed as what it is, saying that it takes text, and takes it by number.
  const paragraph = await itemWhere((i) => /canary sings at dawn/.test(i.value ?? ''), 'the post\'s paragraph');
  assert.deepEqual(
    { role: paragraph.role, name: paragraph.name, states: paragraph.states },
    { role: 'document', name: 'Paragraph block', states: ['editable'] },
  );
  await ok('browser_overlay_act', { index: paragraph.index, action: 'type', text: 'The canary sang at noon.' });
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Update', 'button'), action: 'click' },
    /Click button 'Update'/,
    'yes',
    async () => assert.equal((await wp.sql(`SELECT post_title FROM wp_posts WHERE ID = ${wp.ids.canary}`))[0][0], 'Canary post'),
  );
  await until(
    async () => (await wp.sql(`SELECT post_title FROM wp_posts WHERE ID = ${wp.ids.canary}`))[0][0] === 'Canary post, revised',
    'the new title in WordPress\'s database',
    15_000,
  );
  assert.match((await wp.sql(`SELECT post_content FROM wp_posts WHERE ID = ${wp.ids.canary}`))[0][0], /The canary sang at noon\./);
});

// The posts list is one form whose bulk-action list is named "action" (issue 13: describing a row's
// Trash link for the gate failed inside the page, and the click came back as "cannot reach this tab").
test('moving a post to the trash from the posts list asks; after the no it stays published', async () => {
  await open(`${wp.url}/wp-admin/edit.php`);
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Move “Old announcement” to the Trash', 'link'), action: 'click' },
    /Trash/,
    'no',
  );
  assert.equal(await postStatus('Old announcement'), 'publish');
});

test('a wiki page edited by number: Save changes asks, and the yes saves it; deleting a page asks', async () => {
  await open(`${wiki.url}/index.php?title=Canary_page&action=edit`);
  // One line: a line break typed into the wiki's text box is asked about as an Enter that could send
  // (the gate cannot tell this box from a chat's), which is not what this task is about.
  const text = 'The canary is a small songbird of the finch family.';
  await withoutQuestion('browser_overlay_act', { index: await numberOf('Wikitext source editor', 'textbox'), action: 'type', text });
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Save changes', 'button'), action: 'click' },
    /Click button 'Save changes'/,
    'yes',
    async () => assert.match(await wiki.text('Canary page'), /^The canary is a small songbird\.\n/),
  );
  await until(async () => (await wiki.text('Canary page')) === text, 'the edit in the wiki', 15_000);
  // The wiki answers the save with the page itself: until the tab shows it, its arrival would close
  // the next question as being about a page that changed.
  await until(async () => !/action=(edit|submit)/.test(page.url()), 'the saved page in the tab', 15_000);

  await ok('browser_wait', {});

  // The address of the wiki's delete form says "delete": opening it is asked about too.
  await withQuestion('browser_navigate', { url: `${wiki.url}/index.php?title=Obsolete_canary&action=delete` }, /delete/, 'yes');
  await ok('browser_wait', {});
  await withQuestion(
    'browser_overlay_act',
    { index: await numberOf('Delete page', 'button'), action: 'click' },
    /Delete page/,
    'no',
  );
  assert.notEqual(await wiki.text('Obsolete canary'), null, 'the page is still there');
});

test('no call failed with a false "cannot reach this tab", and the panel spoke none', async () => {
  const spoken = (await panel.locator('#transcript .msg-waymark').allTextContents()).filter((t) => CANNOT_REACH.test(t));
  assert.deepEqual({ calls: falseErrors, spoken }, { calls: [], spoken: [] });
});
