// The walking skeleton, end to end: the panel reaches the real host process through the service worker
// and native messaging, survives the host being killed, and says what to do when it is not installed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import {
  EXTENSION_ID, config, launch, openPanel, processInfo, replyCount, send, waitForReply, waitForStatus, waitInPanel,
} from './lib/harness.mjs';

let browser;
let panel;

before(async () => {
  browser = await launch();
  panel = await openPanel(browser.context);
});

after(async () => {
  await browser?.close();
});

// Short for listening; which host answered is the detail, on /details.
const PONG = /^Pong, \d+ ms\.$/;
const DETAIL = /^Waymark host (\S+), process (\d+), answered in \d+ ms\.$/;

async function ping() {
  let before = await replyCount(panel);
  await send(panel, '/ping');
  await waitForReply(panel, PONG, { after: before });
  before = await replyCount(panel);
  await send(panel, '/details');
  const text = await waitForReply(panel, DETAIL, { after: before });
  const [, version, pid] = text.match(DETAIL);
  return { version, pid: Number(pid) };
}

function assertIsOurHost(pid) {
  const info = processInfo(pid);
  assert.ok(info, `process ${pid} is not running`);
  assert.equal(info.exe, fs.realpathSync(config().hostBin), 'the answer came from the waymark-host binary');
  assert.ok(info.argv.includes(`chrome-extension://${EXTENSION_ID}/`), `started by our extension: ${info.argv}`);
}

test('the panel announces the connection and /ping is answered by the real host process', async () => {
  const status = await waitForStatus(panel, /^Connected\.$/);
  assert.equal(status, 'Connected.');
  const { version, pid } = await ping();
  assert.equal(version, '0.1.0');
  assertIsOurHost(pid);
  // The page's landmarks and live regions are in place for a screen reader.
  assert.equal(await panel.getAttribute('#transcript', 'role'), 'log');
  assert.equal(await panel.getAttribute('#status', 'role'), 'status');
  assert.equal(await panel.locator('#message').evaluate((e) => e.labels[0].textContent), 'Message or command');
  assert.equal(await panel.evaluate(() => document.activeElement.id), 'message', 'focus stays in the input');
});

test('after the host is killed the extension reconnects and /ping reaches a new host', async () => {
  const { pid: first } = await ping();
  const logBefore = (await panel.evaluate(() => window.__waymarkStatusLog)).length;
  process.kill(first, 'SIGKILL');
  await waitInPanel(
    panel,
    (n) => window.__waymarkStatusLog.slice(n).some((s) => s.startsWith('Waymark host disconnected')),
    logBefore,
    { what: 'the status line to say "Waymark host disconnected"' },
  );
  await waitForStatus(panel, /^Connected\.$/);
  const { pid: second } = await ping();
  assert.notEqual(second, first, 'a new host process answers');
  assertIsOurHost(second);
  // Each state was announced once: no repeats of the same text in a row.
  const log = (await panel.evaluate(() => window.__waymarkStatusLog)).slice(logBefore);
  for (let i = 1; i < log.length; i++) assert.notEqual(log[i], log[i - 1], `repeated status: ${log}`);
  // Said in Waymark's words (in the user's language), not the browser's English "Native host has exited".
  assert.ok(log.includes('Waymark host disconnected (the host program ended); reconnecting…'), log.join('\n'));
});

test('a missing host is reported with what to do, and found again once installed', async () => {
  const { pid } = await ping();
  const manifest = browser.manifestPath;
  const saved = `${manifest}.saved`;
  fs.renameSync(manifest, saved);
  try {
    process.kill(pid, 'SIGKILL');
    const notInstalled =
      "Waymark's host is not installed for this browser: install the waymark-host package, or from source run ./build.sh install";
    await waitForStatus(panel, new RegExp(`^${escapeRegExp(notInstalled)}$`));
    const before = await replyCount(panel);
    await send(panel, '/ping');
    await waitForReply(panel, new RegExp(`^Could not reach the host: ${escapeRegExp(notInstalled)}\\.`), { after: before });
  } finally {
    fs.renameSync(saved, manifest);
  }
  await waitForStatus(panel, /^Connected\.$/, 30_000);
  assertIsOurHost((await ping()).pid);
});

test('a host that does not allow this extension is told the exact command that allows it', async () => {
  const { pid } = await ping();
  const manifest = browser.manifestPath;
  const original = fs.readFileSync(manifest, 'utf8');
  // A host registered for another id (as a store build's or a copied folder's would be).
  const other = JSON.parse(original);
  other.allowed_origins = ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'];
  fs.writeFileSync(manifest, JSON.stringify(other));
  try {
    process.kill(pid, 'SIGKILL');
    await waitForStatus(
      panel,
      new RegExp(
        `^Waymark's host here does not allow this extension\\. To allow it, run in a terminal: ` +
          `waymark-host install --browser chromium --extension-id ${EXTENSION_ID}$`,
      ),
    );
  } finally {
    fs.writeFileSync(manifest, original);
  }
  await waitForStatus(panel, /^Connected\.$/, 30_000);
});

test('typos and chat get a clear spoken answer', async () => {
  let before = await replyCount(panel);
  await send(panel, '/pnig');
  await waitForReply(panel, /^Unknown command \/pnig\. Did you mean \/ping\? Type \/help for the list\.$/, { after: before });
  before = await replyCount(panel);
  await send(panel, '/help');
  await waitForReply(panel, /^Commands: .*\/ping: .*\/help: /, { after: before });
});

test('a command sent while the panel is still starting is kept and answered once it has started', async () => {
  const early = await browser.context.newPage();
  // The panel's language files arrive late, as on a slow disk: the panel is not started yet when the
  // user presses Enter.
  await early.addInitScript(() => {
    const fetchNow = window.fetch.bind(window);
    window.fetch = (url, ...rest) => (String(url).includes('/locales/')
      ? new Promise((resolve) => setTimeout(resolve, 1_500)).then(() => fetchNow(url, ...rest))
      : fetchNow(url, ...rest));
  });
  await early.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html`, { waitUntil: 'domcontentloaded' });
  await send(early, '/ping');
  assert.equal(await replyCount(early), 0, 'the panel had not started when Enter was pressed');
  await waitForReply(early, PONG);
  assert.equal(await early.inputValue('#message'), '', 'the field was emptied once the command went');
  await early.close();
});

/// `text` matched literally inside a RegExp.
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
