// Every language Waymark speaks, end to end, with the same test: for each catalogue language but
// English (a directory of i18n/locales), Chromium runs with its UI in that language (`--lang=`, with
// Debian's chromium-l10n), and on the Russian shop page the panel connects, helps, lists, acts by
// number, asks and takes the language's own yes and no (input.ftl), hands a step to the user that the
// language's own "done" finishes, stops at the language's own "stop", and the settings page loads. What
// Waymark says there (transcript, status line, alert region, the settings page) holds no Latin word
// the language's catalogue never uses, but the values of the page, the model and the system. Nothing
// here names a language: a new directory is tested as it lands. (language.test.mjs checks Russian
// word for word.)
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  EXTENSION_ID, command, launch, openPanelFor, send, serveStatic, startModel, until, waitForAlert, waitForQuestion,
  waitForStatus,
} from './lib/harness.mjs';
import { alternatives, foreignWords, languages, message, pattern } from './lib/catalogue.mjs';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

let model;
let site;

before(async () => {
  model = await startModel([]);
  site = await serveStatic(FIXTURES);
});

after(async () => {
  await site?.close();
  model?.close();
});

/// The language's own word for a command, one it does not share with English ("да", "ano"), if any.
function own(language, id) {
  const english = new Set(alternatives('en', id));
  const words = alternatives(language, id);
  return words.find((w) => !english.has(w)) ?? words[0];
}

for (const language of languages().filter((l) => l !== 'en')) {
  describe(`Waymark in ${language}`, () => {
    let browser;
    let page;
    let panel;
    let lines = [];
    const number = (name) => lines.find((l) => l.endsWith(`, ${name}`) || l.includes(`, ${name},`))?.split(', ')[0];
    const values = () => [site.url, model.url, '127.0.0.1', 'localhost', 'scripted'];

    /// Everything Waymark has said in the panel so far, and no word of another language in it.
    async function assertNoEnglish(extra = []) {
      const said = await panel.evaluate(() => [
        ...[...document.querySelectorAll('#transcript .msg-waymark')].map((e) => e.textContent),
        ...window.__waymarkStatusLog,
        ...window.__waymarkAlertLog,
      ]);
      const english = said
        .map((s) => [s, foreignWords(s, language, [...values(), ...extra])])
        .filter(([, words]) => words.length > 0);
      assert.deepEqual(english, [], `${language}: English in what Waymark said`);
    }

    before(async () => {
      const env = {
        LANGUAGE: language,
        WAYMARK_LLM_BASE_URL: model.url,
        WAYMARK_LLM_MODEL: 'scripted',
        WAYMARK_LLM_TIMEOUT_SECS: '20',
      };
      browser = await launch({ args: [`--lang=${language}`], env });
      page = await browser.context.newPage();
      await page.goto(`${site.url}shop-ru.html`);
      panel = await openPanelFor(browser.context, page);
    });

    after(async () => {
      await browser?.close();
    });

    test('the panel connects, helps and lists in the browser\'s language', async () => {
      assert.equal((await panel.evaluate(() => chrome.i18n.getUILanguage())).split('-')[0], language);
      await waitForStatus(panel, pattern(language, 'status-connected'));
      assert.equal(await panel.getAttribute('html', 'lang'), language);
      assert.equal(await panel.textContent('label[for="message"]'), message(language, 'page-panel-message'));
      await command(panel, '/ping', pattern(language, 'pong'));
      await command(panel, '/help', /^[^\n]*\/help/);
      await command(panel, '/click', pattern(language, 'usage-click'));
      const first = await command(panel, '/list', /\n1, /);
      const rest = await command(panel, '/more', /, Тёмная тема/);
      await command(panel, '/more', pattern(language, 'list-no-more'));
      lines = `${first}\n${rest}`.split('\n');
      assert.ok(number('Имя') && number('Оплатить 84,97 €') && number('Пароль'), lines.join('\n'));
      await assertNoEnglish();
    });

    test('a question is answered with the language\'s own yes, another with its own no', async () => {
      await command(panel, `/type ${number('Имя')} Иван`, /Имя/);
      assert.equal(await page.inputValue('#name'), 'Иван');

      await send(panel, `/click ${number('Оплатить 84,97 €')}`);
      await waitForQuestion(panel, { matching: /Оплатить 84,97 €/, timeout: 20_000 });
      assert.equal(await panel.textContent('#yes'), message(language, 'page-panel-yes'));
      await command(panel, `/${own(language, 'input-yes')}`, /Оплатить 84,97 €/, 20_000);
      assert.equal(await page.evaluate(() => window.events.paid), 1, 'the yes paid');

      await send(panel, `/click ${number('Удалить аккаунт')}`);
      await waitForQuestion(panel, { matching: /Удалить аккаунт/, timeout: 20_000 });
      await command(panel, `/${own(language, 'input-no')}`, pattern(language, 'question-said-no'), 20_000);
      assert.equal(await page.evaluate(() => window.events.deleted), 0, 'the no deleted nothing');
      await assertNoEnglish(['Оплатить 84,97 €', 'Удалить аккаунт']);
    });

    test('a step handed to the user ends at the language\'s "done", and its "stop" stops the agent', async () => {
      await model.addSteps([
        { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: Number(number('Пароль')), action: 'type', text: 'hunter2' } },
        { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'Вы вошли.' } },
      ]);
      await command(panel, '/chat', pattern(language, 'panel-chat-on'));
      await send(panel, '…');
      await waitForAlert(panel, { timeout: 20_000 });
      assert.equal(await page.inputValue('#pw'), '', 'the agent typed nothing into the password field');
      await command(panel, own(language, 'input-done'), /^Вы вошли\.$/, 20_000);
      await waitForStatus(panel, pattern(language, 'agent-state-idle'));

      const asked = (await model.requests()).length;
      await model.addSteps([
        { kind: 'tool_call', name: 'browser_list_interactives', arguments: {} },
        { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 1, action: 'click' }, delay_ms: 3_000 },
      ]);
      await send(panel, '…');
      await until(async () => (await model.requests()).length >= asked + 2, 'the model asked twice', 15_000);
      await send(panel, own(language, 'input-stop'));
      await waitForAlert(panel, { matching: pattern(language, 'agent-stopped') });
      await waitForStatus(panel, pattern(language, 'agent-state-idle'));
      await command(panel, '/exit', pattern(language, 'panel-chat-off'));
      await assertNoEnglish(['Вы вошли.']);
    });

    test('the settings page speaks the language', async () => {
      const settings = await browser.context.newPage();
      await settings.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
      await waitForStatus(settings, pattern(language, 'settings-loaded'));
      assert.equal(await settings.getAttribute('html', 'lang'), language);
      assert.equal(await settings.title(), message(language, 'page-settings-title'));
      const text = await settings.evaluate(() => document.body.innerText);
      const file = (await settings.textContent('#source')).match(/(\/\S+)\.$/)?.[1];
      const english = text.split('\n')
        .map((l) => [l, foreignWords(l, language, [...values(), file, 'WAYMARK_LLM_MODEL', 'WAYMARK_LLM_BASE_URL'])])
        .filter(([, words]) => words.length > 0);
      assert.deepEqual(english, [], `${language}: English on the settings page`);
      await settings.close();
    });
  });
}
