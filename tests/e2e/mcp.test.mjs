// MCP: an outside client runs `waymark-host mcp` the way Claude Desktop or Cursor would (the official
// TypeScript SDK over stdio), and acts in the real browser through the running host once the user has
// allowed its program (named beside the name it gives; another program with the same name is asked
// about anew, without holding up the allowed one): tools listed,
// controls listed and acted on by number, the page changes. A destructive call waits for the user's
// answer in the side panel, which names the client; yes runs it once, no refuses it and nothing happens.
// The client's session outlives the host: one started before the browser, and one whose host is
// killed and started again by the extension, go on without being restarted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  connectMcp as connect, openFixture, replyCount, send, until, waitForQuestion, waitForReply,
} from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
let client;
/// Started, with its own state directory, before the browser was.
let early;
let stateDir;

/// Calls a tool and returns its `{status, error?, kind?, data?}`. The SDK itself checks a result's
/// `structuredContent` against the tool's `outputSchema`; here it must also be the text's `data`.
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content.length, 1);
  const body = JSON.parse(result.content[0].text);
  assert.equal(Boolean(result.isError), body.status === 'error', 'isError follows the status');
  if (result.structuredContent !== undefined) assert.deepEqual(result.structuredContent, body.data);
  return body;
}

const events = () => page.evaluate(() => window.events);

/// A call's `{status, error?, kind?, data?}`, without the checks of `call` (any client).
async function bodyOf(pending) {
  return JSON.parse((await pending).content[0].text);
}

/// Calls `who` (named `name`) makes until a host takes them over: before, each is refused as retryable
/// (`unreachable`); the first the host takes asks the user in the panel to allow the client, who says yes.
async function allowOnceServed(who, name) {
  await until(async () => {
    const pending = who.callTool({ name: 'browser_list_tabs', arguments: {} });
    const asked = panel
      .waitForFunction(
        (n) => {
          const text = document.getElementById('question-text').textContent;
          return text.startsWith(`${n} (`) && text.includes(' wants to use your browser');
        },
        name,
        { timeout: 3_000 },
      )
      .then(() => 'asked', () => 'not asked');
    const first = await Promise.race([pending.then(() => 'answered'), asked]);
    if (first === 'answered') {
      const body = await bodyOf(pending);
      if (body.status === 'ok') return true;
      assert.equal(body.kind, 'unreachable', JSON.stringify(body));
      return false;
    }
    if (first === 'not asked') return false;
    await send(panel, '/yes');
    let body = await bodyOf(pending);
    // A call that waited longer than the host lets it is told the user is being asked: once more.
    if (body.kind === 'awaiting_consent') body = await bodyOf(who.callTool({ name: 'browser_list_tabs', arguments: {} }));
    assert.equal(body.status, 'ok', body.error);
    return true;
  }, `a host to serve ${name}`, 30_000);
}

before(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-mcp-state-'));
  early = await connect(stateDir, 'Early client');
  const before = await bodyOf(early.callTool({ name: 'browser_list_tabs', arguments: {} }));
  assert.equal(before.kind, 'unreachable', JSON.stringify(before));
  assert.match(before.error, /No browser with Waymark is running/);
  // The browser starts its host with this state directory, where the early client looks.
  ({ browser, site, page, panel } = await openFixture('actions.html', { env: { WAYMARK_STATE_DIR: stateDir } }));
  // Tools without a tab act on the active tab of the focused window: the fixture, not the panel.
  await page.bringToFront();
  client = await connect(stateDir, undefined, { panel });
});

after(async () => {
  await early?.close();
  await client?.close();
  await browser?.close();
  await site?.close();
  if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
});

test('a client started before the browser is served once the browser is there, in the same session', async () => {
  await allowOnceServed(early, 'Early client');
  const list = await bodyOf(early.callTool({ name: 'browser_list_interactives', arguments: {} }));
  assert.equal(list.status, 'ok', list.error);
  assert.equal(list.data.title, 'Checkout fixture');
});

async function numberOf(name) {
  const found = await call('browser_find', { text: name });
  assert.equal(found.status, 'ok', found.error);
  const item = found.data.items.find((i) => i.name === name);
  assert.ok(item, `${name} in ${JSON.stringify(found.data.items)}`);
  return item.index;
}

