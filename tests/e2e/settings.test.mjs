// The settings page (settings.html, also the options page): axe-core finds no violation when it is
// loaded, filled, showing a validation error and showing the doctor's checks; it works with the
// keyboard only; each save or check is announced once in the status line; what it saves lands in the
// host's config file (a private XDG_CONFIG_HOME given to the browser), and the API key never reaches
// the extension's storage or comes back to the page. A state directory the host cannot write and a
// config file that does not parse are said in the panel once, with the fix; the settings page then
// replaces that file, keeping the old one beside it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { EXTENSION_ID, launch, openPanel, until, waitForReply, waitInPanel } from './lib/harness.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const KEY = 'sk-e2e-never-in-the-browser';
let browser;
let configHome;
let page;

async function axe(p) {
  await p.evaluate(AXE);
  const result = await p.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/// What the status line has said since the last call (non-empty texts only: the page empties it
/// before each new sentence so a repeated sentence is spoken again).
async function spoken(p) {
  return p.evaluate(() => window.__said.splice(0).filter((t) => t !== ''));
}

async function waitForStatus(p, pattern) {
  await waitInPanel(p, ({ source }) => new RegExp(source).test(document.getElementById('status').textContent), { source: pattern.source }, {
    what: `the settings page's status line matching ${pattern}`,
  });
}

/// Replaces a field's value with the keyboard: focus, select all, type.
async function typeInto(p, id, text) {
  await p.focus(`#${id}`);
  await p.keyboard.press('Control+A');
  await p.keyboard.press('Delete');
  if (text) await p.keyboard.type(text);
}

before(async () => {
  configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-config-'));
  browser = await launch({ env: { XDG_CONFIG_HOME: configHome, WAYMARK_LLM_MODEL: 'model-from-env', WAYMARK_LLM_API_KEY: '', OPENAI_API_KEY: '' } });
  page = await browser.context.newPage();
  await page.addInitScript(() => {
    window.__said = [];
    document.addEventListener('DOMContentLoaded', () => {
      const status = document.getElementById('status');
      new MutationObserver(() => window.__said.push(status.textContent))
        .observe(status, { childList: true, characterData: true, subtree: true });
    });
  });
  await page.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
});

after(async () => {
  await browser?.close();
  if (configHome) fs.rmSync(configHome, { recursive: true, force: true });
});

test('the settings page loads, validates, saves into the config file and runs the checks, by keyboard', async () => {
  await waitForStatus(page, /^Settings loaded\.$/);
  assert.deepEqual(await spoken(page), ['Settings loaded.']);
  assert.deepEqual(await axe(page), [], 'loaded, nothing saved yet');
  // The page starts in its first field, so a screen reader reads no whole page first.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'llm_base_url');
  // A value the environment sets is read-only and says so in a few words; which variable, and where
  // the config file is, are said on request, under "Where these settings come from".
  assert.equal(await page.inputValue('#llm_model'), 'model-from-env');
  assert.equal(await page.locator('#llm_model').evaluate((e) => e.readOnly), true);
  assert.equal(await page.textContent('#llm_model-hint'), 'Set by the environment, not by this page.');
  assert.equal(await page.locator('#where').evaluate((e) => e.open), false);
  assert.deepEqual(await page.locator('#overrides li').allTextContents(), [
    'Model: set by the environment variable WAYMARK_LLM_MODEL, which wins over this page; change or unset it where the browser is started.',
  ]);
  assert.match(await page.textContent('#source'), /^The host keeps these settings in .+config\.toml\.$/);

  await typeInto(page, 'llm_base_url', 'http://127.0.0.1:9/v1');
  await typeInto(page, 'llm_api_key', KEY);
  await typeInto(page, 'max_tool_steps', '0');
  await typeInto(page, 'banner_budget_ms', '900');
  assert.deepEqual(await axe(page), [], 'filled');

  // Enter in a field submits the form: the step limit is refused, focus goes to it, once said.
  await page.keyboard.press('Enter');
  await waitForStatus(page, /^Not saved: 1 problem\.$/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'max_tool_steps');
  assert.equal(await page.getAttribute('#max_tool_steps', 'aria-invalid'), 'true');
  assert.match(await page.textContent('#max_tool_steps-error'), /from 1 to 1000/);
  assert.match(await page.getAttribute('#max_tool_steps', 'aria-describedby'), /max_tool_steps-error/);
  assert.deepEqual(await spoken(page), ['Not saved: 1 problem.']);
  assert.equal(fs.existsSync(path.join(configHome, 'waymark', 'config.toml')), false, 'nothing written');
  assert.deepEqual(await axe(page), [], 'with a validation error');

  await typeInto(page, 'max_tool_steps', '12');
  await page.keyboard.press('Enter');
  await waitForStatus(page, /^Saved\.$/);
  assert.deepEqual(await spoken(page), ['Saving…', 'Saved.']);
  const file = path.join(configHome, 'waymark', 'config.toml');
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /llm_base_url = "http:\/\/127\.0\.0\.1:9\/v1"/);
  assert.match(text, /max_tool_steps = 12/);
  assert.match(text, /banner_budget_ms = 900/);
  assert.ok(text.includes(KEY), 'the host keeps the key');
  assert.doesNotMatch(text, /llm_model/, 'an environment-fixed value is not written');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);

  // The key is not in the page, nor in any extension storage.
  assert.equal(await page.inputValue('#llm_api_key'), '');
  assert.match(await page.textContent('#llm_api_key-hint'), /A key is set/);
  const stored = await page.evaluate(async () => {
    const local = chrome.storage ? JSON.stringify(await chrome.storage.local.get(null)) : '';
    const session = chrome.storage?.session ? JSON.stringify(await chrome.storage.session.get(null)) : '';
    const web = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    const dbs = indexedDB.databases ? JSON.stringify(await indexedDB.databases()) : '';
    return local + session + web + dbs + document.documentElement.outerHTML;
  });
  assert.ok(!stored.includes(KEY), 'the key is nowhere in the extension');

  // Run checks: Tab from Save reaches the button; Enter runs it.
  await page.focus('#save');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'run-doctor');
  await page.keyboard.press('Enter');
  await waitForStatus(page, /^Checks done/);
  const said = await spoken(page);
  assert.equal(said.length, 2, JSON.stringify(said));
  assert.equal(said[0], 'Running checks…');
  const checks = await page.locator('#checks li').allTextContents();
  assert.ok(checks.some((c) => /LLM endpoint: nothing answers at http:\/\/127\.0\.0\.1:9\/v1/.test(c)), checks.join('\n'));
  assert.ok(checks.some((c) => /^OK: Browser: 1 browser is connected/.test(c)), checks.join('\n'));
  assert.ok(!checks.join('\n').includes(KEY));
  assert.deepEqual(await axe(page), [], 'with the checks shown');
});

