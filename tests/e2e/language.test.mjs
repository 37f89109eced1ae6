// Waymark in the user's language: Chromium started in Russian (`--lang=ru`, with Debian's
// chromium-l10n) makes `chrome.i18n.getUILanguage()` say `ru`, and the panel, the settings page and
// the host speak Russian. The panel's words come from the catalogues in i18n/locales/ru, which the
// extension loads from its package at start.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch, openPanel, replyCount, send, waitForReply } from './lib/harness.mjs';

let browser;
let panel;

before(async () => {
  browser = await launch({ args: ['--lang=ru'], env: { LANGUAGE: 'ru', LANG: 'ru_RU.UTF-8' } });
  panel = await openPanel(browser.context);
});

after(async () => {
  await browser?.close();
});

test('the browser says Russian, and /ping is answered in Russian', async () => {
  assert.equal(await panel.evaluate(() => chrome.i18n.getUILanguage()), 'ru');
  let n = await replyCount(panel);
  await send(panel, '/ping');
  await waitForReply(panel, /^Понг, \d+ мс\.$/, { after: n });
  n = await replyCount(panel);
  await send(panel, '/details');
  await waitForReply(panel, /^Хост Waymark 0\.1\.0, процесс \d+, ответил за \d+ мс\.$/, { after: n });
});
