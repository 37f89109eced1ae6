// Working a real application by number through an MCP client, as a new user's model would, for the
// real-application tests (real_apps.test.mjs, real_apps_tools.test.mjs): calling tools, finding a
// control's number in a fresh listing, and acting with or without the user's yes in the panel.
import assert from 'node:assert/strict';
import { EXTENSION_ID, connectMcp, launch, openPanel, panelState, send, until, waitForStatus } from './harness.mjs';

/// A call failed with "cannot reach this tab" on a page that was only loading, or because the page did
/// not answer or Waymark's script in it failed (said so since issue 13).
export const CANNOT_REACH = /cannot reach this tab|did not answer this request|script in this page failed/;

/// Tools that only look: made again after a false "cannot reach this tab", so the tasks go on and show
/// what else works. A call that acts is never made twice.
const LOOKS = new Set(['browser_list_interactives', 'browser_find', 'browser_wait', 'browser_extract']);

/// The helpers for `client` (allowed, named `clientName`) working on `page` with the user in `panel`.
/// `falseErrors` collects every false "cannot reach this tab" for the test file's last test to judge.
export function byNumber({ client, panel, page, clientName }) {
  const falseErrors = [];

  /// Calls a tool as the client and returns its `{status, error?, kind?, data?}`.
  async function call(name, args = {}) {
    const once = async () => JSON.parse((await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })).content[0].text);
    let result = await once();
    if (result.status === 'error' && CANNOT_REACH.test(result.error)) {
      falseErrors.push(`${name} ${JSON.stringify(args)} on ${page.url()}`);
      if (LOOKS.has(name)) {
        result = await until(async () => {
          const again = await once();
          return CANNOT_REACH.test(again.error ?? '') ? null : again;
        }, `${name} to reach ${page.url()}`, 15_000);
      }
    }
    return result;
  }

  async function ok(name, args) {
    const result = await call(name, args);
    assert.equal(result.status, 'ok', `${name} ${JSON.stringify(args)}: ${result.error}`);
    return result.data;
  }

  /// Opens `url` through the client and waits for the page to settle, as a model would.
  async function open(url) {
    await ok('browser_navigate', { url });
    await ok('browser_wait', {});
  }

  /// The first item `check` accepts, from a fresh listing of the whole page; listed again while the
  /// application is still drawing it, for at most `timeout` ms.
  async function itemWhere(check, what, timeout = 10_000) {
    let list;
    return until(async () => {
      list = await ok('browser_list_interactives', { limit: 500 });
      return list.items.find(check);
    }, `${what} to be listed`, timeout).catch((error) => {
      error.message += `; listed:\n${list.items.map((i) => `${i.index} ${i.role} ${i.name}${i.context ? ` (${i.context})` : ''}`).join('\n')}`;
      throw error;
    });
  }

  /// The number of the control of `role` named `name` (a string, or a RegExp).
  async function numberOf(name, role) {
    const named = (i) => (typeof name === 'string' ? i.name === name : name.test(i.name ?? ''));
    return (await itemWhere((i) => named(i) && i.role === role, `${role} '${name}'`)).index;
  }

  const questionShown = (timeout) => panel.waitForFunction(() => document.getElementById('question-text').textContent !== '', null, { timeout });

  /// Runs a page-changing call that must not ask: it must end without a question in the panel.
  async function withoutQuestion(name, args) {
    const pending = call(name, args);
    const question = questionShown(60_000).then(async () => panel.textContent('#question-text'), () => null);
    const first = await Promise.race([pending.then((result) => ({ result })), question.then((asked) => ({ asked }))]);
    if (first.asked) {
      await send(panel, '/no');
      await pending;
      assert.fail(`asked, although it should not: ${first.asked}`);
    }
    assert.equal(first.result.status, 'ok', first.result.error);
    return first.result;
  }

  /// Runs a call that must ask the user first: the question names the client and matches `pattern`;
  /// nothing happens before the answer, which is `answer` (yes or no), as `unchanged()` checks.
  /// Returns the call's result.
  async function withQuestion(name, args, pattern, answer, unchanged) {
    const pending = call(name, args);
    const first = await Promise.race([pending.then((result) => ({ result })), questionShown(30_000).then(() => ({}))]);
    assert.ok(!first.result, `done without asking: ${JSON.stringify(first.result)}`);
    const question = await panel.textContent('#question-text');
    assert.ok(question.startsWith(`${clientName} asks: `), question);
    assert.match(question, pattern);
    if (unchanged) await unchanged();
    await send(panel, `/${answer}`);
    const result = await pending;
    if (answer === 'no') assert.equal(result.kind, 'declined', JSON.stringify(result));
    else assert.equal(result.status, 'ok', result.error);
    await panel.waitForFunction(() => document.getElementById('question-text').textContent === '');
    return result;
  }

  return { call, ok, open, itemWhere, numberOf, withoutQuestion, withQuestion, falseErrors };
}

/// Starts the applications (`startApps()`) and a browser with Waymark at once. Both are kept even when
/// the other fails, so `close()` closes what did start (a browser left open would keep the test file
/// running for ever). Returns { apps, browser, page, close }.
export async function startWithApps(startApps) {
  const [appsStarted, browserStarted] = await Promise.allSettled([startApps(), launch()]);
  const started = { apps: appsStarted.value, browser: browserStarted.value };
  started.close = async () => {
    await started.browser?.close();
    await started.apps?.close();
  };
  for (const one of [appsStarted, browserStarted]) {
    if (one.status === 'rejected') {
      await started.close();
      throw one.reason;
    }
  }
  started.page = await started.browser.context.newPage();
  return started;
}

/// The panel on `page`'s tab, and an MCP client named `clientName` the user allowed there, working
/// `page` by number ([`byNumber`]); the user names the applications at `named` to Waymark by opening
/// them with their own /go, so what the client types and opens there is not asked about as data
/// leaving for a site nobody named (native-host/src/gate/provenance.rs). The tab ends on the last.
/// Returns { panel, client, ...byNumber }.
export async function workByNumber(browser, page, clientName, named) {
  const panel = await openPanel(browser.context);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
  await waitForStatus(panel, /^Connected\.$/);
  // Tools without a tab act on the active tab of the focused window: the application, not the panel.
  await page.bringToFront();
  const client = await connectMcp(browser.stateDir, clientName, { panel });
  for (const url of named) {
    await send(panel, `/go ${url}`);
    try {
      await until(() => page.url().startsWith(url), `the user's /go to ${url}`, 15_000);
    } catch (error) {
      // The caller never gets the client to close, and its `waymark-host mcp` would keep the run alive.
      await client.close().catch(() => {});
      throw new Error(`${error.message}; the page is at ${page.url()}, and the panel shows\n  ${await panelState(panel)}`);
    }
  }
  return { panel, client, ...byNumber({ client, panel, page, clientName }) };
}