test('the client lists the browser tools with their schemas', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of ['browser_list_interactives', 'browser_find', 'browser_overlay_act', 'browser_navigate', 'browser_press']) {
    assert.ok(names.includes(name), `${name} in ${names}`);
  }
  const act = tools.find((t) => t.name === 'browser_overlay_act');
  assert.deepEqual(act.inputSchema.required, ['index', 'action']);
  assert.equal(act.annotations.readOnlyHint, false);
  assert.equal(tools.find((t) => t.name === 'browser_list_interactives').annotations.readOnlyHint, true);
  for (const tool of tools) assert.ok(tool.title, `${tool.name} has a title`);
  for (const name of ['browser_list_interactives', 'browser_find', 'browser_extract', 'browser_list_tabs']) {
    assert.equal(tools.find((t) => t.name === name).outputSchema?.type, 'object', `${name} has an output schema`);
  }
});

test('the client lists the page’s controls by number', async () => {
  const list = await call('browser_list_interactives');
  assert.equal(list.status, 'ok', list.error);
  assert.equal(list.data.title, 'Checkout fixture');
  assert.equal(list.data.url, page.url());
  assert.ok(list.data.total >= 5, `total ${list.data.total}`);
  const names = list.data.items.map((i) => `${i.index} ${i.role} ${i.name}`);
  assert.ok(names.some((n) => /^\d+ button Save draft$/.test(n)), names.join('\n'));
  assert.ok(names.some((n) => /^\d+ textbox Name$/.test(n)), names.join('\n'));
});

test('typing and a harmless click by number change the page, and the panel hears about the click', async () => {
  const name = await numberOf('Name');
  const typed = await call('browser_overlay_act', { index: name, action: 'type', text: 'Grace Hopper' });
  assert.equal(typed.status, 'ok', typed.error);
  assert.equal(await page.inputValue('#name'), 'Grace Hopper');
  const save = await numberOf('Save draft');
  const saved = await call('browser_overlay_act', { index: save, action: 'click' });
  assert.equal(saved.status, 'ok', saved.error);
  assert.equal((await events()).saved, 1);
  await waitForReply(panel, new RegExp(`^Test client: Clicking ${save}: done$`));
});

test('a payment waits for the panel’s yes, which names the client, and then runs once', async () => {
  const pay = await numberOf('Pay €84.97');
  const pending = call('browser_overlay_act', { index: pay, action: 'click' });
  await waitForQuestion(panel);
  assert.match(
    await panel.textContent('#question-text'),
    /^Test client asks: Click button 'Pay €84\.97' on localhost\?$/,
  );
  assert.equal((await events()).paid, 0, 'nothing happens before the answer');
  await send(panel, '/yes');
  const result = await pending;
  assert.equal(result.status, 'ok', result.error);
  assert.equal((await events()).paid, 1);
});

test('with the panel’s no, the client gets a refusal and the page is unchanged', async () => {
  const remove = await numberOf('Delete account');
  const pending = call('browser_overlay_act', { index: remove, action: 'click' });
  await waitForQuestion(panel, { matching: /Delete account/ });
  await send(panel, '/no');
  const result = await pending;
  assert.equal(result.status, 'error');
  assert.equal(result.kind, 'declined', 'what the client decides by');
  assert.match(result.error, /you said no/);
  assert.equal((await events()).deleted ?? 0, 0);
});

test('a password is left to the user: the client is told, the panel hears it, nothing is typed', async () => {
  const password = await numberOf('Password');
  const result = await call('browser_overlay_act', { index: password, action: 'type', text: 'hunter2' });
  assert.equal(result.status, 'error');
  assert.equal(result.kind, 'handed_over');
  assert.match(result.error, /leaves this step to you/);
  assert.equal(await page.inputValue('#pw'), '');
  // The refusal says itself that nothing was done: no "not done: Not done" twice.
  await waitForReply(panel, /^Test client: Waymark leaves this step to you/);
});