/// The pid of the waymark-host started with `WAYMARK_STATE_DIR=stateDir` (unique to one test), from
/// /proc, or null while there is none.
function hostWith(stateDir) {
  for (const name of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!fs.readlinkSync(`/proc/${name}/exe`).endsWith('waymark-host')) continue;
      const env = fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (env.includes(`WAYMARK_STATE_DIR=${stateDir}`)) return Number(name);
    } catch {
      // The process ended, or is not ours to read.
    }
  }
  return null;
}

/// Kills the host and waits for the one the extension starts in its place.
async function restartHost(stateDir) {
  const old = await until(() => hostWith(stateDir), 'the host to run', 15_000);
  process.kill(old, 'SIGKILL');
  return until(() => { const pid = hostWith(stateDir); return pid && pid !== old && pid; }, 'a new host', 15_000);
}

async function transcript(panel) {
  return panel.locator('#transcript .msg-waymark').allTextContents();
}

test('an unwritable state directory and a config that does not parse are said once with the fix; the settings page replaces the config, keeping a copy', async () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-faults-'));
  // A file where the state folder's parent must be: it refuses root too.
  const blocker = path.join(scratch, 'a-file');
  fs.writeFileSync(blocker, '');
  const stateDir = path.join(blocker, 'waymark');
  const home = path.join(scratch, 'config');
  const faulty = await launch({ env: { XDG_CONFIG_HOME: home, WAYMARK_STATE_DIR: stateDir, WAYMARK_LLM_API_KEY: '', OPENAI_API_KEY: '' } });
  try {
    const panel = await openPanel(faulty.context);
    const stateFault = `Waymark cannot save anything: ${blocker} is a file, where Waymark's folder must be.`;
    const said = await waitForReply(panel, /^Waymark cannot save anything/, { timeout: 15_000 });
    assert.ok(said.startsWith(stateFault), said);
    assert.match(said, /To fix it, move that file away, or choose another folder with state_dir in config\.toml or the WAYMARK_STATE_DIR environment variable/);
    assert.equal(await panel.textContent('#alert'), said, 'said assertively');

    // A host started again with the same fault: not said again.
    await restartHost(stateDir);
    await until(
      () => panel.evaluate(() => window.__waymarkStatusLog.filter((t) => t.startsWith('Connected')).length >= 2),
      'the panel to connect again', 15_000,
    );
    assert.equal((await transcript(panel)).filter((t) => t.startsWith('Waymark cannot save')).length, 1);

    // A config file that does not parse, found by the next host.
    const file = path.join(home, 'waymark', 'config.toml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'llm_model = \nlog = "debug"\n');
    await restartHost(stateDir);
    const broken = await waitForReply(panel, /^Waymark's settings do not load: the configuration file/, { timeout: 15_000 });
    assert.ok(broken.includes(file) && broken.includes('is not valid TOML at llm_model: line 1, column 13'), broken);
    assert.ok(!broken.includes('\n') && !broken.includes('|'), `one line, read aloud: ${broken}`);
    assert.match(broken, /Chat cannot start until they do\. To fix it, edit .*, or open the settings \(\/settings\) and save/);

    // The settings page says so, shows the defaults, and saving replaces the file, keeping a copy.
    const settings = await faulty.context.newPage();
    await settings.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
    await waitForStatus(settings, /The fields show the defaults\. Save to replace the file with them; the old file is kept beside it\.$/);
    assert.match(await settings.textContent('#status'), /^Waymark's settings do not load: the configuration file .* is not valid TOML at llm_model: line 1, column 13/);
    assert.equal(await settings.inputValue('#llm_model'), 'qwen2.5:7b-instruct');
    assert.deepEqual(await axe(settings), [], 'a config that does not parse');
    await typeInto(settings, 'llm_model', 'llama3.1');
    await settings.keyboard.press('Enter');
    await waitForStatus(settings, /^Saved\. The old config file, which did not load, was kept as /);
    const copy = (await settings.textContent('#status')).match(/kept as (.*)\.$/)[1];
    assert.equal(path.dirname(copy), path.dirname(file));
    assert.match(path.basename(copy), /^config\.toml\.broken-\d+$/);
    assert.equal(fs.readFileSync(copy, 'utf8'), 'llm_model = \nlog = "debug"\n', 'the old file, as it was');
    assert.equal(fs.statSync(copy).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(file, 'utf8'), /llm_model = "llama3\.1"/);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  } finally {
    await faulty.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
