// MiniWoB++ through Waymark's numbers only.
//
// The task pages of the `miniwob` PyPI wheel (fetched at run time into ~/.cache/waymark-bench/, never kept
// in this repository) are served on 127.0.0.1 and opened in Chromium with the real extension and host.
// For each episode the benchmark reads the task's instruction (what a user would ask for), and a small
// scripted solver per task carries it out through `waymark-host mcp`, the way an MCP client does:
// `browser_find` / `browser_list_interactives` to get numbers, `browser_overlay_act` to click, type and
// select by number. It never touches the page's DOM to act; only the episode's START cover is clicked
// by the harness, as MiniWoB's own Python driver does. When Waymark's policy gate asks the user, the
// benchmark answers yes in the side panel and counts the question; a step the gate leaves to the user
// (a password) ends the episode as "handed over", which is the designed behaviour.
//
// It prints a markdown table of success rates (an episode succeeds when MiniWoB's raw reward is > 0).
//
//   node bench/miniwob.mjs [--episodes N] [--tasks a,b,c]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectMcp, launch, openPanel, serveStatic } from '../tests/e2e/lib/harness.mjs';

const MINIWOB_VERSION = '1.1.0';
const log = (...args) => console.error('[miniwob]', ...args);

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/// The wheel's `html/` folder, downloaded with pip the first time only.
function miniwobHtml() {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const root = path.join(cache, 'waymark-bench', `miniwob-${MINIWOB_VERSION}`);
  const html = path.join(root, 'miniwob', 'html');
  if (!fs.existsSync(path.join(html, 'core', 'core.js'))) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-miniwob-'));
    log(`fetching miniwob==${MINIWOB_VERSION} from PyPI into ${root}`);
    const pip = ['pip3', 'pip'].find((p) => spawnSync(p, ['--version']).status === 0);
    if (!pip) throw new Error('pip is needed to fetch miniwob (apt-get install python3-pip)');
    execFileSync(pip, ['download', '--quiet', '--no-deps', `miniwob==${MINIWOB_VERSION}`, '-d', tmp], { stdio: 'inherit' });
    const wheel = fs.readdirSync(tmp).find((f) => f.endsWith('.whl'));
    execFileSync('python3', ['-c',
      'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [z.extract(n, sys.argv[2]) for n in z.namelist() if n.startswith("miniwob/html/")]',
      path.join(tmp, wheel), root]);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return html;
}

// ---------------------------------------------------------------------------------------------------
// Acting through Waymark's MCP server

class Waymark {
  constructor(client, panel) {
    this.client = client;
    this.panel = panel;
    this.questions = 0;
  }

  async call(name, args = {}) {
    const pending = this.client.callTool({ name, arguments: args });
    // A question from the gate: the user (here, the benchmark) says yes in the panel.
    const answered = this.answerQuestions(pending);
    const result = await pending;
    await answered;
    return JSON.parse(result.content[0].text);
  }