test('a stale or unknown call gets a clear error, not an action', async () => {
  // An unknown tool is a JSON-RPC error, -32602, as MCP asks.
  await assert.rejects(client.callTool({ name: 'browser_fly', arguments: {} }), (error) => {
    assert.equal(error.code, -32602);
    assert.match(error.message, /browser_fly is not a browser tool/);
    return true;
  });
  const stale = await call('browser_overlay_act', { index: 9999, action: 'click' });
  assert.equal(stale.status, 'error');
  assert.equal(stale.kind, 'stale');
  assert.match(stale.error, /browser_list_interactives/, 'told in tools, not panel commands');
  assert.doesNotMatch(stale.error, /Say \//);
});

test('arguments are held to the schema: unknown names and values out of bounds are refused by name', async () => {
  const unknown = await call('browser_list_interactives', { limit: 5, tab: 3 });
  assert.equal(unknown.kind, 'bad_arguments');
  assert.match(unknown.error, /does not take `tab`/);
  const long = await call('browser_wait', { ms: 60001 });
  assert.equal(long.kind, 'bad_arguments');
  assert.match(long.error, /`ms` of browser_wait must be from 0 to 60000, not 60001/);
});

test('another program giving an allowed client’s name is asked about anew, by its program, and blocks nobody', async () => {
  // The same name as the allowed client, from another program: node running another script.
  const other = await connect(stateDir, 'Test client', { launcher: true });
  try {
    const pending = bodyOf(other.callTool({ name: 'browser_list_tabs', arguments: {} }));
    await waitForQuestion(panel, { matching: / wants to use your browser/ });
    assert.equal(
      await panel.textContent('#question-text'),
      'Test client (node mcp_launch.mjs) wants to use your browser through Waymark. Allow it?',
    );
    // While the question waits, the allowed client goes on.
    const tabs = await call('browser_list_tabs');
    assert.equal(tabs.status, 'ok', tabs.error);
    // The waiting call is told, well before a client would give up, that the user is being asked.
    const waited = await pending;
    assert.equal(waited.kind, 'awaiting_consent', JSON.stringify(waited));
    // `/details` says the program's full path and its user.
    const before = await replyCount(panel);
    await send(panel, '/details');
    const detail = await waitForReply(panel, /^Test client is the program /, { after: before });
    assert.ok(detail.includes(`${process.execPath} ${path.join(path.dirname(new URL(import.meta.url).pathname), 'lib', 'mcp_launch.mjs')}`), detail);
    assert.match(detail, /, run by the user \S+\. Your answer holds for this program until the browser restarts/);
    // The user's yes, given after the call gave up, lets the next call in.
    await send(panel, '/yes');
    await until(async () => {
      const body = await bodyOf(other.callTool({ name: 'browser_list_tabs', arguments: {} }));
      if (body.kind === 'awaiting_consent') return false;
      assert.equal(body.status, 'ok', body.error);
      return true;
    }, 'the other program to be let in');
  } finally {
    await other.close();
  }
});

test('a client keeps its session across a host restart', async () => {
  const records = () => fs.readdirSync(path.join(stateDir, 'run')).filter((f) => /^host-\d+\.json$/.test(f));
  const [record] = records();
  const { pid } = JSON.parse(fs.readFileSync(path.join(stateDir, 'run', record), 'utf8'));
  process.kill(pid, 'SIGKILL');
  // The extension starts a new host; the client, never restarted, is served by it.
  await until(() => records().some((f) => f !== record), 'a new host', 20_000);
  await allowOnceServed(client, 'Test client');
  const list = await call('browser_list_interactives');
  assert.equal(list.status, 'ok', list.error);
  assert.equal(list.data.title, 'Checkout fixture');
});

test('with no browser running, the session works and each call says what to do', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-nobrowser-'));
  const lonely = await connect(empty, 'Lonely client');
  try {
    const { tools } = await lonely.listTools();
    assert.ok(tools.some((t) => t.name === 'browser_overlay_act'));
    const result = await bodyOf(lonely.callTool({ name: 'browser_list_interactives', arguments: {} }));
    assert.equal(result.kind, 'unreachable');
    assert.match(result.error, /No browser with Waymark is running.*waymark-host doctor/s);
  } finally {
    await lonely.close();
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
