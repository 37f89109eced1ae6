// Tokens a model is sent by Waymark's agent, counted with a real tokenizer: o200k_base (OpenAI's
// GPT-4o family) from the npm package `gpt-tokenizer`, installed under target/ the first time (never
// kept in this repository). The real host and extension, a scripted model (tools/fake-llm) that
// records every request: per page, a task whose model lists the page once and then ends it, so the
// first request (system text, the user's words, the tool definitions) and one step's growth (the
// model's call and the listing it got back) are read from what the model received. A benchmark that
// prints figures: it fails only when something cannot run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EXTENSION_ID, command, launch, openPanel, serveStatic, startModel, waitForStatus,
} from '../tests/e2e/lib/harness.mjs';
import { cataloguePage, frameHtml, typicalPage } from './pages.mjs';
import { log } from './series.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOKENIZER = 'gpt-tokenizer@3.0.1';

/// The tokenizer's `countTokens`, installed with npm under target/ the first time.
async function tokenizer() {
  const prefix = path.join(here, '..', 'target', 'bench-tokenizer');
  const entry = path.join(prefix, 'node_modules', 'gpt-tokenizer', 'esm', 'encoding', 'o200k_base.js');
  if (!fs.existsSync(entry)) {
    log(`installing ${TOKENIZER} into ${prefix}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, TOKENIZER], { stdio: 'inherit' });
  }
  return (await import(entry)).countTokens;
}

async function main() {
  const count = await tokenizer();
  const tokens = (value) => count(typeof value === 'string' ? value : JSON.stringify(value));
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-bench-tokens-'));
  const site = await serveStatic(siteDir);
  fs.writeFileSync(path.join(siteDir, 'typical.html'), typicalPage({ crossOrigin: site.url }));
  fs.writeFileSync(path.join(siteDir, 'catalogue.html'), cataloguePage());
  fs.writeFileSync(path.join(siteDir, 'frame.html'), frameHtml());
  const rows = [];
  for (const name of ['typical', 'catalogue']) {
    const model = await startModel([
      { kind: 'tool_call', name: 'browser_list_interactives', arguments: {}, content: 'Looking at the page' },
      { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'Done.' } },
    ]);
    const browser = await launch({
      env: { WAYMARK_LLM_BASE_URL: model.url, WAYMARK_LLM_MODEL: 'scripted', WAYMARK_LLM_TIMEOUT_SECS: '20' },
    });
    try {
      const page = await browser.context.newPage();
      await page.goto(`${site.url}${name}.html`, { waitUntil: 'load' });
      const panel = await openPanel(browser.context);
      const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
      await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
      await waitForStatus(panel, /^Connected\.$/);
      log(`${name}: a task of one look`);
      await command(panel, '/chat', /^Chat mode/);
      await command(panel, 'Look at the page and tell me when you are done', /^Done\.$/, 60_000);
      const [first, second] = await model.requests();
      const body = (r) => r.body ?? r;
      const messages = body(first).messages ?? [];
      const system = messages.filter((m) => m.role === 'system');
      const grown = (body(second).messages ?? []).slice(messages.length);
      rows.push({
        name,
        first: tokens({ messages, tools: body(first).tools }),
        tools: tokens(body(first).tools ?? []),
        system: tokens(system),
        toolCount: (body(first).tools ?? []).length,
        step: tokens(grown),
        observation: tokens(grown.filter((m) => m.role === 'tool')),
      });
    } finally {
      await browser.close();
      model.close();
    }
  }
  await site.close();
  fs.rmSync(siteDir, { recursive: true, force: true });
  console.log(`Tokens (o200k_base, ${TOKENIZER}) of what Waymark's agent sends a model:\n`);
  console.log('| page | first request | of it: tool definitions (count) | of it: system text | one step (call + listing) | of it: the listing |');
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.first} | ${r.tools} (${r.toolCount}) | ${r.system} | ${r.step} | ${r.observation} |`);
  }
  console.log(`\nLoad average (1 min) at the end: ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores.`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
