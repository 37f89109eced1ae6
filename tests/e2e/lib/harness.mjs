// The end-to-end harness: a real Chromium with the real extension (dist/extension) and the real host
// (registered into a throwaway profile with `waymark-host install --user-data-dir`).
//
// build.sh passes WAYMARK_HOST_BIN, WAYMARK_EXTENSION_DIR and WAYMARK_CHROMIUM.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { alternatives, languages } from './catalogue.mjs';
import { tripwire, watchServer } from './tripwire.mjs';

export { tripwire, watchServer };

export const EXTENSION_ID = 'cefdccnmncoeemlgklbddcicjlldkfko';
export const HOST_NAME = 'io.waymark.host';

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the end-to-end tests through ./build.sh test`);
  return value;
}

export function config() {
  return {
    hostBin: path.resolve(required('WAYMARK_HOST_BIN')),
    extensionDir: path.resolve(required('WAYMARK_EXTENSION_DIR')),
    chromiumPath: required('WAYMARK_CHROMIUM'),
  };
}

/// The flags every browser of the tests starts with.
const BROWSER_FLAGS = [
  '--disable-gpu',
  // Without these Chromium keeps trying to reach the internet, which these machines refuse.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
];

/// Launches Chromium with Waymark. Returns { context, profileDir, stateDir, manifestPath, close }.
/// `args` are added to the browser's; `ignoreDefaultArgs` drops some of Playwright's own; `viewport`
/// null lets the window's own size rule (a headed demo on a real screen).
export async function launch({
  headless = true,
  env = {},
  args: extra = [],
  ignoreDefaultArgs,
  viewport = { width: 1200, height: 800 },
} = {}) {
  const { hostBin, extensionDir, chromiumPath } = config();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-profile-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-state-'));
  // The throwaway profile's registration is recorded in a throwaway folder too, never in the real
  // install record of whoever runs the tests or the demo.
  execFileSync(hostBin, ['install', '--user-data-dir', profileDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, XDG_DATA_HOME: path.join(stateDir, 'install-record') },
  });
  const manifestPath = path.join(profileDir, 'NativeMessagingHosts', `${HOST_NAME}.json`);

  const args = [
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
    ...BROWSER_FLAGS,
    ...extra,
  ];
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless,
    args,
    ignoreDefaultArgs,
    // The browser passes its environment to the host it starts.
    env: { ...process.env, WAYMARK_STATE_DIR: stateDir, WAYMARK_LOG: process.env.WAYMARK_LOG ?? 'info', ...env },
    viewport,
  });
  const close = async () => {
    await context.close().catch(() => {});
    for (const dir of [profileDir, stateDir]) fs.rmSync(dir, { recursive: true, force: true });
  };
  return { context, profileDir, stateDir, manifestPath, close };
}

/// Launches the same Chromium with the same flags and viewport, but with no extension at all: what a
/// page sees without Waymark, to compare with. Returns { context, close }.
export async function launchPlain() {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-plain-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: config().chromiumPath, headless: true, args: BROWSER_FLAGS, viewport: { width: 1200, height: 800 },
  });
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profileDir, { recursive: true, force: true });
  };
  return { context, close };
}

/// Opens the side panel as a tab, with every change of its status line recorded in
/// `window.__waymarkStatusLog` and every words of its alert region in `window.__waymarkAlertLog` (what
/// a screen reader would hear from the role=status and role=alert regions).
export async function openPanel(context) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__waymarkStatusLog = [];
    window.__waymarkAlertLog = [];
    document.addEventListener('DOMContentLoaded', () => {
      const status = document.getElementById('status');
      new MutationObserver(() => window.__waymarkStatusLog.push(status.textContent))
        .observe(status, { childList: true, characterData: true, subtree: true });
      const alert = document.getElementById('alert');
      new MutationObserver(() => alert.textContent && window.__waymarkAlertLog.push(alert.textContent))
        .observe(alert, { childList: true, characterData: true, subtree: true });
    });
  });
  await page.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html`);
  return page;
}

/// Opens the side panel for the tab that shows `page`, as the browser opens it from that tab.
export async function openPanelFor(context, page) {
  const panel = await openPanel(context);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
  return panel;
}