  async answerQuestions(pending) {
    let done = false;
    pending.finally(() => (done = true));
    while (!done) {
      const question = await this.panel.evaluate(() => document.getElementById('alert').textContent);
      if (question && / asks: /.test(question)) {
        this.questions++;
        await this.panel.focus('#message');
        await this.panel.keyboard.type('/yes');
        await this.panel.keyboard.press('Enter');
        await this.panel.waitForFunction(() => document.getElementById('alert').textContent === '');
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /// The controls matching `text` (and `role`), exact names first.
  async find(text, role) {
    const found = await this.call('browser_find', { text, role, limit: 50 });
    if (found.status !== 'ok') throw new Error(found.error);
    const items = found.data.items;
    // Exact names first, with their case (click-button may show both "Ok" and "ok"), then without.
    const same = items.filter((i) => i.name.trim() === text.trim());
    const exact = items.filter((i) => i.name.trim().toLowerCase() === text.trim().toLowerCase());
    return same.length ? same : exact.length ? exact : items;
  }

  async list() {
    const listed = await this.call('browser_list_interactives', { limit: 200 });
    if (listed.status !== 'ok') throw new Error(listed.error);
    return listed.data.items;
  }

  async act(index, action, text) {
    const done = await this.call('browser_overlay_act', { index, action, ...(text === undefined ? {} : { text }) });
    if (done.status !== 'ok') throw new Error(done.error);
  }

  /// Clicks the control named `text`, preferring the role the task implies (a page may use another:
  /// a clickable span for a link, say).
  async click(text, role) {
    let [item] = await this.find(text, role);
    if (!item && role) [item] = await this.find(text);
    if (!item) throw new Error(`no ${role ?? 'control'} named "${text}"`);
    await this.act(item.index, 'click');
  }
}

const quoted = (utterance) => utterance.match(/"([^"]*)"/)?.[1];

/// One solver per task: instruction in, actions by number out.
const SOLVERS = {
  'click-button': (w, u) => w.click(quoted(u), 'button'),
  'click-button-sequence': async (w) => {
    await w.click('ONE', 'button');
    await w.click('TWO', 'button');
  },
  'click-link': (w, u) => w.click(quoted(u), 'link'),
  'click-dialog': (w) => w.click('Close', 'button'),
  'click-tab': async (w, u) => w.click(u.match(/Tab #\d/)[0], 'tab'),
  'click-option': async (w, u) => {
    await w.click(u.match(/^Select (.*) and click Submit\.$/)[1], 'radio');
    await w.click('Submit', 'button');
  },
  'click-checkboxes': async (w, u) => {
    const wanted = u.match(/^Select (.*) and click Submit\.$/)[1];
    if (wanted !== 'nothing') {
      for (const name of wanted.split(', ')) await w.click(name, 'checkbox');
    }
    await w.click('Submit', 'button');
  },
  'enter-text': async (w, u) => {
    const [box] = (await w.list()).filter((i) => i.role === 'textbox');
    await w.act(box.index, 'type', quoted(u));
    await w.click('Submit', 'button');
  },
  'enter-text-2': async (w, u) => {
    const text = /lower case/.test(u) ? quoted(u).toLowerCase() : quoted(u).toUpperCase();
    const [box] = (await w.list()).filter((i) => i.role === 'textbox');
    await w.act(box.index, 'type', text);
    await w.click('Submit', 'button');
  },
  'focus-text': async (w) => {
    const [box] = (await w.list()).filter((i) => i.role === 'textbox');
    await w.act(box.index, 'click');
  },
  'choose-list': async (w, u) => {
    const [list] = (await w.list()).filter((i) => i.role === 'combobox' || i.role === 'listbox');
    await w.act(list.index, 'select', u.match(/^Select (.*) from the list and click Submit\.$/)[1]);
    await w.click('Submit', 'button');
  },
  'click-checkboxes-large': async (w, u) => {
    const wanted = u.match(/^Select (.*) and click Submit\.$/)[1];
    if (wanted !== 'nothing') {
      for (const name of wanted.split(', ')) await w.click(name, 'checkbox');
    }
    await w.click('Submit', 'button');
  },
  'click-dialog-2': async (w, u) => {
    // The title bar's "x" is a button named Close.
    const label = quoted(u);
    await w.click(label === 'x' ? 'Close' : label, 'button');
  },
  'click-collapsible': async (w) => {
    const [header] = (await w.list()).filter((i) => /^Section #\d+$/.test(i.name));
    await w.act(header.index, 'click');
    await w.click('Submit', 'button');
  },
  'enter-text-dynamic': async (w, u) => {
    const [box] = (await w.list()).filter((i) => i.role === 'textbox');
    await w.act(box.index, 'type', quoted(u));
    await w.click('Submit', 'button');
  },
  'focus-text-2': async (w, u) => {
    const nth = ['1st', '2nd', '3rd'].indexOf(u.match(/the (\w+) input textbox/)[1]);
    const boxes = (await w.list()).filter((i) => i.role === 'textbox');
    await w.act(boxes[nth].index, 'click');
  },
  'login-user': async (w, u) => {
    const [user, password] = [...u.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    const boxes = (await w.list()).filter((i) => i.role === 'textbox' || i.role === 'password');
    await w.act(boxes[0].index, 'type', user);
    // The password field: Waymark's gate leaves it to the user, by design.
    await w.act(boxes[1].index, 'type', password);
    await w.click('Login', 'button');
  },
};

// ---------------------------------------------------------------------------------------------------

async function main() {
  const episodes = Number(option('episodes', '10'));
  const tasks = option('tasks', Object.keys(SOLVERS).join(',')).split(',');
  const html = miniwobHtml();
  const site = await serveStatic(html);
  const browser = await launch({ env: { WAYMARK_LOG: process.env.WAYMARK_LOG ?? 'warn' } });
  const panel = await openPanel(browser.context);
  await panel.waitForFunction(() => /^Connected/.test(document.getElementById('status').textContent), null, { timeout: 20_000 });
  const client = await connectMcp(browser.stateDir, 'MiniWoB benchmark');
  const waymark = new Waymark(client, panel);

  const rows = [];
  const page = await browser.context.newPage();
  for (const task of tasks) {
    const solve = SOLVERS[task];
    if (!solve) throw new Error(`no solver for ${task}; known: ${Object.keys(SOLVERS).join(', ')}`);
    await page.goto(`${site.url}miniwob/${task}.html`);
    await page.bringToFront();
    const row = { task, ok: 0, failed: 0, handedOver: 0, questions: 0, ms: [] };
    const before = waymark.questions;
    const failures = new Map();
    for (let episode = 0; episode < episodes; episode++) {
      await page.click('#sync-task-cover');
      const utterance = await page.evaluate(() => core.getUtterance());
      const started = performance.now();
      try {
        await solve(waymark, utterance);
      } catch (error) {
        const why = `${error.message}`.split('\n')[0];
        if (/leaves this step to you/.test(why)) row.handedOver++;
        else failures.set(why, (failures.get(why) ?? 0) + 1);
      }
      row.ms.push(performance.now() - started);
      // The episode ends on the page's own reward, or by its timer; end it now if the solver stopped.
      const reward = await page.evaluate(() => {
        if (!WOB_DONE_GLOBAL) core.endEpisode(-1, false, 'solver stopped');
        return WOB_RAW_REWARD_GLOBAL;
      });
      if (reward > 0) row.ok++;
      else row.failed++;
    }
    row.questions = waymark.questions - before;
    for (const [why, n] of failures) log(`${task}: ${n}× ${why}`);
    log(`${task}: ${row.ok}/${episodes}`);
    rows.push(row);
  }
  await client.close();
  await browser.close();
  await site.close();

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const total = rows.reduce((n, r) => n + r.ok, 0);
  const lines = [
    `MiniWoB++ ${MINIWOB_VERSION}, ${episodes} episodes per task, acted through Waymark's numbers only (MCP tools):`,
    '',
    '| task | solved | handed over to the user | gate questions answered yes | median time per episode |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.task} | ${r.ok}/${episodes} | ${r.handedOver} | ${r.questions} | ${Math.round(median(r.ms))} ms |`),
    `| **all** | **${total}/${episodes * rows.length} (${Math.round((100 * total) / (episodes * rows.length))}%)** | ${rows.reduce((n, r) => n + r.handedOver, 0)} | ${rows.reduce((n, r) => n + r.questions, 0)} | |`,
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