/// A line that answers yes (`/yes`, or a language's own word such as `/да`), which covers what the
/// action asked about sends.
const YES_WORDS = new Set(['yes', ...languages().flatMap((l) => alternatives(l, 'input-yes'))]);
const isYes = (text) => text.startsWith('/') && YES_WORDS.has(text.slice(1).toLowerCase());

/// Types a line into the panel's message input and sends it with Enter, as a keyboard user does. What
/// reached a test's server before it is checked first (the tripwire); a yes covers what comes after,
/// unless `allows` is false (a yes to a client's consent allows no request).
export async function send(page, text, { allows = true } = {}) {
  tripwire.check(`the last call, before sending ${JSON.stringify(text)}`);
  if (allows && isYes(text.trim())) tripwire.yes();
  await page.focus('#message');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/// What the panel shows now, in a few lines for a failure message: its status line, a question if one
/// is shown, and its last three replies.
export async function panelState(page) {
  try {
    return await page.evaluate(() => {
      const text = (id) => document.getElementById(id)?.textContent.trim() ?? '';
      const question = document.getElementById('question');
      const replies = [...document.querySelectorAll('#transcript .msg-waymark')].slice(-3).map((e) => e.textContent.trim());
      return [
        `status: ${JSON.stringify(text('status'))}`,
        question && !question.hidden ? `question: ${JSON.stringify(text('question-text'))}` : 'no question shown',
        `alert: ${JSON.stringify(text('alert'))}`,
        `last replies: ${replies.length ? replies.map((r) => JSON.stringify(r)).join(' | ') : '(none)'}`,
      ].join('\n  ');
    });
  } catch (error) {
    return `(the panel could not be read: ${error.message.split('\n')[0]})`;
  }
}

/// `page.waitForFunction(fn, arg)` that, when it times out, says what it waited for (`what`) and what
/// the panel showed instead, so a failure names the expected words and the words that were there.
export async function waitInPanel(page, fn, arg, { what, timeout = 15_000 }) {
  try {
    return await page.waitForFunction(fn, arg, { timeout });
  } catch (error) {
    if (error.name !== 'TimeoutError') throw error;
    throw new Error(`waited ${timeout / 1000} s for ${what}; instead the panel shows\n  ${await panelState(page)}`);
  }
}

/// Waits for an element's text (`id`: `question-text`, `alert`) to match `pattern` (anything by
/// default), naming both on failure; returns the text.
async function waitForText(page, id, pattern, what, timeout) {
  const handle = await waitInPanel(
    page,
    ({ id, source, flags }) => {
      const text = document.getElementById(id)?.textContent ?? '';
      return new RegExp(source, flags).test(text) ? text : false;
    },
    { id, source: pattern.source, flags: pattern.flags },
    { what: `${what} matching ${pattern}`, timeout },
  );
  return handle.jsonValue();
}

/// Waits for a question in the panel's dialog whose words match `matching`; returns its words.
export async function waitForQuestion(page, { matching = /[\s\S]/, timeout = 15_000 } = {}) {
  return waitForText(page, 'question-text', matching, 'a question', timeout);
}

/// Waits for the panel's alert region (what the screen reader says at once) to match `matching`.
export async function waitForAlert(page, { matching = /[\s\S]/, timeout = 15_000 } = {}) {
  return waitForText(page, 'alert', matching, 'the alert region', timeout);
}

/// `page.waitForFunction` on a page that is not Waymark's: on timeout, says what it waited for and the
/// page's address and title.
export async function waitOnPage(page, fn, arg, { what, timeout = 15_000 }) {
  try {
    return await page.waitForFunction(fn, arg, { timeout });
  } catch (error) {
    if (error.name !== 'TimeoutError') throw error;
    const title = await page.title().catch(() => '(unreadable)');
    throw new Error(`waited ${timeout / 1000} s for ${what} on ${page.url()} (${JSON.stringify(title)})`);
  }
}

/// Waits for a transcript entry from Waymark matching `pattern` that was added after `after` entries.
export async function waitForReply(page, pattern, { after = 0, timeout = 10_000 } = {}) {
  const handle = await waitInPanel(
    page,
    ({ source, flags, after }) => {
      const items = [...document.querySelectorAll('#transcript .msg-waymark')].slice(after);
      return items.map((e) => e.textContent).find((t) => new RegExp(source, flags).test(t)) ?? false;
    },
    { source: pattern.source, flags: pattern.flags, after },
    { what: `a reply matching ${pattern} after reply ${after}`, timeout },
  );
  const reply = await handle.jsonValue();
  tripwire.check(`the reply ${JSON.stringify(reply)}`);
  return reply;
}

export async function replyCount(page) {
  return page.locator('#transcript .msg-waymark').count();
}

export async function waitForStatus(page, pattern, timeout = 15_000) {
  await waitInPanel(
    page,
    ({ source, flags }) => new RegExp(source, flags).test(document.getElementById('status').textContent),
    { source: pattern.source, flags: pattern.flags },
    { what: `a status line matching ${pattern}`, timeout },
  );
  return page.locator('#status').textContent();
}

/// Serves a folder on 127.0.0.1 with a free port, and `/redirect?to=<base64 path>` as a redirector; every
/// request that reaches it is seen by the tripwire. Returns { url, close }.
export async function serveStatic(dir) {
  const types = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript' };
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
    if (rel === 'redirect') {
      // A redirector, as mail and ad links use: `?to=` is the address (same site) in base64, which
      // says nothing of where it goes.
      const to = Buffer.from(new URL(req.url, 'http://x').searchParams.get('to') ?? '', 'base64').toString('utf8');
      res.writeHead(302, { location: to.startsWith('/') ? to : '/' }).end();
      return;
    }
    const file = path.join(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' };
    // Files under downloads/ come as attachments, as a site's "download" links do: following one
    // downloads the file instead of showing it.
    if (rel.startsWith('downloads/')) {
      headers['content-disposition'] = `attachment; filename="${path.basename(file)}"`;
      headers['content-length'] = fs.statSync(file).size;
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  watchServer(server);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

/// The executable and arguments of a live process (Linux /proc).
export function processInfo(pid) {
  try {
    const exe = fs.realpathSync(`/proc/${pid}/exe`);
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { exe, argv };
  } catch {
    return null;
  }
}

/// Whether a node of the DevTools protocol's DOM tree (`DOM.getDocument` with `pierce`) is one of
/// Waymark's host elements (the overlay, or the screenshot mask). Their tag is random per frame and
/// they carry no attribute, so they are known by what only the protocol sees: a custom element with a
/// closed shadow root. No fixture page has such an element of its own.
export function isWaymarkHost(node) {
  return node.localName?.includes('-')
    && (node.attributes ?? []).length === 0
    && (node.shadowRoots ?? []).some((s) => s.shadowRootType === 'closed');
}

const HERE = path.dirname(new URL(import.meta.url).pathname);
const FIXTURES = path.join(HERE, '..', 'fixtures');

/// Launches Waymark with the fixture page `name` (from tests/e2e/fixtures, served on 127.0.0.1) open
/// in a tab, and the panel working on that tab once connected to the host.
/// Returns { browser, site, page, panel, close }.
export async function openFixture(name, launchOptions = {}) {
  const site = await serveStatic(FIXTURES);
  const browser = await launch(launchOptions);
  const page = await browser.context.newPage();
  await page.goto(`${site.url}${name}`);
  const panel = await openPanel(browser.context);
  const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
  await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
  await waitForStatus(panel, /^Connected\.$/);
  const close = async () => {
    await browser.close();
    await site.close();
    tripwire.check('the test, at its end');
  };
  return { browser, site, page, panel, close };
}

/// Sends a line from the panel and waits for Waymark's answer matching `pattern`.
export async function command(panel, text, pattern, timeout) {
  const before = await replyCount(panel);
  await send(panel, text);
  return waitForReply(panel, pattern, { after: before, timeout });
}

/// An MCP client (the official TypeScript SDK) running `waymark-host mcp` as Claude Desktop or Cursor
/// would, against the browser whose host keeps its socket in `stateDir`. A failed connection's error
/// carries the server's stderr. With `panel`, the user allows the client there (a new client's first
/// call waits for that), as a person would: the question is read in its dialog and answered yes.
export async function connectMcp(stateDir, name = 'Test client', { panel, launcher = false } = {}) {
  const hostArgs = ['mcp'];
  const transport = new StdioClientTransport({
    // `launcher`: started by another program (`lib/mcp_launch.mjs`), as a second client program would be.
    command: launcher ? process.execPath : config().hostBin,
    args: launcher ? [path.join(HERE, 'mcp_launch.mjs'), config().hostBin, ...hostArgs] : hostArgs,
    // The proxy speaks the terminal's language while no browser answers; these tests read English.
    env: { ...process.env, WAYMARK_STATE_DIR: stateDir, WAYMARK_LOG: 'warn', LC_ALL: 'C' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    error.stderr = stderr;
    throw error;
  }
  // Every call this client makes is followed by the tripwire's check.
  const callTool = client.callTool.bind(client);
  client.callTool = async (params, ...rest) => {
    const result = await callTool(params, ...rest);
    tripwire.check(`${name}'s call ${params.name} ${JSON.stringify(params.arguments ?? {})}`);
    return result;
  };
  if (panel) {
    // A client never allowed is closed here: its caller never gets it to close, and its host process
    // would keep the test file running after its last test.
    await allowClient(client, panel, name).catch(async (error) => {
      await client.close().catch(() => {});
      throw error;
    });
  }
  return client;
}

/// The user allows an MCP client in the panel: its first call (a harmless listing of the tabs) waits
/// for the question naming it (and its program: "Test client (node mcp.test.mjs) wants to use …"),
/// which is answered yes. A call that waited longer than the host lets it
/// is told the user is being asked (`awaiting_consent`), and is made again after the yes.
export async function allowClient(client, panel, name) {
  const list = () => client.callTool({ name: 'browser_list_tabs', arguments: {} });
  const first = list();
  await waitInPanel(
    panel,
    (who) => {
      const text = document.getElementById('question-text').textContent;
      return text.startsWith(`${who} (`) && text.includes(' wants to use your browser');
    },
    name,
    { what: `the question whether ${name} may use the browser` },
  );
  await send(panel, '/yes', { allows: false });
  let result = JSON.parse((await first).content[0].text);
  if (result.kind === 'awaiting_consent') result = JSON.parse((await list()).content[0].text);
  if (result.status !== 'ok') throw new Error(`the allowed client's first call failed: ${result.error}`);
}

/// The scripted model (tools/fake-llm) on 127.0.0.1, answering `steps` in order (build.sh passes
/// WAYMARK_FAKE_LLM_BIN). `addSteps` appends steps once the test knows them (the numbers of a page's
/// controls); `requests` is every request the model received.
export async function startModel(steps) {
  const bin = process.env.WAYMARK_FAKE_LLM_BIN;
  if (!bin) throw new Error('WAYMARK_FAKE_LLM_BIN is not set: run the end-to-end tests through ./build.sh test');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-model-'));
  const script = path.join(dir, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ steps }));
  const child = spawn(bin, ['--script', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake-llm exited with ${code}`)));
  });
  const url = first.replace(/^listening on /, '');
  const root = url.replace(/\/v1$/, '');
  return {
    child,
    url,
    async addSteps(more) {
      const response = await fetch(`${root}/_fake/steps`, { method: 'POST', body: JSON.stringify({ steps: more }) });
      if (!response.ok) throw new Error(`fake-llm refused the steps: ${await response.text()}`);
    },
    async requests() {
      return (await fetch(`${root}/_fake/requests`)).json();
    },
    close() {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/// Waits until `check()` gives something truthy and returns it, asking every 50 ms for at most
/// `timeout` ms; fails with `what` otherwise. For conditions the test can observe, instead of sleeping.
/// The default is generous because a busy machine (CI's, two cores) takes seconds to open a window; it
/// only delays a failure, never a pass.
export async function until(check, what, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeout} ms in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
